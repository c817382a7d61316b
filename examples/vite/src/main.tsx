import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { OAuthCallback, WalletKitProvider } from '@walletkit/react';
import { App } from './App.tsx';
import { missingSettings, OAUTH_CALLBACK_PATH, walletKitConfig } from './config.ts';
import './index.css';

const queryClient = new QueryClient();
const root = createRoot(document.getElementById('root')!);

if (missingSettings.length > 0) {
  root.render(
    <main className="page">
      <h1>walletkit + Vite</h1>
      <p role="alert">Set {missingSettings.join(', ')} in .env.local (see .env.example), then restart.</p>
    </main>,
  );
} else {
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <WalletKitProvider config={walletKitConfig} oauthRedirectUri={`${location.origin}${OAUTH_CALLBACK_PATH}`}>
          {location.pathname === OAUTH_CALLBACK_PATH ? <OAuthCallback onComplete={() => location.replace('/')} /> : <App />}
        </WalletKitProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}
