/**
 * One-time codes under attack, through the proxy over real HTTP, on both databases (split
 * across two server instances on PostgreSQL, one of them with a clock two seconds ahead):
 * parallel guesses against the per-code tries, parallel correct codes against single use,
 * replayed and misdirected verification tokens, codes typed into the wrong otpId, tampered
 * ciphertexts (which must be indistinguishable from a wrong code, and cost a try), issuance
 * floods against the per-window and daily caps, older codes after a newer one (also racing
 * it), the whole guess budget of a contact, and signups that squat an unverified contact.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  base64urlDecode,
  base64urlEncode,
  createClientSignature,
  decodeJwt,
  generateP256KeyPair,
  hpkeSeal,
  utf8ToBytes,
  verifyJwt,
  type EcKeyPair,
} from '@walletkit/crypto';
import { createOrganization } from '../../src/admin/organizations';
import { enableProxy } from '../../src/admin/proxy';
import { listOutbox } from '../../src/delivery/outbox';
import { otps, users } from '../../src/store/schema';
import { encryptOtpAttempt, otpTargetOf } from '../support/otp';
import {
  outboxCode,
  outcomes,
  ProxyClient,
  spelling,
  startProxyServer,
  startSecondInstance,
  submitOver,
  type ProxyReply,
  type ProxyTestServer,
} from '../support/proxy';
import { storeKinds } from '../support/stores';
import { ETH_WALLET, freshEmail, freshPhone, loginByCode, requestCode, signupByCode, verifiedToken, verifyCode } from './support/flows';
import { adversarialTally } from './support/tally';

const tally = adversarialTally('otp');
const APP = 'https://app.example';

/** A code of the same length and charset as `code`, never equal to it. */
const wrongCode = (code: string, i = 0) => String((Number(code) + 1 + i) % 10 ** code.length).padStart(code.length, '0');

/** `hex` with the hex digit at `at` changed. */
const flipHex = (hex: string, at: number) => hex.slice(0, at) + (parseInt(hex[at]!, 16) ^ 1).toString(16) + hex.slice(at + 1);

/** HPKE of arbitrary plaintext to `targetPublic`, as encryptedOtpBundle. */
async function sealText(targetPublic: string, plaintext: string): Promise<string> {
  return JSON.stringify(await hpkeSeal({ plaintext: utf8ToBytes(plaintext), receiverPublicKey: targetPublic }));
}

/** A client signature of `usage` over `token`'s id by `key`. */
const usageSignature = (key: EcKeyPair, token: string, usage: 'USAGE_TYPE_LOGIN' | 'USAGE_TYPE_SIGNUP') =>
  createClientSignature({ privateKey: key.privateKey, message: JSON.stringify({ type: usage, tokenId: decodeJwt<{ id: string }>(token).id }) });

/** A reply as the assertions here need it (proxy replies and stamped ones). */
type Seen = { status: number; body: any };

/** The order of P-256. */
const P256_N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

/** The same token with its ECDSA signature (r, s) replaced by (r, n - s): another string, the same claims and id. */
function malleated(token: string): string {
  const [head, payload, sig] = token.split('.') as [string, string, string];
  const bytes = base64urlDecode(sig);
  const s = BigInt(`0x${Buffer.from(bytes.slice(32)).toString('hex')}`);
  const flipped = Buffer.from((P256_N - s).toString(16).padStart(64, '0'), 'hex');
  return `${head}.${payload}.${base64urlEncode(new Uint8Array([...bytes.slice(0, 32), ...flipped]))}`;
}

describe.each(storeKinds)('one-time codes under attack on %s', (kind) => {
  let s: ProxyTestServer;
  /** The second organization, its proxy requiring a verification token for account lookups. */
  let s2: ProxyTestServer;
  /** Instance B (PostgreSQL: a second server on the same database; PGlite: the same server). */
  let bUrl: string;
  /** The reply every wrong code gets: what each disguised failure must be indistinguishable from. */
  let wrongReply: ProxyReply;
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    s = await startProxyServer(kind, { proxy: { origins: [APP] } });
    const other = await createOrganization(s.store, { name: 'Other integrator' });
    const proxy2 = await enableProxy(s.store, s.enclave, {
      organizationId: other.organizationId,
      origins: [APP],
      settings: { requireVerificationTokenForAccountLookup: true },
    });
    s2 = { ...s, org: other, proxy: proxy2, browser: new ProxyClient(s.url, proxy2.id, APP) };
    if (kind === 'postgres') {
      const b = await startSecondInstance(s as ProxyTestServer & { store: { location: string } });
      bUrl = b.url;
      closers.push(b.close);
    } else {
      bUrl = s.url;
    }
    const otp = await requestCode(s, freshEmail('baseline'));
    wrongReply = await verifyCode(s, otp, wrongCode(otp.code), generateP256KeyPair());
    expect(wrongReply.status).toBe(401);
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await s?.dispose();
  });

  /** Request `i` of a race: alternately instance A and instance B. */
  const browserFor = (i: number, server: ProxyTestServer = s): ProxyClient => (i % 2 === 0 ? server.browser : server.browser.with({ baseUrl: bUrl }));
  const verifyOn = (client: ProxyClient, otp: { otpId: string }, encryptedOtpBundle: string) =>
    client.post('otp_verify_v2', { otpId: otp.otpId, encryptedOtpBundle });
  const attemptsOf = async (otpId: string) => (await s.store.db.select({ attempts: otps.attempts }).from(otps).where(eq(otps.id, otpId)))[0]!.attempts;

  it('given one code, when 10 wrong codes are verified at once across instances, then exactly maxAttempts are counted ERR_OTP_INVALID, the rest ERR_OTP_ATTEMPTS_EXCEEDED, the attempts column holds maxAttempts and the right code is refused afterwards', async () => {
    const { maxAttempts } = s.config.otp;
    const key = generateP256KeyPair();
    const otp = await requestCode(s, freshEmail('guesses'));
    const bundles = await Promise.all(Array.from({ length: 10 }, (_, i) => encryptOtpAttempt(otp.targetPublic, wrongCode(otp.code, i), key.publicKey)));
    const replies = await Promise.all(bundles.map((b, i) => verifyOn(browserFor(i), otp, b)));
    for (const r of replies) tally.record('otp', r);
    expect(outcomes(replies)).toEqual({ '401 ERR_OTP_INVALID': maxAttempts, '429 ERR_OTP_ATTEMPTS_EXCEEDED': 10 - maxAttempts });
    for (const r of replies.filter((x) => x.status === 401)) expect(r.body).toEqual(wrongReply.body);
    expect(await attemptsOf(otp.otpId)).toBe(maxAttempts);
    const right = await verifyOn(browserFor(1), otp, await encryptOtpAttempt(otp.targetPublic, otp.code, key.publicKey));
    tally.refused('otp', 'right code after the tries ran out', right, 429, 'ERR_OTP_ATTEMPTS_EXCEEDED');
    expect(await attemptsOf(otp.otpId)).toBe(maxAttempts);
  });

  it('given one code, when 10 clients verify the right code at once (each with its own key), then exactly one verification token is issued, bound to the winning key, and every other reply is a refusal', async () => {
    const keys = Array.from({ length: 10 }, () => generateP256KeyPair());
    const otp = await requestCode(s, freshEmail('double'));
    const bundles = await Promise.all(keys.map((k) => encryptOtpAttempt(otp.targetPublic, otp.code, k.publicKey)));
    const replies = await Promise.all(bundles.map((b, i) => verifyOn(browserFor(i), otp, b)));
    const winners = replies.filter((r) => r.status === 200);
    expect(winners.length).toBeGreaterThanOrEqual(1);
    tally.duplicates('otp', 'verification tokens from one code', winners.length - 1);
    for (const r of replies.filter((x) => x.status !== 200)) {
      tally.refused(
        'otp',
        'the right code verified a second time',
        r,
        r.status === 401 ? 401 : 429,
        r.status === 401 ? 'ERR_OTP_INVALID' : 'ERR_OTP_ATTEMPTS_EXCEEDED',
      );
    }
    const w = replies.indexOf(winners[0]!);
    expect(verifyJwt<{ public_key: string }>(winners[0]!.body.verificationToken, s.enclave.signingPublicKey).public_key).toBe(keys[w]!.publicKey);
  });

  it('given tampered or misdirected encryptedOtpBundles (flipped bytes, another target key, documents without or with a malformed public_key, extra fields, not JSON), when verified, then each is answered exactly like a wrong code and costs a try', async () => {
    const key = generateP256KeyPair();
    const elsewhere = await requestCode(s, freshEmail('elsewhere'));
    type Otp = Awaited<ReturnType<typeof requestCode>>;
    const variants: Array<[string, (o: Otp) => Promise<string>]> = [
      [
        'a flipped byte of encappedPublic',
        async (o) => {
          const b = JSON.parse(await encryptOtpAttempt(o.targetPublic, o.code, key.publicKey));
          return JSON.stringify({ ...b, encappedPublic: flipHex(b.encappedPublic, 40) });
        },
      ],
      [
        'encappedPublic not a curve point (prefix 05)',
        async (o) => {
          const b = JSON.parse(await encryptOtpAttempt(o.targetPublic, o.code, key.publicKey));
          return JSON.stringify({ ...b, encappedPublic: `05${b.encappedPublic.slice(2)}` });
        },
      ],
      [
        'a flipped byte of the ciphertext tag',
        async (o) => {
          const b = JSON.parse(await encryptOtpAttempt(o.targetPublic, o.code, key.publicKey));
          return JSON.stringify({ ...b, ciphertext: flipHex(b.ciphertext, b.ciphertext.length - 1) });
        },
      ],
      [
        'a flipped first byte of the ciphertext',
        async (o) => {
          const b = JSON.parse(await encryptOtpAttempt(o.targetPublic, o.code, key.publicKey));
          return JSON.stringify({ ...b, ciphertext: flipHex(b.ciphertext, 0) });
        },
      ],
      [
        'a truncated ciphertext',
        async (o) => {
          const b = JSON.parse(await encryptOtpAttempt(o.targetPublic, o.code, key.publicKey));
          return JSON.stringify({ ...b, ciphertext: b.ciphertext.slice(0, -2) });
        },
      ],
      [
        'the encapsulation of one encryption with the ciphertext of another',
        async (o) => {
          const one = JSON.parse(await encryptOtpAttempt(o.targetPublic, o.code, key.publicKey));
          const two = JSON.parse(await encryptOtpAttempt(o.targetPublic, o.code, key.publicKey));
          return JSON.stringify({ encappedPublic: one.encappedPublic, ciphertext: two.ciphertext });
        },
      ],
      ['the right code encrypted to another P-256 key', async (o) => encryptOtpAttempt(generateP256KeyPair().publicKeyUncompressed, o.code, key.publicKey)],
      ["the right code encrypted to another code's target", async (o) => encryptOtpAttempt(elsewhere.targetPublic, o.code, key.publicKey)],
      ['the right code without public_key', async (o) => sealText(o.targetPublic, JSON.stringify({ otp_code: o.code }))],
      [
        'the right code with a public_key off the curve',
        async (o) => sealText(o.targetPublic, JSON.stringify({ otp_code: o.code, public_key: `04${'00'.repeat(64)}` })),
      ],
      ['the right code with a public_key that is not hex', async (o) => sealText(o.targetPublic, JSON.stringify({ otp_code: o.code, public_key: 'my key' }))],
      ['the right code as a JSON number', async (o) => sealText(o.targetPublic, JSON.stringify({ otp_code: Number(o.code), public_key: key.publicKey }))],
      [
        'extra fields in the bundle around a tampered ciphertext',
        async (o) => {
          const b = JSON.parse(await encryptOtpAttempt(o.targetPublic, o.code, key.publicKey));
          return JSON.stringify({
            encappedPublic: b.encappedPublic,
            ciphertext: flipHex(b.ciphertext, 10),
            otpId: o.otpId,
            targetPublic: o.targetPublic,
            otp_code: o.code,
          });
        },
      ],
      [
        'a wrong code with the right one in an extra field',
        async (o) => sealText(o.targetPublic, JSON.stringify({ otp_code: wrongCode(o.code), public_key: key.publicKey, code: o.code, otp_code_2: o.code })),
      ],
      ['the right code as bare text', async (o) => sealText(o.targetPublic, o.code)],
    ];
    const { maxAttempts } = s.config.otp;
    for (let group = 0; group * maxAttempts < variants.length; group += 1) {
      const otp = await requestCode(s, freshEmail(`tamper${group}`));
      for (const [i, [what, make]] of variants.slice(group * maxAttempts, (group + 1) * maxAttempts).entries()) {
        const reply = await verifyOn(s.browser, otp, await make(otp));
        tally.refused('otp', what, reply, 401, 'ERR_OTP_INVALID');
        expect(reply.body, what).toEqual(wrongReply.body);
        expect(await attemptsOf(otp.otpId), `${what} costs a try`).toBe(i + 1);
      }
      // Tries spent by the tampering are gone: the right code no longer verifies once they are.
      if ((group + 1) * maxAttempts <= variants.length) {
        tally.refused('otp', 'right code after tampered tries', await verifyCode(s, otp, otp.code, key), 429, 'ERR_OTP_ATTEMPTS_EXCEEDED');
      }
    }
  });

  it("given two contacts' live codes and another organization's code, when a code is typed into the other contact's or organization's otpId, then it is refused like a wrong code, and each code still verifies where it belongs", async () => {
    const key = generateP256KeyPair();
    const x = await requestCode(s, freshEmail('x'));
    const y = await requestCode(s, freshPhone());
    const foreign = await requestCode(s2, freshEmail('foreign'));
    const cases: Array<[string, ProxyClient, { otpId: string }, string]> = [
      ["X's code encrypted to Y's target, sent with Y's otpId", s.browser, y, await encryptOtpAttempt(y.targetPublic, x.code, key.publicKey)],
      ["X's whole bundle sent with Y's otpId", browserFor(1), y, await encryptOtpAttempt(x.targetPublic, x.code, key.publicKey)],
      ["the other organization's right code on this proxy", s.browser, foreign, await encryptOtpAttempt(foreign.targetPublic, foreign.code, key.publicKey)],
      ["this organization's right code on the other organization's proxy", s2.browser, x, await encryptOtpAttempt(x.targetPublic, x.code, key.publicKey)],
      ['an otpId nobody issued', s.browser, { otpId: randomUUID() }, await encryptOtpAttempt(x.targetPublic, x.code, key.publicKey)],
    ];
    for (const [what, client, otp, bundle] of cases) {
      const reply = await verifyOn(client, otp, bundle);
      tally.refused('otp', what, reply, 401, 'ERR_OTP_INVALID');
      expect(reply.body, what).toEqual(wrongReply.body);
    }
    // Only the attempts made on this organization's own otpId count; the foreign code lost nothing.
    expect(await attemptsOf(y.otpId)).toBe(2);
    expect(await attemptsOf(x.otpId)).toBe(0);
    expect(await attemptsOf(foreign.otpId)).toBe(0);
    expect((await verifyCode(s, y, y.code, key)).status).toBe(200);
    expect((await verifyCode(s, x, x.code, key)).status).toBe(200);
    expect((await verifyCode(s2, foreign, foreign.code, key)).status).toBe(200);
  });

  it("given a verification token, when it is replayed after signup (login, lookup, signup, a malleated signature, on either instance), used on another organization's proxy, or an SMS token is used for an email, then each is a 401 and the refusals consume nothing", async () => {
    const lookup = (client: ProxyClient, contact: string, verificationToken: string, filterType: 'EMAIL' | 'PHONE_NUMBER' = 'EMAIL') =>
      client.post('account', { filterType, filterValue: contact, verificationToken });
    const contact = freshEmail('replay');
    const key = generateP256KeyPair();
    const token = await verifiedToken(s2, contact, key);
    // The honest client looks up before it uses the token.
    expect((await lookup(s2.browser, contact, token)).body).toEqual({});
    const signup = {
      userEmail: contact,
      verificationToken: token,
      clientSignature: usageSignature(key, token, 'USAGE_TYPE_SIGNUP'),
      apiKeys: [{ apiKeyName: 'device', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' as const }],
    };
    const created = await s2.browser.post('signup_v2', signup);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const login = { verificationToken: token, publicKey: key.publicKey, clientSignature: usageSignature(key, token, 'USAGE_TYPE_LOGIN') };
    const replays: Array<[string, () => Promise<ProxyReply>]> = [
      ['signup token replayed at login', () => s2.browser.post('otp_login_v2', login)],
      ['signup token replayed at login on instance B', () => browserFor(1, s2).post('otp_login_v2', { ...login, invalidateExisting: true })],
      ['used token at account lookup', () => lookup(s2.browser, contact, token)],
      ['used token at account lookup again, on instance B', () => lookup(browserFor(1, s2), contact.toUpperCase(), token)],
      ['used token at signup again', () => s2.browser.post('signup_v2', { ...signup, userName: 'again' })],
      ['used token with a malleated signature at login', () => s2.browser.post('otp_login_v2', { ...login, verificationToken: malleated(token) })],
      ['used token with a malleated signature at lookup', () => lookup(s2.browser, contact, malleated(token))],
    ];
    for (const [what, send] of replays) tally.refused('otp', what, await send(), 401, 'ERR_VERIFICATION_TOKEN_INVALID');

    // Another organization's token: the same person has an account on both.
    const both = freshEmail('both');
    await signupByCode(s, both);
    await signupByCode(s2, both);
    const k2 = generateP256KeyPair();
    const ofOther = await verifiedToken(s2, both, k2);
    const ofThis = await verifiedToken(s, freshEmail('this'), k2);
    const crossings: Array<[string, () => Promise<ProxyReply>]> = [
      [
        "another organization's token at login",
        () =>
          s.browser.post('otp_login_v2', {
            verificationToken: ofOther,
            publicKey: k2.publicKey,
            clientSignature: usageSignature(k2, ofOther, 'USAGE_TYPE_LOGIN'),
          }),
      ],
      [
        "another organization's token at signup",
        () =>
          s.browser.post('signup_v2', {
            userEmail: both.toUpperCase(),
            verificationToken: ofOther,
            clientSignature: usageSignature(k2, ofOther, 'USAGE_TYPE_SIGNUP'),
          }),
      ],
      ["another organization's token at lookup", () => lookup(s2.browser, decodeJwt<{ contact: string }>(ofThis).contact, ofThis)],
    ];
    for (const [what, send] of crossings) tally.refused('otp', what, await send(), 401, 'ERR_VERIFICATION_TOKEN_INVALID');
    // Refused uses consumed nothing: the token still logs its owner in where it belongs.
    const honest = await s2.browser.post('otp_login_v2', {
      verificationToken: ofOther,
      publicKey: k2.publicKey,
      clientSignature: usageSignature(k2, ofOther, 'USAGE_TYPE_LOGIN'),
    });
    expect(honest.status, JSON.stringify(honest.body)).toBe(200);
    expect(verifyJwt<{ organization_id: string }>(honest.body.session, s.enclave.signingPublicKey).organization_id).not.toBe(
      (await s.browser.post('account', { filterType: 'EMAIL', filterValue: both })).body.organizationId,
    );

    // An SMS proof is no email proof.
    const phone = freshPhone();
    const kp = generateP256KeyPair();
    const sms = await verifiedToken(s, phone, kp);
    const smsOther = await verifiedToken(s2, phone, kp);
    const someone = await signupByCode(s, freshEmail('someone'));
    const victimEmail = freshEmail('victim');
    const confusions: Array<[string, () => Promise<Seen>]> = [
      [
        'SMS token at an email signup',
        () => s.browser.post('signup_v2', { userEmail: victimEmail, verificationToken: sms, clientSignature: usageSignature(kp, sms, 'USAGE_TYPE_SIGNUP') }),
      ],
      [
        'SMS token at update_user_email',
        () =>
          submitOver(s.url, someone.key, someone.organizationId, 'update_user_email', {
            userId: someone.userId,
            userEmail: victimEmail,
            verificationToken: sms,
          }),
      ],
      ['SMS token at an email lookup', () => lookup(s2.browser, victimEmail, smsOther)],
      ['SMS token at an email lookup of its own number', () => lookup(s2.browser, phone, smsOther)],
    ];
    for (const [what, send] of confusions) tally.refused('otp', what, await send(), 401, 'ERR_VERIFICATION_TOKEN_INVALID');
    expect((await s.browser.post('account', { filterType: 'EMAIL', filterValue: victimEmail })).body).toEqual({});
    // ...and the refusals left the SMS token usable for the phone it proves.
    const phoneSignup = await s.browser.post('signup_v2', {
      userPhoneNumber: phone,
      verificationToken: sms,
      clientSignature: usageSignature(kp, sms, 'USAGE_TYPE_SIGNUP'),
    });
    expect(phoneSignup.status, JSON.stringify(phoneSignup.body)).toBe(200);
    expect((await lookup(s2.browser, phone, smsOther, 'PHONE_NUMBER')).status).toBe(200);
  });

  it('given 30 concurrent otp_init_v2 for one contact (differently cased, across instances), when they race, then exactly the per-window limit succeed, the rest are 429 ERR_RATE_LIMITED, and exactly that many messages reach the outbox', async () => {
    const { maxPerContactPerWindow } = s.config.otp;
    const contact = freshEmail('flood');
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) => browserFor(i).post('otp_init_v2', { otpType: 'OTP_TYPE_EMAIL', contact: spelling(contact, i) })),
    );
    const ok = replies.filter((r) => r.status === 200);
    expect(ok.length).toBe(maxPerContactPerWindow);
    expect(new Set(ok.map((r) => r.body.otpId)).size).toBe(maxPerContactPerWindow);
    for (const r of replies.filter((x) => x.status !== 200)) tally.refused('otp', 'code beyond the per-window limit', r, 429, 'ERR_RATE_LIMITED');
    expect((await listOutbox(s.store.db, { recipient: contact })).length).toBe(maxPerContactPerWindow);
    expect(await s.store.db.select({ id: otps.id }).from(otps).where(eq(otps.contact, contact))).toHaveLength(maxPerContactPerWindow);
  });

  describe('with a one-second window and the daily cap', () => {
    let d: ProxyTestServer;
    beforeAll(async () => {
      d = await startProxyServer(kind, {
        config: { otp: { ttlSeconds: 300, maxAttempts: 3, maxPerContactPerWindow: 100, windowSeconds: 1, maxPerContactPerDay: 20 } },
        proxy: { origins: [APP] },
      });
    });
    afterAll(async () => d?.dispose());

    it('given a window too wide to bind, when 24 codes for one contact race and one more follows, then exactly the daily cap succeed and everything after it is 429 ERR_RATE_LIMITED', async () => {
      const cap = d.config.otp.maxPerContactPerDay!;
      const contact = freshEmail('daily');
      const replies = await Promise.all(
        Array.from({ length: cap + 4 }, (_, i) => d.browser.post('otp_init_v2', { otpType: 'OTP_TYPE_EMAIL', contact: spelling(contact, i) })),
      );
      expect(replies.filter((r) => r.status === 200).length).toBe(cap);
      for (const r of replies.filter((x) => x.status !== 200)) tally.refused('otp', 'code beyond the daily cap', r, 429, 'ERR_RATE_LIMITED');
      // The window (100 per second) cannot bind here: only the daily cap refuses.
      tally.refused('otp', 'code number cap + 1', await d.browser.post('otp_init_v2', { otpType: 'OTP_TYPE_EMAIL', contact }), 429, 'ERR_RATE_LIMITED');
      expect((await listOutbox(d.store.db, { recipient: contact })).length).toBe(cap);
    });
  });

  it('given older codes of a contact, when each is verified with its right code after a newer one was issued (on either instance), or while the newer one is being issued, then it is refused exactly like a wrong code and never both verify', async () => {
    const key = generateP256KeyPair();
    const contact = freshEmail('older');
    const issued = [await requestCode(s, contact), await requestCode(s, contact), await requestCode(s, contact)];
    for (const [i, older] of issued.slice(0, -1).entries()) {
      const reply = await verifyOn(browserFor(i), older, await encryptOtpAttempt(older.targetPublic, older.code, key.publicKey));
      tally.refused('otp', 'older code with its right code', reply, 401, 'ERR_OTP_INVALID');
      expect(reply.body).toEqual(wrongReply.body);
    }
    expect((await verifyCode(s, issued[2]!, issued[2]!.code, key)).status).toBe(200);

    // Races: the older code's right code against the issuance of a newer one, on both instances.
    const { ttlSeconds } = s.config.otp;
    for (let round = 0; round < 4; round += 1) {
      const racer = freshEmail(`race${round}`);
      const older = await requestCode(s, racer);
      const bundle = await encryptOtpAttempt(older.targetPublic, older.code, key.publicKey);
      const [verified, newer] = await Promise.all([
        verifyOn(browserFor(round), older, bundle),
        browserFor(round + 1).post('otp_init_v2', { otpType: 'OTP_TYPE_EMAIL', contact: racer }),
      ]);
      expect(newer.status).toBe(200);
      if (verified.status !== 200) tally.refused('otp', 'older code racing a newer issuance', verified, 401, 'ERR_OTP_INVALID');
      // A code that verified was never retired: its verification happened before the newer code existed.
      const [row] = await s.store.db.select().from(otps).where(eq(otps.id, older.otpId));
      const retired = row!.expiresAt.getTime() - row!.createdAt.getTime() < ttlSeconds * 1000;
      tally.violations('otp', 'an older code verified after a newer one retired it', verified.status === 200 && retired ? [older.otpId] : []);
    }
  });

  if (kind === 'postgres') {
    it('given a second instance whose clock is two seconds ahead, when it issues the newer code, then the older code is refused on the instance behind too', async () => {
      const ahead = await startSecondInstance(s as ProxyTestServer & { store: { location: string } }, { now: () => new Date(Date.now() + 2_000) });
      closers.push(ahead.close);
      const key = generateP256KeyPair();
      const contact = freshEmail('skew');
      const older = await requestCode(s, contact);
      const newer = await s.browser.with({ baseUrl: ahead.url }).post('otp_init_v2', { otpType: 'OTP_TYPE_EMAIL', contact });
      expect(newer.status).toBe(200);
      const reply = await verifyOn(s.browser, older, await encryptOtpAttempt(older.targetPublic, older.code, key.publicKey));
      tally.refused('otp', 'older code on an instance whose clock is behind', reply, 401, 'ERR_OTP_INVALID');
      expect(reply.body).toEqual(wrongReply.body);
      expect(
        (
          await verifyOn(
            s.browser,
            { otpId: newer.body.otpId },
            await encryptOtpAttempt(
              otpTargetOf(newer.body.otpEncryptionTargetBundle, s.enclave.signingPublicKey).targetPublic,
              await outboxCode(s.url, contact),
              key.publicKey,
            ),
          )
        ).status,
      ).toBe(200);
    });
  }

  it('given the guess budget computed from the configuration (codes per window x tries per code), when an attacker spends everything one contact allows, then exactly that many guesses could have succeeded and every other one is refused', async () => {
    const { maxPerContactPerWindow, maxAttempts } = s.config.otp;
    const budget = maxPerContactPerWindow * maxAttempts;
    const key = generateP256KeyPair();
    const contact = freshPhone();
    /** Replies to guesses checked against the contact's live code: the ones that could have succeeded. */
    let live = 0;
    const issued: Array<Awaited<ReturnType<typeof requestCode>>> = [];
    for (;;) {
      const init = await browserFor(issued.length).post('otp_init_v2', { otpType: 'OTP_TYPE_SMS', contact });
      if (init.status !== 200) {
        tally.refused('otp', 'code beyond the window', init, 429, 'ERR_RATE_LIMITED');
        break;
      }
      const newest = {
        otpId: init.body.otpId as string,
        targetPublic: otpTargetOf(init.body.otpEncryptionTargetBundle, s.enclave.signingPublicKey).targetPublic,
        code: await outboxCode(s.url, contact),
      };
      // Every older code (retired, its tries spent) is tried too, with its right code: it gives nothing.
      for (const older of issued) {
        const reply = await verifyOn(s.browser, older, await encryptOtpAttempt(older.targetPublic, older.code, key.publicKey));
        tally.refused(
          'otp',
          'right code of a retired code',
          reply,
          reply.status === 401 ? 401 : 429,
          reply.status === 401 ? 'ERR_OTP_INVALID' : 'ERR_OTP_ATTEMPTS_EXCEEDED',
        );
      }
      issued.push(newest);
      const last = issued.length === maxPerContactPerWindow;
      for (let g = 0; ; g += 1) {
        // The very last try of the very last code is the right code: those tries were real.
        const right = last && g === maxAttempts - 1;
        const reply = await verifyOn(
          browserFor(g),
          newest,
          await encryptOtpAttempt(newest.targetPublic, right ? newest.code : wrongCode(newest.code, g), key.publicKey),
        );
        if (right) {
          expect(reply.status).toBe(200);
          live += 1;
          break;
        }
        if (reply.status === 401) {
          tally.refused('otp', 'guess on the live code', reply, 401, 'ERR_OTP_INVALID');
          live += 1;
          continue;
        }
        tally.refused('otp', 'guess beyond the tries of a code', reply, 429, 'ERR_OTP_ATTEMPTS_EXCEEDED');
        break;
      }
    }
    expect(issued.length).toBe(maxPerContactPerWindow);
    expect(live).toBe(budget);
    expect(budget).toBe(15);
  });

  it("given signups that give a victim's email or phone without a token (also differently cased, or set later by update_user_email / update_user_phone_number), when the owner logs in by code, then it is 404 ERR_USER_NOT_FOUND, no lookup finds them, and the owner's signup gets its own sub-organization", async () => {
    const email = freshEmail('owner');
    const phone = freshPhone();
    const attacker = generateP256KeyPair();
    const squats: string[] = [];
    for (const [i, fields] of [
      { userEmail: email },
      { userEmail: email.toUpperCase() },
      { userPhoneNumber: phone },
      { userEmail: email, userPhoneNumber: phone },
    ].entries()) {
      const publicKey = i === 0 ? attacker.publicKey : generateP256KeyPair().publicKey;
      const reply = await s.browser.post('signup_v2', {
        ...fields,
        apiKeys: [{ apiKeyName: 'attacker', publicKey, curveType: 'API_KEY_CURVE_P256' }],
        wallet: ETH_WALLET,
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      squats.push(reply.body.organizationId);
    }
    // An account of the attacker's own, proven by its own code, then the victim's contacts typed in.
    const own = await signupByCode(s, freshEmail('attacker'));
    squats.push(own.organizationId);
    expect((await submitOver(s.url, own.key, own.organizationId, 'update_user_email', { userId: own.userId, userEmail: email })).status).toBe(200);
    expect((await submitOver(s.url, own.key, own.organizationId, 'update_user_phone_number', { userId: own.userId, userPhoneNumber: phone })).status).toBe(200);

    const found = async () => [
      (await s.browser.post('account', { filterType: 'EMAIL', filterValue: email })).body.organizationId,
      (await s.browser.post('account', { filterType: 'PHONE_NUMBER', filterValue: phone })).body.organizationId,
    ];
    tally.violations(
      'otp',
      'a squatted contact found by lookup',
      (await found()).filter((o) => o !== undefined),
    );
    for (const contact of [email, phone]) {
      const { reply } = await loginByCode(s, contact);
      tally.refused('otp', 'login routed by an unverified contact', reply, 404, 'ERR_USER_NOT_FOUND');
    }
    const ownerByEmail = await signupByCode(s, email);
    const ownerByPhone = await signupByCode(s, phone);
    for (const owner of [ownerByEmail, ownerByPhone]) expect(squats).not.toContain(owner.organizationId);
    expect(await found()).toEqual([ownerByEmail.organizationId, ownerByPhone.organizationId]);
    const again = await loginByCode(s, email);
    expect(verifyJwt<{ organization_id: string }>(again.reply.body.session, s.enclave.signingPublicKey).organization_id).toBe(ownerByEmail.organizationId);
    // The squatters still hold the text they typed, as unverified profile data only.
    const holders = await s.store.db
      .select({ organizationId: users.organizationId, verified: users.emailVerified })
      .from(users)
      .where(sql`lower(${users.userEmail}) = ${email}`);
    tally.violations(
      'otp',
      'a squatter holding the email as verified',
      holders.filter((h) => h.verified && h.organizationId !== ownerByEmail.organizationId).map((h) => h.organizationId),
    );
    // And the attacker's key reaches nothing of the owner's.
    tally.refused(
      'otp',
      "the attacker's key on the owner's account",
      await submitOver(s.url, attacker, ownerByEmail.organizationId, 'create_wallet', { walletName: 'x', accounts: [] }),
      401,
      'ERR_STAMP_KEY_UNKNOWN',
    );
  });
});
