import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { generateKeyPair, SignJWT } from 'jose';
import { ApiError } from '../src/errors';
import { issueOidcToken } from '../src/oauth/issued-token';
import { verifyOidcToken } from '../src/oauth/oidc';
import { organizations } from '../src/store/schema';
import { startTestServer, type TestServer } from './support/harness';
import { expectError } from './support/members';
import { startOidcIssuer, type LocalOidcIssuer } from './support/oidc-issuer';
import { storeKinds } from './support/stores';

const CLIENT_ID = 'walletkit-web.apps.googleusercontent.example';
const REDIRECT_URI = 'https://app.example/oauth/callback';

describe.each(storeKinds)('third-party OIDC tokens on %s', (kind) => {
  let server: TestServer;
  let google: LocalOidcIssuer;

  beforeAll(async () => {
    google = await startOidcIssuer({ clientId: CLIENT_ID, clientSecret: 'client secret of the test app', redirectUri: REDIRECT_URI });
    server = await startTestServer(kind, { config: { oidcProviders: [{ name: 'google', issuer: google.issuer, jwksUri: google.jwksUri }] } });
  }, 30_000);
  afterAll(async () => {
    await server?.dispose();
    await google?.close();
  });

  const seconds = () => Math.floor(Date.now() / 1000);
  const link = (oidcToken: string) =>
    server.client.submit('create_oauth_providers', { userId: server.org.userId, oauthProviders: [{ providerName: 'google', oidcToken }] });
  /** The verifier as the proxy calls it, with this server's services. */
  const verify = (token: string, extra: { audiences?: string[]; nonce?: string; fetch?: typeof fetch } = {}) =>
    verifyOidcToken(token, { config: server.config, enclave: server.enclave, fetch: extra.fetch ?? fetch, now: () => new Date(), ...extra });
  const refusal = async (promise: Promise<unknown>) => {
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('ERR_OIDC_TOKEN_INVALID');
    return err as ApiError;
  };

  it('given an id token from the configured provider, when create_oauth_providers links it, then the identity (iss, sub, aud) is stored and the JWKS is fetched once for many tokens', async () => {
    const before = google.jwksRequests;
    const tokens = await Promise.all(['g-1', 'g-2', 'g-3'].map((sub) => google.login({ sub, nonce: 'n', email: `${sub}@example.com` })));
    for (const token of tokens) expect((await link(token)).status).toBe(200);
    const user = (await server.client.query('get_user', { userId: server.org.userId })).body.user;
    expect(user.oauthProviders.map((p: any) => [p.providerName, p.issuer, p.subject, p.audience])).toEqual(
      expect.arrayContaining([
        ['google', google.issuer, 'g-1', CLIENT_ID],
        ['google', google.issuer, 'g-2', CLIENT_ID],
        ['google', google.issuer, 'g-3', CLIENT_ID],
      ]),
    );
    expect(google.jwksRequests - before).toBeLessThanOrEqual(1);
  });

  it('given a provider token, when verified with matching audiences and nonce, then its identity and email claims are returned', async () => {
    const token = await google.login({ sub: 'verify-me', nonce: 'nonce-1', email: 'v@example.com' });
    expect(await verify(token, { audiences: ['other', CLIENT_ID], nonce: 'nonce-1' })).toEqual({
      iss: google.issuer,
      sub: 'verify-me',
      aud: CLIENT_ID,
      email: 'v@example.com',
      emailVerified: true,
      nonce: 'nonce-1',
    });
  });

  it('given a provider token, when verified against other audiences or another nonce, then it is ERR_OIDC_TOKEN_INVALID', async () => {
    const token = await google.login({ sub: 'verify-me', nonce: 'nonce-1' });
    expect((await refusal(verify(token, { audiences: ['another-client'] }))).message).toMatch(/aud/);
    expect((await refusal(verify(token, { nonce: 'nonce-2' }))).message).toMatch(/nonce/);
  });

  it('given the injected fetch, when a new JWKS must be fetched, then that fetch is used and a failing one refuses the token', async () => {
    const token = await google.login({ sub: 'fetched', nonce: 'n' });
    const seen: string[] = [];
    const counting: typeof fetch = async (input, init) => {
      seen.push(String(input));
      return fetch(input, init);
    };
    expect((await verify(token, { fetch: counting })).sub).toBe('fetched');
    expect(seen).toEqual([google.jwksUri]);
    await verify(token, { fetch: counting }); // cached per fetch and URL
    expect(seen).toHaveLength(1);
    const down: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    await refusal(verify(token, { fetch: down }));
  });

  it('given tokens that expired, are not yet valid, use another key or algorithm, or come from an unknown issuer, when create_oauth_providers runs, then each is a 401 ERR_OIDC_TOKEN_INVALID', async () => {
    const now = seconds();
    const base = { sub: 'bad', aud: CLIENT_ID, iat: now };
    const foreign = await generateKeyPair('RS256');
    const tokens = [
      await google.sign({ ...base, exp: now - 120 }), // expired beyond the 60 s skew
      await google.sign({ ...base, exp: now + 600, nbf: now + 600 }), // not valid yet
      await google.sign({ ...base }), // no exp at all
      await new SignJWT({ iss: google.issuer, ...base, exp: now + 600 }).setProtectedHeader({ alg: 'RS256', kid: 'test-rs256' }).sign(foreign.privateKey), // another key, same kid
      await new SignJWT({ iss: google.issuer, ...base, exp: now + 600 }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('x'.repeat(32))), // HMAC
      await google.sign({ ...base, exp: now + 600, iss: 'https://login.unknown.example' }), // unknown issuer
      await google.sign({ ...base, exp: now + 600, aud: [CLIENT_ID, 'second-client'] }), // two audiences, none expected
    ];
    for (const oidcToken of tokens) expectError(await link(oidcToken), 401, 'ERR_OIDC_TOKEN_INVALID', 'oauthProviders.0.oidcToken');
  });

  it('given a token that expired within the skew, when verified, then it is still accepted', async () => {
    const now = seconds();
    const token = await google.sign({ sub: 'skew', aud: CLIENT_ID, iat: now - 600, exp: now - 30 });
    expect((await verify(token)).sub).toBe('skew');
  });

  it('given a token issued by this server, when verified, then it is accepted with this server as issuer, and a tampered one is not', async () => {
    const token = issueOidcToken(server.enclave, server.config, { sub: 'https://discord.com|1', aud: 'discord-client', nonce: 'n1', now: new Date() });
    expect(await verify(token, { nonce: 'n1' })).toMatchObject({ sub: 'https://discord.com|1', aud: 'discord-client', nonce: 'n1' });
    const [head, payload, sig] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    await refusal(verify(`${head}.${Buffer.from(JSON.stringify({ ...claims, sub: 'x' })).toString('base64url')}.${sig}`));
  });

  it('given a sub-organization signup with a tampered provider token, when create_sub_organization runs, then it is a 401 and no organization is created', async () => {
    const genuine = await google.login({ sub: 'signup', nonce: 'n' });
    const [head, payload, sig] = genuine.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const tampered = `${head}.${Buffer.from(JSON.stringify({ ...claims, sub: 'victim' })).toString('base64url')}.${sig}`;
    const reply = await server.client.submit('create_sub_organization', {
      subOrganizationName: 'tampered-signup',
      rootUsers: [{ userName: 'u', apiKeys: [], authenticators: [], oauthProviders: [{ providerName: 'google', oidcToken: tampered }] }],
      rootQuorumThreshold: 1,
    });
    expect(reply.status).toBe(401);
    expect(reply.body.details[0].errorCode).toBe('ERR_OIDC_TOKEN_INVALID');
    expect(await server.store.db.select().from(organizations).where(eq(organizations.name, 'tampered-signup'))).toEqual([]);
  });
});
