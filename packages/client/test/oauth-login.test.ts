/**
 * logInWithOAuth end to end: the popup opens synchronously, the Google-like local OpenID
 * Provider issues an id_token for the nonce the kit put in the URL, the callback message
 * finishes signup and login through the real proxy, and the session key stamps.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '@walletkit/crypto';
import { updateProxySettings } from '../../server/src/admin/proxy';
import { startOidcIssuer, type LocalOidcIssuer } from '../../server/test/support/oidc-issuer';
import { startProxyServer, type ProxyTestServer } from '../../server/test/support/proxy';
import { kitFor } from './support/kit';
import { popupWindow } from './support/social';

const APP = 'https://app.example';
const CLIENT_ID = 'walletkit-web.apps.googleusercontent.example';
const REDIRECT_URI = `${APP}/oauth/callback`;

describe('logInWithOAuth (Google, id_token)', () => {
  let server: ProxyTestServer;
  let google: LocalOidcIssuer;

  beforeAll(async () => {
    google = await startOidcIssuer({ clientId: CLIENT_ID, clientSecret: 'secret', redirectUri: REDIRECT_URI });
    server = await startProxyServer('pglite', { config: { oidcProviders: [{ name: 'google', issuer: google.issuer, jwksUri: google.jwksUri }] } });
    await updateProxySettings(server.store, server.org.organizationId, { social: { google: { enabled: true, clientIds: [CLIENT_ID] } } });
  });
  afterAll(async () => {
    await server?.dispose();
    await google?.close();
  });

  it('given a click, when the provider answers through the callback, then the account is created and the session key (the nonce’s key) stamps', async () => {
    const { win, popup, post } = popupWindow(APP);
    const kit = kitFor(server);
    const login = kit.auth.logInWithOAuth({ provider: 'google', clientId: CLIENT_ID, redirectUri: REDIRECT_URI, window: win });
    // Opened in the same task as the click, before any await.
    expect(win.open).toHaveBeenCalledWith('about:blank', expect.any(String), expect.any(String));

    await vi.waitFor(() => expect(popup.location.href).toContain('nonce='));
    const url = new URL(popup.location.href);
    const idToken = await google.login({ sub: 'google-user-1', nonce: url.searchParams.get('nonce')!, email: 'g@example.com' });
    post({ type: 'walletkit:oauth', state: url.searchParams.get('state'), idToken });

    const session = await login;
    expect(sha256Hex(session.publicKey)).toBe(url.searchParams.get('nonce'));
    expect((await kit.activity.query('whoami', {})).organizationId).toBe(session.organizationId);
    expect((await kit.wallet.listAccounts()).map((a) => a.addressFormat)).toEqual(['ADDRESS_FORMAT_ETHEREUM']);
    kit.session.close();
  });
});
