/**
 * X and Discord sign-in under attack, through the proxy (/v1/oauth2_authenticate, then
 * oauth_login, account, signup_v2) against real local OAuth 2.0 servers: forged callback
 * state (refused by the client kit, where state lives), PKCE verifiers that are wrong, of
 * another login or malformed, reused and foreign authorization codes, redirect URI and client
 * mismatches, disabled or unconfigured providers, and the id token this server issues replayed,
 * tampered or carried to another organization. A provider that fails is a 502, not a bad input.
 */
import 'fake-indexeddb/auto';
import { createHmac, randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, generateP256KeyPair, hpkeSeal, sha256Hex, utf8ToBytes, type EcKeyPair } from '@walletkit/crypto';
import { createWalletKitClient, generateSessionKey, indexedDbSessionKeyStore, isWalletKitError, oauthNonce } from '../../../client/src/index';
import { enableProxy, updateProxySettings } from '../../src/admin/proxy';
import { issuerOf } from '../../src/oauth/issued-token';
import { organizations } from '../../src/store/schema';
import { addOrganization } from '../support/members';
import { codeChallengeOf, newCodeVerifier, startOAuth2Provider, type LocalOAuth2Provider } from '../support/oauth2-provider';
import { startProxyServer, verificationTokenFor, type ProxyClient, type ProxyReply, type ProxyTestServer } from '../support/proxy';
import { adversarialTally } from './support/tally';

const tally = adversarialTally('oauth2');
const REDIRECT_URI = 'https://app.example/oauth/callback';
const DISCORD_CLIENT = 'walletkit-discord-client';
const DISCORD_SECRET = 'discord client secret';
const X_CLIENT = 'walletkit-x-client';
const X_SECRET = 'x client secret';
/** Organization B's own Discord application. */
const B_DISCORD_CLIENT = 'org-b-discord-client';

const seconds = () => Math.floor(Date.now() / 1000);
const b64json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** What the Discord side answers instead of the real server (a failing provider). */
type Fault =
  | 'token 500'
  | 'token HTML'
  | 'token without access_token'
  | 'token JSON array'
  | 'token invalid_client'
  | 'token invalid_request'
  | 'token unreachable'
  | 'user-info 500'
  | 'user-info HTML'
  | 'user-info without id'
  | 'user-info 401'
  | 'user-info unreachable';

describe('X and Discord logins through the proxy (PGlite)', () => {
  let s: ProxyTestServer;
  let discord: LocalOAuth2Provider;
  let x: LocalOAuth2Provider;
  let fault: Fault | undefined;
  /** Organization B on the same server: its own proxy, X shared with A, its own Discord client, no credentials. */
  let b: { organizationId: string; browser: ProxyClient };

  /** The server's fetch: the real network, except the faults injected on Discord's endpoints. */
  const faultyFetch: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const f = fault;
    const onToken = url === discord?.tokenUrl;
    const onUserInfo = url === discord?.userInfoUrl;
    if (f && ((onToken && f.startsWith('token')) || (onUserInfo && f.startsWith('user-info')))) {
      const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
      switch (f) {
        case 'token 500':
        case 'user-info 500':
          return new Response('upstream exploded', { status: 500 });
        case 'token HTML':
        case 'user-info HTML':
          return new Response('<html><body>Service temporarily unavailable</body></html>', { status: 200, headers: { 'content-type': 'text/html' } });
        case 'token without access_token':
          return json(200, { token_type: 'Bearer' });
        case 'token JSON array':
          return json(200, [{ access_token: 'x' }]);
        case 'token invalid_client':
          return json(401, { error: 'invalid_client' });
        case 'token invalid_request':
          return json(400, { error: 'invalid_request' });
        case 'user-info without id':
          return json(200, { username: 'ghost', email: 'ghost@example.com', verified: true });
        case 'user-info 401':
          return json(401, { error: 'invalid_token' });
        case 'token unreachable':
        case 'user-info unreachable':
          throw new TypeError('fetch failed');
      }
    }
    return fetch(input, init);
  };

  beforeAll(async () => {
    [discord, x] = await Promise.all([
      startOAuth2Provider({ clientId: DISCORD_CLIENT, clientSecret: DISCORD_SECRET, shape: 'discord' }),
      startOAuth2Provider({ clientId: X_CLIENT, clientSecret: X_SECRET, shape: 'x' }),
    ]);
    s = await startProxyServer('pglite', {
      config: {
        oauth2Providers: {
          OAUTH2_PROVIDER_DISCORD: { tokenUrl: discord.tokenUrl, userInfoUrl: discord.userInfoUrl, issuer: discord.url },
          OAUTH2_PROVIDER_X: { tokenUrl: x.tokenUrl, userInfoUrl: x.userInfoUrl, issuer: x.url },
        },
      },
      deps: { fetch: faultyFetch },
    });
    // The integrator seals each client secret to the enclave's encryption key.
    const credential = async (provider: 'OAUTH2_PROVIDER_DISCORD' | 'OAUTH2_PROVIDER_X', clientId: string, secret: string) => {
      const encryptedClientSecret = JSON.stringify(await hpkeSeal({ plaintext: utf8ToBytes(secret), receiverPublicKey: s.enclave.encryptionPublicKey }));
      return (await s.client.run('create_oauth2_credential', { provider, clientId, encryptedClientSecret })).oauth2CredentialId;
    };
    await updateProxySettings(s.store, s.org.organizationId, {
      social: {
        discord: {
          enabled: true,
          clientIds: [DISCORD_CLIENT],
          oauth2CredentialId: await credential('OAUTH2_PROVIDER_DISCORD', DISCORD_CLIENT, DISCORD_SECRET),
        },
        x: { enabled: true, clientIds: [X_CLIENT], oauth2CredentialId: await credential('OAUTH2_PROVIDER_X', X_CLIENT, X_SECRET) },
      },
    });
    const other = await addOrganization(s, 'Organization B');
    const bProxy = await enableProxy(s.store, s.enclave, {
      organizationId: other.organizationId,
      settings: { social: { discord: { enabled: true, clientIds: [B_DISCORD_CLIENT] }, x: { enabled: true, clientIds: [X_CLIENT] } } },
    });
    b = { organizationId: other.organizationId, browser: s.browser.with({ configId: bProxy.id }) };
  });
  afterAll(async () => {
    await s?.dispose();
    await discord?.close();
    await x?.close();
  });

  /** The user consents at `provider`: a code bound to the redirect URI and to the S256 challenge of `verifier`. */
  const consent = (provider: LocalOAuth2Provider, user: { id: string; username: string; email?: string }, verifier = newCodeVerifier()) => ({
    codeVerifier: verifier,
    authCode: provider.authorize({ user, redirectUri: REDIRECT_URI, codeChallenge: codeChallengeOf(verifier) }),
  });
  const someone = () => ({ id: randomUUID(), username: 'someone' });
  /** oauth2_authenticate as the kit sends it for Discord (or X), fields overridden by `over`. */
  const authenticate = (grant: { codeVerifier: string; authCode: string }, over: Record<string, unknown> = {}, client: ProxyClient = s.browser) =>
    client.post('oauth2_authenticate', {
      provider: 'OAUTH2_PROVIDER_DISCORD',
      clientId: DISCORD_CLIENT,
      redirectUri: REDIRECT_URI,
      nonce: sha256Hex(generateP256KeyPair().publicKey),
      ...grant,
      ...over,
    } as never);
  const tokenRequests = () => discord.tokenRequests.length + x.tokenRequests.length;
  const subOrgs = async (parent = s.org.organizationId) =>
    (await s.store.db.select({ n: count() }).from(organizations).where(eq(organizations.parentOrganizationId, parent)))[0]!.n;

  it('given a pending Discord login in the kit, when the return page carries a forged, missing or foreign state, then the kit refuses it with ERR_OAUTH_STATE_MISMATCH before any request, and the genuine callback still logs in', async () => {
    const dbName = `wk-${randomUUID()}`;
    const storage = indexedDbSessionKeyStore({ dbName });
    const kit = createWalletKitClient({
      proxyUrl: s.url,
      apiUrl: s.url,
      configId: s.proxy.id,
      organizationId: s.org.organizationId,
      enclavePublicKey: s.enclave.signingPublicKey,
      storage,
      channel: null,
    });
    try {
      // What logInWithOAuth stored before navigating to Discord (the redirect fallback).
      const key = await generateSessionKey();
      const state = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64url');
      const genuine = consent(discord, { id: `victim-${randomUUID()}`, username: 'victim' });
      await storage.pendingLogin.save({
        ...key,
        provider: 'discord',
        state,
        nonce: await oauthNonce(key.publicKey),
        codeVerifier: genuine.codeVerifier,
        clientId: DISCORD_CLIENT,
        redirectUri: REDIRECT_URI,
        createdAt: Date.now(),
      });

      // The attacker's own code (login CSRF: the victim would end up in the attacker's account).
      const attacker = consent(discord, { id: `attacker-${randomUUID()}`, username: 'mallory' });
      const sent = tokenRequests();
      const forged: Array<[string, string]> = [
        ["the attacker's code and state", `${REDIRECT_URI}?code=${attacker.authCode}&state=attacker-state`],
        ['no state', `${REDIRECT_URI}?code=${attacker.authCode}`],
        ['an empty state', `${REDIRECT_URI}?code=${attacker.authCode}&state=`],
        ['the state with a suffix', `${REDIRECT_URI}?code=${attacker.authCode}&state=${state}x`],
        ['the state truncated', `${REDIRECT_URI}?code=${attacker.authCode}&state=${state.slice(0, -1)}`],
        ['a fragment state overriding the genuine query state', `${REDIRECT_URI}?code=${attacker.authCode}&state=${state}#state=attacker-state`],
        ['the genuine code with a forged state', `${REDIRECT_URI}?code=${genuine.authCode}&state=attacker-state`],
      ];
      for (const [what, url] of forged) {
        const error = await kit.auth.completeOAuthRedirect({ url }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(isWalletKitError(error, 'ERR_OAUTH_STATE_MISMATCH'), `${what}: ${String(error)}`).toBe(true);
        // Refused in the browser: no request reaches the server (status 0, neither accepted nor a 5xx).
        tally.record('oauth2', { status: 0, body: { details: [{ errorCode: 'ERR_OAUTH_STATE_MISMATCH' }] } });
      }
      expect(tokenRequests()).toBe(sent);
      expect(await storage.load()).toBeUndefined();
      expect((await storage.pendingLogin.load())?.state).toBe(state);

      const session = await kit.auth.completeOAuthRedirect({ url: `${REDIRECT_URI}?code=${genuine.authCode}&state=${state}` });
      expect(sha256Hex(session.publicKey)).toBe(await oauthNonce(key.publicKey));
      expect((await kit.activity.query('whoami', {})).organizationId).toBe(session.organizationId);
      // The callback is single use: replayed, nothing is pending any more.
      const replay = await kit.auth.completeOAuthRedirect({ url: `${REDIRECT_URI}?code=${genuine.authCode}&state=${state}` }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isWalletKitError(replay, 'ERR_OAUTH_STATE_MISMATCH'), String(replay)).toBe(true);
      tally.record('oauth2', { status: 0, body: { details: [{ errorCode: 'ERR_OAUTH_STATE_MISMATCH' }] } });
    } finally {
      kit.session.close();
    }
  });

  it('given PKCE verifiers that are wrong, of another login, the challenge itself, or malformed, when oauth2_authenticate exchanges the code, then each is a 400 (ERR_INVALID_PARAMETER from invalid_grant, ERR_INVALID_REQUEST before any exchange), never a 5xx', async () => {
    const other = consent(discord, someone());
    const atProvider: Array<[string, (own: string) => string]> = [
      ['a fresh random verifier', () => newCodeVerifier()],
      ['the verifier of another login', () => other.codeVerifier],
      ['the challenge itself (plain, not S256)', (own) => codeChallengeOf(own)],
      ['the verifier with its last character changed', (own) => `${own.slice(0, -1)}${own.endsWith('A') ? 'B' : 'A'}`],
      ['the verifier with a character appended', (own) => `${own}A`],
    ];
    for (const [what, wrong] of atProvider) {
      const grant = consent(discord, someone());
      tally.refused('oauth2', `PKCE: ${what}`, await authenticate({ ...grant, codeVerifier: wrong(grant.codeVerifier) }), 400, 'ERR_INVALID_PARAMETER');
    }
    // Malformed verifiers never reach the provider (RFC 7636 section 4.1: 43 to 128 unreserved characters),
    // even one whose S256 challenge the attacker chose to match.
    const short = 'a'.repeat(42);
    const sent = tokenRequests();
    const malformed: Array<[string, { codeVerifier: string; authCode: string }]> = [
      ['a 42-character verifier matching its challenge', consent(discord, someone(), short)],
      ['an 8-character verifier', { ...consent(discord, someone()), codeVerifier: 'abcdefgh' }],
      ['an empty verifier', { ...consent(discord, someone()), codeVerifier: '' }],
      ['a 129-character verifier', { ...consent(discord, someone()), codeVerifier: 'a'.repeat(129) }],
      ['a verifier with base64 characters', { ...consent(discord, someone()), codeVerifier: `${'a'.repeat(42)}+/=` }],
      ['a verifier with a space', { ...consent(discord, someone()), codeVerifier: `${'a'.repeat(42)} b` }],
    ];
    for (const [what, grant] of malformed) tally.refused('oauth2', `PKCE: ${what}`, await authenticate(grant), 400, 'ERR_INVALID_REQUEST');
    expect(tokenRequests()).toBe(sent);
  });

  it('given a code already exchanged, burned by a wrong verifier, raced by four exchanges, issued by the X server, or made up, when oauth2_authenticate runs, then each is a 400 ERR_INVALID_PARAMETER and one consent yields one token', async () => {
    const grant = consent(discord, someone());
    expect((await authenticate(grant)).status).toBe(200);
    tally.refused('oauth2', 'code: second exchange', await authenticate(grant), 400, 'ERR_INVALID_PARAMETER');
    tally.refused(
      'oauth2',
      'code: second exchange with another nonce and key',
      await authenticate(grant, { nonce: sha256Hex(generateP256KeyPair().publicKey) }),
      400,
      'ERR_INVALID_PARAMETER',
    );

    // A wrong verifier burns the code at the provider: the right one cannot follow.
    const burned = consent(discord, someone());
    tally.refused('oauth2', 'code: wrong verifier first', await authenticate({ ...burned, codeVerifier: newCodeVerifier() }), 400, 'ERR_INVALID_PARAMETER');
    tally.refused('oauth2', 'code: right verifier after a wrong one', await authenticate(burned), 400, 'ERR_INVALID_PARAMETER');

    const raced = consent(discord, someone());
    const replies = await Promise.all([0, 1, 2, 3].map(() => authenticate(raced)));
    const winners = replies.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    for (const r of replies.filter((r) => r.status !== 200)) tally.refused('oauth2', 'code: raced exchange', r, 400, 'ERR_INVALID_PARAMETER');
    tally.duplicates('oauth2', 'tokens from one code', winners.length - 1);

    const fromX = consent(x, someone());
    tally.refused('oauth2', "code: the X client's code at Discord", await authenticate(fromX), 400, 'ERR_INVALID_PARAMETER');
    const fromDiscord = consent(discord, someone());
    tally.refused(
      'oauth2',
      "code: Discord's code at X",
      await authenticate(fromDiscord, { provider: 'OAUTH2_PROVIDER_X', clientId: X_CLIENT }),
      400,
      'ERR_INVALID_PARAMETER',
    );
    tally.refused('oauth2', 'code: made up', await authenticate({ authCode: 'made-up-code', codeVerifier: newCodeVerifier() }), 400, 'ERR_INVALID_PARAMETER');
    tally.refused('oauth2', 'code: empty', await authenticate({ authCode: '', codeVerifier: newCodeVerifier() }), 400, 'ERR_INVALID_REQUEST');
  });

  it('given a redirect URI that differs from the consented one, a client id that is not configured, an unknown provider, a disabled provider or one without credential, when oauth2_authenticate runs, then each is a 4xx and the last four never reach the provider', async () => {
    const redirects: Array<[string, string]> = [
      ['another host', 'https://evil.example/oauth/callback'],
      ['a trailing slash', `${REDIRECT_URI}/`],
      ['an added query', `${REDIRECT_URI}?next=/admin`],
      ['plain http', REDIRECT_URI.replace('https:', 'http:')],
      ['an upper-case host', REDIRECT_URI.replace('app.example', 'APP.example')],
      ['a user-info prefix', 'https://app.example@evil.example/oauth/callback'],
    ];
    for (const [what, redirectUri] of redirects) {
      tally.refused('oauth2', `redirect URI: ${what}`, await authenticate(consent(discord, someone()), { redirectUri }), 400, 'ERR_INVALID_PARAMETER');
    }
    const sent = tokenRequests();
    const clients: Array<[string, Record<string, unknown>]> = [
      ['another client id', { clientId: 'attacker-app' }],
      ['the client id in upper case', { clientId: DISCORD_CLIENT.toUpperCase() }],
      ["X's client id for Discord", { clientId: X_CLIENT }],
      ["organization B's client id", { clientId: B_DISCORD_CLIENT }],
    ];
    for (const [what, over] of clients) {
      tally.refused('oauth2', `client: ${what}`, await authenticate(consent(discord, someone()), over), 400, 'ERR_INVALID_PARAMETER');
    }
    tally.refused(
      'oauth2',
      'provider: unknown (Google through the OAuth 2.0 door)',
      await authenticate(consent(discord, someone()), { provider: 'OAUTH2_PROVIDER_GOOGLE' }),
      400,
      'ERR_INVALID_REQUEST',
    );
    await updateProxySettings(s.store, s.org.organizationId, { social: { x: { enabled: false } } });
    try {
      tally.refused(
        'oauth2',
        'provider: disabled',
        await authenticate(consent(x, someone()), { provider: 'OAUTH2_PROVIDER_X', clientId: X_CLIENT }),
        403,
        'ERR_AUTH_METHOD_DISABLED',
      );
    } finally {
      await updateProxySettings(s.store, s.org.organizationId, { social: { x: { enabled: true } } });
    }
    // Organization B enabled both providers but stored no credential.
    tally.refused(
      'oauth2',
      'provider: enabled without credential (Discord)',
      await authenticate(consent(discord, someone()), { clientId: B_DISCORD_CLIENT }, b.browser),
      403,
      'ERR_AUTH_METHOD_DISABLED',
    );
    tally.refused(
      'oauth2',
      'provider: enabled without credential (X)',
      await authenticate(consent(x, someone()), { provider: 'OAUTH2_PROVIDER_X', clientId: X_CLIENT }, b.browser),
      403,
      'ERR_AUTH_METHOD_DISABLED',
    );
    expect(tokenRequests()).toBe(sent);
  });

  describe('the id token this server issues', () => {
    let victimKey: EcKeyPair;
    let issued: string;
    let victimOrg: string;
    let xToken: string;
    let xOrg: string;

    beforeAll(async () => {
      victimKey = generateP256KeyPair();
      const auth = await authenticate(consent(discord, { id: `victim-${randomUUID()}`, username: 'victim', email: 'victim@example.com' }), {
        nonce: sha256Hex(victimKey.publicKey),
      });
      expect(auth.status, JSON.stringify(auth.body)).toBe(200);
      issued = auth.body.oidcToken;
      const signup = await s.browser.post('signup_v2', { userName: 'victim', oauthProviders: [{ providerName: 'discord', oidcToken: issued }] });
      expect(signup.status, JSON.stringify(signup.body)).toBe(200);
      victimOrg = signup.body.organizationId;
      expect((await s.browser.post('oauth_login', { oidcToken: issued, publicKey: victimKey.publicKey })).status).toBe(200);
      const xKey = generateP256KeyPair();
      const xAuth = await authenticate(consent(x, { id: `x-${randomUUID()}`, username: 'xvictim' }), {
        provider: 'OAUTH2_PROVIDER_X',
        clientId: X_CLIENT,
        nonce: sha256Hex(xKey.publicKey),
      });
      xToken = xAuth.body.oidcToken;
      xOrg = (await s.browser.post('signup_v2', { userName: 'xvictim', oauthProviders: [{ providerName: 'x', oidcToken: xToken }] })).body.organizationId;
    });

    /** Present a token at login (with `key`), lookup and signup of `client`: each must be a 401. */
    async function refusedEverywhere(what: string, oidcToken: string, key: EcKeyPair, client: ProxyClient = s.browser) {
      tally.refused(
        'oauth2',
        `${what} (oauth_login)`,
        await client.post('oauth_login', { oidcToken, publicKey: key.publicKey }),
        401,
        'ERR_OIDC_TOKEN_INVALID',
      );
      tally.refused(
        'oauth2',
        `${what} (account)`,
        await client.post('account', { filterType: 'OIDC_TOKEN', filterValue: oidcToken }),
        401,
        'ERR_OIDC_TOKEN_INVALID',
      );
      tally.refused(
        'oauth2',
        `${what} (signup_v2)`,
        await client.post('signup_v2', { userName: 'mallory', oauthProviders: [{ providerName: 'discord', oidcToken }] }),
        401,
        'ERR_OIDC_TOKEN_INVALID',
      );
    }

    it("given the victim's issued token, when an attacker replays it with their own key or tampers with it, then login is refused (nonce) and every tampered copy is a 401 at login, lookup and signup", async () => {
      const attacker = generateP256KeyPair();
      const before = await subOrgs();
      tally.refused(
        'oauth2',
        'issued token replayed with another key',
        await s.browser.post('oauth_login', { oidcToken: issued, publicKey: attacker.publicKey }),
        401,
        'ERR_OIDC_TOKEN_INVALID',
      );
      tally.refused(
        'oauth2',
        'issued token replayed for a second signup',
        await s.browser.post('signup_v2', { userName: 'mallory', oauthProviders: [{ providerName: 'discord', oidcToken: issued }] }),
        409,
        'ERR_ALREADY_EXISTS',
      );

      const [head, payload, sig] = issued.split('.') as [string, string, string];
      const claims = decodeJwt<Record<string, unknown>>(issued);
      const now = seconds();
      const jwks = (await (await fetch(`${s.url}/.well-known/jwks.json`)).json()) as { keys: Array<Record<string, string>> };
      const enclaveJwk = jwks.keys[0]!;
      const hs256 = (secret: string | Uint8Array) => {
        const input = `${b64json({ alg: 'HS256', typ: 'JWT', kid: enclaveJwk.kid })}.${b64json({ ...claims, nonce: sha256Hex(attacker.publicKey) })}`;
        return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
      };
      const foreign = await generateKeyPair('ES256');
      const flipped = Buffer.from(sig, 'base64url');
      flipped[10]! ^= 0x01;
      const cases: Array<[string, string]> = [
        ['the nonce rewritten to the attacker key', `${head}.${b64json({ ...claims, nonce: sha256Hex(attacker.publicKey) })}.${sig}`],
        ['the subject rewritten', `${head}.${b64json({ ...claims, sub: `${discord.url}|someone-else` })}.${sig}`],
        ['the audience rewritten to the other enabled client', `${head}.${b64json({ ...claims, aud: X_CLIENT })}.${sig}`],
        ['the expiry extended', `${head}.${b64json({ ...claims, exp: now + 86_400 })}.${sig}`],
        ['a flipped signature bit', `${head}.${payload}.${flipped.toString('base64url')}`],
        ['alg none', `${b64json({ alg: 'none', typ: 'JWT' })}.${b64json({ ...claims, nonce: sha256Hex(attacker.publicKey) })}.`],
        ['HS256 keyed with the published JWK', hs256(JSON.stringify(enclaveJwk))],
        ['HS256 keyed with the enclave public key hex', hs256(s.enclave.signingPublicKey)],
        [
          'ES256 by a foreign key with the enclave kid',
          await new SignJWT({ ...claims, nonce: sha256Hex(attacker.publicKey) })
            .setProtectedHeader({ alg: 'ES256', kid: enclaveJwk.kid })
            .sign(foreign.privateKey),
        ],
        ['a genuine but expired issued token', s.enclave.signJwt({ ...claims, nonce: sha256Hex(attacker.publicKey), iat: now - 1200, exp: now - 600 })],
        ["the provider's URL as issuer", s.enclave.signJwt({ ...claims, iss: discord.url, nonce: sha256Hex(attacker.publicKey) })],
        ['our issuer with a trailing slash', s.enclave.signJwt({ ...claims, iss: `${issuerOf(s.config)}/`, nonce: sha256Hex(attacker.publicKey) })],
        ['a verification token', verificationTokenFor(s, 'victim@example.com')],
        ['the victim session JWT', (await s.browser.post('oauth_login', { oidcToken: issued, publicKey: victimKey.publicKey })).body.session],
      ];
      for (const [what, oidcToken] of cases) await refusedEverywhere(`issued token: ${what}`, oidcToken, attacker);
      expect(await subOrgs()).toBe(before);
    });

    it("given tokens issued for organization A's logins, when presented to organization B's proxy, then B refuses a client it does not enable (401) and finds no account for a shared one (404 at login, null at lookup)", async () => {
      const key = generateP256KeyPair();
      const before = await subOrgs(b.organizationId);
      await refusedEverywhere("A's Discord token at B", issued, key, b.browser);
      const xKey = generateP256KeyPair();
      const fresh = await authenticate(consent(x, { id: decodeJwt<{ sub: string }>(xToken).sub.split('|')[1]!, username: 'xvictim' }), {
        provider: 'OAUTH2_PROVIDER_X',
        clientId: X_CLIENT,
        nonce: sha256Hex(xKey.publicKey),
      });
      expect(fresh.status).toBe(200);
      tally.refused(
        'oauth2',
        "A's X token at B (shared client), oauth_login",
        await b.browser.post('oauth_login', { oidcToken: fresh.body.oidcToken, publicKey: xKey.publicKey }),
        404,
        'ERR_USER_NOT_FOUND',
      );
      // The lookup answers as for anybody without an account there: A's sub-organization stays unnamed.
      const lookup: ProxyReply = await b.browser.post('account', { filterType: 'OIDC_TOKEN', filterValue: fresh.body.oidcToken });
      expect(lookup.body).toEqual({});
      expect(JSON.stringify(lookup.body)).not.toContain(xOrg);
      expect(await subOrgs(b.organizationId)).toBe(before);
      // A itself still logs the X user in.
      const home = await s.browser.post('oauth_login', { oidcToken: fresh.body.oidcToken, publicKey: xKey.publicKey });
      expect(decodeJwt<{ organization_id: string }>(home.body.session).organization_id).toBe(xOrg);
      expect(victimOrg).not.toBe(xOrg);
    });
  });

  it('given a provider that answers 500, HTML, a reply without token or user id, refuses the client, or cannot be reached, when oauth2_authenticate runs, then it is a 502 ERR_OAUTH_EXCHANGE_FAILED that leaks nothing (a provider failure, not a bad input)', async () => {
    const faults: Fault[] = [
      'token 500',
      'token HTML',
      'token without access_token',
      'token JSON array',
      'token invalid_client',
      'token invalid_request',
      'token unreachable',
      'user-info 500',
      'user-info HTML',
      'user-info without id',
      'user-info 401',
      'user-info unreachable',
    ];
    try {
      for (const f of faults) {
        fault = f;
        const reply = await authenticate(consent(discord, someone()));
        expect({ fault: f, status: reply.status, code: reply.body?.details?.[0]?.errorCode }).toEqual({
          fault: f,
          status: 502,
          code: 'ERR_OAUTH_EXCHANGE_FAILED',
        });
        expect(JSON.stringify(reply.body)).not.toMatch(/127\.0\.0\.1|secret|invalid_client|exploded|<html/i);
      }
    } finally {
      fault = undefined;
    }
    // The provider is back: the same flow works.
    expect((await authenticate(consent(discord, someone()))).status).toBe(200);
  });
});
