import {
  createEthereumProvider,
  exportInFrame,
  importInFrame,
  type Session,
  type SessionChange as ClientSessionChange,
  WalletKitError,
  type WalletKitClient,
} from '@walletkit/client';
import type {
  ChainsState,
  Eip1193Provider,
  OAuthProviderName,
  SessionChange,
  SessionInfo,
  SessionState,
  WalletKitClientLike,
  WalletKitConfig,
} from '../client-contract.js';

const infoOf = (s: Session): SessionInfo => ({
  organizationId: s.organizationId,
  userId: s.userId,
  publicKey: s.publicKey,
  expiresAt: s.expiresAt,
  jwt: s.token,
});

/** The client's change in the kit's words (the session as `SessionInfo`). */
function changeOf(change: ClientSessionChange): SessionChange {
  if (change.type === 'expiring') return { type: 'expiring', session: infoOf(change.session), secondsLeft: change.secondsLeft };
  if (!('session' in change)) return { type: change.type };
  return { type: change.type, session: infoOf(change.session) };
}

/**
 * Bind a `@walletkit/client` client to the shape the components call: a session snapshot for
 * `useSyncExternalStore` (`loading` until the first restore settles), positional wallet calls,
 * and OAuth that reads the client id and redirect URL from the `wallet_kit_config` already
 * fetched (synchronously, so the popup still opens inside the click), and external-wallet
 * login (which makes the modal offer the wallet method), the chains as a snapshot for
 * `useSyncExternalStore`, one EIP-1193 provider, created on first use, the session's changes
 * with their reasons, and the account's actions (OAuth linking configured like the login).
 * @example const kit = adaptClient(createWalletKitClient(config));
 */
export function adaptClient(
  kit: WalletKitClient,
  opts: { oauthRedirectUri?: string | undefined; oauthAuthorizeUrls?: Partial<Record<OAuthProviderName, string>> | undefined } = {},
): WalletKitClientLike {
  let state: SessionState = { status: 'loading' };
  let config: WalletKitConfig | undefined;
  const listeners = new Set<() => void>();
  const changeListeners = new Set<(change: SessionChange) => void>();
  const publish = () => {
    const s = kit.session.current();
    state = s ? { status: 'authenticated', session: infoOf(s) } : { status: 'anonymous' };
    for (const l of listeners) l();
  };
  kit.session.subscribe((_session, change) => {
    // An announced end changes nothing yet: no new snapshot (no re-render of every reader).
    if (change?.type !== 'expiring') publish();
    if (change) for (const l of changeListeners) l(changeOf(change));
  });
  /** The provider's client id and the return page, read synchronously (the popup opens in the click). */
  const oauthApp = (provider: OAuthProviderName) => {
    const clientId = config?.oauthClientIds[provider];
    const redirectUri = opts.oauthRedirectUri ?? config?.oauthRedirectUrl;
    const authorizeUrl = opts.oauthAuthorizeUrls?.[provider];
    if (!clientId || !redirectUri) return undefined;
    return { provider, clientId, redirectUri, ...(authorizeUrl ? { authorizeUrl } : {}) };
  };
  const notConfigured = (provider: OAuthProviderName) =>
    Promise.reject(new WalletKitError('ERR_OAUTH_NOT_CONFIGURED', `No ${provider} client id or redirect URL is configured.`));

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
      onChange: (listener) => {
        changeListeners.add(listener);
        return () => changeListeners.delete(listener);
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
        const app = oauthApp(provider);
        return app ? kit.auth.logInWithOAuth(app) : notConfigured(provider);
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
    account: {
      profile: () => kit.account.profile(),
      startContactVerification: (input) => kit.account.startContactVerification(input),
      verifyContact: (input) => kit.account.verifyContact(input),
      unlinkContact: (kind) => kit.account.unlinkContact(kind),
      linkOAuth: (provider) => {
        const app = oauthApp(provider);
        return app ? kit.account.linkOAuth(app) : notConfigured(provider);
      },
      unlinkOAuth: (providerId) => kit.account.unlinkOAuth(providerId),
      removePasskey: (authenticatorId) => kit.account.removePasskey(authenticatorId),
      revokeSession: (apiKeyId) => kit.account.revokeSession(apiKeyId),
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
