import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { WalletKitClientLike } from '../client-contract.js';
import { AuthModal, type AuthModalProps } from '../auth/AuthModal.js';
import { ConfirmationQueueDialog } from '../confirm/ConfirmationQueueDialog.js';
import type { ConfirmationQueue } from '../confirm/queue.js';
import { StyleNonceContext, ThemeContext, type WalletKitTheme } from '../theme/theme.js';
import { WalletKitContext } from './context.js';
import { useChains } from './hooks.js';

/** Props of {@link WalletKitClientProvider}. */
export interface WalletKitClientProviderProps {
  /** A client from `createWalletKitClient(config)` (or anything of that shape). */
  client: WalletKitClientLike;
  /**
   * The QueryClient the kit uses. Optional when the app already renders a
   * `<QueryClientProvider>`; the kit never creates one, so with neither it throws.
   */
  queryClient?: QueryClient | undefined;
  /** Light, dark, or follow the system (default). */
  theme?: WalletKitTheme | undefined;
  /**
   * The CSP nonce of the host page, for the one `<style>` the kit injects (a page whose
   * `style-src` allows no inline style). The kit adds no inline script.
   */
  nonce?: string | undefined;
  /** Props of the auth modal that `login()` opens (methods, order), or false to render your own. */
  authModal?: Omit<AuthModalProps, 'open' | 'onClose'> | false | undefined;
  /**
   * The queue whose Confirmer the client was built with (`createWalletKitClient({ confirm:
   * queue.confirm })`): its requests show in the kit's confirmation dialog. `WalletKitProvider`
   * wires this itself.
   */
  confirmations?: ConfirmationQueue | undefined;
  children?: ReactNode | undefined;
}

/** The confirmation dialog, inside the context so it can name the kit's chains. */
function KitConfirmations({ queue }: { queue: ConfirmationQueue }) {
  return <ConfirmationQueueDialog queue={queue} chains={useChains().chains} />;
}

/**
 * The provider over an existing client: restores the session on mount and renders the auth
 * modal that `useWalletKit().login()` opens and, given `confirmations`, the confirmation
 * dialog. `WalletKitProvider` builds the client from a config and renders this.
 * @example
 * <WalletKitClientProvider client={client} queryClient={queryClient}><App /></WalletKitClientProvider>
 */
export function WalletKitClientProvider({
  client,
  queryClient,
  theme = 'system',
  nonce,
  authModal = {},
  confirmations,
  children,
}: WalletKitClientProviderProps) {
  const [authOpen, setAuthOpen] = useState(false);
  const value = useMemo(() => ({ client, queryClient, openAuthModal: () => setAuthOpen(true) }), [client, queryClient]);

  useEffect(() => {
    // A failed restore leaves the session anonymous; the client reports it through its state.
    client.session.restore().catch(() => undefined);
  }, [client]);

  return (
    <StyleNonceContext.Provider value={nonce}>
      <ThemeContext.Provider value={theme}>
        <WalletKitContext.Provider value={value}>
          {children}
          {authModal !== false && <AuthModal {...authModal} open={authOpen} onClose={() => setAuthOpen(false)} />}
          {confirmations && <KitConfirmations queue={confirmations} />}
        </WalletKitContext.Provider>
      </ThemeContext.Provider>
    </StyleNonceContext.Provider>
  );
}
