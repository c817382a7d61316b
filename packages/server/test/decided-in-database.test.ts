/**
 * Activities the database decides (decision 0034, migration 0014): init_otp's throttle and
 * verify_otp's attempt at a code opened right are sent with the activity's own INSERT and COMMIT,
 * so each transaction is one round trip. What they decide must not change: a throttled code is
 * refused with the same error and leaves nothing (its retirement of earlier codes rolled back), a
 * code that changed after its attempt was opened is decided again statement by statement (the
 * attempt counted once), and an approval, which runs inside another activity's transaction,
 * still fails the approved activity with the refusal.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateP256KeyPair, verifyJwt } from '@walletkit/crypto';
import { refusalRaised } from '../src/activity/refusals';
import type { VerificationClaims } from '../src/activity/operations/users-verification';
import { listOutbox } from '../src/delivery/outbox';
import { sqlState } from '../src/store/db';
import { RUN_AGAIN_SQLSTATE } from '../src/store/db-errors';
import { activities, otps } from '../src/store/schema';
import { startTestServer, type TestServer } from './support/harness';
import { addUser, expectError } from './support/members';
import { codeIn, encryptOtpAttempt, otpTargetOf } from './support/otp';
import { storeKinds } from './support/stores';
import { type TransactionWatch, watchTransactions } from './support/transaction-watch';

const LIMITS = { ttlSeconds: 300, maxAttempts: 3, maxPerContactPerWindow: 2, windowSeconds: 600, maxPerContactPerDay: 3 };

describe.each(storeKinds)('activities the database decides on %s', (kind) => {
  let server: TestServer;
  let now = Date.now();
  let watch: TransactionWatch;

  beforeAll(async () => {
    server = await startTestServer(kind, { clock: () => now, config: { otp: LIMITS, devOutbox: true } });
    watch = watchTransactions(server, []);
  }, 20_000);
  afterAll(() => server?.dispose());

  const initOtp = (contact: string) => {
    now += 1;
    return server.client.submit('init_otp', { otpType: 'OTP_TYPE_EMAIL', contact });
  };
  /** init_otp, then the code as the user reads it from the dev outbox (newest first). */
  async function issue(contact: string) {
    const reply = await initOtp(contact);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const result = reply.body.activity.result.initOtpResultV2 as { otpId: string; otpEncryptionTargetBundle: string };
    const messages = await listOutbox(server.store.db, { organizationId: server.org.organizationId, recipient: contact });
    return { otpId: result.otpId, target: otpTargetOf(result.otpEncryptionTargetBundle, server.enclave.signingPublicKey), code: codeIn(messages[0]!.body) };
  }
  const rowOf = async (otpId: string) => (await server.store.db.select().from(otps).where(eq(otps.id, otpId)))[0]!;
  const rowsFor = (contact: string) =>
    server.store.db
      .select()
      .from(otps)
      .where(and(eq(otps.organizationId, server.org.organizationId), eq(otps.contact, contact)));

  it('given a code and its right attempt, when init_otp and verify_otp run, then each transaction is one round trip and the attempt is counted and the code used once', async () => {
    watch.roundTrips = [];
    const { otpId, target, code } = await issue('one-trip@example.com');
    expect(watch.roundTrips).toEqual([1]);
    expect(await rowOf(otpId)).toMatchObject({ attempts: 0, usedAt: null });

    watch.roundTrips = [];
    const client = generateP256KeyPair();
    const verified = await server.client.run('verify_otp', {
      otpId,
      encryptedOtpBundle: await encryptOtpAttempt(target.targetPublic, code, client.publicKey),
    });
    expect(watch.roundTrips).toEqual([1]);
    expect(await rowOf(otpId)).toMatchObject({ attempts: 1, usedAt: new Date(now) });
    const claims = verifyJwt<VerificationClaims>(verified.verificationToken, server.enclave.signingPublicKey, { now: () => now });
    expect(claims).toMatchObject({ contact: 'one-trip@example.com', public_key: client.publicKey, organization_id: server.org.organizationId });

    // Used: a second right attempt is decided again, counted, and refused.
    watch.roundTrips = [];
    const again = await server.client.submit('verify_otp', {
      otpId,
      encryptedOtpBundle: await encryptOtpAttempt(target.targetPublic, code, generateP256KeyPair().publicKey),
    });
    expectError(again, 401, 'ERR_OTP_INVALID');
    expect(await rowOf(otpId)).toMatchObject({ attempts: 2 });
  });

  it('given a contact at its window limit and then at its daily one, when init_otp runs, then each is refused with its own message in one round trip, stored, and the earlier codes stay live', async () => {
    const contact = 'limits@example.com';
    const first = await issue(contact);
    const second = await issue(contact);
    // Only the newest code is live: issuing the second retired the first.
    expect(await rowOf(first.otpId)).toMatchObject({ expiresAt: (await rowOf(first.otpId)).createdAt });

    watch.roundTrips = [];
    now += 1;
    const body = { otpType: 'OTP_TYPE_EMAIL', contact } as const;
    const timestampMs = String(now);
    const refused = await server.client.submit('init_otp', body, { timestampMs });
    expectError(refused, 429, 'ERR_RATE_LIMITED', 'contact');
    expect(refused.body.message).toBe('at most 2 codes per 600 s may be sent to one contact');
    expect(watch.roundTrips).toEqual([1]);
    // Nothing of it stayed: no third code, and the second one was not retired.
    expect(await rowsFor(contact)).toHaveLength(2);
    const live = await rowOf(second.otpId);
    expect(live.expiresAt.getTime()).toBeGreaterThan(live.createdAt.getTime());

    // A window later the refusal is still the answer to the same body (it was stored), while a new request issues the third code of the day.
    now += LIMITS.windowSeconds * 1000 + 1000;
    const replayed = await server.client.submit('init_otp', body, { timestampMs });
    expectError(replayed, 429, 'ERR_RATE_LIMITED', 'contact');
    expect(replayed.body.message).toBe(refused.body.message);
    expect(await rowsFor(contact)).toHaveLength(2);
    await issue(contact);
    // The fourth of the day is over the daily limit.
    now += LIMITS.windowSeconds * 1000 + 1000;
    const daily = await initOtp(contact);
    expectError(daily, 429, 'ERR_RATE_LIMITED', 'contact');
    expect(daily.body.message).toBe('at most 3 codes per day may be sent to one contact');
    expect(await rowsFor(contact)).toHaveLength(3);
  });

  it('given a right code used by another attempt after this one was opened, when verify_otp runs, then its first transaction rolls back, the second counts the attempt once and refuses it', async () => {
    const { otpId, target, code } = await issue('changed@example.com');
    const usedAt = new Date(now);
    watch.beforeNextTransaction(async () => {
      await server.store.db.update(otps).set({ usedAt }).where(eq(otps.id, otpId));
    });
    watch.roundTrips = [];
    const reply = await server.client.submit('verify_otp', {
      otpId,
      encryptedOtpBundle: await encryptOtpAttempt(target.targetPublic, code, generateP256KeyPair().publicKey),
    });
    expectError(reply, 401, 'ERR_OTP_INVALID');
    expect(watch.roundTrips).toHaveLength(2);
    expect(watch.roundTrips[0]).toBe(1);
    expect(await rowOf(otpId)).toMatchObject({ attempts: 1, usedAt });
    // The failure is stored with its counted attempt: the same body answers it without counting again.
    const replay = await server.client.submit('verify_otp', {
      otpId,
      encryptedOtpBundle: await encryptOtpAttempt(target.targetPublic, code, generateP256KeyPair().publicKey),
    });
    expectError(replay, 401, 'ERR_OTP_INVALID');
    expect((await rowOf(otpId)).attempts).toBe(2);
  });

  it('given a contact at its limit, when an init_otp waiting for approval is approved, then the approval completes and the approved activity fails with the refusal', async () => {
    const contact = 'approved@example.com';
    now += 24 * 3600 * 1000;
    await issue(contact);
    await issue(contact);
    const second = await addUser(server, { root: true, name: 'second root' });
    await server.client.run('update_root_quorum', { threshold: 2, userIds: [server.org.userId, second.userId] });
    try {
      now += 1;
      const pending = await server.client.submit('init_otp', { otpType: 'OTP_TYPE_EMAIL', contact });
      expect(pending.body.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
      const approved = await second.client.run('approve_activity', { fingerprint: pending.body.activity.fingerprint });
      expect(approved.activity).toMatchObject({ id: pending.body.activity.id, status: 'ACTIVITY_STATUS_FAILED' });
      const [stored] = await server.store.db.select().from(activities).where(eq(activities.id, pending.body.activity.id));
      expect(stored?.failure).toEqual({ code: 'ERR_RATE_LIMITED', message: 'at most 2 codes per 600 s may be sent to one contact' });
      expect(await rowsFor(contact)).toHaveLength(2);
    } finally {
      const reply = await server.client.submit('update_root_quorum', { threshold: 1, userIds: [server.org.userId] });
      await second.client.run('approve_activity', { fingerprint: reply.body.activity.fingerprint });
    }
  });

  it('given walletkit_refuse and walletkit_run_again, when a statement raises them, then the refusal is the ApiError it names (an unknown code an internal error) and running again is its own SQLSTATE', async () => {
    const raised = async (text: string) => {
      try {
        await server.store.query({ text, values: [] });
      } catch (err) {
        return err;
      }
      throw new Error(`${text} did not raise`);
    };
    const refused = refusalRaised(await raised(`SELECT walletkit_refuse('ERR_RATE_LIMITED', 'too many', 'contact')`));
    expect(refused).toMatchObject({ code: 'ERR_RATE_LIMITED', message: 'too many', field: 'contact', status: 429 });
    expect(refusalRaised(await raised(`SELECT walletkit_refuse('ERR_OTP_INVALID', 'no', NULL)`))).toMatchObject({ code: 'ERR_OTP_INVALID', field: undefined });
    expect(refusalRaised(await raised(`SELECT walletkit_refuse('ERR_NO_SUCH_CODE', 'no', 'x')`))).toMatchObject({ code: 'ERR_INTERNAL', status: 500 });
    const again = await raised(`SELECT walletkit_run_again('changed')`);
    expect(sqlState(again)).toBe(RUN_AGAIN_SQLSTATE);
    expect(refusalRaised(again)).toBeUndefined();
    expect(refusalRaised(new Error('not a database error'))).toBeUndefined();
  });
});
