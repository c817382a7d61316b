/**
 * `@walletkit/client`: the framework-free kit. Transport with typed errors, stampers (session
 * key in IndexedDB, passkey, external wallet), the proxy and activity clients, the session
 * manager, and the login, OAuth and wallet flows.
 *
 * @example
 * ```ts
 * import { createWalletKitClient } from '@walletkit/client';
 * const kit = createWalletKitClient({ proxyUrl, apiUrl, configId, organizationId, enclavePublicKey });
 * await kit.session.restore();
 * ```
 * @packageDocumentation
 */
import { createAccountActions, type AccountActions } from './account.js';
import { createActivityClient, type ActivityClient } from './activity-client.js';
import { verifySignupProofs } from './app-proofs.js';
import { createAuthFlows, type AuthFlows } from './auth.js';
import type { ChainConfig, Confirmer } from './confirm.js';
import { createChainRegistry, type ChainRegistry } from './ethereum/chains.js';
import { createProxyClient, type ProxyClient } from './proxy-client.js';
import { SessionManager, type LockManagerLike, type SessionChannel, type Timers } from './session.js';
import { indexedDbSessionKeyStore, type SessionKeyStore } from './stampers/key-store.js';
import { createSessionKeyStamper } from './stampers/session-key.js';
import { defaultFetch, type FetchLike } from './transport.js';
import { createWalletActions, type WalletActions } from './wallet.js';
import type { SecretFrameConfig } from './secret-frames.js';

export { WalletKitError, isWalletKitError, clientErrorTable, type ClientErrorCode, type WalletKitErrorCode } from './errors.js';
export { postJson, type FetchLike } from './transport.js';
export type { Stamp, Stamper } from './stampers/types.js';
export { rawSignatureToDer } from './stampers/der.js';
export { createSessionKeyStamper, generateSessionKey, signWithSessionKey, type SessionKey } from './stampers/session-key.js';
export {
  indexedDbSessionKeyStore,
  memorySessionKeyStore,
  type PendingLogin,
  type RecordStore,
  type SessionKeyStore,
  type StoredSession,
} from './stampers/key-store.js';
export { createPasskeyStamper, type PasskeyStamperOptions } from './stampers/passkey.js';
export { preloadPasskeySupport } from './on-demand.js';
export { createWalletStamper, recoverPersonalSignKey, type Eip1193Provider } from './stampers/wallet.js';
export { discoverWallets, type DiscoveredWallet } from './stampers/eip6963.js';
export { createProxyClient, type ProxyClient } from './proxy-client.js';
export { createActivityClient, type ActivityAuth, type ActivityClient, type ActivityClientOptions } from './activity-client.js';
export { PROOF_OPERATIONS, verifyActivityProofs, verifySignupProofs, type AppProofStatement } from './app-proofs.js';
export { MNEMONIC_WORD_COUNTS, normalizeMnemonic } from './mnemonic.js';
export { exportInFrame, importInFrame, type ExportTarget, type SecretFrameConfig } from './secret-frames.js';
export { encryptOtpCode } from './otp.js';
export { createTokenClientSignature, type TokenUsage } from './client-signature.js';
export {
  SESSION_REFRESH_LOCK,
  SessionManager,
  type LockManagerLike,
  type Session,
  type SessionChange,
  type SessionChannel,
  type SessionListener,
  type SessionManagerOptions,
  type Timers,
} from './session.js';
export { createAuthFlows, type AuthFlows, type PendingOtp, type SignupOptions } from './auth.js';
export {
  canRemove,
  createAccountActions,
  profileOf,
  signInMethodCount,
  type AccountActions,
  type AccountRemoval,
  type LinkedOAuthProvider,
  type OAuthLinkParams,
  type PendingContact,
  type ProfileApiKey,
  type ProfileContact,
  type ProfilePasskey,
  type ProfileSession,
  type ProfileWallet,
  type UserProfile,
} from './account.js';
export {
  OAUTH_AUTHORIZE_URLS,
  buildAuthorizationUrl,
  createOAuthState,
  createPkce,
  handleOAuthCallback,
  oauthNonce,
  openOAuthPopup,
  parseOAuthCallback,
  type OAuthCallbackMessage,
  type OAuthProvider,
  type OAuthResult,
  type OAuthWindow,
} from './oauth.js';
export { PENDING_LOGIN_MAX_AGE_MS, type OAuthLoginParams } from './oauth-login.js';
export { createPasskeyRegistration, type PasskeyRegistrationOptions } from './passkey-registration.js';
export { createWalletActions, ethereumAccount, solanaAccount, type WalletActions } from './wallet.js';
export {
  confirmWith,
  currentOrigin,
  userRejected,
  type ChainConfig,
  type Confirmer,
  type EthereumTransactionFields,
  type SignatureRequest,
  type SignOptions,
} from './confirm.js';
export {
  createEthereumActions,
  isEthereumAddress,
  type AuthorizationSignature,
  type EthereumActions,
  type EthereumTransactionParams,
} from './ethereum/actions.js';
export { createSolanaActions, isSolanaAddress, type SolanaActions } from './solana/actions.js';
export { createChainRegistry, type ChainEvent, type ChainRegistry } from './ethereum/chains.js';
export { createRpcClient, type JsonRpcErrorObject, type RpcClient } from './ethereum/rpc.js';
export { normalizeTransactionRequest, type AuthorizationInput, type EthereumTransactionRequest, type Quantity } from './ethereum/transaction.js';
export { prepareTransaction } from './ethereum/prepare.js';
export {
  createEthereumProvider,
  type EthereumProviderOptions,
  type ProviderEvent,
  type ProviderKit,
  type WalletKitEthereumProvider,
} from './ethereum/provider.js';
export { PROVIDER_ERRORS, ProviderRpcError } from './ethereum/provider-errors.js';
export { announceProvider, walletKitProviderInfo, WALLETKIT_ICON, type Eip6963ProviderInfo } from './ethereum/announce.js';

/**
 * Configuration of {@link createWalletKitClient} (DESIGN section 4).
 *
 * @example
 * ```ts
 * const config: WalletKitConfig = { proxyUrl: 'https://auth.example', apiUrl: 'https://api.example', configId, organizationId, enclavePublicKey };
 * ```
 */
export interface WalletKitConfig {
  /** Base URL of the authentication proxy (`/v1` is appended). */
  proxyUrl: string;
  /** Base URL of the activity API (`/public/v1` is appended). */
  apiUrl: string;
  /** The proxy configuration id (`X-Auth-Proxy-Config-Id`). */
  configId: string;
  /** The integrator's (parent) organization. */
  organizationId: string;
  /** The enclave signing key (uncompressed hex, from `/.well-known/walletkit.json`): bundles and sessions must be signed by it. */
  enclavePublicKey: string;
  fetch?: FetchLike | undefined;
  /** Where the session key and JWT live; IndexedDB by default. */
  storage?: SessionKeyStore | undefined;
  /** Clock and timers for the session (tests). */
  now?: (() => number) | undefined;
  timers?: Timers | undefined;
  /** Cross-tab channel; `null` disables it. */
  channel?: SessionChannel | null | undefined;
  /** Cross-tab refresh lock; `navigator.locks` by default, `null` disables it. */
  locks?: LockManagerLike | null | undefined;
  /** EVM chains the wallet transacts on (RPC endpoint, native currency); a page can add more (`wallet_addEthereumChain`). */
  chains?: ChainConfig[] | undefined;
  /** The chain selected at start; the first of `chains` by default. */
  defaultChainId?: number | undefined;
  /** Asked before every signature (the React kit's dialog, or your own); without one, requests are signed as they come. */
  confirm?: Confirmer | undefined;
  /**
   * Base URL of the secret frames that show exports and take imports (`<apiUrl>/frames` by
   * default): the server's own origin, or the frames origin of your deployment.
   */
  framesUrl?: string | undefined;
}

/**
 * The kit: `proxy` and `activity` clients, the `session`, the `auth` flows, `wallet` actions and
 * the `chains` it transacts on (with the selected one).
 *
 * @example
 * ```ts
 * const kit: WalletKitClient = createWalletKitClient(config);
 * kit.session.subscribe((s) => console.info(s?.userId));
 * ```
 */
export interface WalletKitClient {
  config: WalletKitConfig;
  proxy: ProxyClient;
  activity: ActivityClient;
  session: SessionManager;
  auth: AuthFlows;
  wallet: WalletActions;
  /** The signed-in user's account: profile, linked sign-in methods, passkeys, sessions. */
  account: AccountActions;
  chains: ChainRegistry;
  /** Where the secret frames live (`exportInFrame`, `importInFrame`). */
  frames: SecretFrameConfig;
  /**
   * Install the Confirmer every signature asks from now on (the React kit's dialog installs
   * itself on a client the app built); returns a function restoring the previous one.
   * @example const restore = kit.setConfirmer(myDialog); ... restore();
   */
  setConfirmer(confirmer: Confirmer | undefined): () => void;
}

/**
 * Wires the kit. Session refresh is `stamp_login` for a new key, stamped by the current one.
 *
 * @example
 * ```ts
 * const kit = createWalletKitClient({ proxyUrl, apiUrl, configId, organizationId, enclavePublicKey });
 * const { otpId } = await kit.auth.startEmailOtp('a@example.com');
 * await kit.auth.completeOtp({ otpId, code });
 * const signature = await kit.wallet.signMessage({ address, message: 'hello' });
 * const hash = await kit.wallet.sendTransaction({ address, transaction: { to, value: 10n ** 16n } });
 * ```
 */
export function createWalletKitClient(config: WalletKitConfig): WalletKitClient {
  const fetchFn = config.fetch ?? defaultFetch();
  const rawProxy = createProxyClient({ proxyUrl: config.proxyUrl, configId: config.configId, fetch: fetchFn });
  // Every session the kit asks for lasts what the proxy configuration says, as the proxy's own
  // OTP and OAuth logins do. The latest wallet_kit_config anyone fetched (the auth modal does,
  // before any login) is reused; without one it is fetched, and a failure is not kept.
  let latestConfig: Promise<{ sessionExpirationSeconds: string } | undefined> | undefined;
  const proxy: ProxyClient = {
    ...rawProxy,
    // A signup with a wallet brings the App Proofs of its create_sub_organization: checked before use.
    signup: async (request) => {
      const reply = await rawProxy.signup(request);
      await verifySignupProofs(reply, { enclavePublicKey: config.enclavePublicKey, parentOrganizationId: config.organizationId });
      return reply;
    },
    walletKitConfig: () => {
      const reply = rawProxy.walletKitConfig();
      const kept: typeof latestConfig = reply.catch(() => {
        if (latestConfig === kept) latestConfig = undefined;
        return undefined;
      });
      latestConfig = kept;
      return reply;
    },
  };
  const sessionSeconds = async () => (await (latestConfig ?? proxy.walletKitConfig().catch(() => undefined)))?.sessionExpirationSeconds;
  // The session and the activity client need each other: the session refreshes through an
  // activity, activities default to the session's key.
  const activity = createActivityClient({ apiUrl: config.apiUrl, fetch: fetchFn, auth: () => session.auth(), enclavePublicKey: config.enclavePublicKey });
  const store = config.storage ?? indexedDbSessionKeyStore();
  const session: SessionManager = new SessionManager({
    store,
    enclavePublicKey: config.enclavePublicKey,
    ...(config.now ? { now: config.now } : {}),
    ...(config.timers ? { timers: config.timers } : {}),
    ...(config.channel !== undefined ? { channel: config.channel } : {}),
    ...(config.locks !== undefined ? { locks: config.locks } : {}),
    refresh: async (current, next) => {
      const expirationSeconds = await sessionSeconds();
      const params = { publicKey: next.publicKey, ...(expirationSeconds ? { expirationSeconds } : {}) };
      const { session: token } = await activity.submit('stamp_login', params, {
        stamper: createSessionKeyStamper(current),
        organizationId: current.organizationId,
      });
      return token;
    },
  });
  const auth = createAuthFlows({
    proxy,
    activity,
    session,
    enclavePublicKey: config.enclavePublicKey,
    sessionSeconds,
    ...(store.pendingLogin ? { pendingLogin: store.pendingLogin } : {}),
    ...(config.now ? { now: config.now } : {}),
  });
  const chains = createChainRegistry({
    fetch: fetchFn,
    ...(config.chains ? { chains: config.chains } : {}),
    ...(config.defaultChainId !== undefined ? { defaultChainId: config.defaultChainId } : {}),
  });
  // Read per request: the confirmer may be installed after the client was built.
  let confirmer = config.confirm;
  const wallet = createWalletActions({
    activity,
    enclavePublicKey: config.enclavePublicKey,
    userId: () => session.auth() && session.current()!.userId,
    chains,
    confirm: (request) => (confirmer ? confirmer(request) : Promise.resolve()),
  });
  const setConfirmer = (next: Confirmer | undefined) => {
    const previous = confirmer;
    confirmer = next;
    return () => {
      if (confirmer === next) confirmer = previous;
    };
  };
  const account = createAccountActions({
    proxy,
    activity,
    session: () => session.current(),
    enclavePublicKey: config.enclavePublicKey,
    ...(config.now ? { now: config.now } : {}),
  });
  const frames: SecretFrameConfig = { framesUrl: config.framesUrl ?? `${config.apiUrl.replace(/\/+$/, '')}/frames`, configId: config.configId };
  return { config, proxy, activity, session, auth, wallet, account, chains, frames, setConfirmer };
}
