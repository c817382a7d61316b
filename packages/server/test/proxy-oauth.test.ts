/**
 * Proxy social login through real HTTP (X/Discord path): oauth2_authenticate exchanges the
 * code at a local OAuth 2.0 server with the stored credential, signup_v2 links the issued
 * OIDC token, account finds it, and oauth_login opens a session bound to the nonce's key.
 */
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, generateP256KeyPair, hpkeSeal, sha256Hex, utf8ToBytes } from '@walletkit/crypto';
import { updateProxySettings } from '../src/admin/proxy';
import { codeChallengeOf, newCodeVerifier, startOAuth2Provider, type LocalOAuth2Provider } from './support/oauth2-provider';
import { expectProxyError, startProxyServer, submitOver, type ProxyTestServer } from './support/proxy';
import { storeKinds } from './support/stores';

const CLIENT_ID = 'discord-client';
const CLIENT_SECRET = 'discord secret';
const REDIRECT_URI = 'https://app.example/oauth/callback';

describe.each(storeKinds)('proxy social login on %s', (kind) => {
  let s: ProxyTestServer;
  let discord: LocalOAuth2Provider;

  beforeAll(async () => {
    discord = await startOAuth2Provider({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, shape: 'discord' });
    const endpoints = { tokenUrl: discord.tokenUrl, userInfoUrl: discord.userInfoUrl, issuer: discord.url };
    s = await startProxyServer(kind, { config: { oauth2Providers: { OAUTH2_PROVIDER_DISCORD: endpoints, OAUTH2_PROVIDER_X: endpoints } } });
    const encryptedClientSecret = JSON.stringify(await hpkeSeal({ plaintext: utf8ToBytes(CLIENT_SECRET), receiverPublicKey: s.enclave.encryptionPublicKey }));
    const { oauth2CredentialId } = await s.client.run('create_oauth2_credential', {
      provider: 'OAUTH2_PROVIDER_DISCORD',
      clientId: CLIENT_ID,
      encryptedClientSecret,
    });
    await updateProxySettings(s.store, s.org.organizationId, { social: { discord: { enabled: true, clientIds: [CLIENT_ID], oauth2CredentialId } } });
  });
  afterAll(async () => {
    await s?.dispose();
    await discord?.close();
  });

  /** The browser half: the user consents at Discord, which redirects back with a code. */
  const grant = (user: { id: string; username: string }) => {
    const codeVerifier = newCodeVerifier();
    const authCode = discord.authorize({ user, redirectUri: REDIRECT_URI, codeChallenge: codeChallengeOf(codeVerifier) });
    return { provider: 'OAUTH2_PROVIDER_DISCORD' as const, authCode, codeVerifier, redirectUri: REDIRECT_URI, clientId: CLIENT_ID };
  };

  it('given a Discord consent, when the user authenticates, signs up with the token and logs in, then the session belongs to the new sub-organization', async () => {
    const key = generateP256KeyPair();
    const auth = await s.browser.post('oauth2_authenticate', { ...grant({ id: '4242', username: 'erin' }), nonce: sha256Hex(key.publicKey) });
    expect(auth.status).toBe(200);
    const { oidcToken } = auth.body;
    // The issued token verifies at the server's published JWKS, as any relying party would check it.
    const jwks = await fetch(`${s.url}/.well-known/jwks.json`).then((r) => r.json());
    const { payload } = await jwtVerify(oidcToken, createLocalJWKSet(jwks), { audience: CLIENT_ID });
    expect(payload.iss).toBe(s.url);
    const signup = await s.browser.post('signup_v2', { userName: 'erin', oauthProviders: [{ providerName: 'discord', oidcToken }] });
    expect(signup.status).toBe(200);
    expect((await s.browser.post('account', { filterType: 'OIDC_TOKEN', filterValue: oidcToken })).body).toEqual({
      organizationId: signup.body.organizationId,
    });

    const login = await s.browser.post('oauth_login', { oidcToken, publicKey: key.publicKey });
    expect(login.status).toBe(200);
    expect(decodeJwt<{ organization_id: string }>(login.body.session).organization_id).toBe(signup.body.organizationId);
    const wallet = await submitOver(s.url, key, signup.body.organizationId, 'create_wallet', { walletName: 'w', accounts: [] });
    expect(wallet.body.activity?.status).toBe('ACTIVITY_STATUS_COMPLETED');
  });

  it('given an unknown client id or a disabled provider, when oauth2_authenticate arrives, then it is refused before any exchange', async () => {
    const nonce = sha256Hex(generateP256KeyPair().publicKey);
    const sent = discord.tokenRequests.length;
    expectProxyError(
      await s.browser.post('oauth2_authenticate', { ...grant({ id: '1', username: 'x' }), clientId: 'other', nonce }),
      400,
      'ERR_INVALID_PARAMETER',
      'clientId',
    );
    expectProxyError(
      await s.browser.post('oauth2_authenticate', { ...grant({ id: '1', username: 'x' }), provider: 'OAUTH2_PROVIDER_X', nonce }),
      403,
      'ERR_AUTH_METHOD_DISABLED',
      'provider',
    );
    expect(discord.tokenRequests.length).toBe(sent);
  });

  it('given an OIDC identity with no account, when oauth_login arrives, then it is a 404 ERR_USER_NOT_FOUND; a forged token is a 401', async () => {
    const key = generateP256KeyPair();
    const auth = await s.browser.post('oauth2_authenticate', { ...grant({ id: '9999', username: 'nobody' }), nonce: sha256Hex(key.publicKey) });
    expectProxyError(await s.browser.post('oauth_login', { oidcToken: auth.body.oidcToken, publicKey: key.publicKey }), 404, 'ERR_USER_NOT_FOUND');
    const forged = `${auth.body.oidcToken.slice(0, -6)}AAAAAA`;
    expectProxyError(await s.browser.post('oauth_login', { oidcToken: forged, publicKey: key.publicKey }), 401, 'ERR_OIDC_TOKEN_INVALID');
  });
});
