/**
 * The OAuth redirect fallback in happy-dom windows: the popup is blocked, so the kit stores the
 * pending login (non-extractable key pair, state, nonce, PKCE verifier) in IndexedDB and
 * navigates to the provider; the page the provider returns to (a new happy-dom window at the
 * callback URL and a new kit on the same IndexedDB, as after a real navigation) finishes it with
 * completeOAuthRedirect against the real server. The test file itself runs in node (the
 * happy-dom environment replaces the global URL, which the in-process server cannot use).
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { Window } from 'happy-dom';
import { sha256Hex } from '@walletkit/crypto';
import { indexedDbSessionKeyStore, isWalletKitError, type OAuthWindow, type WalletKitConfig } from '../src/index';
import { APP, DISCORD_CLIENT_ID, GOOGLE_CLIENT_ID, REDIRECT_URI, socialSuite } from './support/social';

/** The app's login page in happy-dom, with popups blocked; `assign` records where it navigates. */
function blockedWindow() {
  const browser = new Window({ url: `${APP}/login` });
  const assign = vi.fn<(url: string) => void>();
  const win: OAuthWindow = {
    open: vi.fn(() => null),
    addEventListener: (t, fn) => browser.addEventListener(t, fn as never),
    removeEventListener: (t, fn) => browser.removeEventListener(t, fn as never),
    location: { origin: browser.location.origin, assign },
    sessionStorage: browser.sessionStorage,
  };
  return { win, assign };
}

/** The provider navigates the browser back to the app: a new page at `url`; returns its href. */
function returnPage(url: string): string {
  const browser = new Window({ url });
  const href = browser.location.href;
  void browser.happyDOM.close();
  return href;
}

describe('OAuth redirect fallback', () => {
  const suite = socialSuite();

  /** One "page load" of the app in the browser profile whose IndexedDB is `dbName`. */
  const page = (dbName: string, overrides: Partial<WalletKitConfig> = {}) => suite.kit({ storage: indexedDbSessionKeyStore({ dbName }), ...overrides });

  /** Clicks "log in" with a blocked popup; returns where the page navigated and the profile. */
  async function leaveForProvider(provider: 'google' | 'discord', overrides: Partial<WalletKitConfig> = {}) {
    const dbName = `wk-${randomUUID()}`;
    const { win, assign } = blockedWindow();
    const clientId = provider === 'google' ? GOOGLE_CLIENT_ID : DISCORD_CLIENT_ID;
    const error = await page(dbName, overrides)
      .auth.logInWithOAuth({ provider, clientId, redirectUri: REDIRECT_URI, window: win })
      .catch((e: unknown) => e);
    expect(isWalletKitError(error, 'ERR_POPUP_BLOCKED')).toBe(true);
    expect(assign).toHaveBeenCalledTimes(1);
    return { dbName, authorizeUrl: new URL(assign.mock.calls[0]![0]) };
  }

  it('given a blocked popup for Google, when the provider redirects back with an id_token, then the return page logs in with the stored key and clears the pending login', async () => {
    const { dbName, authorizeUrl } = await leaveForProvider('google');
    const pending = await indexedDbSessionKeyStore({ dbName }).pendingLogin.load();
    expect(pending).toMatchObject({ provider: 'google', state: authorizeUrl.searchParams.get('state'), nonce: authorizeUrl.searchParams.get('nonce') });
    expect(pending!.keyPair.privateKey.extractable).toBe(false);

    const idToken = await suite.social.google.login({ sub: `google-${randomUUID()}`, nonce: authorizeUrl.searchParams.get('nonce')!, email: 'r@example.com' });
    const callback = `${REDIRECT_URI}#id_token=${idToken}&state=${authorizeUrl.searchParams.get('state')}`;
    const back = page(dbName);
    const session = await back.auth.completeOAuthRedirect({ url: returnPage(callback) });

    expect(sha256Hex(session.publicKey)).toBe(authorizeUrl.searchParams.get('nonce'));
    expect(session.publicKey).toBe(pending!.publicKey);
    expect((await back.activity.query('whoami', {})).organizationId).toBe(session.organizationId);
    expect(await indexedDbSessionKeyStore({ dbName }).pendingLogin.load()).toBeUndefined();
    expect((await indexedDbSessionKeyStore({ dbName }).load())?.publicKey).toBe(session.publicKey);
    // A replay of the same callback finds nothing pending.
    const replay = await page(dbName)
      .auth.completeOAuthRedirect({ url: returnPage(callback) })
      .catch((e: unknown) => e);
    expect(isWalletKitError(replay, 'ERR_OAUTH_STATE_MISMATCH')).toBe(true);
  });

  it('given a blocked popup for Discord, when the provider redirects back with a code, then the stored PKCE verifier completes the exchange and the user signs up, then logs in again the same way', async () => {
    const user = { id: `d-${randomUUID().slice(0, 8)}`, username: 'rita' };
    const organizations: string[] = [];
    for (let round = 0; round < 2; round += 1) {
      const { dbName, authorizeUrl } = await leaveForProvider('discord');
      const pending = await indexedDbSessionKeyStore({ dbName }).pendingLogin.load();
      expect(pending?.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const code = suite.social.discord.authorize({ user, redirectUri: REDIRECT_URI, codeChallenge: authorizeUrl.searchParams.get('code_challenge')! });
      const back = page(dbName);
      const session = await back.auth.completeOAuthRedirect({
        url: returnPage(`${REDIRECT_URI}?code=${code}&state=${authorizeUrl.searchParams.get('state')}`),
      });
      expect((await back.activity.query('whoami', {})).organizationId).toBe(session.organizationId);
      organizations.push(session.organizationId);
    }
    expect(organizations[1]).toBe(organizations[0]);
  });

  it('given a callback with another state, when the return page completes it, then it is ERR_OAUTH_STATE_MISMATCH and the genuine callback still works', async () => {
    const { dbName, authorizeUrl } = await leaveForProvider('google');
    const idToken = await suite.social.google.login({ sub: `google-${randomUUID()}`, nonce: authorizeUrl.searchParams.get('nonce')!, email: 's@example.com' });
    const forged = await page(dbName)
      .auth.completeOAuthRedirect({ url: returnPage(`${REDIRECT_URI}#id_token=${idToken}&state=attacker`) })
      .catch((e: unknown) => e);
    expect(isWalletKitError(forged, 'ERR_OAUTH_STATE_MISMATCH')).toBe(true);
    expect(await indexedDbSessionKeyStore({ dbName }).load()).toBeUndefined();

    const session = await page(dbName).auth.completeOAuthRedirect({
      url: returnPage(`${REDIRECT_URI}#id_token=${idToken}&state=${authorizeUrl.searchParams.get('state')}`),
    });
    expect(sha256Hex(session.publicKey)).toBe(authorizeUrl.searchParams.get('nonce'));
  });

  it('given a pending login older than ten minutes or a provider error, when the return page completes it, then it fails and nothing is pending any more', async () => {
    let now = Date.now();
    const { dbName, authorizeUrl } = await leaveForProvider('google', { now: () => now });
    now += 11 * 60_000;
    const stale = await page(dbName, { now: () => now })
      .auth.completeOAuthRedirect({ url: returnPage(`${REDIRECT_URI}#id_token=x.y.z&state=${authorizeUrl.searchParams.get('state')}`) })
      .catch((e: unknown) => e);
    expect(isWalletKitError(stale, 'ERR_OAUTH_STATE_MISMATCH')).toBe(true);
    expect(await indexedDbSessionKeyStore({ dbName }).pendingLogin.load()).toBeUndefined();

    const denied = await leaveForProvider('discord');
    const error = await page(denied.dbName)
      .auth.completeOAuthRedirect({ url: returnPage(`${REDIRECT_URI}?error=access_denied&state=${denied.authorizeUrl.searchParams.get('state')}`) })
      .catch((e: unknown) => e);
    expect(isWalletKitError(error, 'ERR_OAUTH_PROVIDER_ERROR')).toBe(true);
    expect(await indexedDbSessionKeyStore({ dbName: denied.dbName }).pendingLogin.load()).toBeUndefined();
  });
});
