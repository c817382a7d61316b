// @vitest-environment happy-dom
/**
 * OAuth helpers in a browser-like window: PKCE S256, state, the key-bound nonce, the
 * authorization URLs, the popup that accepts only its callback's origin and state, the
 * redirect fallback when the popup is blocked, and the callback page posting to its opener.
 */
import { describe, expect, it, vi } from 'vitest';
import { base64urlEncode, sha256, sha256Hex, utf8ToBytes } from '@walletkit/crypto';
import {
  buildAuthorizationUrl,
  createOAuthState,
  createPkce,
  generateSessionKey,
  handleOAuthCallback,
  isWalletKitError,
  oauthNonce,
  openOAuthPopup,
  type OAuthWindow,
} from '../src/index';

const APP = window.location.origin;

/** The page's window with `open` replaced: returns a fake popup, or null when "blocked". */
function pageWindow(opts: { blocked?: boolean } = {}) {
  const popup = {
    closed: false,
    close: vi.fn(() => {
      popup.closed = true;
    }),
    location: { href: '' },
  };
  const assign = vi.fn();
  const store = new Map<string, string>();
  const win: OAuthWindow = {
    open: vi.fn(() => (opts.blocked ? null : popup)),
    addEventListener: (t, fn) => window.addEventListener(t, fn as never),
    removeEventListener: (t, fn) => window.removeEventListener(t, fn as never),
    location: { origin: APP, assign },
    sessionStorage: { setItem: (k, v) => void store.set(k, v), getItem: (k) => store.get(k) ?? null, removeItem: (k) => void store.delete(k) },
  };
  return { win, popup, assign, store };
}

const post = (data: unknown, origin: string) => window.dispatchEvent(new MessageEvent('message', { data, origin }));

describe('OAuth helpers', () => {
  it('given a PKCE pair, then the verifier is 43 URL-safe characters and the challenge is base64url(SHA-256(verifier))', async () => {
    const { codeVerifier, codeChallenge } = await createPkce();
    expect(codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(codeChallenge).toBe(base64urlEncode(sha256(utf8ToBytes(codeVerifier))));
    expect((await createPkce()).codeVerifier).not.toBe(codeVerifier);
    expect(createOAuthState()).not.toBe(createOAuthState());
  });

  it('given a session key, then the nonce is the hex SHA-256 of its compressed public key hex', async () => {
    const key = await generateSessionKey();
    expect(await oauthNonce(key.publicKey)).toBe(sha256Hex(key.publicKey));
    expect(await oauthNonce(key.publicKey)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('given Google and Discord, then the URLs ask for an id_token with the nonce, and for a code with S256 PKCE', async () => {
    const google = new URL(buildAuthorizationUrl({ provider: 'google', clientId: 'cid', redirectUri: `${APP}/cb`, state: 's1', nonce: 'n1' }));
    expect(Object.fromEntries(google.searchParams)).toMatchObject({
      response_type: 'id_token',
      nonce: 'n1',
      state: 's1',
      client_id: 'cid',
      redirect_uri: `${APP}/cb`,
    });
    const { codeChallenge } = await createPkce();
    const discord = new URL(buildAuthorizationUrl({ provider: 'discord', clientId: 'd', redirectUri: `${APP}/cb`, state: 's2', nonce: 'n2', codeChallenge }));
    expect(Object.fromEntries(discord.searchParams)).toMatchObject({
      response_type: 'code',
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
      state: 's2',
    });
    expect(() => buildAuthorizationUrl({ provider: 'x', clientId: 'x', redirectUri: 'r', state: 's', nonce: 'n' })).toThrow();
  });

  it('given an open popup, when messages arrive from another origin or with another state, then they are ignored and only the genuine one resolves', async () => {
    const { win, popup } = pageWindow();
    const result = openOAuthPopup('https://accounts.example/auth', { state: 'good', window: win });
    expect(win.open).toHaveBeenCalledTimes(1);
    let settled = false;
    void result.then(() => (settled = true));

    post({ type: 'walletkit:oauth', state: 'good', idToken: 'evil' }, 'https://evil.example');
    post({ type: 'walletkit:oauth', state: 'other', idToken: 'stale' }, APP);
    await new Promise((r) => setTimeout(r, 10));
    expect(settled).toBe(false);

    post({ type: 'walletkit:oauth', state: 'good', idToken: 'genuine' }, APP);
    expect(await result).toEqual({ idToken: 'genuine' });
    expect(popup.close).toHaveBeenCalled();
  });

  it('given a popup closed by the user, then the promise rejects with ERR_POPUP_CLOSED', async () => {
    const { win, popup } = pageWindow();
    const result = openOAuthPopup('https://accounts.example/auth', { state: 's', window: win, pollMs: 5, closedGraceMs: 20 });
    popup.closed = true;
    expect(isWalletKitError(await result.catch((e: unknown) => e), 'ERR_POPUP_CLOSED')).toBe(true);
  });

  it('given a callback page that posts and closes itself at once, when the poll sees it closed before the message arrives, then the message still resolves', async () => {
    const { win, popup } = pageWindow();
    const result = openOAuthPopup('https://accounts.example/auth', { state: 's', window: win, pollMs: 5, closedGraceMs: 500 });
    popup.closed = true;
    await new Promise((r) => setTimeout(r, 30)); // several polls see it closed
    post({ type: 'walletkit:oauth', state: 's', code: 'c0de' }, APP);
    expect(await result).toEqual({ code: 'c0de' });
  });

  it('given a blocked popup, when OAuth starts, then the page redirects to the provider and the callback page accepts only the stored state', async () => {
    const { win, assign, store } = pageWindow({ blocked: true });
    const error = await openOAuthPopup(Promise.resolve('https://accounts.example/auth?state=abc'), { state: 'abc', window: win }).catch((e: unknown) => e);
    expect(isWalletKitError(error, 'ERR_POPUP_BLOCKED')).toBe(true);
    expect(assign).toHaveBeenCalledWith('https://accounts.example/auth?state=abc');

    const sessionStorage = { getItem: (k: string) => store.get(k) ?? null, removeItem: (k: string) => void store.delete(k) };
    const forged = { location: { href: `${APP}/cb#id_token=t&state=zzz`, origin: APP }, opener: null, sessionStorage };
    expect(() => handleOAuthCallback(forged)).toThrow(expect.objectContaining({ code: 'ERR_OAUTH_STATE_MISMATCH' }));

    await openOAuthPopup('https://accounts.example/auth?state=abc', { state: 'abc', window: win }).catch(() => undefined);
    const back = { location: { href: `${APP}/cb#id_token=tok&state=abc`, origin: APP }, opener: null, sessionStorage };
    expect(handleOAuthCallback(back)).toEqual({ idToken: 'tok', state: 'abc' });
  });

  it('given the callback page in a popup, then it posts the code and state to the opener for its own origin only, and closes', () => {
    const opener = { postMessage: vi.fn() };
    const close = vi.fn();
    expect(handleOAuthCallback({ location: { href: `${APP}/cb?code=c0de&state=s9`, origin: APP }, opener, close })).toBeUndefined();
    expect(opener.postMessage).toHaveBeenCalledWith({ type: 'walletkit:oauth', state: 's9', code: 'c0de' }, APP);
    expect(close).toHaveBeenCalled();
  });
});
