/**
 * Sessions and the JWTs around them, attacked through the proxy and the activity API over real
 * HTTP (PGlite: nothing here races). Sessions are ES256 JWTs by the enclave key, and requests
 * are authorized by stamps of the session key, never by presenting the JWT. So every place
 * that takes a JWT (verification tokens at otp_login_v2, signup_v2, the account lookup that
 * requires one, update_user_email / update_user_phone_number; OIDC tokens at oauth_login, the
 * OIDC lookup and signup) gets every forgery: alg none, HS256 keyed with the enclave public
 * key, real tokens with edited claims, other signers, expired and malformed expiries, and
 * tokens of the wrong kind. Then session lifetimes on a server clock the test controls,
 * invalidateExisting, what one user's session key can do to another user, and the client
 * signature that binds a verification token to the key that logs in.
 */
import { createHmac, createPublicKey, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  base64urlEncode,
  compressPublicKey,
  createClientSignature,
  decodeJwt,
  generateP256KeyPair,
  sha256Hex,
  signJwt,
  utf8ToBytes,
  verifyJwt,
  type EcKeyPair,
} from '@walletkit/crypto';
import { operations } from '@walletkit/protocol';
import { createOrganization } from '../../src/admin/organizations';
import { enableProxy, updateProxySettings } from '../../src/admin/proxy';
import { issueOidcToken } from '../../src/oauth/issued-token';
import { apiKeys, users } from '../../src/store/schema';
import { ProxyClient, startProxyServer, submitOver, type ProxyTestServer } from '../support/proxy';
import { freshEmail, freshPhone, loginByCode, signupByCode, verifiedToken } from './support/flows';
import { envelopeText, sendRaw, sendStamped } from './support/http';
import { adversarialTally, type SeenReply } from './support/tally';

const tally = adversarialTally('sessions');
const APP = 'https://app.example';
/** The client id of the social login (X, whose id tokens this server issues) the proxy enables. */
const X_CLIENT = 'x-client-id';

type Account = Awaited<ReturnType<typeof signupByCode>> & { contact: string };

/** base64url of a JSON value, as a JWT segment. */
const segment = (value: unknown) => base64urlEncode(utf8ToBytes(JSON.stringify(value)));

/** An HS256 JWT over `claims` keyed by `secret`. */
function hs256(claims: Record<string, unknown>, secret: string | Buffer): string {
  const input = `${segment({ alg: 'HS256', typ: 'JWT' })}.${segment(claims)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

describe('sessions and JWTs under attack (pglite)', () => {
  /** How far the server's clock runs ahead of the real one; only ever grows. */
  let skewMs = 0;
  const serverNow = () => Date.now() + skewMs;
  const serverSeconds = () => Math.floor(serverNow() / 1000);
  let s: ProxyTestServer;
  /** A second organization whose proxy requires a verification token for account lookups. */
  let s2: ProxyTestServer;
  let victim: Account;
  let attacker: Account;
  /** The victim's linked X identity. */
  const victimSub = `x|victim-${randomUUID()}`;
  const attackerSub = `x|attacker-${randomUUID()}`;

  /** A session JWT and the session key it describes (a key of `account`'s user). */
  async function stampLogin(account: { key: EcKeyPair; organizationId: string }, extra: { expirationSeconds?: string; invalidateExisting?: boolean } = {}) {
    const key = generateP256KeyPair();
    const reply = await submitOver(s.url, account.key, account.organizationId, 'stamp_login', { publicKey: key.publicKey, ...extra });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return { key, session: reply.body.activity.result.stampLoginResult.session as string };
  }
  /** whoami stamped by `key` on `organizationId`: any accepted stamp proves the key works. */
  const whoami = (key: EcKeyPair, organizationId: string) => sendStamped(s.url, '/public/v1/query/whoami', JSON.stringify({ organizationId }), key);
  /** An id token as this server issues after an X code exchange. */
  const xToken = (sub: string, nonce: string, email?: string) =>
    issueOidcToken(s.enclave, s.config, { sub, aud: X_CLIENT, nonce, now: new Date(serverNow()), ...(email ? { email, emailVerified: true } : {}) });

  beforeAll(async () => {
    s = await startProxyServer('pglite', {
      proxy: { origins: [APP], settings: { social: { x: { enabled: true, clientIds: [X_CLIENT] } } } },
      deps: { now: () => new Date(serverNow()) },
    });
    const other = await createOrganization(s.store, { name: 'Other integrator' });
    const proxy2 = await enableProxy(s.store, s.enclave, {
      organizationId: other.organizationId,
      origins: [APP],
      settings: { requireVerificationTokenForAccountLookup: true },
    });
    s2 = { ...s, org: other, proxy: proxy2, browser: new ProxyClient(s.url, proxy2.id, APP) };
    const signup = async (label: string): Promise<Account> => {
      const contact = freshEmail(label);
      return { ...(await signupByCode(s, contact)), contact };
    };
    [victim, attacker] = [await signup('victim'), await signup('attacker')];
    for (const [who, sub] of [
      [victim, victimSub],
      [attacker, attackerSub],
    ] as const) {
      const link = await submitOver(s.url, who.key, who.organizationId, 'create_oauth_providers', {
        userId: who.userId,
        oauthProviders: [{ providerName: 'x', oidcToken: xToken(sub, 'link') }],
      });
      expect(link.status, JSON.stringify(link.body)).toBe(200);
    }
    await signupByCode(s2, victim.contact);
  });
  afterAll(async () => s?.dispose());

  /**
   * Every forgery of `real` (a token the server really issued to the attacker) meant to carry
   * `wanted`: the claims the attacker would like accepted. `edits` are single-claim changes of
   * the real token kept under its original signature; `confusions` are real tokens of another kind.
   */
  async function forgeries(
    real: string,
    wanted: Record<string, unknown>,
    edits: Record<string, Record<string, unknown>>,
    confusions: Record<string, string>,
  ): Promise<Array<[string, string]>> {
    const [head, , signature] = real.split('.') as [string, string, string];
    const claims = decodeJwt<Record<string, unknown>>(real);
    const enclaveKey = s.enclave.signingPublicKey;
    const { kty, crv, x, y } = s.enclave.signingJwk();
    const pem = createPublicKey({ key: { kty, crv, x, y }, format: 'jwk' }).export({ type: 'spki', format: 'pem' }) as string;
    const stranger = generateP256KeyPair();
    const embedded = await generateKeyPair('ES256');
    const { exp: _exp, ...withoutExp } = wanted;
    return [
      ['alg none with an empty signature', `${segment({ alg: 'none', typ: 'JWT' })}.${segment(wanted)}.`],
      ['alg none with the original signature', `${segment({ alg: 'none', typ: 'JWT' })}.${segment(wanted)}.${signature}`],
      ['alg NONE without a signature segment', `${segment({ alg: 'NONE' })}.${segment(wanted)}`],
      ['HS256 keyed with the enclave public key (uncompressed hex)', hs256(wanted, enclaveKey)],
      ['HS256 keyed with the enclave public key (compressed hex)', hs256(wanted, compressPublicKey('p256', enclaveKey))],
      ['HS256 keyed with the enclave public key (raw bytes)', hs256(wanted, Buffer.from(enclaveKey, 'hex'))],
      ['HS256 keyed with the enclave public key (PEM)', hs256(wanted, pem)],
      ['HS256 keyed with the enclave JWK', hs256(wanted, JSON.stringify(s.enclave.signingJwk()))],
      ...Object.entries(edits).map(([name, patch]): [string, string] => [
        `edited ${name} under the original signature`,
        `${head}.${segment({ ...claims, ...patch })}.${signature}`,
      ]),
      ['the wanted claims under the original signature', `${head}.${segment(wanted)}.${signature}`],
      ['signed by another P-256 key under the enclave kid', signJwt(wanted, stranger.privateKey, { kid: s.enclave.keyId })],
      [
        'signed by a key embedded in its own header (jwk)',
        await new SignJWT(wanted).setProtectedHeader({ alg: 'ES256', typ: 'JWT', jwk: await exportJWK(embedded.publicKey) }).sign(embedded.privateKey),
      ],
      ['expired (signed by the enclave)', s.enclave.signJwt({ ...wanted, exp: serverSeconds() - 60 })],
      ['exp as a string (signed by the enclave)', s.enclave.signJwt({ ...wanted, exp: String(serverSeconds() + 600) })],
      ['exp missing (signed by the enclave)', s.enclave.signJwt(withoutExp)],
      ['the real token with its signature cut short', real.slice(0, -8)],
      ...Object.entries(confusions),
    ];
  }

  it("given forged, edited, expired and wrong-kind verification tokens claiming the victim's contacts, when they reach otp_login_v2, signup_v2, the token-guarded lookup and update_user_email / update_user_phone_number, then every one is a 401 ERR_VERIFICATION_TOKEN_INVALID and the victim's contacts stay theirs alone", async () => {
    const key = generateP256KeyPair();
    const other = generateP256KeyPair();
    const victimPhone = freshPhone();
    const unclaimed = freshEmail('unclaimed');
    const real = await verifiedToken(s, attacker.contact, key);
    const realSms = await verifiedToken(s, freshPhone(), key);
    const real2 = await verifiedToken(s2, attacker.contact, key);
    const session = (await stampLogin(attacker)).session;
    const oidc = xToken(attackerSub, sha256Hex(key.publicKey), attacker.contact);
    const confusions = { 'a session JWT (type confusion)': session, 'an OIDC id token of this server (type confusion)': oidc };
    const edits = (contact: string) => ({
      contact: { contact },
      organization_id: { organization_id: s2.org.organizationId },
      exp: { exp: serverSeconds() + 365 * 86400 },
      public_key: { public_key: other.publicKey },
      verification_type: { verification_type: 'OTP_TYPE_SMS' },
    });
    /** The key a forged token claims, and a client signature by it over the token id for `usage`. */
    const signedBy = (token: string, fallbackId: string, usage: 'USAGE_TYPE_LOGIN' | 'USAGE_TYPE_SIGNUP') => {
      let claims: { id?: string; public_key?: string } = {};
      try {
        claims = decodeJwt(token);
      } catch {
        // not decodable: sign the real token's id
      }
      const signer = claims.public_key === other.publicKey ? other : key;
      return {
        signer,
        clientSignature: createClientSignature({ privateKey: signer.privateKey, message: JSON.stringify({ type: usage, tokenId: claims.id ?? fallbackId }) }),
      };
    };
    const wantedOf = (token: string, patch: Record<string, unknown>) => ({ ...decodeJwt<Record<string, unknown>>(token), ...patch });

    const consumers: Array<{
      name: string;
      real: string;
      wanted: Record<string, unknown>;
      edits: Record<string, Record<string, unknown>>;
      send: (token: string) => Promise<SeenReply>;
    }> = [
      {
        name: 'otp_login_v2',
        real,
        wanted: wantedOf(real, { contact: victim.contact }),
        edits: edits(victim.contact),
        send: (token) => {
          const { signer, clientSignature } = signedBy(token, decodeJwt<{ id: string }>(real).id, 'USAGE_TYPE_LOGIN');
          return s.browser.post('otp_login_v2', { verificationToken: token, publicKey: signer.publicKey, clientSignature });
        },
      },
      {
        // Where lookups need a token, the login must not answer "no account" (404) to a forged
        // one: that would tell anyone which contacts have accounts.
        name: 'otp_login_v2 for a contact without an account, token-guarded proxy',
        real: real2,
        wanted: wantedOf(real2, { contact: unclaimed }),
        edits: { ...edits(unclaimed), organization_id: { organization_id: s.org.organizationId } },
        send: (token) => {
          const { signer, clientSignature } = signedBy(token, decodeJwt<{ id: string }>(real2).id, 'USAGE_TYPE_LOGIN');
          return s2.browser.post('otp_login_v2', { verificationToken: token, publicKey: signer.publicKey, clientSignature });
        },
      },
      {
        name: 'signup_v2',
        real,
        wanted: wantedOf(real, { contact: unclaimed }),
        edits: edits(unclaimed),
        send: (token) => {
          const { signer, clientSignature } = signedBy(token, decodeJwt<{ id: string }>(real).id, 'USAGE_TYPE_SIGNUP');
          return s.browser.post('signup_v2', {
            userEmail: unclaimed,
            verificationToken: token,
            clientSignature,
            apiKeys: [{ apiKeyName: 'k', publicKey: signer.publicKey, curveType: 'API_KEY_CURVE_P256' }],
          });
        },
      },
      {
        name: 'account lookup (token required)',
        real: real2,
        wanted: wantedOf(real2, { contact: victim.contact }),
        edits: { ...edits(victim.contact), organization_id: { organization_id: s.org.organizationId } },
        send: (token) => s2.browser.post('account', { filterType: 'EMAIL', filterValue: victim.contact, verificationToken: token }),
      },
      {
        name: 'update_user_email',
        real,
        wanted: wantedOf(real, { contact: unclaimed }),
        edits: edits(unclaimed),
        send: (token) =>
          submitOver(s.url, attacker.key, attacker.organizationId, 'update_user_email', {
            userId: attacker.userId,
            userEmail: unclaimed,
            verificationToken: token,
          }),
      },
      {
        name: 'update_user_phone_number',
        real: realSms,
        wanted: wantedOf(realSms, { contact: victimPhone }),
        edits: { ...edits(victimPhone), verification_type: { verification_type: 'OTP_TYPE_EMAIL' } },
        send: (token) =>
          submitOver(s.url, attacker.key, attacker.organizationId, 'update_user_phone_number', {
            userId: attacker.userId,
            userPhoneNumber: victimPhone,
            verificationToken: token,
          }),
      },
    ];
    const victimKeysBefore = await s.store.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.userId, victim.userId));
    for (const consumer of consumers) {
      for (const [what, token] of await forgeries(consumer.real, consumer.wanted, consumer.edits, confusions)) {
        tally.refused('sessions', `${consumer.name}: ${what}`, await consumer.send(token), 401, 'ERR_VERIFICATION_TOKEN_INVALID');
      }
    }
    // Nothing moved: no key was added to the victim, nobody holds the claimed contacts verified.
    expect(await s.store.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.userId, victim.userId))).toEqual(victimKeysBefore);
    const holders = await s.store.db
      .select({ id: users.id })
      .from(users)
      .where(
        sql`(lower(${users.userEmail}) = ${unclaimed} and ${users.emailVerified}) or (${users.userPhoneNumber} = ${victimPhone} and ${users.phoneVerified})`,
      );
    tally.violations(
      'sessions',
      'a forged token verified a contact',
      holders.map((h) => h.id),
    );
    // The real tokens were never spent by the forgeries: each still does what it proves.
    const login = await s.browser.post('otp_login_v2', {
      verificationToken: real,
      publicKey: key.publicKey,
      clientSignature: signedBy(real, '', 'USAGE_TYPE_LOGIN').clientSignature,
    });
    expect(verifyJwt<{ organization_id: string }>(login.body.session, s.enclave.signingPublicKey).organization_id).toBe(attacker.organizationId);
  });

  it('given lookups that require a verification token, when forged tokens for a contact with an account and for one without are sent to otp_login_v2, then both get the same 401 body (no account-existence oracle)', async () => {
    const key = generateP256KeyPair();
    const real = await verifiedToken(s2, freshEmail('prober'), key);
    const claims = decodeJwt<Record<string, unknown>>(real);
    const [head, , signature] = real.split('.') as [string, string, string];
    const forge = (contact: string): Array<[string, string]> => [
      ['alg none', `${segment({ alg: 'none', typ: 'JWT' })}.${segment({ ...claims, contact })}.`],
      ['edited contact', `${head}.${segment({ ...claims, contact })}.${signature}`],
      ['another signer', signJwt({ ...claims, contact }, generateP256KeyPair().privateKey, { kid: s.enclave.keyId })],
    ];
    const probe = (token: string) =>
      s2.browser.post('otp_login_v2', {
        verificationToken: token,
        publicKey: key.publicKey,
        clientSignature: createClientSignature({ privateKey: key.privateKey, message: JSON.stringify({ type: 'USAGE_TYPE_LOGIN', tokenId: claims.id }) }),
      });
    const nobody = freshEmail('nobody');
    const withAccount = forge(victim.contact);
    for (const [i, [what, token]] of forge(nobody).entries()) {
      const known = await probe(withAccount[i]![1]);
      const unknown = await probe(token);
      tally.refused('sessions', `probe with ${what} (account)`, known, 401, 'ERR_VERIFICATION_TOKEN_INVALID');
      tally.refused('sessions', `probe with ${what} (no account)`, unknown, 401, 'ERR_VERIFICATION_TOKEN_INVALID');
      expect(unknown.body, what).toEqual(known.body);
    }
    expect((await s2.browser.post('account', { filterType: 'EMAIL', filterValue: nobody })).status).toBe(401);
  });

  it("given forged, edited, expired and wrong-kind OIDC tokens claiming the victim's linked identity, when they reach oauth_login, the OIDC lookup and signup_v2, then every one is a 401 ERR_OIDC_TOKEN_INVALID; the attacker's own real token still logs the attacker in", async () => {
    const key = generateP256KeyPair();
    const other = generateP256KeyPair();
    const real = xToken(attackerSub, sha256Hex(key.publicKey), attacker.contact);
    const wanted = { ...decodeJwt<Record<string, unknown>>(real), sub: victimSub, email: victim.contact };
    const edits = {
      sub: { sub: victimSub },
      email: { email: victim.contact },
      aud: { aud: 'another-client' },
      iss: { iss: 'https://accounts.google.com' },
      exp: { exp: serverSeconds() + 365 * 86400 },
      nonce: { nonce: sha256Hex(other.publicKey) },
    };
    const confusions = {
      'a session JWT (type confusion)': (await stampLogin(attacker)).session,
      'a verification token (type confusion)': await verifiedToken(s, attacker.contact, key),
    };
    const keyFor = (token: string) => {
      try {
        return decodeJwt<{ nonce?: string }>(token).nonce === sha256Hex(other.publicKey) ? other : key;
      } catch {
        return key;
      }
    };
    const consumers: Array<[string, (token: string) => Promise<SeenReply>]> = [
      ['oauth_login', (token) => s.browser.post('oauth_login', { oidcToken: token, publicKey: keyFor(token).publicKey })],
      ['account lookup by OIDC token', (token) => s.browser.post('account', { filterType: 'OIDC_TOKEN', filterValue: token })],
      [
        'signup_v2 with an OAuth provider',
        (token) =>
          s.browser.post('signup_v2', {
            oauthProviders: [{ providerName: 'x', oidcToken: token }],
            apiKeys: [{ apiKeyName: 'k', publicKey: keyFor(token).publicKey, curveType: 'API_KEY_CURVE_P256' }],
          }),
      ],
    ];
    const victimKeysBefore = await s.store.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.userId, victim.userId));
    const tokens = await forgeries(real, wanted, edits, confusions);
    for (const [name, send] of consumers) {
      for (const [what, token] of tokens) tally.refused('sessions', `${name}: ${what}`, await send(token), 401, 'ERR_OIDC_TOKEN_INVALID');
    }
    expect(await s.store.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.userId, victim.userId))).toEqual(victimKeysBefore);
    const honest = await s.browser.post('oauth_login', { oidcToken: real, publicKey: key.publicKey });
    expect(honest.status, JSON.stringify(honest.body)).toBe(200);
    expect(verifyJwt<{ organization_id: string }>(honest.body.session, s.enclave.signingPublicKey).organization_id).toBe(attacker.organizationId);
  });

  it('given a session JWT, when it is presented instead of a stamp (as X-Stamp, as a bearer token, as X-Stamp-WebAuthn, or its signature as a stamp signature), then each is a 401 and only a stamp by the session key is accepted', async () => {
    const { key, session } = await stampLogin(victim);
    const body = envelopeText('create_wallet', victim.organizationId, { walletName: 'by-jwt', accounts: [] });
    const path = operations.create_wallet.path;
    const jwtSignature = Buffer.from(session.split('.')[2]!, 'base64url').toString('hex');
    const stampOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const attempts: Array<[string, Record<string, string>, number, string]> = [
      ['the session JWT as X-Stamp', { 'x-stamp': session }, 401, 'ERR_STAMP_MALFORMED'],
      ['the session JWT as a bearer token', { authorization: `Bearer ${session}` }, 401, 'ERR_STAMP_MISSING'],
      ['the session JWT as X-Stamp-WebAuthn', { 'x-stamp-webauthn': session }, 401, 'ERR_STAMP_MALFORMED'],
      [
        'the JWT signature as a stamp of the session key',
        { 'x-stamp': stampOf({ publicKey: key.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: jwtSignature }) },
        401,
        'ERR_STAMP_INVALID',
      ],
      [
        'the JWT signature as a stamp of the enclave key',
        {
          'x-stamp': stampOf({
            publicKey: compressPublicKey('p256', s.enclave.signingPublicKey),
            scheme: 'SIGNATURE_SCHEME_TK_API_P256',
            signature: jwtSignature,
          }),
        },
        401,
        'ERR_STAMP_INVALID',
      ],
    ];
    for (const [what, headers, status, code] of attempts) tally.refused('sessions', what, await sendRaw(s.url, path, body, headers), status, code);
    expect((await sendStamped(s.url, path, body, key)).status).toBe(200);
  });

  it("given session keys with a one-second lifetime (stamp_login) and the proxy's 60-second one, when the server clock passes their expiry, then each stamped before and is refused with ERR_API_KEY_EXPIRED after, renewing itself included", async () => {
    const short = await stampLogin(victim, { expirationSeconds: '1' });
    expect(decodeJwt<{ exp: number }>(short.session).exp - serverSeconds()).toBeOneOf([0, 1]);
    expect((await whoami(short.key, victim.organizationId)).status).toBe(200);

    await updateProxySettings(s.store, s.org.organizationId, { sessionExpirationSeconds: 60 });
    const { reply, key: proxyKey } = await loginByCode(s, victim.contact);
    await updateProxySettings(s.store, s.org.organizationId, { sessionExpirationSeconds: 900 });
    expect(reply.status).toBe(200);
    expect(decodeJwt<{ exp: number }>(reply.body.session).exp - serverSeconds()).toBeOneOf([59, 60]);
    expect((await whoami(proxyKey, victim.organizationId)).status).toBe(200);

    skewMs += 1_500;
    const uses = (k: EcKeyPair) =>
      [
        ['whoami', () => whoami(k, victim.organizationId)],
        ['stamp_login renewing itself', () => submitOver(s.url, k, victim.organizationId, 'stamp_login', { publicKey: k.publicKey })],
        ['stamp_login for a new key', () => submitOver(s.url, k, victim.organizationId, 'stamp_login', { publicKey: generateP256KeyPair().publicKey })],
        [
          'create_api_keys',
          () =>
            submitOver(s.url, k, victim.organizationId, 'create_api_keys', {
              userId: victim.userId,
              apiKeys: [{ apiKeyName: 'late', publicKey: generateP256KeyPair().publicKey, curveType: 'API_KEY_CURVE_P256' }],
            }),
        ],
      ] as const;
    for (const [what, send] of uses(short.key)) tally.refused('sessions', `1-second session: ${what}`, await send(), 401, 'ERR_API_KEY_EXPIRED');
    expect((await whoami(proxyKey, victim.organizationId)).status).toBe(200);
    skewMs += 60_000;
    for (const [what, send] of uses(proxyKey)) tally.refused('sessions', `60-second proxy session: ${what}`, await send(), 401, 'ERR_API_KEY_EXPIRED');
    // The account's own credential is no session and did not expire.
    expect((await whoami(victim.key, victim.organizationId)).status).toBe(200);
  });

  describe('several users', () => {
    /** U: a root user with a second, non-root user V in its sub-organization; W: another account. */
    let u: Account;
    let w: Account;
    let v: { userId: string; key: EcKeyPair };

    beforeAll(async () => {
      const uContact = freshEmail('u');
      u = { ...(await signupByCode(s, uContact)), contact: uContact };
      const wContact = freshEmail('w');
      w = { ...(await signupByCode(s, wContact)), contact: wContact };
      const vKey = generateP256KeyPair();
      const created = await submitOver(s.url, u.key, u.organizationId, 'create_users', {
        users: [
          {
            userName: 'v',
            apiKeys: [{ apiKeyName: 'v', publicKey: vKey.publicKey, curveType: 'API_KEY_CURVE_P256' }],
            authenticators: [],
            oauthProviders: [],
            userTags: [],
          },
        ],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      v = { userId: created.body.activity.result.createUsersResult.userIds[0], key: vKey };
      // V may log itself in, nothing more.
      const policy = await submitOver(s.url, u.key, u.organizationId, 'create_policy', {
        policyName: 'members log in',
        effect: 'EFFECT_ALLOW',
        condition: `activity.type == '${operations.stamp_login.type}'`,
      });
      expect(policy.status, JSON.stringify(policy.body)).toBe(200);
    });

    it("given three sessions of one user and sessions of two other users, when a fourth login says invalidateExisting, then the three older keys are refused with ERR_STAMP_KEY_UNKNOWN and the other users' sessions are untouched", async () => {
      const older = [await stampLogin(u), await stampLogin(u), await stampLogin(u)];
      const ofW = await stampLogin(w);
      const ofV = await stampLogin({ key: v.key, organizationId: u.organizationId });
      expect(decodeJwt<{ user_id: string }>(ofV.session).user_id).toBe(v.userId);
      for (const o of older) expect((await whoami(o.key, u.organizationId)).status).toBe(200);

      const key = generateP256KeyPair();
      const token = await verifiedToken(s, u.contact, key);
      const fourth = await s.browser.post('otp_login_v2', {
        verificationToken: token,
        publicKey: key.publicKey,
        clientSignature: createClientSignature({
          privateKey: key.privateKey,
          message: JSON.stringify({ type: 'USAGE_TYPE_LOGIN', tokenId: decodeJwt<{ id: string }>(token).id }),
        }),
        invalidateExisting: true,
      });
      expect(fourth.status, JSON.stringify(fourth.body)).toBe(200);
      for (const [i, o] of older.entries()) {
        tally.refused('sessions', `invalidated session ${i + 1}: whoami`, await whoami(o.key, u.organizationId), 401, 'ERR_STAMP_KEY_UNKNOWN');
        tally.refused(
          'sessions',
          `invalidated session ${i + 1}: logging itself back in`,
          await submitOver(s.url, o.key, u.organizationId, 'stamp_login', { publicKey: o.key.publicKey }),
          401,
          'ERR_STAMP_KEY_UNKNOWN',
        );
      }
      for (const [what, k, org] of [
        ['the new session', key, u.organizationId],
        ["U's own API key (no session)", u.key, u.organizationId],
        ["V's session", ofV.key, u.organizationId],
        ["W's session", ofW.key, w.organizationId],
      ] as const) {
        expect((await whoami(k, org)).status, what).toBe(200);
      }
      const sessions = await s.store.db
        .select({ publicKey: apiKeys.publicKey })
        .from(apiKeys)
        .where(and(eq(apiKeys.userId, u.userId), eq(apiKeys.isSession, true)));
      expect(sessions.map((r) => r.publicKey)).toEqual([key.publicKey]);
    });

    it('given a session key of one user, when it acts as another user of its sub-organization or on another sub-organization, the parent or another integrator, then it is refused (403 within its sub-organization, 401 elsewhere) and nothing changes', async () => {
      const ofU = await stampLogin(u);
      const ofV = await stampLogin({ key: v.key, organizationId: u.organizationId });
      const newKey = () => [{ apiKeyName: 'backdoor', publicKey: generateP256KeyPair().publicKey, curveType: 'API_KEY_CURVE_P256' as const }];
      const uKeyId = (await s.store.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.publicKey, ofU.key.publicKey)))[0]!.id;
      const keysOf = async (userId: string) =>
        (await s.store.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.userId, userId))).map((r) => r.id).sort();
      const before = [await keysOf(u.userId), await keysOf(v.userId), await keysOf(w.userId)];
      const asV: Array<[string, () => Promise<SeenReply>]> = [
        ["V's session adding a key to U", () => submitOver(s.url, ofV.key, u.organizationId, 'create_api_keys', { userId: u.userId, apiKeys: newKey() })],
        [
          "V's session deleting U's session key",
          () => submitOver(s.url, ofV.key, u.organizationId, 'delete_api_keys', { userId: u.userId, apiKeyIds: [uKeyId] }),
        ],
        [
          "V's session changing U's email",
          () => submitOver(s.url, ofV.key, u.organizationId, 'update_user_email', { userId: u.userId, userEmail: freshEmail('takeover') }),
        ],
        ["V's session adding a key to itself", () => submitOver(s.url, ofV.key, u.organizationId, 'create_api_keys', { userId: v.userId, apiKeys: newKey() })],
        ["V's session creating a wallet", () => submitOver(s.url, ofV.key, u.organizationId, 'create_wallet', { walletName: 'v', accounts: [] })],
      ];
      for (const [what, send] of asV) tally.refused('sessions', what, await send(), 403, 'ERR_PERMISSION_DENIED');
      // A session V opens is V's, never U's.
      expect(decodeJwt<{ user_id: string }>((await stampLogin({ key: ofV.key, organizationId: u.organizationId })).session).user_id).toBe(v.userId);

      const elsewhere: Array<[string, () => Promise<SeenReply>]> = [
        ["U's session on W's sub-organization", () => submitOver(s.url, ofU.key, w.organizationId, 'create_api_keys', { userId: w.userId, apiKeys: newKey() })],
        [
          "U's session logging in on W's sub-organization",
          () => submitOver(s.url, ofU.key, w.organizationId, 'stamp_login', { publicKey: generateP256KeyPair().publicKey }),
        ],
        ["U's session reading W's sub-organization", () => whoami(ofU.key, w.organizationId)],
        [
          "U's session on the integrator's organization",
          () =>
            submitOver(s.url, ofU.key, s.org.organizationId, 'create_sub_organization', {
              subOrganizationName: 'x',
              rootUsers: [{ userName: 'x', apiKeys: newKey(), authenticators: [], oauthProviders: [] }],
              rootQuorumThreshold: 1,
            }),
        ],
        ["U's session on another integrator", () => whoami(ofU.key, s2.org.organizationId)],
      ];
      for (const [what, send] of elsewhere) tally.refused('sessions', what, await send(), 401, 'ERR_STAMP_KEY_UNKNOWN');
      tally.refused(
        'sessions',
        "U's session naming W's user in U's sub-organization",
        await submitOver(s.url, ofU.key, u.organizationId, 'create_api_keys', { userId: w.userId, apiKeys: newKey() }),
        404,
        'ERR_USER_NOT_FOUND',
      );

      // V's own stamp_login above added V's session key; nothing else changed.
      const after = [await keysOf(u.userId), await keysOf(v.userId), await keysOf(w.userId)];
      expect([after[0], after[2]]).toEqual([before[0], before[2]]);
      expect(after[1]!.length).toBe(before[1]!.length + 1);
      expect(await s.store.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.name, 'backdoor'))).toEqual([]);
      expect((await whoami(ofU.key, u.organizationId)).body.userId).toBe(u.userId);
    });

    it('given a verification token bound to a key, when otp_login_v2 carries a client signature by another key, over another token id, for signup, or a publicKey other than the signer, then each is a 401 ERR_CLIENT_SIGNATURE_INVALID and the token still logs in honestly afterwards', async () => {
      const key = generateP256KeyPair();
      const other = generateP256KeyPair();
      const token = await verifiedToken(s, w.contact, key);
      const id = decodeJwt<{ id: string }>(token).id;
      const sign = (signer: EcKeyPair, message: Record<string, unknown>) =>
        createClientSignature({ privateKey: signer.privateKey, message: JSON.stringify(message) });
      const login = { type: 'USAGE_TYPE_LOGIN', tokenId: id };
      const honest = sign(key, login);
      const cases: Array<[string, string, ReturnType<typeof sign>]> = [
        ['signed by another key, publicKey that key', other.publicKey, sign(other, login)],
        ['signed by another key, publicKey the bound key', key.publicKey, sign(other, login)],
        ['signed by another key claiming the bound key', key.publicKey, { ...sign(other, login), publicKey: key.publicKey }],
        ['for another token id', key.publicKey, sign(key, { ...login, tokenId: randomUUID() })],
        ['for the signup usage', key.publicKey, sign(key, { ...login, type: 'USAGE_TYPE_SIGNUP' })],
        ['without a usage', key.publicKey, sign(key, { tokenId: id })],
        ['publicKey other than the signer', other.publicKey, honest],
        ['a flipped signature byte', key.publicKey, { ...honest, signature: (honest.signature[0] === '0' ? '1' : '0') + honest.signature.slice(1) }],
        ['the honest signature over an edited message', key.publicKey, { ...honest, message: JSON.stringify({ ...login, tokenId: `${id} ` }) }],
      ];
      for (const [what, publicKey, clientSignature] of cases) {
        tally.refused(
          'sessions',
          `client signature ${what}`,
          await s.browser.post('otp_login_v2', { verificationToken: token, publicKey, clientSignature }),
          401,
          'ERR_CLIENT_SIGNATURE_INVALID',
        );
      }
      const reply = await s.browser.post('otp_login_v2', { verificationToken: token, publicKey: key.publicKey, clientSignature: honest });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      expect(verifyJwt<{ organization_id: string; public_key: string }>(reply.body.session, s.enclave.signingPublicKey, { now: serverNow })).toMatchObject({
        organization_id: w.organizationId,
        public_key: key.publicKey,
      });
    });

    it("given a verification token bound to a key that someone else saw, when they sign up with it without that key's signature or with their own, then each is a 401 ERR_CLIENT_SIGNATURE_INVALID, nothing is created, and the owner still signs up", async () => {
      const owner = generateP256KeyPair();
      const thief = generateP256KeyPair();
      const contact = freshEmail('observed');
      const token = await verifiedToken(s, contact, owner);
      const id = decodeJwt<{ id: string }>(token).id;
      const thiefKey = [{ apiKeyName: 'thief', publicKey: thief.publicKey, curveType: 'API_KEY_CURVE_P256' as const }];
      const attempts: Array<[string, Record<string, unknown>]> = [
        ['no client signature', { userEmail: contact, verificationToken: token, apiKeys: thiefKey }],
        [
          "the thief's own signature",
          {
            userEmail: contact,
            verificationToken: token,
            apiKeys: thiefKey,
            clientSignature: createClientSignature({ privateKey: thief.privateKey, message: JSON.stringify({ type: 'USAGE_TYPE_SIGNUP', tokenId: id }) }),
          },
        ],
      ];
      for (const [what, body] of attempts) {
        tally.refused(
          'sessions',
          `signup with an observed token: ${what}`,
          await s.browser.post('signup_v2', body as never),
          401,
          'ERR_CLIENT_SIGNATURE_INVALID',
        );
      }
      expect((await s.browser.post('account', { filterType: 'PUBLIC_KEY', filterValue: thief.publicKey })).body).toEqual({});
      const honest = await s.browser.post('signup_v2', {
        userEmail: contact,
        verificationToken: token,
        clientSignature: createClientSignature({ privateKey: owner.privateKey, message: JSON.stringify({ type: 'USAGE_TYPE_SIGNUP', tokenId: id }) }),
      });
      expect(honest.status, JSON.stringify(honest.body)).toBe(200);
    });
  });
});
