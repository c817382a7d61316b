import type { QueryResponseOf } from '@walletkit/protocol';
import type { AccountDeps, AccountFlows } from './account-flows.js';
import { WalletKitError } from './errors.js';
import {
  buildAuthorizationUrl,
  createOAuthState,
  createPkce,
  oauthNonce,
  openOAuthPopup,
  usesCodeExchange,
  type OAuthProvider,
  type OAuthWindow,
} from './oauth.js';
import type { Session } from './session.js';

type UserRecord = QueryResponseOf<'get_user'>['user'];

/** The user's email or phone number, and whether a one-time code proved it (only then can it sign in). */
export interface ProfileContact {
  value: string;
  verified: boolean;
}

/** A sign-in identity linked from a social provider. */
export interface LinkedOAuthProvider {
  providerId: string;
  /** `google`, `apple`, `x`, `discord` (the name it was linked under). */
  providerName: string;
  issuer: string;
  subject: string;
  createdAt: string;
}

/** A passkey of the user. */
export interface ProfilePasskey {
  authenticatorId: string;
  name: string;
  credentialId: string;
  createdAt: string;
}

/** A session of the user (a key registered by a login), in this browser or another. */
export interface ProfileSession {
  apiKeyId: string;
  name: string;
  createdAt: string;
  /** Milliseconds since the epoch. */
  expiresAt: number | undefined;
  /** The session this client holds. */
  current: boolean;
}

/** An API key that is not a session: an external wallet's key, or one an integrator registered. */
export interface ProfileApiKey {
  apiKeyId: string;
  name: string;
  curve: 'p256' | 'secp256k1' | 'ed25519';
  publicKey: string;
  createdAt: string;
  /** Milliseconds since the epoch; absent for a key that does not expire (a way to sign in). */
  expiresAt: number | undefined;
}

/** An embedded wallet of the user with its accounts. */
export interface ProfileWallet {
  walletId: string;
  walletName: string;
  accounts: Array<{ address: string; addressFormat: string; path: string }>;
}

/**
 * Everything the user's account holds: `get_user` (contacts, linked providers, passkeys, API
 * keys and sessions) and `list_wallets` with their accounts.
 */
export interface UserProfile {
  userId: string;
  organizationId: string;
  userName: string;
  email: ProfileContact | undefined;
  phone: ProfileContact | undefined;
  oauthProviders: LinkedOAuthProvider[];
  passkeys: ProfilePasskey[];
  /** Live sessions, newest first. */
  sessions: ProfileSession[];
  apiKeys: ProfileApiKey[];
  wallets: ProfileWallet[];
}

/** What can be removed from an account; each is a way to sign in unless it says otherwise. */
export type AccountRemoval =
  | { kind: 'email' }
  | { kind: 'phone' }
  | { kind: 'oauth'; providerId: string }
  | { kind: 'passkey'; authenticatorId: string }
  | { kind: 'apiKey'; apiKeyId: string };

/** A one-time code on its way to a new email or phone number. */
export interface PendingContact {
  otpId: string;
  kind: 'email' | 'phone';
  contact: string;
  otpEncryptionTargetBundle: string;
}

/** Parameters of {@link AccountActions.linkOAuth}: the provider's app and where it returns, as for a login. */
export interface OAuthLinkParams {
  provider: OAuthProvider;
  clientId: string;
  redirectUri: string;
  authorizeUrl?: string | undefined;
  window?: OAuthWindow | undefined;
}

/**
 * Managing the signed-in user's account, every request stamped by the session: the profile,
 * linking and unlinking an email, a phone number or a social provider, removing a passkey and
 * revoking another session. A removal that would leave no way to sign in is refused with
 * `ERR_LAST_SIGN_IN_METHOD` before anything is sent (the server refuses it too).
 *
 * @example
 * ```ts
 * const pending = await kit.account.startContactVerification({ kind: 'phone', contact: '+14155550100' });
 * await kit.account.verifyContact({ otpId: pending.otpId, code: '123456' });
 * (await kit.account.profile()).phone; // { value: '+14155550100', verified: true }
 * ```
 */
export interface AccountActions {
  /** The user's profile and wallets. Throws `ERR_NO_SESSION` while logged out. */
  profile(): Promise<UserProfile>;
  /** Send a one-time code to a new email or phone number (to link it, or to change to it). */
  startContactVerification(input: { kind: 'email' | 'phone'; contact: string }): Promise<PendingContact>;
  /**
   * Check the code and store the contact as verified, replacing the current one of its kind:
   * the code is verified for the session's key (the proxy's `otp_verify_v2`), then
   * `update_user_email` / `update_user_phone_number` carries the verification token.
   */
  verifyContact(input: { otpId: string; code: string; pending?: PendingContact | undefined }): Promise<void>;
  /** Remove the email or phone number (refused when it is the last way to sign in). */
  unlinkContact(kind: 'email' | 'phone'): Promise<void>;
  /**
   * Link a social provider: its sign-in popup (call synchronously from the click: the popup
   * opens before any await), then `create_oauth_providers` with the OIDC token, whose nonce binds
   * it to the session's key. Not a login: the session stays. A blocked popup rejects with
   * `ERR_POPUP_BLOCKED` (no redirect: the page is not left).
   */
  linkOAuth(params: OAuthLinkParams): Promise<{ providerId: string }>;
  unlinkOAuth(providerId: string): Promise<void>;
  removePasskey(authenticatorId: string): Promise<void>;
  /** Revoke a session of this account (another device's); revoking this one is logging out. */
  revokeSession(apiKeyId: string): Promise<void>;
}

const KEY_CURVE_OF_CREDENTIAL: Record<string, ProfileApiKey['curve']> = {
  CREDENTIAL_TYPE_API_KEY_P256: 'p256',
  CREDENTIAL_TYPE_API_KEY_SECP256K1: 'secp256k1',
  CREDENTIAL_TYPE_API_KEY_ED25519: 'ed25519',
};

const expiryOf = (k: UserRecord['apiKeys'][number]) =>
  k.expirationSeconds === undefined ? undefined : Date.parse(k.createdAt) + Number(k.expirationSeconds) * 1000;

/**
 * The profile of a `get_user` record (and the wallets), from the point of view of `session`:
 * expired sessions are left out, the session's own key is marked `current`.
 * @example const profile = profileOf(user, wallets, session, Date.now());
 */
export function profileOf(user: UserRecord, wallets: ProfileWallet[], session: Pick<Session, 'organizationId' | 'publicKey'>, now: number): UserProfile {
  const sessions: ProfileSession[] = [];
  const apiKeys: ProfileApiKey[] = [];
  for (const k of user.apiKeys) {
    const expiresAt = expiryOf(k);
    if (k.credential.type === 'CREDENTIAL_TYPE_LOGIN') {
      if (expiresAt !== undefined && expiresAt <= now) continue;
      sessions.push({ apiKeyId: k.apiKeyId, name: k.apiKeyName, createdAt: k.createdAt, expiresAt, current: k.credential.publicKey === session.publicKey });
    } else {
      const curve = KEY_CURVE_OF_CREDENTIAL[k.credential.type];
      if (curve) apiKeys.push({ apiKeyId: k.apiKeyId, name: k.apiKeyName, curve, publicKey: k.credential.publicKey, createdAt: k.createdAt, expiresAt });
    }
  }
  sessions.sort((a, b) => (a.current ? -1 : b.current ? 1 : Date.parse(b.createdAt) - Date.parse(a.createdAt)));
  return {
    userId: user.userId,
    organizationId: session.organizationId,
    userName: user.userName,
    email: user.userEmail === undefined ? undefined : { value: user.userEmail, verified: user.userEmailVerified === true },
    phone: user.userPhoneNumber === undefined ? undefined : { value: user.userPhoneNumber, verified: user.userPhoneNumberVerified === true },
    oauthProviders: user.oauthProviders.map((p) => ({
      providerId: p.providerId,
      providerName: p.providerName,
      issuer: p.issuer,
      subject: p.subject,
      createdAt: p.createdAt,
    })),
    passkeys: user.authenticators.map((a) => ({
      authenticatorId: a.authenticatorId,
      name: a.authenticatorName,
      credentialId: a.credentialId,
      createdAt: a.createdAt,
    })),
    sessions,
    apiKeys,
    wallets,
  };
}

/**
 * How many ways the profile has to sign in, by the server's rule: a verified email, a verified
 * phone number, each linked provider, each passkey, each API key that does not expire.
 * @example signInMethodCount(profile) // 2
 */
export function signInMethodCount(profile: UserProfile): number {
  return (
    (profile.email?.verified ? 1 : 0) +
    (profile.phone?.verified ? 1 : 0) +
    profile.oauthProviders.length +
    profile.passkeys.length +
    profile.apiKeys.filter((k) => k.expiresAt === undefined).length
  );
}

/**
 * Whether removing `what` keeps at least one way to sign in.
 * @example canRemove(profile, { kind: 'passkey', authenticatorId }) // false for the only passkey of a passkey-only account
 */
export function canRemove(profile: UserProfile, what: AccountRemoval): boolean {
  const after: UserProfile = {
    ...profile,
    email: what.kind === 'email' ? undefined : profile.email,
    phone: what.kind === 'phone' ? undefined : profile.phone,
    oauthProviders: what.kind === 'oauth' ? profile.oauthProviders.filter((p) => p.providerId !== what.providerId) : profile.oauthProviders,
    passkeys: what.kind === 'passkey' ? profile.passkeys.filter((p) => p.authenticatorId !== what.authenticatorId) : profile.passkeys,
    apiKeys: what.kind === 'apiKey' ? profile.apiKeys.filter((k) => k.apiKeyId !== what.apiKeyId) : profile.apiKeys,
  };
  return signInMethodCount(after) > 0;
}

/** The session, or ERR_NO_SESSION. @internal */
export function currentSession(deps: Pick<AccountDeps, 'session'>): Session {
  const s = deps.session();
  if (!s) throw new WalletKitError('ERR_NO_SESSION');
  return s;
}

/**
 * Creates the {@link AccountActions}. Their work loads on first use (its own chunk); only the
 * start of a social link is here, so its popup opens inside the click.
 * @example const account = createAccountActions({ proxy, activity, session: () => kit.session.current(), enclavePublicKey });
 */
export function createAccountActions(deps: AccountDeps): AccountActions {
  let flows: Promise<AccountFlows> | undefined;
  const load = (): Promise<AccountFlows> => {
    // A chunk that failed to download is fetched again next time.
    flows ??= import('./account-flows.js').then(
      (m) => m.createAccountFlows(deps),
      (error: unknown) => {
        flows = undefined;
        throw error;
      },
    );
    return flows;
  };
  return {
    profile: async () => (await load()).profile(),
    startContactVerification: async (input) => (await load()).startContactVerification(input),
    verifyContact: async (input) => (await load()).verifyContact(input),
    unlinkContact: async (kind) => (await load()).unlinkContact(kind),
    unlinkOAuth: async (providerId) => (await load()).unlinkOAuth(providerId),
    removePasskey: async (authenticatorId) => (await load()).removePasskey(authenticatorId),
    revokeSession: async (apiKeyId) => (await load()).revokeSession(apiKeyId),

    linkOAuth(params) {
      let session: Session;
      try {
        session = currentSession(deps);
      } catch (error) {
        return Promise.reject(error);
      }
      // The popup opens now, inside the click; its URL follows once PKCE is ready. The nonce
      // binds the provider's token to the session's key.
      const state = createOAuthState();
      const ready = (async () => {
        const nonce = await oauthNonce(session.publicKey);
        const pkce = usesCodeExchange(params.provider) ? await createPkce() : undefined;
        const url = buildAuthorizationUrl({
          provider: params.provider,
          clientId: params.clientId,
          redirectUri: params.redirectUri,
          state,
          nonce,
          ...(pkce ? { codeChallenge: pkce.codeChallenge } : {}),
          ...(params.authorizeUrl ? { authorizeUrl: params.authorizeUrl } : {}),
        });
        return { url, nonce, codeVerifier: pkce?.codeVerifier };
      })();
      const reply = openOAuthPopup(
        ready.then((r) => r.url),
        { state, window: noRedirect(params.window) },
      );
      return (async () => {
        const [{ nonce, codeVerifier }, result, flows] = [await ready, await reply, await load()];
        return flows.finishLink({ params, session, nonce, codeVerifier, reply: result });
      })();
    },
  };
}
/**
 * The page's window for a link popup, without the redirect fallback: a blocked popup must not
 * navigate away from a signed-in page (and there is no pending login to finish on return).
 */
function noRedirect(given: OAuthWindow | undefined): OAuthWindow | undefined {
  const win = given ?? (globalThis as unknown as { window?: OAuthWindow }).window;
  if (!win) return undefined;
  return {
    open: (url, target, features) => win.open(url, target, features),
    addEventListener: (type, fn) => win.addEventListener(type, fn),
    removeEventListener: (type, fn) => win.removeEventListener(type, fn),
    location: { origin: win.location.origin, assign: () => undefined },
  };
}
