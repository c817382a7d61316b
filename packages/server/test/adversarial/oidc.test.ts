/**
 * Google sign-in under attack, through the proxy (/v1 oauth_login, signup_v2, account) against
 * a real local OpenID Provider (oidc-provider): id tokens bound to another key or to none,
 * foreign issuers and audiences, expired and not-yet-valid tokens, algorithm confusion (none,
 * HMAC keyed with the public JWK, keys outside the JWKS, embedded keys), replayed tokens, social
 * linking by unverified emails, and signup claims that differ from their token. Every hostile
 * request is a 4xx with a stable code and leaves no session, account or link behind.
 */
import { createHash, createHmac, generateKeyPairSync, randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, generateP256KeyPair, sha256Hex, type EcKeyPair } from '@walletkit/crypto';
import { updateProxySettings } from '../../src/admin/proxy';
import { apiKeys, oauthProviders, organizations, users } from '../../src/store/schema';
import { startOidcIssuer, type LocalOidcIssuer } from '../support/oidc-issuer';
import { startProxyServer, submitOver, type ProxyReply, type ProxyTestServer } from '../support/proxy';
import { storeKinds, type StoreKind } from '../support/stores';
import { freshEmail, signupByCode } from './support/flows';
import { proxyHeaders, sendRaw } from './support/http';
import { adversarialTally } from './support/tally';

const tally = adversarialTally('oidc');
const APP = 'https://app.example';
/** The integrator's Google client: enabled, and trusted for social linking. */
const CLIENT_ID = 'walletkit-web.apps.googleusercontent.example';
/** A second enabled Google client that is not trusted for social linking. */
const OTHER_CLIENT_ID = 'walletkit-ios.apps.googleusercontent.example';
const REDIRECT_URI = `${APP}/oauth/callback`;
/** Google's documented issuer; configured here with the local provider's keys (the alias edge). */
const GOOGLE_ISSUER = 'https://accounts.google.com';

const seconds = () => Math.floor(Date.now() / 1000);
const b64json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A compact JWS from parts, signed or not: what an attacker can put on the wire. */
const rawJwt = (header: unknown, payload: unknown, signature = '') => `${b64json(header)}.${b64json(payload)}.${signature}`;

let google: LocalOidcIssuer;
/** A real OpenID provider the server does not trust (same kid as Google's key, other key). */
let stranger: LocalOidcIssuer;

beforeAll(async () => {
  [google, stranger] = await Promise.all([
    startOidcIssuer({ clientId: CLIENT_ID, clientSecret: 'google secret', redirectUri: REDIRECT_URI }),
    startOidcIssuer({ clientId: CLIENT_ID, clientSecret: 'stranger secret', redirectUri: REDIRECT_URI }),
  ]);
});
afterAll(async () => {
  await google?.close();
  await stranger?.close();
});

/** A proxy server trusting the local Google (under its own URL and under Google's issuer), Google enabled for both clients. */
async function startGoogleServer(kind: StoreKind): Promise<ProxyTestServer> {
  const s = await startProxyServer(kind, {
    config: {
      oidcProviders: [
        { name: 'google', issuer: google.issuer, jwksUri: google.jwksUri },
        { name: 'google', issuer: GOOGLE_ISSUER, jwksUri: google.jwksUri },
      ],
    },
    proxy: { origins: [APP] },
    origin: APP,
  });
  await updateProxySettings(s.store, s.org.organizationId, {
    social: { google: { enabled: true, clientIds: [CLIENT_ID, OTHER_CLIENT_ID] } },
    socialLinkingClientIds: [CLIENT_ID],
  });
  return s;
}

/** The three proxy doors an OIDC token opens, and the bookkeeping of what they leave behind. */
function doors(s: ProxyTestServer) {
  const login = (oidcToken: string, key: { publicKey: string }) => s.browser.post('oauth_login', { oidcToken, publicKey: key.publicKey });
  const lookup = (oidcToken: string) => s.browser.post('account', { filterType: 'OIDC_TOKEN', filterValue: oidcToken });
  const signup = (oidcToken: string, userName = `g-${randomUUID().slice(0, 8)}`) =>
    s.browser.post('signup_v2', { userName, oauthProviders: [{ providerName: 'google', oidcToken }] });
  /** Sub-organizations of the integrator. */
  const subOrgs = async () =>
    (await s.store.db.select({ n: count() }).from(organizations).where(eq(organizations.parentOrganizationId, s.org.organizationId)))[0]!.n;
  /** Rows of `key` as an API key anywhere (a session opened for it). */
  const keyRows = (key: EcKeyPair) => s.store.db.select().from(apiKeys).where(eq(apiKeys.publicKey, key.publicKey));
  /** An id token of the local Google for `sub`, bound to `key`, with claims overridden by `extra`. */
  const token = (sub: string, key: EcKeyPair | undefined, extra: Record<string, unknown> = {}) =>
    google.sign({ sub, aud: CLIENT_ID, iat: seconds(), exp: seconds() + 600, ...(key ? { nonce: sha256Hex(key.publicKey) } : {}), ...extra });
  /**
   * Present `oidcToken` at login (with `key`), lookup and signup; each must be the same 401.
   * Returns nothing: the tally asserts.
   */
  const refusedEverywhere = async (what: string, oidcToken: string, key: EcKeyPair) => {
    tally.refused('oidc', `${what} (oauth_login)`, await login(oidcToken, key), 401, 'ERR_OIDC_TOKEN_INVALID');
    tally.refused('oidc', `${what} (account)`, await lookup(oidcToken), 401, 'ERR_OIDC_TOKEN_INVALID');
    tally.refused('oidc', `${what} (signup_v2)`, await signup(oidcToken), 401, 'ERR_OIDC_TOKEN_INVALID');
  };
  return { login, lookup, signup, subOrgs, keyRows, token, refusedEverywhere };
}

describe('Google id tokens through the proxy (PGlite)', () => {
  let s: ProxyTestServer;
  let d: ReturnType<typeof doors>;
  /** The victim: a Google account signed up through the proxy. */
  const SUB = `victim-${randomUUID()}`;
  let victimOrg: string;

  beforeAll(async () => {
    s = await startGoogleServer('pglite');
    d = doors(s);
    const signup = await d.signup(await google.login({ sub: SUB, nonce: sha256Hex(generateP256KeyPair().publicKey), email: 'victim@example.com' }), 'victim');
    expect(signup.status, JSON.stringify(signup.body)).toBe(200);
    victimOrg = signup.body.organizationId;
  });
  afterAll(async () => s?.dispose());

  it("given the victim's genuine tokens whose nonce is the hash of another key, another spelling of the presented key's hash, or absent, when presented with the attacker's key, then each is a 401 ERR_OIDC_TOKEN_INVALID and that key holds no session", async () => {
    const honest = generateP256KeyPair();
    // Control: the same flow with the key the nonce hashes logs in.
    const ok = await d.login(await google.login({ sub: SUB, nonce: sha256Hex(honest.publicKey) }), honest);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(decodeJwt<{ organization_id: string }>(ok.body.session).organization_id).toBe(victimOrg);

    const attacker = generateP256KeyPair();
    const hash = sha256Hex(attacker.publicKey);
    const nonces: Array<[string, unknown]> = [
      ['the hash of the honest key', sha256Hex(honest.publicKey)],
      ['the hash in upper-case hex', hash.toUpperCase()],
      ['the hash in base64url', Buffer.from(hash, 'hex').toString('base64url')],
      ['the hash with a trailing newline', `${hash}\n`],
      ['the hash with a leading space', ` ${hash}`],
      ['the hash truncated', hash.slice(0, 32)],
      ['the key itself, unhashed', attacker.publicKey],
      ['the hash of the uncompressed key', sha256Hex(attacker.publicKeyUncompressed)],
      ['the SHA-256 of the key bytes (not of its hex)', createHash('sha256').update(Buffer.from(attacker.publicKey, 'hex')).digest('hex')],
      ['an array holding the hash', [hash]],
      ['an object holding the hash', { nonce: hash }],
      ['a number', 42],
      ['an empty string', ''],
      ['null', null],
    ];
    for (const [what, nonce] of nonces) {
      tally.refused('oidc', `nonce: ${what}`, await d.login(await d.token(SUB, undefined, { nonce }), attacker), 401, 'ERR_OIDC_TOKEN_INVALID');
    }
    tally.refused('oidc', 'nonce: absent', await d.login(await d.token(SUB, undefined), attacker), 401, 'ERR_OIDC_TOKEN_INVALID');
    tally.refused(
      'oidc',
      'nonce: a real login bound to the honest key',
      await d.login(await google.login({ sub: SUB, nonce: sha256Hex(honest.publicKey) }), attacker),
      401,
      'ERR_OIDC_TOKEN_INVALID',
    );

    expect(await d.keyRows(attacker)).toEqual([]);
    tally.refused(
      'oidc',
      'attacker key stamps on the victim',
      await submitOver(s.url, attacker, victimOrg, 'create_wallet', { walletName: 'loot', accounts: [] }),
      401,
      'ERR_STAMP_KEY_UNKNOWN',
    );
  });

  it('given tokens of an untrusted issuer, of a spelling of the trusted one, for a client the proxy does not enable, with a foreign audience among several, or with no or an empty subject, when presented at login, lookup and signup, then each is a 401 ERR_OIDC_TOKEN_INVALID', async () => {
    const key = generateP256KeyPair();
    const before = await d.subOrgs();
    const now = seconds();
    const base = { sub: SUB, aud: CLIENT_ID, nonce: sha256Hex(key.publicKey), iat: now, exp: now + 600 };
    const cases: Array<[string, string]> = [
      ['another real provider, not configured', await stranger.sign(base)],
      ['another real provider, real login flow', await stranger.login({ sub: SUB, nonce: base.nonce })],
      ['the issuer with a trailing slash', await google.sign({ ...base, iss: `${google.issuer}/` })],
      ['the issuer in upper case', await google.sign({ ...base, iss: google.issuer.toUpperCase() })],
      ['the issuer over https', await google.sign({ ...base, iss: google.issuer.replace('http:', 'https:') })],
      ["Google's issuer with a trailing slash", await google.sign({ ...base, iss: `${GOOGLE_ISSUER}/` })],
      ["Google's bare issuer with a space", await google.sign({ ...base, iss: 'accounts.google.com ' })],
      ["Google's bare issuer over http", await google.sign({ ...base, iss: 'http://accounts.google.com' })],
      ['no issuer', await google.sign({ ...base, iss: undefined })],
      ['an issuer that is a number', await google.sign({ ...base, iss: 1 })],
      ['an audience the proxy does not enable', await google.sign({ ...base, aud: 'someone-elses-app.apps.googleusercontent.example' })],
      ['an audience array with a foreign first entry', await google.sign({ ...base, aud: ['attacker-app.apps.googleusercontent.example', CLIENT_ID] })],
      ['an audience array with a foreign second entry', await google.sign({ ...base, aud: [CLIENT_ID, 'attacker-app.apps.googleusercontent.example'] })],
      ['an empty audience array', await google.sign({ ...base, aud: [] })],
      ['an empty audience', await google.sign({ ...base, aud: '' })],
      ['an audience differing in case', await google.sign({ ...base, aud: CLIENT_ID.toUpperCase() })],
      ['no subject', await google.sign({ ...base, sub: undefined })],
      ['an empty subject', await google.sign({ ...base, sub: '' })],
      ['a numeric subject', await google.sign({ ...base, sub: 12345 })],
    ];
    for (const [what, oidcToken] of cases) await d.refusedEverywhere(what, oidcToken, key);
    expect(await d.subOrgs()).toBe(before);
    expect(await d.keyRows(key)).toEqual([]);
  });

  it('given tokens that expired beyond the 60 s skew, are not valid yet, were issued in the future or carry no expiry, when presented at login, lookup and signup, then each is a 401 ERR_OIDC_TOKEN_INVALID', async () => {
    const key = generateP256KeyPair();
    const before = await d.subOrgs();
    const now = seconds();
    const cases: Array<[string, Record<string, unknown>]> = [
      ['expired 2 minutes ago', { iat: now - 3600, exp: now - 120 }],
      ['expired a day ago', { iat: now - 90_000, exp: now - 86_400 }],
      ['nbf 10 minutes ahead', { nbf: now + 600 }],
      ['nbf 2 minutes ahead', { nbf: now + 120 }],
      ['iat an hour ahead', { iat: now + 3600, exp: now + 7200 }],
      ['iat a year ahead', { iat: now + 365 * 86_400, exp: now + 365 * 86_400 + 600 }],
      ['no exp', { exp: undefined }],
      ['exp as a string', { exp: String(now + 600) }],
      ['exp not a number', { exp: 'never' }],
    ];
    for (const [what, extra] of cases) await d.refusedEverywhere(what, await d.token(SUB, key, extra), key);
    expect(await d.subOrgs()).toBe(before);
    expect(await d.keyRows(key)).toEqual([]);
    // Control: within the skew is accepted.
    const ok = await d.login(await d.token(SUB, key, { iat: now - 3600, exp: now - 30 }), key);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it("given tokens with alg none, HS256 keyed with the provider's public JWK, RS256 by a key outside the JWKS, a kid pointing nowhere, an embedded or remote key, or ES256 claiming the provider's issuer, when presented at login, lookup and signup, then each is a 401 ERR_OIDC_TOKEN_INVALID", async () => {
    const key = generateP256KeyPair();
    const before = await d.subOrgs();
    const now = seconds();
    const claims = { iss: google.issuer, sub: SUB, aud: CLIENT_ID, nonce: sha256Hex(key.publicKey), iat: now, exp: now + 600 };
    const { keys } = (await (await fetch(google.jwksUri)).json()) as { keys: Array<Record<string, string>> };
    const publicJwk = keys[0]!;
    expect(publicJwk.kid).toBe('test-rs256');
    const hmac = (secret: Uint8Array | string, header: Record<string, unknown> = { alg: 'HS256', kid: 'test-rs256' }) => {
      const signingInput = `${b64json(header)}.${b64json(claims)}`;
      return `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`;
    };
    const foreign = await generateKeyPair('RS256', { extractable: true });
    const foreignJwk = { ...(await exportJWK(foreign.publicKey)), kid: 'attacker', alg: 'RS256', use: 'sig' };
    const ec = await generateKeyPair('ES256');
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' });
    const genuine = await d.token(SUB, key);
    const [, , genuineSig] = genuine.split('.') as [string, string, string];

    const cases: Array<[string, string]> = [
      ['alg none, no signature', rawJwt({ alg: 'none', typ: 'JWT' }, claims)],
      ['alg none with the kid', rawJwt({ alg: 'none', kid: 'test-rs256' }, claims)],
      ['alg None (case)', rawJwt({ alg: 'None' }, claims)],
      ["alg none carrying Google's signature", rawJwt({ alg: 'none' }, claims, genuineSig)],
      ['HS256 keyed with the public JWK (JSON)', hmac(JSON.stringify(publicJwk))],
      ['HS256 keyed with the modulus bytes', hmac(Buffer.from(publicJwk.n!, 'base64url'))],
      ['HS256 keyed with a PEM public key', hmac(String(pem))],
      [
        'HS512 keyed with the public JWK',
        (() => {
          const header = { alg: 'HS512', kid: 'test-rs256' };
          const signingInput = `${b64json(header)}.${b64json(claims)}`;
          return `${signingInput}.${createHmac('sha512', JSON.stringify(publicJwk)).update(signingInput).digest('base64url')}`;
        })(),
      ],
      [
        "RS256 by a key outside the JWKS with Google's kid",
        await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'test-rs256' }).sign(foreign.privateKey),
      ],
      ['RS256 by a key outside the JWKS without kid', await new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).sign(foreign.privateKey)],
      ['RS256 with a kid pointing nowhere', await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'no-such-key' }).sign(foreign.privateKey)],
      [
        'RS256 with the signing key embedded (jwk header)',
        await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', jwk: foreignJwk }).sign(foreign.privateKey),
      ],
      [
        'RS256 with a remote key set (jku header)',
        await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'attacker', jku: `${stranger.issuer}/jwks` }).sign(foreign.privateKey),
      ],
      ["ES256 claiming the provider's issuer", await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'test-rs256' }).sign(ec.privateKey)],
      [
        'PS256 by a foreign key',
        await new SignJWT(claims).setProtectedHeader({ alg: 'PS256', kid: 'test-rs256' }).sign((await generateKeyPair('PS256')).privateKey),
      ],
      ['a genuine signature over other claims', `${genuine.split('.')[0]}.${b64json({ ...claims, sub: `${SUB}-x` })}.${genuineSig}`],
      ['a genuine token with its signature cut', genuine.slice(0, genuine.lastIndexOf('.') + 1)],
      ['JWE-shaped (five parts)', `${b64json({ alg: 'dir', enc: 'A256GCM' })}..${b64json(claims)}..`],
      ['not a JWT', 'not-a-jwt'],
    ];
    for (const [what, oidcToken] of cases) await d.refusedEverywhere(what, oidcToken, key);
    expect(await d.subOrgs()).toBe(before);
    expect(await d.keyRows(key)).toEqual([]);
  });

  it("given Google's bare issuer spelling (accounts.google.com), when a user signs up under one spelling and comes back under the other, then both name one identity: login finds the account and a second signup is a 409", async () => {
    const sub = `alias-${randomUUID()}`;
    const key = generateP256KeyPair();
    const full = await d.token(sub, key, { iss: GOOGLE_ISSUER });
    const bare = await d.token(sub, key, { iss: 'accounts.google.com' });
    const signup = await d.signup(full);
    expect(signup.status, JSON.stringify(signup.body)).toBe(200);
    expect((await d.lookup(bare)).body).toEqual({ organizationId: signup.body.organizationId });
    const login = await d.login(bare, key);
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(decodeJwt<{ organization_id: string }>(login.body.session).organization_id).toBe(signup.body.organizationId);
    const before = await d.subOrgs();
    tally.refused('oidc', 'second signup under the bare issuer spelling', await d.signup(bare), 409, 'ERR_ALREADY_EXISTS');
    expect(await d.subOrgs()).toBe(before);
    const [row] = await s.store.db.select().from(oauthProviders).where(eq(oauthProviders.organizationId, signup.body.organizationId));
    expect(row?.issuer).toBe(GOOGLE_ISSUER);
  });

  it('given social linking trusted for the client, when tokens whose email_verified is false, missing, "false" or not a boolean name an email a sub-organization holds unverified or verified, then nothing is linked (404 ERR_USER_NOT_FOUND); a verified email on both sides links and logs in', async () => {
    // A squatter typed an address without proving it; the owner of another proved theirs.
    const unverified = freshEmail('unverified');
    const squatKey = generateP256KeyPair();
    const squat = await s.browser.post('signup_v2', {
      userName: 'squat',
      userEmail: unverified,
      apiKeys: [{ apiKeyName: 'k', publicKey: squatKey.publicKey, curveType: 'API_KEY_CURVE_P256' }],
    });
    expect(squat.status, JSON.stringify(squat.body)).toBe(200);
    const verified = freshEmail('verified');
    const owner = await signupByCode(s, verified);
    const linksOf = async (organizationId: string) => s.store.db.select().from(oauthProviders).where(eq(oauthProviders.organizationId, organizationId));

    const key = generateP256KeyPair();
    const cases: Array<[string, string, Record<string, unknown>]> = [];
    for (const [which, email] of [
      ['unverified', unverified],
      ['verified', verified],
    ] as const) {
      cases.push(
        [`${which} email, email_verified false`, email, { email_verified: false }],
        [`${which} email, email_verified missing`, email, {}],
        [`${which} email, email_verified "false"`, email, { email_verified: 'false' }],
        [`${which} email, email_verified "False"`, email, { email_verified: 'False' }],
        [`${which} email, email_verified 1`, email, { email_verified: 1 }],
        [`${which} email, email_verified "yes"`, email, { email_verified: 'yes' }],
        [`${which} email, email_verified null`, email, { email_verified: null }],
      );
    }
    cases.push(
      ['unverified email, email_verified true', unverified, { email_verified: true }],
      ['unverified email in upper case, email_verified true', unverified.toUpperCase(), { email_verified: true }],
      ['verified email, email_verified true, client not trusted for linking', verified, { email_verified: true, aud: OTHER_CLIENT_ID }],
      [
        'verified email in upper case, email_verified true, client not trusted for linking',
        verified.toUpperCase(),
        { email_verified: 'true', aud: OTHER_CLIENT_ID },
      ],
      ['verified email with a trailing dot domain, email_verified true', verified.replace('example.com', 'example.com.'), { email_verified: true }],
      ['verified email with a plus tag, email_verified true', verified.replace('@', '+x@'), { email_verified: true }],
      ['an email array holding the verified email', verified, { email: [verified], email_verified: true }],
    );
    for (const [what, email, extra] of cases) {
      const oidcToken = await d.token(`linker-${randomUUID()}`, key, { email, ...extra });
      tally.refused('oidc', `social linking: ${what}`, await d.login(oidcToken, key), 404, 'ERR_USER_NOT_FOUND');
    }
    expect(await linksOf(squat.body.organizationId)).toEqual([]);
    expect(await linksOf(owner.organizationId)).toEqual([]);
    expect(await d.keyRows(key)).toEqual([]);

    // Control: provider-verified and our-verified, trusted client: linked once, then found.
    const sub = `linker-${randomUUID()}`;
    const oidcToken = await d.token(sub, key, { email: verified, email_verified: true });
    const linked = await d.login(oidcToken, key);
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(decodeJwt<{ organization_id: string; user_id: string }>(linked.body.session)).toMatchObject({
      organization_id: owner.organizationId,
      user_id: owner.userId,
    });
    expect((await linksOf(owner.organizationId)).map((p) => [p.issuer, p.subject, p.audience])).toEqual([[google.issuer, sub, CLIENT_ID]]);
    expect((await d.lookup(oidcToken)).body).toEqual({ organizationId: owner.organizationId });
    // The squatter's account is still not reachable by anybody's Google login.
    const [squatUser] = await s.store.db
      .select()
      .from(users)
      .where(and(eq(users.organizationId, squat.body.organizationId)));
    expect(squatUser?.emailVerified).toBe(false);
  });

  it('given signup_v2 with oidcClaims that differ from the accompanying token in iss, sub or aud, or without a token, then each is refused and no account is created', async () => {
    const key = generateP256KeyPair();
    const sub = `claims-${randomUUID()}`;
    const oidcToken = await d.token(sub, key);
    const before = await d.subOrgs();
    const claims = { iss: google.issuer, sub, aud: CLIENT_ID };
    const withClaims = (oidcClaims: Record<string, string>, token: string | null = oidcToken) =>
      s.browser.post('signup_v2', {
        userName: 'claims',
        oauthProviders: [{ providerName: 'google', oidcClaims: oidcClaims as typeof claims }],
        ...(token !== null ? { oidcToken: token } : {}),
      });
    const mismatches: Array<[string, Record<string, string>]> = [
      ['another issuer', { ...claims, iss: stranger.issuer }],
      ["Google's issuer for a local token", { ...claims, iss: GOOGLE_ISSUER }],
      ['the issuer with a trailing slash', { ...claims, iss: `${google.issuer}/` }],
      ['another subject', { ...claims, sub: SUB }],
      ['the subject with a trailing space', { ...claims, sub: `${sub} ` }],
      ['another enabled audience', { ...claims, aud: OTHER_CLIENT_ID }],
      ['a foreign audience', { ...claims, aud: 'attacker-app' }],
    ];
    for (const [what, oidcClaims] of mismatches) {
      tally.refused('oidc', `oidcClaims: ${what}`, await withClaims(oidcClaims), 401, 'ERR_OIDC_TOKEN_INVALID');
    }
    tally.refused('oidc', 'oidcClaims: no accompanying token', await withClaims(claims, null), 400, 'ERR_INVALID_REQUEST');
    tally.refused(
      'oidc',
      'oidcClaims: an expired accompanying token',
      await withClaims(claims, await d.token(sub, key, { iat: seconds() - 3600, exp: seconds() - 300 })),
      401,
      'ERR_OIDC_TOKEN_INVALID',
    );
    tally.refused(
      'oidc',
      'oidcClaims: a forged accompanying token',
      await withClaims(claims, rawJwt({ alg: 'none' }, { ...claims, exp: seconds() + 600 })),
      401,
      'ERR_OIDC_TOKEN_INVALID',
    );
    const two = await s.browser.post('signup_v2', {
      userName: 'claims',
      oidcToken,
      oauthProviders: [
        { providerName: 'google', oidcClaims: claims },
        { providerName: 'google', oidcClaims: { ...claims, sub: SUB } },
      ],
    });
    tally.refused('oidc', 'oidcClaims: the second entry names the victim', two, 401, 'ERR_OIDC_TOKEN_INVALID');
    // A raw body mixing both forms in one entry is not a schema.
    const mixed = await sendRaw(
      s.url,
      '/v1/signup_v2',
      JSON.stringify({ userName: 'x', oidcToken, oauthProviders: [{ providerName: 'google', oidcToken, oidcClaims: { ...claims, sub: SUB } }] }),
      proxyHeaders(s.proxy.id, APP),
    );
    tally.refused('oidc', 'oidcClaims and oidcToken in one entry', mixed, 400, 'ERR_INVALID_REQUEST');
    expect(await d.subOrgs()).toBe(before);
    // Control: the matching claims sign up.
    expect((await withClaims(claims)).status).toBe(200);
  });
});

describe.each(storeKinds)('replayed Google id tokens on %s', (kind) => {
  let s: ProxyTestServer;
  let d: ReturnType<typeof doors>;

  beforeAll(async () => {
    s = await startGoogleServer(kind);
    d = doors(s);
  });
  afterAll(async () => s?.dispose());

  it("given the victim's id token captured after it signed up and logged in, when an attacker replays it with their own session key or for a second signup, then login is a 401 (nonce), signup a 409 ERR_ALREADY_EXISTS, and nothing is created", async () => {
    const victimKey = generateP256KeyPair();
    const sub = `replayed-${randomUUID()}`;
    const captured = await google.login({ sub, nonce: sha256Hex(victimKey.publicKey), email: 'replayed@example.com' });
    const signup = await d.signup(captured, 'victim');
    expect(signup.status, JSON.stringify(signup.body)).toBe(200);
    expect((await d.login(captured, victimKey)).status).toBe(200);

    const attackers = [generateP256KeyPair(), generateP256KeyPair()];
    const subOrgsBefore = await d.subOrgs();
    const usersBefore = (await s.store.db.select({ n: count() }).from(users))[0]!.n;
    const replies: ProxyReply[] = [];
    for (const attacker of attackers) {
      tally.refused('oidc', 'replayed token, attacker key', await d.login(captured, attacker), 401, 'ERR_OIDC_TOKEN_INVALID');
      tally.refused(
        'oidc',
        'replayed token, attacker key, invalidateExisting',
        await s.browser.post('oauth_login', { oidcToken: captured, publicKey: attacker.publicKey, invalidateExisting: true }),
        401,
        'ERR_OIDC_TOKEN_INVALID',
      );
      replies.push(await d.signup(captured, 'mallory'));
    }
    // Concurrent replays for signup: the identity is one account, whatever the interleaving.
    replies.push(...(await Promise.all([0, 1, 2].map((i) => d.signup(captured, `mallory ${i}`)))));
    replies.push(
      await s.browser.post('signup_v2', {
        userName: 'mallory',
        oidcToken: captured,
        oauthProviders: [{ providerName: 'google', oidcClaims: { iss: google.issuer, sub, aud: CLIENT_ID } }],
      }),
    );
    for (const reply of replies) tally.refused('oidc', 'replayed token for a second signup', reply, 409, 'ERR_ALREADY_EXISTS');
    tally.duplicates('oidc', 'sub-organizations after replays', (await d.subOrgs()) - subOrgsBefore);
    tally.duplicates('oidc', 'users after replays', (await s.store.db.select({ n: count() }).from(users))[0]!.n - usersBefore);
    for (const attacker of attackers) expect(await d.keyRows(attacker)).toEqual([]);
    // The victim still logs in with a fresh token, and only the victim's sessions exist.
    const again = generateP256KeyPair();
    expect((await d.login(await google.login({ sub, nonce: sha256Hex(again.publicKey) }), again)).status).toBe(200);
    const sessions = await s.store.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.organizationId, signup.body.organizationId), eq(apiKeys.isSession, true)));
    expect(sessions.map((k) => k.publicKey).sort()).toEqual([victimKey.publicKey, again.publicKey].sort());
  });
});
