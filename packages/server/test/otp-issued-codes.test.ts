/**
 * A code's first attempt in the process that issued it takes the code's row as committed instead
 * of reading it (decision 0041, operations/otp-issued.ts). What it decides must not change: the
 * database counts every attempt and uses the code, so a code used, retired or wrong since its
 * commit is refused as before, and every later attempt reads the row again.
 */
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateP256KeyPair } from '@walletkit/crypto';
import { type OtpRow, IssuedCodes } from '../src/activity/operations/otp-issued';
import { readOtp } from '../src/activity/operations/otp-rows';
import { listOutbox } from '../src/delivery/outbox';
import { otps } from '../src/store/schema';
import { startTestServer, type TestServer } from './support/harness';
import { expectError } from './support/members';
import { codeIn, encryptOtpAttempt, otpTargetOf } from './support/otp';
import { storeKinds } from './support/stores';

const LIMITS = { ttlSeconds: 300, maxAttempts: 3, maxPerContactPerWindow: 5, windowSeconds: 600, maxPerContactPerDay: 20 };

describe.each(storeKinds)('the codes a process issued, on %s', (kind) => {
  let server: TestServer;
  let now = Date.now();

  beforeAll(async () => {
    server = await startTestServer(kind, { clock: () => now, config: { otp: LIMITS, devOutbox: true } });
  }, 20_000);
  afterAll(() => server?.dispose());
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** init_otp, then the code as the user reads it from the dev outbox (newest first). */
  async function issue(contact: string) {
    now += 1;
    const reply = await server.client.submit('init_otp', { otpType: 'OTP_TYPE_EMAIL', contact });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const result = reply.body.activity.result.initOtpResultV2 as { otpId: string; otpEncryptionTargetBundle: string };
    const messages = await listOutbox(server.store.db, { organizationId: server.org.organizationId, recipient: contact });
    return { otpId: result.otpId, target: otpTargetOf(result.otpEncryptionTargetBundle, server.enclave.signingPublicKey), code: codeIn(messages[0]!.body) };
  }
  const verify = async (otpId: string, targetPublic: string, code: string) => {
    now += 1;
    return server.client.submit('verify_otp', { otpId, encryptedOtpBundle: await encryptOtpAttempt(targetPublic, code, generateP256KeyPair().publicKey) });
  };
  const rowOf = async (otpId: string) => (await server.store.db.select().from(otps).where(eq(otps.id, otpId)))[0]!;
  const wrong = (code: string) => (code === '000000' ? '111111' : '000000');

  it('given a code just issued, when its right attempt is verified, then its row is not read, and a second attempt reads it and is refused', async () => {
    const { otpId, target, code } = await issue('first@example.com');
    const reads = vi.spyOn(readOtp, 'run');
    const verified = await verify(otpId, target.targetPublic, code);
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body.activity.result.verifyOtpResult.verificationToken).toEqual(expect.any(String));
    expect(reads).not.toHaveBeenCalled();
    expect(await rowOf(otpId)).toMatchObject({ attempts: 1, usedAt: new Date(now) });

    const again = await verify(otpId, target.targetPublic, code);
    expectError(again, 401, 'ERR_OTP_INVALID');
    expect(reads).toHaveBeenCalled();
    expect((await rowOf(otpId)).attempts).toBe(2);
  });

  it('given a wrong first attempt, when the right one follows, then the first is counted and refused, and the second reads the row and verifies', async () => {
    const { otpId, target, code } = await issue('wrong-first@example.com');
    const reads = vi.spyOn(readOtp, 'run');
    expectError(await verify(otpId, target.targetPublic, wrong(code)), 401, 'ERR_OTP_INVALID');
    expect(reads).not.toHaveBeenCalled();
    expect(await rowOf(otpId)).toMatchObject({ attempts: 1, usedAt: null });

    const right = await verify(otpId, target.targetPublic, code);
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(await rowOf(otpId)).toMatchObject({ attempts: 2, usedAt: new Date(now) });
  });

  it('given a code retired by a newer one before its first attempt, when its right attempt comes, then it is counted once and refused, and the newer code verifies', async () => {
    const older = await issue('retired@example.com');
    const newer = await issue('retired@example.com');
    const retired = await rowOf(older.otpId);
    expect(retired.expiresAt).toEqual(retired.createdAt);

    expectError(await verify(older.otpId, older.target.targetPublic, older.code), 401, 'ERR_OTP_INVALID');
    expect(await rowOf(older.otpId)).toMatchObject({ attempts: 1, usedAt: null });
    const right = await verify(newer.otpId, newer.target.targetPublic, newer.code);
    expect(right.status, JSON.stringify(right.body)).toBe(200);
  });

  it('given a code used in the database after it was issued (another process), when its first attempt here comes, then it is refused and counted once', async () => {
    const { otpId, target, code } = await issue('used-elsewhere@example.com');
    const usedAt = new Date(now);
    await server.store.db.update(otps).set({ usedAt, attempts: 1 }).where(eq(otps.id, otpId));
    expectError(await verify(otpId, target.targetPublic, code), 401, 'ERR_OTP_INVALID');
    expect(await rowOf(otpId)).toMatchObject({ attempts: 2, usedAt });
  });

  it('given a code exhausted in the database after it was issued, when its first attempt here comes, then it is refused as exhausted and not counted', async () => {
    const { otpId, target, code } = await issue('exhausted@example.com');
    await server.store.db.update(otps).set({ attempts: LIMITS.maxAttempts }).where(eq(otps.id, otpId));
    expectError(await verify(otpId, target.targetPublic, code), 429, 'ERR_OTP_ATTEMPTS_EXCEEDED');
    expect((await rowOf(otpId)).attempts).toBe(LIMITS.maxAttempts);
  });
});

describe('IssuedCodes', () => {
  const row = (id: string, organizationId = 'org-a'): OtpRow => ({
    id,
    organizationId,
    otpType: 'OTP_TYPE_EMAIL',
    contact: 'a@example.com',
    codeMac: 'ab'.repeat(32),
    targetPublicKey: '04'.padEnd(130, '1'),
    targetPrivateKeyEncrypted: { encappedPublic: 'aa', ciphertext: 'bb' } as unknown as OtpRow['targetPrivateKeyEncrypted'],
    attempts: 0,
    maxAttempts: 3,
    expiresAt: new Date(2_000_000),
    usedAt: null,
    createdAt: new Date(1_000_000),
  });

  it('given a remembered code, when it is taken, then its row comes once, a copy that cannot change, and never for another organization', () => {
    const codes = new IssuedCodes();
    const original = row('otp-1');
    codes.remember(original);
    original.attempts = 2;
    expect(codes.take('otp-1', 'org-b')).toBeUndefined();
    const taken = codes.take('otp-1', 'org-a');
    expect(taken).toMatchObject({ id: 'otp-1', attempts: 0 });
    expect(Object.isFrozen(taken)).toBe(true);
    expect(codes.take('otp-1', 'org-a')).toBeUndefined();
    expect(codes.take('unknown', 'org-a')).toBeUndefined();
  });

  it('given more codes than it keeps, when one more is remembered, then the oldest is out first', () => {
    const codes = new IssuedCodes();
    for (let i = 0; i < 4096; i += 1) codes.remember(row(`otp-${i}`));
    expect(codes.size).toBe(4096);
    codes.remember(row('otp-new'));
    expect(codes.size).toBe(4096);
    expect(codes.take('otp-0', 'org-a')).toBeUndefined();
    expect(codes.take('otp-1', 'org-a')).toMatchObject({ id: 'otp-1' });
    expect(codes.take('otp-new', 'org-a')).toMatchObject({ id: 'otp-new' });
  });
});
