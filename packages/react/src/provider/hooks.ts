import { useQuery, useMutation, type QueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { ChainsState, SessionState, WalletKitClientLike } from '../client-contract.js';
import { walletKitConfigQueryOptions, walletsQueryOptions } from '../queries.js';
import { useKitQueryClient, useWalletKitContext } from './context.js';

/**
 * The client's session state, re-rendered on every change (login, refresh, expiry, logout,
 * another tab).
 * @example const { status, session } = useSession();
 */
export function useSession(): SessionState {
  const { client } = useWalletKitContext();
  return useSyncExternalStore(client.session.subscribe, client.session.getState, client.session.getState);
}

/**
 * The kit's chains and the selected one, re-rendered when a page adds or switches a chain.
 * @example const { chains, selectedId } = useChains();
 */
export function useChains(): ChainsState {
  const { client } = useWalletKitContext();
  return useSyncExternalStore(client.chains.subscribe, client.chains.getState, client.chains.getState);
}

/**
 * `wallet_kit_config`, fetched once.
 * @example const { data: config } = useWalletKitConfig();
 */
export function useWalletKitConfig() {
  const { client } = useWalletKitContext();
  return useQuery(walletKitConfigQueryOptions(client), useKitQueryClient());
}

/**
 * The signed-in user's wallets (idle while anonymous).
 * @example const { data: wallets = [] } = useWallets();
 */
export function useWallets() {
  const { client } = useWalletKitContext();
  const orgId = useSession().session?.organizationId;
  return useQuery({ ...walletsQueryOptions(client, orgId ?? ''), enabled: orgId !== undefined }, useKitQueryClient());
}

/**
 * Bind a mutation-options factory of `queries.ts` to the kit's client and QueryClient.
 * @example const sign = useKitMutation((c) => signMessageMutationOptions(c));
 */
export function useKitMutation<TData, TVariables, TContext = unknown>(
  factory: (client: WalletKitClientLike, queryClient: QueryClient) => UseMutationOptions<TData, Error, TVariables, TContext>,
) {
  const { client } = useWalletKitContext();
  const queryClient = useKitQueryClient();
  return useMutation(factory(client, queryClient), queryClient);
}
