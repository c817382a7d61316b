import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { WalletKitClientLike } from '../client-contract.js';
import { AuthModal, type AuthModalProps } from '../auth/AuthModal.js';
import { ConfirmationQueueDialog } from '../confirm/ConfirmationQueueDialog.js';
import type { ConfirmationQueue } from '../confirm/queue.js';
import { StyleNonceContext, ThemeContext, type WalletKitTheme } from '../theme/theme.js';
import { I18nProvider } from '../i18n/context.js';
import type { MessageOverrides } from '../i18n/catalog.js';
import { WalletKitContext } from './context.js';
import { type KitOptions, KitOptionsContext } from './options.js';
import { notify, useChains } from './hooks.js';
import { createLoginWaiter, subscribeSessionChanges } from './session-events.js';

/** Props of {@link WalletKitClientProvider}. */
export type WalletKitClientProviderProps = {
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
  /**
   * The kit's language: `en` (default), `de`, `es`, `fr`, `ja`, `ar` (right to left), a BCP 47 tag
   * (`de-AT`), or `auto` (the browser's). Other languages load on demand.
   */
  locale?: string | undefined;
  /** Your wording for any message of the catalog, by key (in the active language). */
  messages?: MessageOverrides | undefined;
  children?: ReactNode | undefined;
} & KitOptions;

/** The confirmation dialog, inside the context so it can name the kit's chains. */
function KitConfirmations({ queue }: { queue: ConfirmationQueue }) {
  return <ConfirmationQueueDialog queue={queue} chains={useChains().chains} />;
}

/**
 * The provider over an existing client: restores the session on mount and renders the auth
 * modal that `useWalletKit().login()` opens (its promise settles with the login made there, or
 * `ERR_LOGIN_CANCELLED` when the modal closes first) and, given `confirmations`, the
 * confirmation dialog. It calls the callbacks: `onAuthenticationSuccess` after a login or
 * sign-up of this page (not a session restored at load), `beforeSessionExpiry` once when the
 * session will end (its refresh failed), `onSessionExpired` when it ended by itself, `onError`
 * when an action of the kit fails. `WalletKitProvider` builds the client from a config and renders this.
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
  locale,
  messages,
  appName,
  logoUrl,
  legal,
  onAuthenticationSuccess,
  beforeSessionExpiry,
  onSessionExpired,
  onError,
  children,
}: WalletKitClientProviderProps) {
  const [authOpen, setAuthOpen] = useState(false);
  const waiter = useMemo(() => createLoginWaiter(), []);
  const openAuthModal = useCallback(() => {
    const state = client.session.getState();
    if (state.status === 'authenticated' && state.session) return Promise.resolve(state.session);
    const session = waiter.wait();
    setAuthOpen(true);
    return session;
  }, [client, waiter]);
  const closeAuthModal = useCallback(() => {
    setAuthOpen(false);
    // After a login the promise is already resolved: this only settles an abandoned modal.
    waiter.cancel();
  }, [waiter]);
  const value = useMemo(() => ({ client, queryClient, openAuthModal }), [client, queryClient, openAuthModal]);
  const options = useMemo<KitOptions>(
    () => ({ appName, logoUrl, legal, onAuthenticationSuccess, beforeSessionExpiry, onSessionExpired, onError }),
    [appName, logoUrl, legal, onAuthenticationSuccess, beforeSessionExpiry, onSessionExpired, onError],
  );
  // Read when an event comes, so new callback props need no new subscription.
  const callbacks = useRef(options);
  callbacks.current = options;

  // Before the restore below, so that a session restored at load is heard as one (no success callback).
  useEffect(
    () =>
      subscribeSessionChanges(client, (change) => {
        const on = callbacks.current;
        if (change.type === 'login' || change.type === 'restore' || change.type === 'sync') waiter.loggedIn(change.session);
        if (change.type === 'login') notify(on.onAuthenticationSuccess, change.session);
        else if (change.type === 'expiring') notify(on.beforeSessionExpiry, change.session, change.secondsLeft);
        else if (change.type === 'expired') notify(on.onSessionExpired);
      }),
    [client, waiter],
  );
  // Nobody is left to finish a login: a pending login() is cancelled.
  useEffect(() => () => waiter.cancel(), [waiter]);

  useEffect(() => {
    // A failed restore leaves the session anonymous; the client reports it through its state.
    client.session.restore().catch(() => undefined);
  }, [client]);

  return (
    <StyleNonceContext.Provider value={nonce}>
      <ThemeContext.Provider value={theme}>
        <I18nProvider locale={locale} messages={messages}>
          <KitOptionsContext.Provider value={options}>
            <WalletKitContext.Provider value={value}>
              {children}
              {authModal !== false && <AuthModal {...authModal} open={authOpen} onClose={closeAuthModal} />}
              {confirmations && <KitConfirmations queue={confirmations} />}
            </WalletKitContext.Provider>
          </KitOptionsContext.Provider>
        </I18nProvider>
      </ThemeContext.Provider>
    </StyleNonceContext.Provider>
  );
}
