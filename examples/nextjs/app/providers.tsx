'use client';

import { useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { WalletKitProvider } from '@walletkit/react';
import type { WalletKitSettings } from './walletkit-config';

/** The client side of the app's providers: one QueryClient per browser tab, the kit inside it. */
export function Providers({ config, oauthRedirectUri, children }: { config: WalletKitSettings; oauthRedirectUri: string; children: ReactNode }) {
  const [queryClient] = useState(() => new QueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <WalletKitProvider config={config} oauthRedirectUri={oauthRedirectUri}>
        {children}
      </WalletKitProvider>
    </QueryClientProvider>
  );
}
