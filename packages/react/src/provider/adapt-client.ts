import { createEthereumProvider, exportInFrame, importInFrame, type WalletKitClient } from '@walletkit/client';
import type { ChainsState, Eip1193Provider, OAuthProviderName, SessionState, WalletKitClientLike, WalletKitConfig } from '../client-contract.js';

/**
 * Bind a `@walletkit/client` client to the shape the components call: a session snapshot for
 * `useSyncExternalStore` (`loading` until the first restore settles), positional wallet calls,
 * and OAuth that reads the client id and redirect URL from the `wallet_kit_config` already
 * fetched (synchronously, so the popup still opens inside the click), and external-wallet
 * login (which makes the modal offer the wallet method), the chains as a snapshot for
 * `useSyncExternalStore`, and one EIP-1193 provider, created on first use.
 * @example const kit = adaptClient(createWalletKitClient(config));
 */
export function adaptClient(
  kit: WalletKitClient,
  opts: { oauthRedirectUri?: string | undefined; oauthAuthorizeUrls?: Partial<Record<OAuthProviderName, string>> | undefined } = {},
): WalletKitClientLike {
  let state: SessionState = { status: 'loading' };
  let config: WalletKitConfig | undefined;
  const listeners = new Set<() => void>();
  const publish = () => {
    const s = kit.session.current();
    state = s
      ? {
          status: 'authenticated',
          session: { organizationId: s.organizationId, userId: s.userId, publicKey: s.publicKey, expiresAt: s.expiresAt, jwt: s.token },
        }
      : { status: 'anonymous' };
    for (const l of listeners) l();
  };
  kit.session.subscribe(publish);

  const chainsState = (): ChainsState => ({ chains: kit.chains.list(), selectedId: kit.chains.selectedId() });
  let chains = chainsState();
  const chainListeners = new Set<() => void>();
  kit.chains.subscribe(() => {
    chains = chainsState();
    for (const l of chainListeners) l();
  });
  let ethereum: Eip1193Provider | undefined;

  return {
    proxy: {
      walletKitConfig: async () => (config = await kit.proxy.walletKitConfig()),
    },
    session: {
      getState: () => state,
      subscribe: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      restore: () => kit.session.restore().finally(publish),
      logout: () => kit.session.logout(),
      refresh: () => kit.session.refresh(),
    },
    auth: {
      startEmailOtp: (email) => kit.auth.startEmailOtp(email),
      startSmsOtp: (phone) => kit.auth.startSmsOtp(phone),
      completeOtp: (input) => kit.auth.completeOtp(input),
      signUpWithPasskey: (o = {}) => kit.auth.signUpWithPasskey({ rpName: config?.appName, ...o }),
      logInWithPasskey: () => kit.auth.logInWithPasskey(),
      logInWithOAuth: (provider: OAuthProviderName) => {
        const clientId = config?.oauthClientIds[provider];
        const redirectUri = opts.oauthRedirectUri ?? config?.oauthRedirectUrl;
        if (!clientId || !redirectUri)
          return Promise.reject(Object.assign(new Error(`No ${provider} client configured.`), { code: 'ERR_AUTH_METHOD_DISABLED' }));
        const authorizeUrl = opts.oauthAuthorizeUrls?.[provider];
        return kit.auth.logInWithOAuth({ provider, clientId, redirectUri, ...(authorizeUrl ? { authorizeUrl } : {}) });
      },
      connectWallet: (provider) => kit.auth.connectWallet({ provider }),
      completeOAuthRedirect: () => kit.auth.completeOAuthRedirect(),
    },
    wallet: {
      listWallets: () => kit.wallet.listWallets(),
      listAccounts: (walletId) => kit.wallet.listAccounts(walletId),
      createWallet: (walletName) => kit.wallet.createWallet({ walletName }),
      createAccounts: (walletId, accounts) => kit.wallet.createAccounts({ walletId, accounts }),
      signMessage: (address, message, opts) => kit.wallet.signMessage({ address, message, ...opts }),
      signTypedData: (address, typedData, opts) => kit.wallet.signTypedData({ address, typedData: typedData as never, ...opts }),
      signTransaction: (params) => kit.wallet.signTransaction(params),
      sendTransaction: (params) => kit.wallet.sendTransaction(params),
      getBalance: (params) => kit.wallet.getBalance(params),
      exportWallet: (walletId) => kit.wallet.exportWallet({ walletId }),
      exportAccount: (address) => kit.wallet.exportAccount({ address }),
      importWallet: ({ walletName, mnemonic }) => kit.wallet.importWallet({ walletName, mnemonic }),
      exportInFrame: (container, target) => exportInFrame(kit, container, target),
      listPrivateKeys: async () =>
        (await kit.wallet.listPrivateKeys()).map((k) => ({ privateKeyId: k.privateKeyId, privateKeyName: k.privateKeyName, addresses: k.addresses })),
      importInFrame: (container, input) => importInFrame(kit, container, input),
      addPasskey: (authenticatorName) => kit.wallet.addPasskey({ authenticatorName, rpName: config?.appName }),
    },
    chains: {
      getState: () => chains,
      subscribe: (listener) => {
        chainListeners.add(listener);
        return () => chainListeners.delete(listener);
      },
    },
    ethereumProvider: () => (ethereum ??= createEthereumProvider(kit)),
  };
}
