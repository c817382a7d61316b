import { createContext, useContext } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { SessionInfo, WalletKitClientLike } from '../client-contract.js';

/** What {@link WalletKitProvider} shares with the kit's components and hooks. */
export interface WalletKitContextValue {
  client: WalletKitClientLike;
  /** The QueryClient passed to the provider, if any; otherwise the app's from context. */
  queryClient: QueryClient | undefined;
  /**
   * Open the provider's auth modal: resolves with the session of the login or sign-up made in
   * it (at once when already signed in), rejects with `ERR_LOGIN_CANCELLED` when it closes first.
   */
  openAuthModal: () => Promise<SessionInfo>;
}

export const WalletKitContext = createContext<WalletKitContextValue | null>(null);

/**
 * The provider's context; throws ERR_PROVIDER_MISSING outside a `<WalletKitProvider>`.
 * @example const { client } = useWalletKitContext();
 */
export function useWalletKitContext(): WalletKitContextValue {
  const value = useContext(WalletKitContext);
  if (!value) throw Object.assign(new Error('Wrap the app in <WalletKitProvider>.'), { code: 'ERR_PROVIDER_MISSING' });
  return value;
}

/**
 * The QueryClient the kit uses: the one given to the provider, else the app's
 * `<QueryClientProvider>`. The kit never creates one; without either it throws.
 * @example const queryClient = useKitQueryClient();
 */
export function useKitQueryClient(): QueryClient {
  return useQueryClient(useWalletKitContext().queryClient);
}
