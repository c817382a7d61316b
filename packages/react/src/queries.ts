import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { SignOptions } from '@walletkit/client';
import { errorCodeOf } from './errors.js';
import type { AccountActionsLike, OAuthProviderName, TransactionParams, UserProfile, WalletAccountParams, WalletKitClientLike } from './client-contract.js';

/**
 * TanStack Query options for every read and write of the kit, one factory each, usable with
 * any QueryClient (`useQuery(walletsQueryOptions(client, orgId))`, `queryClient.fetchQuery(..)`).
 * The logic lives in `@walletkit/client`; these only name keys and bind calls.
 */
export const walletKitKeys = {
  all: ['walletkit'] as const,
  config: () => ['walletkit', 'config'] as const,
  organization: (organizationId: string) => ['walletkit', 'org', organizationId] as const,
  wallets: (organizationId: string) => ['walletkit', 'org', organizationId, 'wallets'] as const,
  privateKeys: (organizationId: string) => ['walletkit', 'org', organizationId, 'privateKeys'] as const,
  accounts: (organizationId: string, walletId: string) => ['walletkit', 'org', organizationId, 'accounts', walletId] as const,
  /** Balances are chain state, not the organization's: keyed by chain, then address (lowercase). */
  balances: (chainId?: number) => (chainId === undefined ? (['walletkit', 'balance'] as const) : (['walletkit', 'balance', chainId] as const)),
  balance: (chainId: number, address: string) => ['walletkit', 'balance', chainId, address.toLowerCase()] as const,
  /** The signed-in user's profile (get_user and the wallets). */
  user: (organizationId: string, userId: string) => ['walletkit', 'org', organizationId, 'user', userId] as const,
};

/** The client's account actions; a client without them fails the call with a clear code. */
function accountOf(client: WalletKitClientLike): AccountActionsLike {
  if (client.account) return client.account;
  throw Object.assign(new Error('This client has no account actions (WalletKitClientLike.account).'), { code: 'ERR_ACCOUNT_UNSUPPORTED' });
}

/** Refetch the profile (and the wallet list) after a change of the account. */
const refetchUser = (queryClient: QueryClient, organizationId: string) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: ['walletkit', 'org', organizationId, 'user'] }),
    queryClient.invalidateQueries({ queryKey: walletKitKeys.wallets(organizationId) }),
  ]);

/**
 * `wallet_kit_config`, fetched once per QueryClient (it changes only when the site owner edits it).
 * @example const { data } = useQuery(walletKitConfigQueryOptions(client)); data?.enabledProviders
 */
export function walletKitConfigQueryOptions(client: WalletKitClientLike) {
  return queryOptions({
    queryKey: walletKitKeys.config(),
    queryFn: () => client.proxy.walletKitConfig(),
    staleTime: Infinity,
    // A refused origin or unknown config will not change on retry; a flaky network might.
    retry: (failures, error) => failures < 2 && ['ERR_NETWORK', 'ERR_UNAVAILABLE'].includes(errorCodeOf(error) ?? ''),
  });
}

/**
 * The signed-in user's wallets.
 * @example useQuery(walletsQueryOptions(client, session.organizationId))
 */
export function walletsQueryOptions(client: WalletKitClientLike, organizationId: string) {
  return queryOptions({ queryKey: walletKitKeys.wallets(organizationId), queryFn: () => client.wallet.listWallets() });
}

/**
 * The accounts (addresses) of one wallet.
 * @example useQuery(accountsQueryOptions(client, organizationId, walletId))
 */
export function accountsQueryOptions(client: WalletKitClientLike, organizationId: string, walletId: string) {
  return queryOptions({ queryKey: walletKitKeys.accounts(organizationId, walletId), queryFn: () => client.wallet.listAccounts(walletId) });
}

/**
 * An account's native balance (wei) on one chain, from the chain's RPC. Kept 15 s (a block or
 * two): the panel refetches on focus and after a send invalidates it.
 * @example const { data: wei } = useQuery(balanceQueryOptions(client, { address, chainId: 31337 }))
 */
export function balanceQueryOptions(client: WalletKitClientLike, params: { address: string; chainId: number }) {
  return queryOptions({
    queryKey: walletKitKeys.balance(params.chainId, params.address),
    queryFn: () => client.wallet.getBalance(params),
    staleTime: 15_000,
  });
}

/** @example useMutation(emailOtpMutationOptions(client)).mutate('ada@example.com') */
export function emailOtpMutationOptions(client: WalletKitClientLike) {
  return mutationOptions({ mutationFn: (email: string) => client.auth.startEmailOtp(email) });
}

/** @example useMutation(smsOtpMutationOptions(client)).mutate('+14155550100') */
export function smsOtpMutationOptions(client: WalletKitClientLike) {
  return mutationOptions({ mutationFn: (phone: string) => client.auth.startSmsOtp(phone) });
}

/** @example useMutation(completeOtpMutationOptions(client)).mutate({ otpId, code: '123456' }) */
export function completeOtpMutationOptions(client: WalletKitClientLike) {
  return mutationOptions({ mutationFn: (input: { otpId: string; code: string }) => client.auth.completeOtp(input) });
}

/** @example useMutation(passkeyMutationOptions(client)).mutate({ mode: 'login' }) */
export function passkeyMutationOptions(client: WalletKitClientLike) {
  return mutationOptions({
    mutationFn: (input: { mode: 'signup' | 'login'; userName?: string }) =>
      input.mode === 'signup' ? client.auth.signUpWithPasskey({ userName: input.userName }) : client.auth.logInWithPasskey(),
  });
}

/**
 * OAuth login. The variable is the promise returned by `client.auth.logInWithOAuth(provider)`,
 * called by the click handler itself: the popup must open synchronously inside the user
 * gesture, and a mutation runs its function a microtask later.
 * @example onClick={() => mutate(client.auth.logInWithOAuth('google'))}
 */
export function oauthLoginMutationOptions() {
  return mutationOptions({ mutationKey: ['walletkit', 'oauth'], mutationFn: (pending: Promise<unknown>) => pending });
}

/** Connect an EIP-6963 wallet; the variable is the call's promise, as for OAuth (wallet prompts want the gesture too). */
export function connectWalletMutationOptions() {
  return mutationOptions({ mutationKey: ['walletkit', 'wallet-login'], mutationFn: (pending: Promise<unknown>) => pending });
}

/** @example useMutation(createWalletMutationOptions(client, queryClient, orgId)).mutate('Savings') */
export function createWalletMutationOptions(client: WalletKitClientLike, queryClient: QueryClient, organizationId: string) {
  return mutationOptions({
    mutationFn: (name: string) => client.wallet.createWallet(name),
    onSuccess: () => refetchUser(queryClient, organizationId),
  });
}

/** @example mutate({ walletId, accounts: [nextEthereumAccount(accounts)] }) */
export function createAccountsMutationOptions(client: WalletKitClientLike, queryClient: QueryClient, organizationId: string) {
  return mutationOptions({
    mutationFn: (input: { walletId: string; accounts: WalletAccountParams[] }) => client.wallet.createAccounts(input.walletId, input.accounts),
    onSuccess: (_r, input) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: walletKitKeys.accounts(organizationId, input.walletId) }),
        refetchUser(queryClient, organizationId),
      ]),
  });
}

/** @example mutate({ address, message: 'hello' }) // -> '0x..' (EIP-191 personal_sign; `confirm: false` skips the dialog) */
export function signMessageMutationOptions(client: WalletKitClientLike) {
  return mutationOptions({
    mutationFn: ({ address, message, ...opts }: { address: string; message: string } & SignOptions) => client.wallet.signMessage(address, message, opts),
  });
}

/** @example mutate({ address, typedData }) // -> '0x..' (EIP-712) */
export function signTypedDataMutationOptions(client: WalletKitClientLike) {
  return mutationOptions({
    mutationFn: ({ address, typedData, ...opts }: { address: string; typedData: unknown } & SignOptions) =>
      client.wallet.signTypedData(address, typedData, opts),
  });
}

/**
 * Sign and broadcast a transaction (after the kit's confirmation), then refetch the balances
 * of its chain.
 * @example mutate({ address, chainId: 31337, transaction: { to, value: 10n ** 16n } }) // -> '0x<tx hash>'
 */
export function sendTransactionMutationOptions(client: WalletKitClientLike, queryClient: QueryClient) {
  return mutationOptions({
    mutationFn: (params: TransactionParams) => client.wallet.sendTransaction(params),
    onSuccess: (_hash, params) => queryClient.invalidateQueries({ queryKey: walletKitKeys.balances(params.chainId) }),
  });
}

/** Sign a transaction without sending it (after the kit's confirmation). @example mutate({ address, transaction }) // -> '0x<signed tx>' */
export function signTransactionMutationOptions(client: WalletKitClientLike) {
  return mutationOptions({ mutationFn: (params: TransactionParams) => client.wallet.signTransaction(params) });
}

/** The mnemonic is decrypted in the browser by the client; never cache it. @example mutate(walletId) // -> 'word1 word2 ..' */
export function exportWalletMutationOptions(client: WalletKitClientLike) {
  return mutationOptions({ mutationFn: (walletId: string) => client.wallet.exportWallet(walletId), gcTime: 0 });
}

/** The account's private key is decrypted in the browser by the client; never cache it. @example mutate(address) // -> hex key */
export function exportAccountMutationOptions(client: WalletKitClientLike) {
  return mutationOptions({ mutationFn: (address: string) => client.wallet.exportAccount(address), gcTime: 0 });
}

/**
 * Import a recovery phrase as a new wallet, then refresh the wallet list. `gcTime: 0` so the
 * phrase (the mutation's variables) is not kept in the mutation cache.
 * @example mutate({ walletName: 'Imported', mnemonic: 'abandon ... about' })
 */
export function importWalletMutationOptions(client: WalletKitClientLike, queryClient: QueryClient, organizationId: string) {
  return mutationOptions({
    mutationFn: (input: { walletName: string; mnemonic: string }) => client.wallet.importWallet(input),
    onSuccess: () => refetchUser(queryClient, organizationId),
    gcTime: 0,
  });
}

/**
 * Register a new passkey (the browser's prompt), then refetch the profile when `organizationId` is given.
 * @example mutate('Laptop')
 */
export function addPasskeyMutationOptions(client: WalletKitClientLike, queryClient?: QueryClient, organizationId?: string) {
  return mutationOptions({
    mutationFn: (name: string) => client.wallet.addPasskey(name),
    onSuccess: () => (queryClient && organizationId !== undefined ? refetchUser(queryClient, organizationId) : undefined),
  });
}

/**
 * The signed-in user's profile: contacts (and whether verified), linked providers, passkeys,
 * sessions, API keys and wallets. Refetched after every change the kit makes to the account.
 * @example useQuery(userQueryOptions(client, session.organizationId, session.userId)).data?.email
 */
export function userQueryOptions(client: WalletKitClientLike, organizationId: string, userId: string) {
  return queryOptions<UserProfile>({ queryKey: walletKitKeys.user(organizationId, userId), queryFn: () => accountOf(client).profile() });
}

/** Send a one-time code to a new email or phone number. @example mutate({ kind: 'email', contact: 'new@example.com' }) // -> { otpId } */
export function startContactVerificationMutationOptions(client: WalletKitClientLike) {
  return mutationOptions({ mutationFn: (input: { kind: 'email' | 'phone'; contact: string }) => accountOf(client).startContactVerification(input) });
}

/** Check the code: the contact is linked (or replaces the current one), verified. @example mutate({ otpId, code: '123456' }) */
export function verifyContactMutationOptions(client: WalletKitClientLike, queryClient: QueryClient, organizationId: string) {
  return mutationOptions({
    mutationFn: (input: { otpId: string; code: string }) => accountOf(client).verifyContact(input),
    onSuccess: () => refetchUser(queryClient, organizationId),
  });
}

/** Remove the email or phone number (refused with ERR_LAST_SIGN_IN_METHOD when it is the last way in). @example mutate('phone') */
export function unlinkContactMutationOptions(client: WalletKitClientLike, queryClient: QueryClient, organizationId: string) {
  return mutationOptions({
    mutationFn: (kind: 'email' | 'phone') => accountOf(client).unlinkContact(kind),
    onSuccess: () => refetchUser(queryClient, organizationId),
  });
}

/**
 * Link a social provider. The variable is the promise of `client.account.linkOAuth(provider)`,
 * called by the click handler itself (the popup must open inside the gesture).
 * @example onClick={() => mutate(client.account!.linkOAuth('google'))}
 */
export function linkOAuthMutationOptions(queryClient: QueryClient, organizationId: string) {
  return mutationOptions({
    mutationKey: ['walletkit', 'link-oauth'],
    mutationFn: (pending: Promise<{ providerId: string }>) => pending,
    onSuccess: () => refetchUser(queryClient, organizationId),
  });
}

/** @example mutate(providerId) */
export function unlinkOAuthMutationOptions(client: WalletKitClientLike, queryClient: QueryClient, organizationId: string) {
  return mutationOptions({
    mutationFn: (providerId: string) => accountOf(client).unlinkOAuth(providerId),
    onSuccess: () => refetchUser(queryClient, organizationId),
  });
}

/** @example mutate(authenticatorId) */
export function removePasskeyMutationOptions(client: WalletKitClientLike, queryClient: QueryClient, organizationId: string) {
  return mutationOptions({
    mutationFn: (authenticatorId: string) => accountOf(client).removePasskey(authenticatorId),
    onSuccess: () => refetchUser(queryClient, organizationId),
  });
}

/** Revoke another session of the account. @example mutate(apiKeyId) */
export function revokeSessionMutationOptions(client: WalletKitClientLike, queryClient: QueryClient, organizationId: string) {
  return mutationOptions({
    mutationFn: (apiKeyId: string) => accountOf(client).revokeSession(apiKeyId),
    onSuccess: () => refetchUser(queryClient, organizationId),
  });
}

/** Start linking `provider` now (inside the click), for {@link linkOAuthMutationOptions}. */
export function linkOAuthNow(client: WalletKitClientLike, provider: OAuthProviderName): Promise<{ providerId: string }> {
  try {
    return accountOf(client).linkOAuth(provider);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Log out and drop every cached read of the kit. @example mutate() */
export function logoutMutationOptions(client: WalletKitClientLike, queryClient: QueryClient) {
  return mutationOptions({
    mutationFn: () => client.session.logout(),
    onSettled: () => {
      queryClient.removeQueries({ queryKey: ['walletkit', 'org'] });
      queryClient.removeQueries({ queryKey: walletKitKeys.balances() });
    },
  });
}
