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
export { WalletKitProvider, type WalletKitProviderProps } from './provider/WalletKitProvider';
export { WalletKitClientProvider, type WalletKitClientProviderProps } from './provider/WalletKitClientProvider';
export { adaptClient } from './provider/adapt-client';
export { useWalletKit, type WalletKit } from './provider/useWalletKit';
export { useSession, useWalletKitConfig, useWallets, useKitMutation, useChains } from './provider/hooks';
export { useWalletKitContext, useKitQueryClient, type WalletKitContextValue } from './provider/context';
export { AuthModal, type AuthModalProps } from './auth/AuthModal';
export { OAuthCallback, type OAuthCallbackProps } from './auth/OAuthCallback';
export { DEFAULT_METHOD_ORDER, resolveAuthMethods, type AuthMethod, type AuthMethodOverrides } from './auth/methods';
export { isValidEmail, toE164 } from './auth/validation';
export { useInjectedWallets } from './auth/useInjectedWallets';
export { Modal, type ModalProps } from './components/Modal';
export { ConfirmDialog, type ConfirmDialogProps } from './components/ConfirmDialog';
export { OtpInput, type OtpInputProps } from './components/OtpInput';
export { ConfirmationQueueDialog } from './confirm/ConfirmationQueueDialog';
export { createConfirmationQueue, type ConfirmationQueue } from './confirm/queue';
// The dialog itself and its decoders are at '@walletkit/react/confirm', apart from this entry
// (the provider loads them after its first render).
export { WalletPanel } from './wallet/WalletPanel';
export { SessionCountdown } from './wallet/SessionCountdown';
export { nextEthereumAccount } from './wallet/WalletCard';
export { AccountKeyExport } from './wallet/AccountKeyExport';
export { ImportWalletForm } from './wallet/ImportWalletForm';
export { MNEMONIC_WORD_COUNTS, normalizeMnemonic } from './wallet/mnemonic';
export { errorCodeOf, errorMessage } from './errors';
export { injectWalletKitStyles, walletKitCss } from './theme/styles';
export type { WalletKitTheme } from './theme/theme';
export * from './queries';
export type * from './client-contract';
