import { useQuery, useMutation, type QueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { useRef, useSyncExternalStore } from 'react';
import type { ChainsState, SessionState, WalletKitClientLike } from '../client-contract.js';
import { walletKitConfigQueryOptions, walletsQueryOptions } from '../queries.js';
import { useKitQueryClient, useWalletKitContext } from './context.js';
import { useKitOptions } from './options.js';

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
 * Bind a mutation-options factory of `queries.ts` to the kit's client and QueryClient. Every
 * action of the kit's components runs through here, so a failure also reaches the provider's
 * `onError` (after the factory's own `onError`), once per failed attempt.
 * @example const sign = useKitMutation((c) => signMessageMutationOptions(c));
 */
export function useKitMutation<TData, TVariables, TContext = unknown>(
  factory: (client: WalletKitClientLike, queryClient: QueryClient) => UseMutationOptions<TData, Error, TVariables, TContext>,
) {
  const { client } = useWalletKitContext();
  const queryClient = useKitQueryClient();
  // The latest callback, read when the failure happens (the provider's props may change meanwhile).
  const { onError } = useKitOptions();
  const report = useRef(onError);
  report.current = onError;
  const options = factory(client, queryClient);
  return useMutation(
    {
      ...options,
      onError: (...args) => {
        const own = options.onError?.(...args);
        notify(report.current, args[0]);
        return own;
      },
    },
    queryClient,
  );
}

/** Call the integrator's callback without letting its own failure break the kit (it surfaces on its own). */
export function notify<A extends unknown[]>(callback: ((...args: A) => void) | undefined, ...args: A): void {
  if (!callback) return;
  try {
    callback(...args);
  } catch (error) {
    setTimeout(() => {
      throw error;
    }, 0);
  }
}
