import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { decodeJwt, generateP256KeyPair, verifyJwt } from '@walletkit/crypto';
import { errorBody, operations } from '@walletkit/protocol';
import type { SessionClaims } from '../src/activity/operations/sessions';
import type { VerificationClaims } from '../src/activity/operations/users-verification';
import { listOutbox } from '../src/delivery/outbox';
import { activities, otps, users } from '../src/store/schema';
import { build } from '../src/app';
import { Enclave } from '../src/enclave';
import { openStore } from '../src/store/db';
import { ActivityClient, startTestServer, type Reply, type TestServer } from './support/harness';
import { addOrganization, expectError } from './support/members';
import { captureLogs, codeIn, encryptOtpAttempt, loginSignature, otpTargetOf } from './support/otp';
import { storeKinds } from './support/stores';

const OTP_LIMITS = { ttlSeconds: 300, maxAttempts: 3, maxPerContactPerWindow: 3, windowSeconds: 600 };

describe.each(storeKinds)('one-time codes on %s', (kind) => {
  let server: TestServer;
  let now = Date.now();
  let logs: string[];
  let subOrganizationId: string;
  let subUserId: string;
  /** Every code issued and every reply received, for the leak check at the end. */
  const codes: string[] = [];
  const replies: Reply[] = [];

  beforeAll(async () => {
    // The dev outbox stands in for the user's mailbox.
    server = await startTestServer(kind, { clock: () => now, config: { logLevel: 'debug', otp: OTP_LIMITS, devOutbox: true } });
    logs = captureLogs(server.app);
    const created = await server.client.run('create_sub_organization', {
      subOrganizationName: 'otp-user',
      rootUsers: [{ userName: 'otp', userEmail: 'login@example.com', userPhoneNumber: '+15550001111', apiKeys: [], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
    });
    subOrganizationId = created.subOrganizationId;
    subUserId = created.rootUserIds[0]!;
  }, 20_000);
  afterAll(() => server?.dispose());

  const kept = (reply: Reply) => {
    replies.push(reply);
    return reply;
  };
  const submit: typeof server.client.submit = async (op, params, opts) => kept(await server.client.submit(op, params, opts));

  /** init_otp, then read the delivered code from the dev outbox as the user would read it. */
  async function issue(
    contact: string,
    params: { otpType?: 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS'; otpLength?: number; alphanumeric?: boolean; expirationSeconds?: string } = {},
  ) {
    // A new timestampMs: an identical body would be the same activity (idempotency), not a new code.
    now += 1;
    const reply = await submit('init_otp', { otpType: 'OTP_TYPE_EMAIL', contact, ...params });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const { otpId, otpEncryptionTargetBundle } = reply.body.activity.result.initOtpResultV2;
    const [message] = await listOutbox(server.store.db, { organizationId: server.org.organizationId, recipient: contact });
    const code = codeIn(message!.body);
    codes.push(code);
    return { otpId: otpId as string, target: otpTargetOf(otpEncryptionTargetBundle, server.enclave.signingPublicKey), code, message: message! };
  }
  const verify = (otpId: string, encryptedOtpBundle: string) => submit('verify_otp', { otpId, encryptedOtpBundle });
  const attemptsOf = async (otpId: string) => (await server.store.db.select({ attempts: otps.attempts }).from(otps).where(eq(otps.id, otpId)))[0]!.attempts;
  const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('given a sub-organization user with an email, when the emailed code is verified and used to log in, then the contact is verified and a session key of that user stamps', async () => {
    const { otpId, target, code, message } = await issue('Login@Example.com');
    expect(target).toEqual({ targetPublic: expect.stringMatching(/^04[0-9a-f]{128}$/), organizationId: server.org.organizationId, otpId });
    expect(code).toMatch(/^[0-9]{6}$/);
    expect(message).toMatchObject({ channel: 'email', recipient: 'login@example.com', subject: 'Your walletkit verification code' });

    const client = generateP256KeyPair();
    const verified = kept(
      await server.client.submit('verify_otp', { otpId, encryptedOtpBundle: await encryptOtpAttempt(target.targetPublic, code, client.publicKey) }),
    );
    expect(verified.status).toBe(200);
    const token = verified.body.activity.result.verifyOtpResult.verificationToken as string;
    const claims = verifyJwt<VerificationClaims>(token, server.enclave.signingPublicKey, { now: () => now });
    expect(claims).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      verification_type: 'OTP_TYPE_EMAIL',
      contact: 'login@example.com',
      organization_id: server.org.organizationId,
      public_key: client.publicKey,
      exp: Math.floor(now / 1000) + 3600,
    });

    const login = await submit(
      'otp_login',
      { verificationToken: token, publicKey: client.publicKey, clientSignature: loginSignature(client.privateKey, token), expirationSeconds: '600' },
      { organizationId: subOrganizationId },
    );
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const session = verifyJwt<SessionClaims>(login.body.activity.result.otpLoginResult.session, server.enclave.signingPublicKey, { now: () => now });
    expect(session).toMatchObject({ user_id: subUserId, organization_id: subOrganizationId, public_key: client.publicKey, exp: Math.floor(now / 1000) + 600 });
    const [user] = await server.store.db.select().from(users).where(eq(users.id, subUserId));
    expect(user).toMatchObject({ emailVerified: true });
    expect((await server.client.with({ key: client, organizationId: subOrganizationId }).query('get_api_keys', {})).status).toBe(200);

    // The token and the code are single use.
    const again = await submit(
      'otp_login',
      { verificationToken: token, publicKey: client.publicKey, clientSignature: loginSignature(client.privateKey, token) },
      { organizationId: subOrganizationId },
    );
    expectError(again, 401, 'ERR_VERIFICATION_TOKEN_INVALID', 'verificationToken');
    expect(JSON.stringify(again.body)).toContain('already been used');
    // A spent token is refused as spent before its client signature is looked at.
    const replayed = await submit(
      'otp_login',
      { verificationToken: token, publicKey: client.publicKey, clientSignature: loginSignature(generateP256KeyPair().privateKey, token) },
      { organizationId: subOrganizationId },
    );
    expectError(replayed, 401, 'ERR_VERIFICATION_TOKEN_INVALID', 'verificationToken');
    expect(JSON.stringify(replayed.body)).toContain('already been used');
    expectError(await verify(otpId, await encryptOtpAttempt(target.targetPublic, code, client.publicKey)), 401, 'ERR_OTP_INVALID');
  });

  it('given the session key written in the other encoding than the client signature names it, when logging in, then the session is the same compressed key either way', async () => {
    for (const uncompressedIn of ['publicKey', 'clientSignature'] as const) {
      const { otpId, target, code } = await issue('login@example.com');
      const client = generateP256KeyPair();
      const verified = await server.client.submit('verify_otp', {
        otpId,
        encryptedOtpBundle: await encryptOtpAttempt(target.targetPublic, code, client.publicKey),
      });
      const token = verified.body.activity.result.verifyOtpResult.verificationToken as string;
      const signature = loginSignature(client.privateKey, token);
      const login = await submit(
        'otp_login',
        uncompressedIn === 'publicKey'
          ? { verificationToken: token, publicKey: client.publicKeyUncompressed, clientSignature: signature }
          : { verificationToken: token, publicKey: client.publicKey, clientSignature: { ...signature, publicKey: client.publicKeyUncompressed } },
        { organizationId: subOrganizationId },
      );
      expect(login.status, `${uncompressedIn}: ${JSON.stringify(login.body)}`).toBe(200);
      const session = verifyJwt<SessionClaims>(login.body.activity.result.otpLoginResult.session, server.enclave.signingPublicKey, { now: () => now });
      expect(session.public_key).toBe(client.publicKey);
      expect((await server.client.with({ key: client, organizationId: subOrganizationId }).query('get_api_keys', {})).status).toBe(200);
    }
  });

  it('given an SMS code of 9 alphanumeric characters with a shorter lifetime, when it is typed in lowercase, then it verifies as an SMS proof', async () => {
    const { otpId, target, code, message } = await issue('+15550001111', {
      otpType: 'OTP_TYPE_SMS',
      otpLength: 9,
      alphanumeric: true,
      expirationSeconds: '120',
    });
    expect(message).toMatchObject({ channel: 'sms', subject: null });
    expect(code).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{9}$/);
    const [row] = await server.store.db.select().from(otps).where(eq(otps.id, otpId));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(120_000);

    const client = generateP256KeyPair();
    const reply = await verify(otpId, await encryptOtpAttempt(target.targetPublic, code.toLowerCase(), client.publicKey));
    expect(reply.status).toBe(200);
    expect(decodeJwt<VerificationClaims>(reply.body.activity.result.verifyOtpResult.verificationToken)).toMatchObject({
      verification_type: 'OTP_TYPE_SMS',
      contact: '+15550001111',
    });
    // The SMS proof logs in the user whose verified phone it is.
    const smsToken = reply.body.activity.result.verifyOtpResult.verificationToken as string;
    const login = await submit(
      'otp_login',
      { verificationToken: smsToken, publicKey: client.publicKey, clientSignature: loginSignature(client.privateKey, smsToken) },
      { organizationId: subOrganizationId },
    );
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const session = verifyJwt<SessionClaims>(login.body.activity.result.otpLoginResult.session, server.enclave.signingPublicKey, { now: () => now });
    expect(session).toMatchObject({ user_id: subUserId, organization_id: subOrganizationId, public_key: client.publicKey });

    // A request may shorten the configured lifetime, never extend it.
    const longer = await issue('+15550002222', { otpType: 'OTP_TYPE_SMS', expirationSeconds: '3600' });
    const [longRow] = await server.store.db.select().from(otps).where(eq(otps.id, longer.otpId));
    expect(longRow!.expiresAt.getTime() - longRow!.createdAt.getTime()).toBe(300_000);
  });

  it('given a wrong code, a wrong key, a tampered ciphertext, an expired code and an unknown id, when verified, then each is the same ERR_OTP_INVALID and counted attempts persist', async () => {
    const client = generateP256KeyPair();
    const { otpId, target, code } = await issue('fail@example.com');
    const failures: Reply[] = [];
    failures.push(await verify(otpId, await encryptOtpAttempt(target.targetPublic, otherCode(code), client.publicKey)));
    failures.push(await verify(otpId, await encryptOtpAttempt(generateP256KeyPair().publicKeyUncompressed, code, client.publicKey)));
    const honest = JSON.parse(await encryptOtpAttempt(target.targetPublic, code, client.publicKey));
    const flipped = (parseInt(honest.ciphertext[0], 16) ^ 1).toString(16) + honest.ciphertext.slice(1);
    const tamperedBody = server.client.envelope('verify_otp', { otpId, encryptedOtpBundle: JSON.stringify({ ...honest, ciphertext: flipped }) });
    failures.push(kept(await server.client.post(operations.verify_otp.path, tamperedBody)));
    expect(await attemptsOf(otpId)).toBe(3);

    // The failed activity is stored; replaying its exact body answers the same and counts nothing.
    const [failed] = await server.store.db
      .select()
      .from(activities)
      .where(
        and(
          eq(activities.organizationId, server.org.organizationId),
          eq(activities.type, 'ACTIVITY_TYPE_VERIFY_OTP_V2'),
          eq(activities.status, 'ACTIVITY_STATUS_FAILED'),
        ),
      );
    expect(failed?.failure).toMatchObject({ code: 'ERR_OTP_INVALID' });
    failures.push(kept(await server.client.post(operations.verify_otp.path, tamperedBody)));
    expect(await attemptsOf(otpId)).toBe(3);
    expectError(await verify(otpId, await encryptOtpAttempt(target.targetPublic, code, client.publicKey)), 429, 'ERR_OTP_ATTEMPTS_EXCEEDED');

    const expiring = await issue('expired@example.com');
    now += 301_000;
    failures.push(await verify(expiring.otpId, await encryptOtpAttempt(expiring.target.targetPublic, expiring.code, client.publicKey)));
    failures.push(await verify('00000000-0000-4000-8000-000000000000', await encryptOtpAttempt(target.targetPublic, code, client.publicKey)));

    for (const reply of failures) expect({ status: reply.status, body: reply.body }).toEqual({ status: 401, body: errorBody('ERR_OTP_INVALID') });
  });

  it('given five concurrent wrong attempts on one code, when they race, then exactly three are counted and the right code is refused afterwards', async () => {
    const client = generateP256KeyPair();
    const { otpId, target, code } = await issue('race@example.com');
    const bundles = await Promise.all(Array.from({ length: 5 }, () => encryptOtpAttempt(target.targetPublic, otherCode(code), client.publicKey)));
    const results = await Promise.all(bundles.map((b) => verify(otpId, b)));
    const codesOf = results.map((r) => r.body.details[0].errorCode).sort();
    expect(codesOf).toEqual(['ERR_OTP_ATTEMPTS_EXCEEDED', 'ERR_OTP_ATTEMPTS_EXCEEDED', 'ERR_OTP_INVALID', 'ERR_OTP_INVALID', 'ERR_OTP_INVALID']);
    expect(await attemptsOf(otpId)).toBe(3);
    expectError(await verify(otpId, await encryptOtpAttempt(target.targetPublic, code, client.publicKey)), 429, 'ERR_OTP_ATTEMPTS_EXCEEDED');
  });

  it('given five concurrent requests for one contact, when the limit is three per window, then two are throttled until the window has passed', async () => {
    const contact = 'throttle@example.com';
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => submit('init_otp', { otpType: 'OTP_TYPE_EMAIL', contact }, { timestampMs: String(now - i) })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429]);
    for (const r of results.filter((x) => x.status === 429)) expectError(r, 429, 'ERR_RATE_LIMITED', 'contact');
    expect(await listOutbox(server.store.db, { recipient: contact })).toHaveLength(3);
    // Case does not dodge the limit; another contact is unaffected.
    expectError(await submit('init_otp', { otpType: 'OTP_TYPE_EMAIL', contact: 'THROTTLE@example.com' }), 429, 'ERR_RATE_LIMITED');
    await issue('other-contact@example.com');
    now += OTP_LIMITS.windowSeconds * 1000 + 1000;
    await issue(contact);
  });

  it('given a valid token, when otp_login has a foreign signature, a signup usage, another session key, another contact or an expired token, then it is refused and the token stays usable', async () => {
    const client = generateP256KeyPair();
    const { otpId, target, code } = await issue('login@example.com');
    const token = (await verify(otpId, await encryptOtpAttempt(target.targetPublic, code, client.publicKey))).body.activity.result.verifyOtpResult
      .verificationToken as string;
    const login = (params: Record<string, unknown>, organizationId = subOrganizationId) =>
      submit(
        'otp_login',
        { verificationToken: token, publicKey: client.publicKey, clientSignature: loginSignature(client.privateKey, token), ...params } as never,
        { organizationId },
      );

    const stranger = generateP256KeyPair();
    expectError(await login({ clientSignature: loginSignature(stranger.privateKey, token) }), 401, 'ERR_CLIENT_SIGNATURE_INVALID', 'clientSignature');
    expectError(
      await login({ clientSignature: loginSignature(client.privateKey, token, 'USAGE_TYPE_SIGNUP') }),
      401,
      'ERR_CLIENT_SIGNATURE_INVALID',
      'clientSignature',
    );
    expectError(await login({ publicKey: stranger.publicKey }), 401, 'ERR_CLIENT_SIGNATURE_INVALID', 'publicKey');
    // The parent organization has no user with this contact.
    expectError(await login({}, server.org.organizationId), 401, 'ERR_VERIFICATION_TOKEN_INVALID', 'verificationToken');
    // Another organization's sub-organization is not the token's.
    const other = await addOrganization(server, 'Other');
    const foreign = await other.client.submit('otp_login', {
      verificationToken: token,
      publicKey: client.publicKey,
      clientSignature: loginSignature(client.privateKey, token),
    });
    expectError(kept(foreign), 401, 'ERR_VERIFICATION_TOKEN_INVALID', 'verificationToken');

    const ok = await login({});
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);

    const late = await issue('login@example.com');
    const lateReply = await verify(late.otpId, await encryptOtpAttempt(late.target.targetPublic, late.code, client.publicKey));
    expect(lateReply.status, JSON.stringify(lateReply.body)).toBe(200);
    const lateToken = lateReply.body.activity.result.verifyOtpResult.verificationToken as string;
    now += 3601_000;
    expectError(
      await submit(
        'otp_login',
        { verificationToken: lateToken, publicKey: client.publicKey, clientSignature: loginSignature(client.privateKey, lateToken) },
        { organizationId: subOrganizationId },
      ),
      401,
      'ERR_VERIFICATION_TOKEN_INVALID',
    );
  });

  it('given malformed contacts, lengths or bundles, when submitted, then each is a 400 naming the field, and another organization cannot verify the code', async () => {
    expectError(await submit('init_otp', { otpType: 'OTP_TYPE_EMAIL', contact: 'not-an-email' }), 400, 'ERR_INVALID_PARAMETER', 'contact');
    expectError(await submit('init_otp', { otpType: 'OTP_TYPE_SMS', contact: 'a@example.com' }), 400, 'ERR_INVALID_PARAMETER', 'contact');
    expectError(await submit('init_otp', { otpType: 'OTP_TYPE_EMAIL', contact: 'a@example.com', otpLength: 5 }), 400, 'ERR_INVALID_REQUEST');
    expectError(
      await submit('init_otp', { otpType: 'OTP_TYPE_EMAIL', contact: 'a@example.com', expirationSeconds: '0' }),
      400,
      'ERR_INVALID_PARAMETER',
      'expirationSeconds',
    );
    const { otpId, target, code } = await issue('malformed@example.com');
    expectError(await verify(otpId, 'not json'), 400, 'ERR_INVALID_ENCRYPTED_BUNDLE', 'encryptedOtpBundle');
    expect(await attemptsOf(otpId)).toBe(0);
    const other = await addOrganization(server, 'Elsewhere');
    const client = generateP256KeyPair();
    expectError(
      kept(await other.client.submit('verify_otp', { otpId, encryptedOtpBundle: await encryptOtpAttempt(target.targetPublic, code, client.publicKey) })),
      401,
      'ERR_OTP_INVALID',
    );
    expect(await attemptsOf(otpId)).toBe(0);
  });

  // Only PostgreSQL is shared by several processes (a PGlite directory is locked to one).
  if (kind === 'postgres')
    it('given two server instances on one PostgreSQL database, when both issue codes for one contact at once and one verifies what the other issued, then the limits hold across them', async () => {
      const store = await openStore({ databaseUrl: (server.store as unknown as { location: string }).location, poolSize: 5 });
      const app = await build(server.config, { store, enclave: await Enclave.open(store, server.config), now: () => new Date(now) });
      try {
        const clientB = new ActivityClient(app, server.org.apiKey, server.org.organizationId, () => now);
        const contact = 'two-instances@example.com';
        now += 1;
        const results = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            (i % 2 === 0 ? server.client : clientB).submit('init_otp', { otpType: 'OTP_TYPE_EMAIL', contact }, { timestampMs: String(now - i) }).then(kept),
          ),
        );
        expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429, 429]);

        const fresh = await issue('handover@example.com');
        const client = generateP256KeyPair();
        const wrong = await Promise.all(
          Array.from({ length: 4 }, async (_, i) =>
            kept(
              await (i % 2 === 0 ? server.client : clientB).submit('verify_otp', {
                otpId: fresh.otpId,
                encryptedOtpBundle: await encryptOtpAttempt(fresh.target.targetPublic, otherCode(fresh.code), client.publicKey),
              }),
            ),
          ),
        );
        expect(wrong.map((r) => r.body.details[0].errorCode).sort()).toEqual([
          'ERR_OTP_ATTEMPTS_EXCEEDED',
          'ERR_OTP_INVALID',
          'ERR_OTP_INVALID',
          'ERR_OTP_INVALID',
        ]);

        const handover = await issue('handover2@example.com');
        const onB = kept(
          await clientB.submit('verify_otp', {
            otpId: handover.otpId,
            encryptedOtpBundle: await encryptOtpAttempt(handover.target.targetPublic, handover.code, client.publicKey),
          }),
        );
        expect(onB.status, JSON.stringify(onB.body)).toBe(200);
      } finally {
        await app.close();
        await store.close();
      }
    });

  it('given every flow above, when replies, stored rows and log lines are searched, then no code appears in any of them', async () => {
    expect(codes.length).toBeGreaterThanOrEqual(10);
    expect(logs.length).toBeGreaterThan(10);
    const stored = JSON.stringify([await server.store.db.select().from(otps), await server.store.db.select().from(activities)]);
    const haystacks = [...replies.map((r) => JSON.stringify(r.body)), ...logs, stored];
    for (const code of codes) {
      // Whole-token match: a code may occur by chance inside a hex string or a timestamp.
      const pattern = new RegExp(`(?<![0-9A-Za-z])${code}(?![0-9A-Za-z])`, 'i');
      for (const text of haystacks) expect(pattern.test(text), `code found in: ${text.slice(0, 200)}`).toBe(false);
    }
  });
});
