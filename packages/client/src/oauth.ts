import { base64urlEncode } from '@walletkit/crypto';
import { sha256HexWeb } from './webcrypto/digest.js';
import { byProvider, oauthProvider, type OAuthProviderId } from '@walletkit/protocol/wire';
import { WalletKitError } from './errors.js';

/**
 * The social providers of the kit: the rows of `@walletkit/protocol`'s provider table. Kind
 * `oidc` (Google, Apple): implicit id_token; kind `oauth2` (X, Discord): code + PKCE.
 */
export type OAuthProvider = OAuthProviderId;

/** Authorization endpoints (the provider table's); override per provider for self-hosted or test issuers. */
export const OAUTH_AUTHORIZE_URLS: Record<OAuthProvider, string> = byProvider((id) => oauthProvider(id).authorizeUrl);

/** Whether the provider answers with an authorization code to exchange server-side (needs PKCE). */
export function usesCodeExchange(provider: OAuthProvider): boolean {
  return oauthProvider(provider).kind === 'oauth2';
}

/** The message the callback page posts to its opener. */
export interface OAuthCallbackMessage {
  type: 'walletkit:oauth';
  state: string;
  idToken?: string;
  code?: string;
  error?: string;
}

/** What a provider returned: an id_token (Google, Apple) or an authorization code (X, Discord). */
export type OAuthResult = { idToken: string; code?: undefined } | { code: string; idToken?: undefined };

/**
 * An RFC 7636 PKCE pair: a 43-character verifier from 32 random bytes, challenge =
 * base64url(SHA-256(verifier)) (method S256).
 *
 * @example
 * ```ts
 * const { codeVerifier, codeChallenge } = await createPkce();
 * ```
 */
export async function createPkce(): Promise<{ codeVerifier: string; codeChallenge: string }> {
  const codeVerifier = base64urlEncode(globalThis.crypto.getRandomValues(new Uint8Array(32)));
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(codeVerifier)));
  return { codeVerifier, codeChallenge: base64urlEncode(digest) };
}

/** A fresh unguessable `state` (128 bits, base64url). @example const state = createOAuthState(); */
export function createOAuthState(): string {
  return base64urlEncode(globalThis.crypto.getRandomValues(new Uint8Array(16)));
}

/**
 * The key-bound OIDC nonce: lowercase hex SHA-256 of the compressed public-key hex of the key
 * the session will use (DESIGN section 2); the server checks it at oauth_login.
 *
 * @example
 * ```ts
 * const nonce = await oauthNonce(key.publicKey);
 * ```
 */
export function oauthNonce(publicKey: string): Promise<string> {
  return sha256HexWeb(publicKey);
}

/**
 * The provider's authorization URL: `response_type=id_token` with the nonce for OIDC providers
 * (Google, Apple; fragment response), `response_type=code` with PKCE S256 for OAuth 2.0 ones
 * (X, Discord).
 *
 * @example
 * ```ts
 * const url = buildAuthorizationUrl({ provider: 'google', clientId, redirectUri, state, nonce });
 * ```
 */
export function buildAuthorizationUrl(params: {
  provider: OAuthProvider;
  clientId: string;
  redirectUri: string;
  state: string;
  nonce: string;
  codeChallenge?: string | undefined;
  authorizeUrl?: string | undefined;
}): string {
  const url = new URL(params.authorizeUrl ?? OAUTH_AUTHORIZE_URLS[params.provider]);
  const q = url.searchParams;
  q.set('client_id', params.clientId);
  q.set('redirect_uri', params.redirectUri);
  q.set('state', params.state);
  q.set('scope', oauthProvider(params.provider).scopes);
  if (!usesCodeExchange(params.provider)) {
    q.set('response_type', 'id_token');
    q.set('response_mode', 'fragment');
    q.set('nonce', params.nonce);
  } else {
    if (!params.codeChallenge) throw new WalletKitError('ERR_INVALID_PARAMETER', `${params.provider} needs a PKCE code challenge`);
    q.set('response_type', 'code');
    q.set('code_challenge', params.codeChallenge);
    q.set('code_challenge_method', 'S256');
  }
  return url.toString();
}

/** The browser surface the popup needs (injectable for tests). */
export interface OAuthWindow {
  open(url: string, target: string, features: string): { closed: boolean; close(): void; location?: { href: string } } | null;
  addEventListener(type: 'message', fn: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', fn: (event: MessageEvent) => void): void;
  location: { origin: string; assign(url: string): void };
  sessionStorage?: Pick<Storage, 'setItem' | 'getItem' | 'removeItem'>;
}

const PENDING_KEY = 'walletkit:oauth:pending';

/**
 * Opens the provider in a popup. Call it synchronously inside the click handler (browsers
 * block popups opened after an `await`). Resolves with the token or code posted back by the
 * callback page; messages from another origin or with another `state` are ignored. When the
 * popup is blocked, it stores `{state}` in sessionStorage, awaits `beforeRedirect` (persist
 * what the return page needs), navigates the page to `url` (redirect fallback) and rejects
 * with `ERR_POPUP_BLOCKED`.
 *
 * @example
 * ```ts
 * button.onclick = () => {
 *   const result = openOAuthPopup(url, { state }); // no await before this line
 *   result.then(({ idToken }) => finishLogin(idToken));
 * };
 * ```
 */
export function openOAuthPopup(
  url: string | Promise<string>,
  opts: {
    state: string;
    callbackOrigin?: string | undefined;
    window?: OAuthWindow | undefined;
    pollMs?: number | undefined;
    /** How long a closed popup's message may still take to arrive (default 1,000 ms). */
    closedGraceMs?: number | undefined;
    beforeRedirect?: (() => Promise<void>) | undefined;
  },
): Promise<OAuthResult> {
  const win = opts.window ?? (globalThis as unknown as { window: OAuthWindow }).window;
  // A URL still being prepared: open a blank popup now (inside the click), point it later.
  const popup = win.open(typeof url === 'string' ? url : 'about:blank', 'walletkit-oauth', 'popup,width=500,height=640');
  if (!popup) {
    win.sessionStorage?.setItem(PENDING_KEY, JSON.stringify({ state: opts.state }));
    return Promise.resolve(url).then(async (target) => {
      await opts.beforeRedirect?.();
      win.location.assign(target);
      throw new WalletKitError('ERR_POPUP_BLOCKED');
    });
  }
  if (typeof url !== 'string') {
    url.then(
      (target) => {
        if (popup.location) popup.location.href = target;
      },
      () => popup.close(),
    );
  }
  const origin = opts.callbackOrigin ?? win.location.origin;
  return new Promise((resolve, reject) => {
    let grace: ReturnType<typeof setTimeout> | undefined;
    // The callback page posts its message and closes itself at once: the poll can see the popup
    // closed before the message is delivered here, so a closed popup is a cancel only once the
    // grace has passed without its message.
    const poll = setInterval(() => {
      if (!popup.closed) return;
      clearInterval(poll);
      grace = setTimeout(() => {
        cleanup();
        reject(new WalletKitError('ERR_POPUP_CLOSED'));
      }, opts.closedGraceMs ?? 1000);
    }, opts.pollMs ?? 500);
    const onMessage = (event: MessageEvent) => {
      const data = event.data as Partial<OAuthCallbackMessage> | null;
      if (event.origin !== origin || data?.type !== 'walletkit:oauth' || data.state !== opts.state) return;
      cleanup();
      popup.close();
      try {
        resolve(resultOf(data));
      } catch (error) {
        reject(error);
      }
    };
    function cleanup() {
      clearInterval(poll);
      clearTimeout(grace);
      win.removeEventListener('message', onMessage);
    }
    win.addEventListener('message', onMessage);
  });
}

/**
 * Reads a provider's reply from the callback URL: `state`, `id_token`, `code` and `error` from
 * the fragment (implicit flow) or, failing that, the query (code flow).
 *
 * @example
 * ```ts
 * parseOAuthCallback('https://app.example/cb?code=c0de&state=s9'); // { type: 'walletkit:oauth', state: 's9', code: 'c0de' }
 * ```
 */
export function parseOAuthCallback(href: string): OAuthCallbackMessage {
  const url = new URL(href);
  const params = new URLSearchParams(url.hash.replace(/^#/, ''));
  for (const [k, v] of url.searchParams) if (!params.has(k)) params.set(k, v);
  const message: OAuthCallbackMessage = { type: 'walletkit:oauth', state: params.get('state') ?? '' };
  const idToken = params.get('id_token');
  const code = params.get('code');
  const error = params.get('error');
  if (idToken) message.idToken = idToken;
  if (code) message.code = code;
  if (error) message.error = error;
  return message;
}

/** The result of a callback message, or its error. @internal */
export function resultOf(data: Partial<OAuthCallbackMessage>): OAuthResult {
  if (data.error) throw new WalletKitError('ERR_OAUTH_PROVIDER_ERROR', `the provider said: ${data.error}`);
  if (data.idToken) return { idToken: data.idToken };
  if (data.code) return { code: data.code };
  throw new WalletKitError('ERR_OAUTH_CALLBACK_INVALID');
}

/**
 * Runs on the callback page (the `redirectUri`). In a popup it posts
 * `{type:'walletkit:oauth', state, idToken|code|error}` to the opener, restricted to this
 * page's own origin, and closes itself; it returns `undefined`. After a redirect (no opener)
 * it checks `state` against the one stored before leaving and returns the result
 * (`ERR_OAUTH_STATE_MISMATCH` otherwise).
 *
 * @example
 * ```ts
 * // callback.html: in the popup, hand the reply to the opener; after a redirect, finish here
 * if (window.opener) handleOAuthCallback();
 * else await kit.auth.completeOAuthRedirect();
 * ```
 */
export function handleOAuthCallback(
  win: {
    location: { href: string; origin: string };
    opener?: { postMessage(m: unknown, origin: string): void } | null;
    close?(): void;
    sessionStorage?: Pick<Storage, 'getItem' | 'removeItem'>;
  } = (globalThis as unknown as { window: never }).window,
): (OAuthResult & { state: string }) | undefined {
  const message = parseOAuthCallback(win.location.href);
  if (win.opener) {
    win.opener.postMessage(message, win.location.origin);
    win.close?.();
    return undefined;
  }
  const pending = win.sessionStorage?.getItem(PENDING_KEY);
  win.sessionStorage?.removeItem(PENDING_KEY);
  const expected = pending ? (JSON.parse(pending) as { state?: string }).state : undefined;
  if (!expected || expected !== message.state) throw new WalletKitError('ERR_OAUTH_STATE_MISMATCH');
  return { ...resultOf(message), state: message.state };
}
