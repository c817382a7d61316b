import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { WalletKitClientLike } from '../client-contract';
import { AuthModal, type AuthModalProps } from '../auth/AuthModal';
import { ThemeContext, type WalletKitTheme } from '../theme/theme';
import { WalletKitContext } from './context';

/** Props of {@link WalletKitClientProvider}. */
export interface WalletKitClientProviderProps {
  /** A client from `createWalletKitClient(config)` (or anything of that shape). */
  client: WalletKitClientLike;
  /**
   * The QueryClient the kit uses. Optional when the app already renders a
   * `<QueryClientProvider>`; the kit never creates one, so with neither it throws.
   */
  queryClient?: QueryClient;
  /** Light, dark, or follow the system (default). */
  theme?: WalletKitTheme;
  /** Props of the auth modal that `login()` opens (methods, order), or false to render your own. */
  authModal?: Omit<AuthModalProps, 'open' | 'onClose'> | false;
  children?: ReactNode;
}

/**
 * The provider over an existing client: restores the session on mount and renders the auth
 * modal that `useWalletKit().login()` opens. `WalletKitProvider` builds the client from a
 * config and renders this.
 * @example
 * <WalletKitClientProvider client={client} queryClient={queryClient}><App /></WalletKitClientProvider>
 */
export function WalletKitClientProvider({ client, queryClient, theme = 'system', authModal = {}, children }: WalletKitClientProviderProps) {
  const [authOpen, setAuthOpen] = useState(false);
  const value = useMemo(() => ({ client, queryClient, openAuthModal: () => setAuthOpen(true) }), [client, queryClient]);

  useEffect(() => {
    // A failed restore leaves the session anonymous; the client reports it through its state.
    client.session.restore().catch(() => undefined);
  }, [client]);

  return (
    <ThemeContext.Provider value={theme}>
      <WalletKitContext.Provider value={value}>
        {children}
        {authModal !== false && <AuthModal {...authModal} open={authOpen} onClose={() => setAuthOpen(false)} />}
      </WalletKitContext.Provider>
    </ThemeContext.Provider>
  );
}
