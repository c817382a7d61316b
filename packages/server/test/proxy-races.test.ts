/**
 * The authentication proxy under concurrency and replay, through real HTTP (/v1), on both
 * databases: the Google path against a real local OpenID Provider (oidc-provider), racing
 * signups for one contact or identity (split across two server instances on PostgreSQL),
 * concurrent OTP verifies against the attempt limit and single use, replayed verification
 * tokens and expired codes.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientSignature, decodeJwt, generateP256KeyPair, sha256Hex, verifyJwt, type EcKeyPair } from '@walletkit/crypto';
import { updateProxySettings } from '../src/admin/proxy';
import { organizations, users } from '../src/store/schema';
import { startOidcIssuer, type LocalOidcIssuer } from './support/oidc-issuer';
import { encryptOtpAttempt, otpTargetOf } from './support/otp';
import {
  expectProxyError,
  outboxCode,
  startProxyServer,
  startSecondInstance,
  submitOver,
  type ProxyClient,
  type ProxyTestServer,
  verificationTokenFor,
  outcomes,
  spelling,
} from './support/proxy';
import { storeKinds } from './support/stores';

const APP = 'https://app.example';
const CLIENT_ID = 'walletkit-web.apps.googleusercontent.example';
const CLIENT_SECRET = 'google-like client secret for tests';
const REDIRECT_URI = 'https://app.example/oauth/callback';

/** A fresh lowercase email, so that no two tests (or runs) share a contact or its throttle. */
const freshEmail = (who: string) => `${who}-${randomUUID().slice(0, 8)}@example.com`;

/** Codes of the same charset and length as `code`, none equal to it. */
const wrongCode = (code: string, i: number) => String((Number(code) + 1 + i) % 10 ** code.length).padStart(code.length, '0');

const usage = (type: 'USAGE_TYPE_SIGNUP' | 'USAGE_TYPE_LOGIN', token: string, key: EcKeyPair) =>
  createClientSignature({ privateKey: key.privateKey, message: JSON.stringify({ type, tokenId: decodeJwt<{ id: string }>(token).id }) });

/**
 * The proxy's outbound fetch (its HTTP transport), counting forwards to the activity API in flight at once, so
 * that a race test can show its requests really overlapped. With `gate` set, a forward waits
 * (up to a second) until that many are in flight, so the racers reach the activity API together
 * instead of one finishing before the next has looked up its account.
 */
function countingFetch() {
  const forwards = { inFlight: 0, peak: 0, gate: 0 };
  let waiting: Array<() => void> = [];
  const wrapped: typeof fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const counted = url.includes('/public/v1/submit/');
    if (counted) forwards.peak = Math.max(forwards.peak, ++forwards.inFlight);
    if (counted && forwards.gate > 0) {
      if (forwards.inFlight >= forwards.gate) {
        for (const release of waiting) release();
        waiting = [];
      } else {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 1_000);
          waiting.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    }
    try {
      return await fetch(input, init);
    } finally {
      if (counted) forwards.inFlight -= 1;
    }
  };
  return { fetch: wrapped, forwards };
}

describe.each(storeKinds)('proxy races and replays on %s', (kind) => {
  const { fetch: proxyFetch, forwards } = countingFetch();
  /** Run a race and check that at least two of its forwards were in flight together. */
  async function race<T>(requests: Array<() => Promise<T>>): Promise<T[]> {
    forwards.peak = 0;
    forwards.gate = requests.length;
    try {
      const replies = await Promise.all(requests.map((r) => r()));
      expect(forwards.peak).toBeGreaterThan(1);
      return replies;
    } finally {
      forwards.gate = 0;
    }
  }

  let a: ProxyTestServer;
  let google: LocalOidcIssuer;
  /** The second instance's base URL on PostgreSQL (the same server on PGlite). */
  let bUrl: string;
  let closeB: (() => Promise<void>) | undefined;
  /** The enclave signing key as a client learns it: from discovery. */
  let enclaveKey: string;

  beforeAll(async () => {
    google = await startOidcIssuer({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUri: REDIRECT_URI });
    a = await startProxyServer(kind, {
      config: { oidcProviders: [{ name: 'google', issuer: google.issuer, jwksUri: google.jwksUri }] },
      proxy: { origins: [APP] },
      // Over HTTP, as a separate proxy deployment reaches the activity API, so the forwards can be counted.
      deps: { fetch: proxyFetch, proxyTransport: 'http' },
    });
    await updateProxySettings(a.store, a.org.organizationId, { social: { google: { enabled: true, clientIds: [CLIENT_ID] } } });
    if (kind === 'postgres') {
      const b = await startSecondInstance(a as ProxyTestServer & { store: { location: string } }, { fetch: proxyFetch, proxyTransport: 'http' });
      bUrl = b.url;
      closeB = b.close;
    } else {
      bUrl = a.url;
    }
    const discovery = (await (await fetch(`${a.url}/.well-known/walletkit.json`)).json()) as { enclaveSigningPublicKey: string };
    enclaveKey = discovery.enclaveSigningPublicKey;
  });
  afterAll(async () => {
    await closeB?.();
    await a?.dispose();
    await google?.close();
  });

  /** Request `i` of a race: alternately instance A and instance B (on PGlite, always A). */
  const browserFor = (i: number): ProxyClient => (i % 2 === 0 ? a.browser : a.browser.with({ baseUrl: bUrl }));

  /** otp_init_v2 for `contact`; the code read from the outbox and the verified target. */
  async function issueCode(contact: string, server: ProxyTestServer = a) {
    const init = await server.browser.post('otp_init_v2', { otpType: 'OTP_TYPE_EMAIL', contact });
    expect(init.status).toBe(200);
    // The client pins the key its discovery document published.
    const pinned = server === a ? enclaveKey : server.enclave.signingPublicKey;
    const target = otpTargetOf(init.body.otpEncryptionTargetBundle, pinned);
    expect(target.otpId).toBe(init.body.otpId);
    return { otpId: init.body.otpId as string, targetPublic: target.targetPublic, code: await outboxCode(server.url, contact) };
  }

  /** A verification token for `contact` bound to `key` (init on A, verify on B). */
  async function verificationToken(contact: string, key: EcKeyPair): Promise<string> {
    const { otpId, targetPublic, code } = await issueCode(contact);
    const verify = await browserFor(1).post('otp_verify_v2', { otpId, encryptedOtpBundle: await encryptOtpAttempt(targetPublic, code, key.publicKey) });
    expect(verify.status).toBe(200);
    return verify.body.verificationToken;
  }

  describe('Google (OIDC) path', () => {
    const SUB = `google-${randomUUID()}`;
    let organizationId: string;
    let userId: string;

    it('given a Google id_token whose nonce hashes a fresh session key, when the user signs up, is looked up and logs in through the proxy, then the session JWT binds that key and the key stamps an accepted activity', async () => {
      const sessionKey = generateP256KeyPair();
      const nonce = sha256Hex(sessionKey.publicKey);
      expect(nonce).toMatch(/^[0-9a-f]{64}$/);
      const oidcToken = await google.login({ sub: SUB, nonce, email: 'g@example.com' });
      expect(decodeJwt<{ aud: string; nonce: string; iss: string }>(oidcToken)).toMatchObject({ aud: CLIENT_ID, nonce, iss: google.issuer });

      const signup = await a.browser.post('signup_v2', { userName: 'gina', oauthProviders: [{ providerName: 'google', oidcToken }] });
      expect(signup.status).toBe(200);
      ({ organizationId, userId } = signup.body);

      const found = await browserFor(1).post('account', { filterType: 'OIDC_TOKEN', filterValue: oidcToken });
      expect(found).toMatchObject({ status: 200, body: { organizationId } });

      // Login finishes on the other instance when there is one.
      const login = await browserFor(1).post('oauth_login', { oidcToken, publicKey: sessionKey.publicKey });
      expect(login.status).toBe(200);
      const claims = verifyJwt<Record<string, unknown>>(login.body.session, enclaveKey);
      expect(claims).toMatchObject({
        public_key: sessionKey.publicKey,
        organization_id: organizationId,
        user_id: userId,
        session_type: 'SESSION_TYPE_READ_WRITE',
      });
      expect(() => verifyJwt(login.body.session, generateP256KeyPair().publicKey)).toThrow();

      const wallet = await submitOver(a.url, sessionKey, organizationId, 'create_wallet', { walletName: 'google wallet', accounts: [] });
      expect(wallet.status).toBe(200);
      expect(wallet.body.activity).toMatchObject({ status: 'ACTIVITY_STATUS_COMPLETED', organizationId, type: 'ACTIVITY_TYPE_CREATE_WALLET' });
    });

    it('given a token from the same issuer for a client id the proxy does not list, when it is used for login, lookup or signup, then it is a 401 ERR_OIDC_TOKEN_INVALID (the same token with the listed aud is accepted)', async () => {
      const key = generateP256KeyPair();
      const now = Math.floor(Date.now() / 1000);
      const claims = { sub: SUB, nonce: sha256Hex(key.publicKey), iat: now, exp: now + 600 };
      const stranger = await google.sign({ ...claims, aud: 'someone-elses-app.apps.googleusercontent.example' });
      const listed = await google.sign({ ...claims, aud: CLIENT_ID });

      expectProxyError(await a.browser.post('oauth_login', { oidcToken: stranger, publicKey: key.publicKey }), 401, 'ERR_OIDC_TOKEN_INVALID', 'oidcToken');
      expectProxyError(await a.browser.post('account', { filterType: 'OIDC_TOKEN', filterValue: stranger }), 401, 'ERR_OIDC_TOKEN_INVALID', 'filterValue');
      expectProxyError(
        await a.browser.post('signup_v2', { userName: 'mallory', oauthProviders: [{ providerName: 'google', oidcToken: stranger }] }),
        401,
        'ERR_OIDC_TOKEN_INVALID',
        'oauthProviders.0.oidcToken',
      );
      expect((await submitOver(a.url, key, organizationId, 'create_wallet', { walletName: 'no', accounts: [] })).status).not.toBe(200);

      // Control: only the audience differs.
      const ok = await a.browser.post('oauth_login', { oidcToken: listed, publicKey: key.publicKey });
      expect(ok.status).toBe(200);
      expect(decodeJwt<{ organization_id: string }>(ok.body.session).organization_id).toBe(organizationId);
    });

    it('given a genuine token whose nonce is not the hash of the presented key, when oauth_login runs, then it is a 401 ERR_OIDC_TOKEN_INVALID and that key gains nothing', async () => {
      const sessionKey = generateP256KeyPair();
      const otherKey = generateP256KeyPair();
      for (const nonce of [sha256Hex(otherKey.publicKey), sha256Hex(sessionKey.publicKeyUncompressed), 'not-a-hash']) {
        const oidcToken = await google.login({ sub: SUB, nonce });
        expectProxyError(await browserFor(1).post('oauth_login', { oidcToken, publicKey: sessionKey.publicKey }), 401, 'ERR_OIDC_TOKEN_INVALID', 'oidcToken');
      }
      const refused = await submitOver(a.url, sessionKey, organizationId, 'create_wallet', { walletName: 'no', accounts: [] });
      expect(refused.status).toBe(401);
    });

    it('given one Google identity, when 4 signups with its token race, then exactly one creates a sub-organization and the rest are 409 ERR_ALREADY_EXISTS', async () => {
      const sub = `google-${randomUUID()}`;
      const oidcToken = await google.login({ sub, nonce: sha256Hex(generateP256KeyPair().publicKey) });
      const replies = await race(
        [0, 1, 2, 3].map((i) => () => browserFor(i).post('signup_v2', { userName: `racer ${i}`, oauthProviders: [{ providerName: 'google', oidcToken }] })),
      );
      expect(outcomes(replies)).toEqual({ OK: 1, '409 ERR_ALREADY_EXISTS': 3 });
      const winner = replies.find((r) => r.status === 200)!;
      expect((await a.browser.post('account', { filterType: 'OIDC_TOKEN', filterValue: oidcToken })).body).toEqual({
        organizationId: winner.body.organizationId,
      });
      const subOrgs = await a.store.db
        .select({ id: organizations.id })
        .from(organizations)
        .where(and(eq(organizations.parentOrganizationId, a.org.organizationId), sql`${organizations.name} like 'racer %'`));
      expect(subOrgs.map((o) => o.id)).toEqual([winner.body.organizationId]);
    });
  });

  it('given one verified email, when 8 signups with differently cased spellings race (across both instances on PostgreSQL), then exactly one is 200, the rest 409 ERR_ALREADY_EXISTS, and nothing of the losers remains', async () => {
    const email = freshEmail('racer');
    const keys = Array.from({ length: 8 }, () => generateP256KeyPair());
    const spellings = keys.map((_, i) => spelling(email, i * 37 + 1));
    expect(new Set(spellings).size).toBe(8);
    const replies = await race(
      keys.map(
        (key, i) => () =>
          browserFor(i).post('signup_v2', {
            userEmail: spellings[i]!,
            verificationToken: verificationTokenFor(a, email),
            apiKeys: [{ apiKeyName: `device ${i}`, publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }],
          }),
      ),
    );
    expect(outcomes(replies)).toEqual({ OK: 1, '409 ERR_ALREADY_EXISTS': 7 });
    const w = replies.findIndex((r) => r.status === 200);
    const { organizationId } = replies[w]!.body;

    for (const client of [a.browser, browserFor(1)]) {
      expect((await client.post('account', { filterType: 'EMAIL', filterValue: email.toUpperCase() })).body).toEqual({ organizationId });
    }
    const holders = await a.store.db.select({ organizationId: users.organizationId }).from(users).where(sql`lower(${users.userEmail}) = ${email}`);
    expect(holders).toEqual([{ organizationId }]);
    // The winner's key stamps; no loser's key was left behind anywhere.
    expect((await submitOver(a.url, keys[w]!, organizationId, 'create_wallet', { walletName: 'w', accounts: [] })).status).toBe(200);
    for (const [i, key] of keys.entries()) {
      if (i === w) continue;
      expect((await a.browser.post('account', { filterType: 'PUBLIC_KEY', filterValue: key.publicKey })).body).toEqual({});
    }
  });

  it('given one issued code, when 5 wrong codes are verified concurrently, then exactly 3 are ERR_OTP_INVALID and 2 ERR_OTP_ATTEMPTS_EXCEEDED, and the right code is refused afterwards', async () => {
    const contact = freshEmail('wrong');
    const key = generateP256KeyPair();
    const { otpId, targetPublic, code } = await issueCode(contact);
    const bundles = await Promise.all([0, 1, 2, 3, 4].map((i) => encryptOtpAttempt(targetPublic, wrongCode(code, i), key.publicKey)));
    expect(new Set(bundles).size).toBe(5);
    const replies = await race(bundles.map((encryptedOtpBundle, i) => () => browserFor(i).post('otp_verify_v2', { otpId, encryptedOtpBundle })));
    expect(outcomes(replies)).toEqual({ '401 ERR_OTP_INVALID': 3, '429 ERR_OTP_ATTEMPTS_EXCEEDED': 2 });
    for (const r of replies) expect(JSON.stringify(r.body)).not.toContain(code);

    const right = await browserFor(1).post('otp_verify_v2', { otpId, encryptedOtpBundle: await encryptOtpAttempt(targetPublic, code, key.publicKey) });
    expectProxyError(right, 429, 'ERR_OTP_ATTEMPTS_EXCEEDED');
    expect(right.body.verificationToken).toBeUndefined();
  });

  it('given one issued code, when the right code is verified twice concurrently with different keys, then exactly one verification token is issued, bound to the winning key', async () => {
    const contact = freshEmail('double');
    const keys = [generateP256KeyPair(), generateP256KeyPair()];
    const { otpId, targetPublic, code } = await issueCode(contact);
    const bundles = await Promise.all(keys.map((k) => encryptOtpAttempt(targetPublic, code, k.publicKey)));
    const replies = await race(bundles.map((encryptedOtpBundle, i) => () => browserFor(i).post('otp_verify_v2', { otpId, encryptedOtpBundle })));
    expect(outcomes(replies)).toEqual({ OK: 1, '401 ERR_OTP_INVALID': 1 });
    const w = replies.findIndex((r) => r.status === 200);
    const claims = verifyJwt<Record<string, unknown>>(replies[w]!.body.verificationToken, enclaveKey);
    expect(claims).toMatchObject({ verification_type: 'OTP_TYPE_EMAIL', contact, organization_id: a.org.organizationId, public_key: keys[w]!.publicKey });
  });

  it('given verification tokens already used (at signup, at login), when they are replayed at otp_login_v2, then each is a 401 ERR_VERIFICATION_TOKEN_INVALID; two concurrent logins with a fresh token give one session', async () => {
    const contact = freshEmail('replay');
    const signupKey = generateP256KeyPair();
    const signupToken = await verificationToken(contact, signupKey);
    const signup = await a.browser.post('signup_v2', {
      userEmail: contact,
      verificationToken: signupToken,
      clientSignature: usage('USAGE_TYPE_SIGNUP', signupToken, signupKey),
    });
    expect(signup.status).toBe(200);

    // The signup's token, now signed for a login by its own key.
    const replayedSignup = await browserFor(1).post('otp_login_v2', {
      verificationToken: signupToken,
      publicKey: signupKey.publicKey,
      clientSignature: usage('USAGE_TYPE_LOGIN', signupToken, signupKey),
    });
    expectProxyError(replayedSignup, 401, 'ERR_VERIFICATION_TOKEN_INVALID');

    const sessionKey = generateP256KeyPair();
    const loginToken = await verificationToken(contact, sessionKey);
    const login = { verificationToken: loginToken, publicKey: sessionKey.publicKey, clientSignature: usage('USAGE_TYPE_LOGIN', loginToken, sessionKey) };
    // Two concurrent uses (bodies differ, so neither is an idempotent repeat of the other).
    const logins = await race([
      () => browserFor(0).post('otp_login_v2', login),
      () => browserFor(1).post('otp_login_v2', { ...login, invalidateExisting: false }),
    ]);
    expect(outcomes(logins)).toEqual({ OK: 1, '401 ERR_VERIFICATION_TOKEN_INVALID': 1 });
    const session = verifyJwt<Record<string, unknown>>(logins.find((r) => r.status === 200)!.body.session, enclaveKey);
    expect(session).toMatchObject({ organization_id: signup.body.organizationId, user_id: signup.body.userId, public_key: sessionKey.publicKey });

    // A later replay, on either instance.
    for (const client of [a.browser, browserFor(1)]) {
      expectProxyError(await client.post('otp_login_v2', { ...login, invalidateExisting: true }), 401, 'ERR_VERIFICATION_TOKEN_INVALID');
    }
  });

  describe('with a one-second code lifetime', () => {
    let e: ProxyTestServer;

    beforeAll(async () => {
      e = await startProxyServer(kind, {
        config: { otp: { ttlSeconds: 1, maxAttempts: 3, maxPerContactPerWindow: 5, windowSeconds: 600 } },
        proxy: { origins: [APP] },
      });
    });
    afterAll(async () => e?.dispose());

    it('given an expired code, when the right code is verified, then it is refused with exactly the reply a wrong code gets', async () => {
      const key = generateP256KeyPair();
      const expiring = await issueCode(freshEmail('late'), e);
      await new Promise((resolve) => setTimeout(resolve, 1_300));
      const live = await issueCode(freshEmail('live'), e);

      const wrong = await e.browser.post('otp_verify_v2', {
        otpId: live.otpId,
        encryptedOtpBundle: await encryptOtpAttempt(live.targetPublic, wrongCode(live.code, 0), key.publicKey),
      });
      expectProxyError(wrong, 401, 'ERR_OTP_INVALID');
      const expired = await e.browser.post('otp_verify_v2', {
        otpId: expiring.otpId,
        encryptedOtpBundle: await encryptOtpAttempt(expiring.targetPublic, expiring.code, key.publicKey),
      });
      expectProxyError(expired, 401, 'ERR_OTP_INVALID');
      expect(expired.body).toEqual(wrong.body);
      expect(JSON.stringify(expired.body)).not.toContain(expiring.code);

      // The live code still verifies: the refusal above was the expiry, not the server.
      const ok = await e.browser.post('otp_verify_v2', {
        otpId: live.otpId,
        encryptedOtpBundle: await encryptOtpAttempt(live.targetPublic, live.code, key.publicKey),
      });
      expect(ok.status).toBe(200);
    });
  });
});
