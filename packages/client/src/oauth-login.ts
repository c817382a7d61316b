import type { ParamsOf } from '@walletkit/protocol';
import { oauthProvider } from '@walletkit/protocol/wire';
import { WalletKitError } from './errors.js';
import {
  buildAuthorizationUrl,
  createOAuthState,
  createPkce,
  oauthNonce,
  openOAuthPopup,
  parseOAuthCallback,
  resultOf,
  usesCodeExchange,
  type OAuthProvider,
  type OAuthResult,
  type OAuthWindow,
} from './oauth.js';
import type { ProxyClient } from './proxy-client.js';
import type { Session, SessionManager } from './session.js';
import type { PendingLogin, RecordStore } from './stampers/key-store.js';
import { generateSessionKey, type SessionKey } from './stampers/session-key.js';

/** A pending redirect login older than this is refused (and cleared). */
export const PENDING_LOGIN_MAX_AGE_MS = 10 * 60_000;

/** Parameters of a social login. */
export interface OAuthLoginParams {
  provider: OAuthProvider;
  clientId: string;
  redirectUri: string;
  /** Override the provider's authorization endpoint (self-hosted or test issuers). */
  authorizeUrl?: string | undefined;
  window?: OAuthWindow | undefined;
  userName?: string | undefined;
  wallet?: ParamsOf<'create_wallet'> | false | undefined;
}

interface Deps {
  proxy: ProxyClient;
  session: SessionManager;
  pendingLogin: RecordStore<PendingLogin>;
  now: () => number;
  walletOf: (opts: { wallet?: ParamsOf<'create_wallet'> | false | undefined }) => { wallet?: ParamsOf<'create_wallet'> };
}

/**
 * The OAuth half of the auth flows: the popup login (with the redirect fallback) and the
 * completion on the page the provider returns to after a redirect.
 * @internal
 */
export function createOAuthLogin(deps: Deps) {
  const { proxy, session } = deps;

  /** Turns the provider's reply into a session: code exchange (X, Discord), signup when new, oauth_login. */
  async function finish(
    p: { provider: OAuthProvider; clientId: string; redirectUri: string; nonce: string; codeVerifier?: string; userName?: string; wallet?: unknown },
    key: SessionKey,
    result: OAuthResult,
  ): Promise<Session> {
    let oidcToken = result.idToken;
    if (!oidcToken) {
      if (!p.codeVerifier) throw new WalletKitError('ERR_OAUTH_CALLBACK_INVALID', 'a code arrived without a PKCE verifier');
      const spec = oauthProvider(p.provider);
      if (spec.kind !== 'oauth2') throw new WalletKitError('ERR_OAUTH_CALLBACK_INVALID', `${spec.name} answers with an id token, not a code`);
      ({ oidcToken } = await proxy.oauth2Authenticate({
        provider: spec.oauth2Provider,
        authCode: result.code!,
        redirectUri: p.redirectUri,
        codeVerifier: p.codeVerifier,
        nonce: p.nonce,
        clientId: p.clientId,
      }));
    }
    const { organizationId } = await proxy.account({ filterType: 'OIDC_TOKEN', filterValue: oidcToken });
    if (organizationId === undefined) {
      const wallet = deps.walletOf({ wallet: p.wallet as ParamsOf<'create_wallet'> | false | undefined });
      await proxy.signup({ userName: p.userName ?? 'user', oauthProviders: [{ providerName: p.provider, oidcToken }], ...wallet });
    }
    const { session: token } = await proxy.oauthLogin({ oidcToken, publicKey: key.publicKey });
    return session.establish(key, token);
  }

  function logInWithOAuth({ provider, clientId, redirectUri, authorizeUrl, window, userName, wallet }: OAuthLoginParams): Promise<Session> {
    // A provider without its client id or redirect URL is one the site has not finished setting
    // up: say so before any popup opens (the provider would only show its own error page).
    if (!clientId || !redirectUri) {
      return Promise.reject(new WalletKitError('ERR_OAUTH_NOT_CONFIGURED', `${oauthProvider(provider).name}: no ${clientId ? 'redirect URL' : 'client id'}`));
    }
    // The popup must open in the click's task: open it first on a blank page, then point it at
    // the provider once the key, nonce and PKCE are ready (they need async WebCrypto).
    const state = createOAuthState();
    const ready = (async () => {
      const key = await generateSessionKey();
      const pkce = usesCodeExchange(provider) ? await createPkce() : undefined;
      const nonce = await oauthNonce(key.publicKey);
      const url = buildAuthorizationUrl({
        provider,
        clientId,
        redirectUri,
        state,
        nonce,
        ...(pkce ? { codeChallenge: pkce.codeChallenge } : {}),
        ...(authorizeUrl ? { authorizeUrl } : {}),
      });
      const pending: PendingLogin = {
        keyPair: key.keyPair,
        publicKey: key.publicKey,
        provider,
        state,
        nonce,
        clientId,
        redirectUri,
        createdAt: deps.now(),
        ...(pkce ? { codeVerifier: pkce.codeVerifier } : {}),
        ...(userName !== undefined ? { userName } : {}),
        ...(wallet !== undefined ? { wallet } : {}),
      };
      return { key, url, pending };
    })();
    const popupResult = openOAuthPopup(
      ready.then((r) => r.url),
      { state, ...(window ? { window } : {}), beforeRedirect: async () => deps.pendingLogin.save((await ready).pending) },
    );
    return (async () => {
      const { key, pending } = await ready;
      return finish(pending, key, await popupResult);
    })();
  }

  async function completeOAuthRedirect(params: { url?: string | undefined } = {}): Promise<Session> {
    const href = params.url ?? (globalThis as { location?: { href: string } }).location?.href;
    if (!href) throw new WalletKitError('ERR_INVALID_PARAMETER', 'no callback URL: pass `url`');
    const message = parseOAuthCallback(href);
    const pending = await deps.pendingLogin.load();
    if (!pending || deps.now() - pending.createdAt > PENDING_LOGIN_MAX_AGE_MS) {
      if (pending) await deps.pendingLogin.clear();
      throw new WalletKitError('ERR_OAUTH_STATE_MISMATCH', 'no sign-in is pending in this browser (or it is more than 10 minutes old)');
    }
    // A reply for another attempt (or forged) leaves the pending login for the genuine one.
    if (message.state !== pending.state) throw new WalletKitError('ERR_OAUTH_STATE_MISMATCH');
    // Single use: whatever happens next, this attempt is over.
    await deps.pendingLogin.clear();
    return finish(pending, { keyPair: pending.keyPair, publicKey: pending.publicKey }, resultOf(message));
  }

  return { logInWithOAuth, completeOAuthRedirect };
}
