'use client';

/**
 * `@walletkit/react`: drop-in, accessible components and hooks over `@walletkit/client`.
 * `react`, `react-dom` and `@tanstack/react-query` are peers; the kit never creates a
 * QueryClient (render it inside your `<QueryClientProvider>` or pass `queryClient`).
 *
 * @example
 * ```tsx
 * <WalletKitProvider config={config} queryClient={queryClient}>
 *   <App />  // const { status, login } = useWalletKit(); ... <WalletPanel />
 * </WalletKitProvider>
 * ```
 * @packageDocumentation
 */
export { WalletKitProvider, type WalletKitProviderProps } from './provider/WalletKitProvider.js';
export { WalletKitClientProvider, type WalletKitClientProviderProps } from './provider/WalletKitClientProvider.js';
export { adaptClient } from './provider/adapt-client.js';
export { useWalletKit, type WalletKit } from './provider/useWalletKit.js';
export { useSession, useWalletKitConfig, useWallets, useKitMutation, useChains } from './provider/hooks.js';
export { useWalletKitContext, useKitQueryClient, type WalletKitContextValue } from './provider/context.js';
export { AuthModal, type AuthModalProps } from './auth/AuthModal.js';
export { OAuthCallback, type OAuthCallbackProps } from './auth/OAuthCallback.js';
export { DEFAULT_METHOD_ORDER, resolveAuthMethods, type AuthMethod, type AuthMethodOverrides } from './auth/methods.js';
export { isValidEmail, toE164 } from './auth/validation.js';
export { useInjectedWallets } from './auth/useInjectedWallets.js';
export { Modal, type ModalProps } from './components/Modal.js';
export { ConfirmDialog, type ConfirmDialogProps } from './components/ConfirmDialog.js';
export { OtpInput, type OtpInputProps } from './components/OtpInput.js';
export { ConfirmationQueueDialog } from './confirm/ConfirmationQueueDialog.js';
export { createConfirmationQueue, type ConfirmationQueue } from './confirm/queue.js';
// The dialog itself and its decoders are at '@walletkit/react/confirm', apart from this entry
// (the provider loads them after its first render).
export { WalletPanel } from './wallet/WalletPanel.js';
export { SessionCountdown } from './wallet/SessionCountdown.js';
export { nextEthereumAccount } from './wallet/next-account.js';
export { AccountKeyExport, ImportWalletForm } from './wallet/lazy-public.js';
export { MNEMONIC_WORD_COUNTS, normalizeMnemonic } from './wallet/mnemonic.js';
export { errorCodeOf, errorMessage } from './errors.js';
export { injectWalletKitStyles, walletKitCss } from './theme/styles.js';
export type { WalletKitTheme } from './theme/theme.js';
export * from './queries.js';
export { useI18n, I18nProvider, type I18nProviderProps } from './i18n/context.js';
export {
  LOCALES,
  RTL_LOCALES,
  resolveLocale,
  type Locale,
  type MessageKey,
  type MessageOverrides,
  type Messages,
  type Translator,
} from './i18n/catalog.js';
export { useKitOptions, type KitCallbacks, type KitOptions, type LegalLinks } from './provider/options.js';
export * from './auth/public.js';
export * from './wallet/public.js';
export * from './account/public.js';
export type * from './client-contract.js';
