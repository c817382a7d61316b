import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { generateP256KeyPair, sha256Hex, verifyJwt } from '@walletkit/crypto';
import type { SessionClaims } from '../src/activity/operations/sessions';
import { apiKeys } from '../src/store/schema';
import { startTestServer, type ActivityClient, type TestServer } from './support/harness';
import { expectError } from './support/members';
import { startOidcIssuer, type LocalOidcIssuer } from './support/oidc-issuer';
import { storeKinds } from './support/stores';

const CLIENT_ID = 'walletkit-web.apps.googleusercontent.example';
const CLIENT_SECRET = 'google-like client secret for tests';
const REDIRECT_URI = 'https://app.example/oauth/callback';

describe.each(storeKinds)('oauth_login on %s', (kind) => {
  let server: TestServer;
  let google: LocalOidcIssuer;
  let stranger: LocalOidcIssuer;
  /** Moves the server's clock (and the stamps' timestampMs with it). */
  let offsetMs = 0;
  let subOrganizationId: string;
  let userId: string;
  const SUB = 'google-user-1';

  beforeAll(async () => {
    google = await startOidcIssuer({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUri: REDIRECT_URI });
    stranger = await startOidcIssuer({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUri: REDIRECT_URI });
    server = await startTestServer(kind, {
      clock: () => Date.now() + offsetMs,
      config: { oidcProviders: [{ name: 'google', issuer: google.issuer, jwksUri: google.jwksUri }] },
    });
    // Signup: the sub-organization's root user links the Google identity with its id token.
    const signupToken = await google.login({ sub: SUB, nonce: 'signup', email: 'g@example.com' });
    const created = await server.client.run('create_sub_organization', {
      subOrganizationName: 'google-user',
      rootUsers: [{ userName: 'g', apiKeys: [], authenticators: [], oauthProviders: [{ providerName: 'google', oidcToken: signupToken }] }],
      rootQuorumThreshold: 1,
    });
    subOrganizationId = created.subOrganizationId;
    userId = created.rootUserIds[0]!;
  }, 30_000);
  afterAll(async () => {
    offsetMs = 0;
    await server?.dispose();
    await google?.close();
    await stranger?.close();
  });

  /** The parent's backend (the proxy) submits oauth_login on behalf of the sub-organization. */
  const login = (
    params: { oidcToken: string; publicKey: string; expirationSeconds?: string; invalidateExisting?: boolean },
    organizationId = subOrganizationId,
  ) => server.client.submit('oauth_login', params, { organizationId });
  const canStamp = async (client: ActivityClient) => (await client.query('get_api_keys', {})).status;
  const nonceOf = (publicKey: string) => sha256Hex(publicKey);

  it('given a sub-organization created with a Google id token, when oauth_login presents a fresh token whose nonce hashes the session key, then the session key stamps for that user', async () => {
    const sessionKey = generateP256KeyPair();
    const oidcToken = await google.login({ sub: SUB, nonce: nonceOf(sessionKey.publicKey) });
    const reply = await login({ oidcToken, publicKey: sessionKey.publicKey, expirationSeconds: '120' });
    expect(reply.status).toBe(200);
    expect(reply.body.activity).toMatchObject({ type: 'ACTIVITY_TYPE_OAUTH_LOGIN', status: 'ACTIVITY_STATUS_COMPLETED', organizationId: subOrganizationId });
    const claims = verifyJwt<SessionClaims>(reply.body.activity.result.oauthLoginResult.session, server.enclave.signingPublicKey);
    expect(claims).toMatchObject({
      user_id: userId,
      organization_id: subOrganizationId,
      public_key: sessionKey.publicKey,
      session_type: 'SESSION_TYPE_READ_WRITE',
    });
    expect(claims.exp - Math.floor((Date.now() + offsetMs) / 1000)).toBeGreaterThan(100);
    const asSession = server.client.with({ key: sessionKey, organizationId: subOrganizationId });
    expect(await canStamp(asSession)).toBe(200);
    // the session key is a key of the sub-organization only
    expect(await canStamp(server.client.with({ key: sessionKey }))).toBe(401);
  });

  it('given invalidateExisting, when the user logs in again, then only the new session key remains', async () => {
    const first = generateP256KeyPair();
    const second = generateP256KeyPair();
    expect((await login({ oidcToken: await google.login({ sub: SUB, nonce: nonceOf(first.publicKey) }), publicKey: first.publicKey })).status).toBe(200);
    const reply = await login({
      oidcToken: await google.login({ sub: SUB, nonce: nonceOf(second.publicKey) }),
      publicKey: second.publicKey,
      invalidateExisting: true,
    });
    expect(reply.status).toBe(200);
    const sessions = await server.store.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), eq(apiKeys.isSession, true)));
    expect(sessions.map((s) => s.publicKey)).toEqual([second.publicKey]);
    expect(await canStamp(server.client.with({ key: first, organizationId: subOrganizationId }))).toBe(401);
  });

  it('given a token whose nonce hashes another key (or no nonce), when oauth_login runs, then it is a 401 ERR_OIDC_TOKEN_INVALID and no session key is stored', async () => {
    const sessionKey = generateP256KeyPair();
    const other = generateP256KeyPair();
    const wrongNonce = await google.login({ sub: SUB, nonce: nonceOf(other.publicKey) });
    expectError(await login({ oidcToken: wrongNonce, publicKey: sessionKey.publicKey }), 401, 'ERR_OIDC_TOKEN_INVALID', 'oidcToken');
    const now = Math.floor((Date.now() + offsetMs) / 1000);
    const noNonce = await google.sign({ sub: SUB, aud: CLIENT_ID, iat: now, exp: now + 600 });
    expectError(await login({ oidcToken: noNonce, publicKey: sessionKey.publicKey }), 401, 'ERR_OIDC_TOKEN_INVALID', 'oidcToken');
    expect(await server.store.db.select().from(apiKeys).where(eq(apiKeys.publicKey, sessionKey.publicKey))).toEqual([]);
  });

  it('given a token for another client id (aud), when oauth_login runs, then no linked provider matches: 404 ERR_OAUTH_PROVIDER_NOT_FOUND', async () => {
    const sessionKey = generateP256KeyPair();
    const now = Math.floor((Date.now() + offsetMs) / 1000);
    const otherAud = await google.sign({ sub: SUB, aud: 'another-app', nonce: nonceOf(sessionKey.publicKey), iat: now, exp: now + 600 });
    expectError(await login({ oidcToken: otherAud, publicKey: sessionKey.publicKey }), 404, 'ERR_OAUTH_PROVIDER_NOT_FOUND', 'oidcToken');
    // the same genuine identity is not linked in the parent organization either
    const genuine = await google.login({ sub: SUB, nonce: nonceOf(sessionKey.publicKey) });
    expectError(
      await login({ oidcToken: genuine, publicKey: sessionKey.publicKey }, server.org.organizationId),
      404,
      'ERR_OAUTH_PROVIDER_NOT_FOUND',
      'oidcToken',
    );
  });

  it('given a token that expired (server clock moved past exp plus skew), when oauth_login runs, then it is a 401 ERR_OIDC_TOKEN_INVALID', async () => {
    const sessionKey = generateP256KeyPair();
    const oidcToken = await google.login({ sub: SUB, nonce: nonceOf(sessionKey.publicKey) });
    const { exp } = JSON.parse(Buffer.from(oidcToken.split('.')[1]!, 'base64url').toString()) as { exp: number };
    try {
      offsetMs = (exp + 30) * 1000 - Date.now(); // within the 60 s skew: still accepted
      expect((await login({ oidcToken, publicKey: sessionKey.publicKey })).status).toBe(200);
      offsetMs = (exp + 120) * 1000 - Date.now();
      const reply = await login({ oidcToken, publicKey: sessionKey.publicKey });
      expectError(reply, 401, 'ERR_OIDC_TOKEN_INVALID', 'oidcToken');
      expect(reply.body.message).toMatch(/expired/);
    } finally {
      offsetMs = 0;
    }
  });

  it('given a tampered token, a token of an unknown issuer, or no JWT at all, when oauth_login runs, then each is a 401 ERR_OIDC_TOKEN_INVALID', async () => {
    const sessionKey = generateP256KeyPair();
    const nonce = nonceOf(sessionKey.publicKey);
    const genuine = await google.login({ sub: SUB, nonce });
    const [head, payload, sig] = genuine.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const otherSub = `${head}.${Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url')}.${sig}`;
    const flippedSig = `${head}.${payload}.${sig.slice(0, -4)}${sig.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`;
    const unknownIssuer = await stranger.login({ sub: SUB, nonce });
    for (const oidcToken of [otherSub, flippedSig, unsigned, unknownIssuer, 'not-a-jwt']) {
      expectError(await login({ oidcToken, publicKey: sessionKey.publicKey }), 401, 'ERR_OIDC_TOKEN_INVALID', 'oidcToken');
    }
    expect(await server.store.db.select().from(apiKeys).where(eq(apiKeys.publicKey, sessionKey.publicKey))).toEqual([]);
  });

  it('given an invalid session public key, when oauth_login runs, then it is a 400 ERR_INVALID_PUBLIC_KEY', async () => {
    const badKey = `02${'ff'.repeat(32)}`;
    const oidcToken = await google.login({ sub: SUB, nonce: nonceOf(badKey) });
    expectError(await login({ oidcToken, publicKey: badKey }), 400, 'ERR_INVALID_PUBLIC_KEY', 'publicKey');
  });
});
