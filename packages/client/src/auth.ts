import type { ParamsOf, ProxyRequestOf } from '@walletkit/protocol';
import type { ActivityClient } from './activity-client.js';
import { createTokenClientSignature } from './client-signature.js';
import { WalletKitError } from './errors.js';
import { createOAuthLogin, type OAuthLoginParams } from './oauth-login.js';
import { encryptOtpCode } from './otp.js';
import { createPasskeyRegistration, type PasskeyRegistrationOptions } from './passkey-registration.js';
import type { ProxyClient } from './proxy-client.js';
import type { Session, SessionManager } from './session.js';
import { createPasskeyStamper, type PasskeyStamperOptions } from './stampers/passkey.js';
import { memorySessionKeyStore, type PendingLogin, type RecordStore } from './stampers/key-store.js';
import { createSessionKeyStamper, generateSessionKey, type SessionKey } from './stampers/session-key.js';
import { createWalletStamper, type Eip1193Provider } from './stampers/wallet.js';
import { ethereumAccount } from './wallet.js';

type OtpType = ProxyRequestOf<'otp_init_v2'>['otpType'];

/** A code on its way: what `completeOtp` needs besides the code itself. */
export interface PendingOtp {
  otpId: string;
  otpType: OtpType;
  contact: string;
  otpEncryptionTargetBundle: string;
}

/**
 * Options of a new account: the wallet created at signup (one Ethereum account by default).
 *
 * @example
 * ```ts
 * const opts: SignupOptions = { wallet: { walletName: 'Main', accounts: [ethereumAccount(0)] } };
 * ```
 */
export interface SignupOptions {
  userName?: string | undefined;
  wallet?: ParamsOf<'create_wallet'> | false | undefined;
}

/**
 * Login and signup flows; each ends with a session stored by the session manager.
 *
 * @example
 * ```ts
 * const { otpId } = await kit.auth.startEmailOtp('a@example.com');
 * const session = await kit.auth.completeOtp({ otpId, code: '123456' });
 * ```
 */
export interface AuthFlows {
  startEmailOtp(email: string): Promise<PendingOtp>;
  startSmsOtp(phoneNumber: string): Promise<PendingOtp>;
  /** Verifies the code, then logs in, or signs up (with a wallet) when no account exists. */
  completeOtp(params: { otpId: string; code: string; pending?: PendingOtp | undefined } & SignupOptions): Promise<Session>;
  /** Registers a passkey and creates the account with it (and a wallet). */
  signUpWithPasskey(params: PasskeyRegistrationOptions & SignupOptions & { authenticatorName?: string | undefined }): Promise<Session>;
  /** Logs in with a passkey: stamp_login stamped by it. Without `organizationId` it prompts twice (find the account, then sign). */
  logInWithPasskey(params?: PasskeyStamperOptions & { organizationId?: string | undefined }): Promise<Session>;
  /**
   * Social login. Call synchronously from the click handler: the popup opens before any
   * await. Signs up when no account holds the identity. When the popup is blocked, the pending
   * login (key pair, state, nonce, PKCE verifier) is stored, the page navigates to the
   * provider, and this rejects with `ERR_POPUP_BLOCKED`; {@link AuthFlows.completeOAuthRedirect}
   * finishes on the return page.
   */
  logInWithOAuth(params: OAuthLoginParams): Promise<Session>;
  /**
   * On the page the provider redirected back to (no popup): reads the fragment or query of
   * `url` (default `location.href`), checks `state` against the stored pending login
   * (`ERR_OAUTH_STATE_MISMATCH` otherwise), signs up or logs in, stores the session and clears
   * the pending login.
   *
   * @example
   * ```ts
   * // at /oauth/callback
   * if (window.opener) handleOAuthCallback();
   * else await kit.auth.completeOAuthRedirect();
   * ```
   */
  completeOAuthRedirect(params?: { url?: string | undefined }): Promise<Session>;
  /**
   * External-wallet login (EIP-1193). The wallet signs twice: once to reveal its public key
   * (recovered from the signature), once for stamp_login. Signs up when no account holds the
   * key: the wallet's secp256k1 key becomes the user's API key. A refused signature rejects
   * with `ERR_WALLET_REJECTED` and leaves no session.
   *
   * @example
   * ```ts
   * const [wallet] = await discoverWallets();
   * const session = await kit.auth.connectWallet({ provider: wallet.provider });
   * ```
   */
  connectWallet(params: { provider: Eip1193Provider; address?: string | undefined; apiKeyName?: string | undefined } & SignupOptions): Promise<Session>;
}

/**
 * Creates the {@link AuthFlows}.
 *
 * @example
 * ```ts
 * const auth = createAuthFlows({ proxy, activity, session, enclavePublicKey });
 * ```
 */
export function createAuthFlows(deps: {
  proxy: ProxyClient;
  activity: ActivityClient;
  session: SessionManager;
  enclavePublicKey: string;
  /** Lifetime of the throwaway API key registered at signup (seconds). */
  signupKeySeconds?: number;
  /** Where a login interrupted by the OAuth redirect waits (memory when absent). */
  pendingLogin?: RecordStore<PendingLogin>;
  now?: () => number;
  /** The session lifetime to ask for at stamp_login (the proxy configuration's); server default when absent. */
  sessionSeconds?: () => Promise<string | undefined>;
}): AuthFlows {
  const { proxy, activity, session } = deps;
  /** stamp_login's parameters: the new session key and the configured lifetime. */
  const loginParams = async (publicKey: string) => {
    const expirationSeconds = await deps.sessionSeconds?.();
    return { publicKey, ...(expirationSeconds ? { expirationSeconds } : {}) };
  };
  const pending = new Map<string, PendingOtp>();

  async function startOtp(otpType: OtpType, contact: string): Promise<PendingOtp> {
    const reply = await proxy.otpInit({ otpType, contact });
    const p = { otpId: reply.otpId, otpType, contact, otpEncryptionTargetBundle: reply.otpEncryptionTargetBundle };
    pending.set(p.otpId, p);
    return p;
  }

  const walletOf = (opts: SignupOptions) =>
    opts.wallet === false ? {} : { wallet: opts.wallet ?? { walletName: 'Default wallet', accounts: [ethereumAccount(0)] } };

  /**
   * A signup returns no session, so the account is created with a short-lived API key, which
   * then stamps stamp_login for the real session key (never persisted itself).
   */
  async function signupThenLogin(request: ProxyRequestOf<'signup_v2'>, signupKey: SessionKey): Promise<Session> {
    const apiKey = {
      apiKeyName: `signup ${new Date().toISOString()}`,
      publicKey: signupKey.publicKey,
      curveType: 'API_KEY_CURVE_P256' as const,
      expirationSeconds: String(deps.signupKeySeconds ?? 300),
    };
    const { organizationId } = await proxy.signup({ ...request, apiKeys: [...(request.apiKeys ?? []), apiKey] });
    const sessionKey = await generateSessionKey();
    const { session: token } = await activity.submit('stamp_login', await loginParams(sessionKey.publicKey), {
      stamper: createSessionKeyStamper(signupKey),
      organizationId,
    });
    return session.establish(sessionKey, token);
  }

  async function passkeyLogin(stamperOpts: PasskeyStamperOptions, organizationId: string): Promise<Session> {
    const key = await generateSessionKey();
    const { session: token } = await activity.submit('stamp_login', await loginParams(key.publicKey), {
      stamper: createPasskeyStamper(stamperOpts),
      organizationId,
    });
    return session.establish(key, token);
  }

  const oauth = createOAuthLogin({
    proxy,
    session,
    walletOf,
    now: deps.now ?? Date.now,
    pendingLogin: deps.pendingLogin ?? memorySessionKeyStore().pendingLogin,
  });

  return {
    startEmailOtp: (email) => startOtp('OTP_TYPE_EMAIL', email),
    startSmsOtp: (phone) => startOtp('OTP_TYPE_SMS', phone),

    async completeOtp({ otpId, code, pending: given, ...opts }) {
      const p = given ?? pending.get(otpId);
      if (!p) throw new WalletKitError('ERR_INVALID_PARAMETER', 'unknown otpId: start the OTP in this page or pass `pending`');
      const key = await generateSessionKey();
      const encryptedOtpBundle = await encryptOtpCode({
        bundle: p.otpEncryptionTargetBundle,
        code,
        publicKey: key.publicKey,
        enclavePublicKey: deps.enclavePublicKey,
      });
      const { verificationToken } = await proxy.otpVerify({ otpId, encryptedOtpBundle });
      pending.delete(otpId);
      const filterType = p.otpType === 'OTP_TYPE_EMAIL' ? 'EMAIL' : 'PHONE_NUMBER';
      const { organizationId } = await proxy.account({ filterType, filterValue: p.contact, verificationToken });
      if (organizationId !== undefined) {
        const clientSignature = await createTokenClientSignature({ key, verificationToken, usage: 'USAGE_TYPE_LOGIN' });
        const { session: token } = await proxy.otpLogin({ verificationToken, publicKey: key.publicKey, clientSignature });
        return session.establish(key, token);
      }
      const clientSignature = await createTokenClientSignature({ key, verificationToken, usage: 'USAGE_TYPE_SIGNUP' });
      const contact = p.otpType === 'OTP_TYPE_EMAIL' ? { userEmail: p.contact } : { userPhoneNumber: p.contact };
      return signupThenLogin({ ...contact, ...(opts.userName ? { userName: opts.userName } : {}), verificationToken, clientSignature, ...walletOf(opts) }, key);
    },

    async signUpWithPasskey({ authenticatorName, userName, wallet, ...registration }) {
      const { challenge, attestation } = await createPasskeyRegistration({ ...registration, ...(userName ? { userName } : {}) });
      const signupKey = await generateSessionKey();
      return signupThenLogin(
        {
          userName: userName ?? 'passkey user',
          authenticators: [{ authenticatorName: authenticatorName ?? 'passkey', challenge, attestation }],
          ...walletOf({ wallet }),
        },
        signupKey,
      );
    },

    async logInWithPasskey({ organizationId, ...stamperOpts } = {}) {
      if (organizationId) return passkeyLogin(stamperOpts, organizationId);
      // Which account? One assertion names the credential; the account lookup maps it to its organization.
      const probe = await createPasskeyStamper(stamperOpts).stamp(JSON.stringify({ probe: Date.now() }));
      const credentialId = (JSON.parse(probe.value) as { credentialId: string }).credentialId;
      const found = await proxy.account({ filterType: 'CREDENTIAL_ID', filterValue: credentialId });
      if (found.organizationId === undefined) throw new WalletKitError('ERR_USER_NOT_FOUND', 'no account uses this passkey');
      return passkeyLogin({ ...stamperOpts, allowCredentialIds: [credentialId] }, found.organizationId);
    },

    async connectWallet({ provider, address, apiKeyName, userName, wallet }) {
      const stamper = createWalletStamper({ provider, ...(address !== undefined ? { address } : {}) });
      const publicKey = await stamper.publicKey();
      let { organizationId } = await proxy.account({ filterType: 'PUBLIC_KEY', filterValue: publicKey });
      if (organizationId === undefined) {
        const apiKey = { apiKeyName: apiKeyName ?? 'external wallet', publicKey, curveType: 'API_KEY_CURVE_SECP256K1' as const };
        ({ organizationId } = await proxy.signup({ userName: userName ?? 'wallet user', apiKeys: [apiKey], ...walletOf({ wallet }) }));
      }
      const key = await generateSessionKey();
      const { session: token } = await activity.submit('stamp_login', await loginParams(key.publicKey), { stamper, organizationId });
      return session.establish(key, token);
    },

    logInWithOAuth: oauth.logInWithOAuth,
    completeOAuthRedirect: oauth.completeOAuthRedirect,
  };
}
