/**
 * The one-time codes' crypto runs before the activity's transaction (issue 14; otp.ts
 * `otpPrefetchers`, users.ts `userPrefetchers`): issuing a code, opening a verify attempt and
 * verifying a verification token hold no transaction. What was computed before decides nothing
 * by itself: these tests change the database between the check and the transaction and expect
 * the transaction's view to win, and run the operations through consensus, where the approval
 * runs the handler without a prefetch.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateP256KeyPair, verifyJwt } from '@walletkit/crypto';
import type { VerificationClaims } from '../src/activity/operations/users-verification';
import { listOutbox } from '../src/delivery/outbox';
import { activities, otps, usedVerificationTokens } from '../src/store/schema';
import { startTestServer, type TestServer } from './support/harness';
import { type TransactionWatch, watchTransactions } from './support/transaction-watch';
import { addUser, expectError, type Member } from './support/members';
import { codeIn, encryptOtpAttempt, loginSignature, otpTargetOf } from './support/otp';
import { storeKinds } from './support/stores';

const OTP_LIMITS = { ttlSeconds: 300, maxAttempts: 3, maxPerContactPerWindow: 50, windowSeconds: 600 };
/** The enclave's crypto an OTP login can call: `verifyJwt` and `signJwt` on the event loop, the others on a signer thread. */
const CRYPTO = [
  'issueOtp',
  'checkOtpAttempt',
  'verifyJwt',
  'verifyJwtOnThread',
  'checkClientSignature',
  'clientSignatureKey',
  'signJwt',
  'signJwtOnThread',
] as const;

describe.each(storeKinds)('one-time codes: crypto before the transaction on %s', (kind) => {
  let server: TestServer;
  let now = Date.now();
  let subOrganizationId: string;
  let watch: TransactionWatch;

  beforeAll(async () => {
    server = await startTestServer(kind, { clock: () => now, config: { otp: OTP_LIMITS, devOutbox: true } });
    watch = watchTransactions(server, CRYPTO);
    const created = await server.client.run('create_sub_organization', {
      subOrganizationName: 'otp-user',
      rootUsers: [{ userName: 'otp', userEmail: 'login@example.com', apiKeys: [], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
    });
    subOrganizationId = created.subOrganizationId;
  }, 20_000);
  afterAll(() => server?.dispose());

  /** init_otp, then the code as the user reads it from the dev outbox (newest first). */
  async function issue(contact = 'login@example.com') {
    now += 1;
    const reply = await server.client.submit('init_otp', { otpType: 'OTP_TYPE_EMAIL', contact });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return delivered(reply.body.activity.result.initOtpResultV2, contact);
  }
  async function delivered(result: { otpId: string; otpEncryptionTargetBundle: string }, contact = 'login@example.com') {
    const messages = await listOutbox(server.store.db, { organizationId: server.org.organizationId, recipient: contact });
    return {
      otpId: result.otpId,
      target: otpTargetOf(result.otpEncryptionTargetBundle, server.enclave.signingPublicKey),
      code: codeIn(messages[0]!.body),
    };
  }
  const rowOf = async (otpId: string) => (await server.store.db.select().from(otps).where(eq(otps.id, otpId)))[0]!;

  it('given an email OTP login, when its three activities run, then the code, the attempt and the token are each checked or made with no transaction open, and nothing signs on the event loop', async () => {
    watch.calls = [];
    const { otpId, target, code } = await issue();
    const client = generateP256KeyPair();
    const verified = await server.client.submit('verify_otp', {
      otpId: otpId,
      encryptedOtpBundle: await encryptOtpAttempt(target.targetPublic, code, client.publicKey),
    });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    const token = verified.body.activity.result.verifyOtpResult.verificationToken as string;
    const login = await server.client.submit(
      'otp_login',
      { verificationToken: token, publicKey: client.publicKey, clientSignature: loginSignature(client.privateKey, token) },
      { organizationId: subOrganizationId },
    );
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    // The code's bundle and the verification token are signed with the code and the attempt (issueOtp, checkOtpAttempt).
    expect(watch.calls.map((c) => c.what).sort()).toEqual(['checkOtpAttempt', 'clientSignatureKey', 'issueOtp', 'signJwtOnThread', 'verifyJwtOnThread']);
    // The session's signature alone is made while a transaction is open: on a signer thread, beside its statements.
    expect(watch.calls.filter((c) => c.inTransaction)).toEqual([{ what: 'signJwtOnThread', inTransaction: true }]);
    const session = verifyJwt<{ public_key: string }>(login.body.activity.result.otpLoginResult.session, server.enclave.signingPublicKey, { now: () => now });
    expect(session.public_key).toBe(client.publicKey);
  });

  it('given a signup with a verification token, when it runs, then the token is verified with no transaction open and spent in it', async () => {
    const { otpId, target, code } = await issue('signup@example.com');
    const client = generateP256KeyPair();
    const verified = await server.client.run('verify_otp', {
      otpId: otpId,
      encryptedOtpBundle: await encryptOtpAttempt(target.targetPublic, code, client.publicKey),
    });
    const token = verified.verificationToken as string;
    watch.calls = [];
    const signup = await server.client.run('create_sub_organization', {
      subOrganizationName: 'signed-up',
      rootUsers: [{ userName: 'new', userEmail: 'signup@example.com', apiKeys: [], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
      verificationToken: token,
      clientSignature: loginSignature(client.privateKey, token, 'USAGE_TYPE_SIGNUP'),
    });
    expect(watch.calls.filter((c) => c.what.startsWith('verifyJwt'))).toEqual([{ what: 'verifyJwtOnThread', inTransaction: false }]);
    const { id } = verifyJwt<VerificationClaims>(token, server.enclave.signingPublicKey, { now: () => now });
    const [spent] = await server.store.db.select().from(usedVerificationTokens).where(eq(usedVerificationTokens.tokenId, id));
    expect(spent).toMatchObject({ purpose: 'signup', subOrganizationId: signup.subOrganizationId });
  });

  it('given a right code whose attempts run out after it was opened, when its transaction counts, then the attempts are exceeded and no token is issued', async () => {
    const { otpId, target, code } = await issue();
    watch.beforeNextTransaction(async () => {
      await server.store.db.update(otps).set({ attempts: OTP_LIMITS.maxAttempts }).where(eq(otps.id, otpId));
    });
    const client = generateP256KeyPair();
    const reply = await server.client.submit('verify_otp', {
      otpId: otpId,
      encryptedOtpBundle: await encryptOtpAttempt(target.targetPublic, code, client.publicKey),
    });
    expectError(reply, 429, 'ERR_OTP_ATTEMPTS_EXCEEDED');
    expect(JSON.stringify(reply.body)).not.toContain('verificationToken');
    expect(await rowOf(otpId)).toMatchObject({ attempts: OTP_LIMITS.maxAttempts, usedAt: null });
  });

  it('given a right code used by another attempt after it was opened, when its transaction counts, then it is invalid and its attempt counted', async () => {
    const { otpId, target, code } = await issue();
    watch.beforeNextTransaction(async () => {
      await server.store.db
        .update(otps)
        .set({ usedAt: new Date(now) })
        .where(eq(otps.id, otpId));
    });
    const client = generateP256KeyPair();
    const reply = await server.client.submit('verify_otp', {
      otpId: otpId,
      encryptedOtpBundle: await encryptOtpAttempt(target.targetPublic, code, client.publicKey),
    });
    expectError(reply, 401, 'ERR_OTP_INVALID');
    expect((await rowOf(otpId)).attempts).toBe(1);
  });

  it('given a right code that expires after it was opened, when its transaction counts, then it is invalid and its attempt counted', async () => {
    const { otpId, target, code } = await issue();
    watch.beforeNextTransaction(async () => {
      now += OTP_LIMITS.ttlSeconds * 1000 + 1;
    });
    const client = generateP256KeyPair();
    const reply = await server.client.submit('verify_otp', {
      otpId: otpId,
      encryptedOtpBundle: await encryptOtpAttempt(target.targetPublic, code, client.publicKey),
    });
    expectError(reply, 401, 'ERR_OTP_INVALID');
    expect(await rowOf(otpId)).toMatchObject({ attempts: 1, usedAt: null });
  });

  it('given a verification token that expires after it was verified, when otp_login spends it, then it is refused as expired and left unspent', async () => {
    const { otpId, target, code } = await issue();
    const client = generateP256KeyPair();
    const verified = await server.client.run('verify_otp', {
      otpId: otpId,
      encryptedOtpBundle: await encryptOtpAttempt(target.targetPublic, code, client.publicKey),
      expirationSeconds: '60',
    });
    const token = verified.verificationToken as string;
    watch.beforeNextTransaction(async () => {
      now += 60_000;
    });
    const login = await server.client.submit(
      'otp_login',
      { verificationToken: token, publicKey: client.publicKey, clientSignature: loginSignature(client.privateKey, token) },
      { organizationId: subOrganizationId },
    );
    expectError(login, 401, 'ERR_VERIFICATION_TOKEN_INVALID', 'verificationToken');
    expect(login.body.message).toContain('expired');
    const { id } = verifyJwt<VerificationClaims>(token, server.enclave.signingPublicKey, { now: () => now - 60_000 });
    expect(await server.store.db.select().from(usedVerificationTokens).where(eq(usedVerificationTokens.tokenId, id))).toEqual([]);
  });

  it('given six concurrent attempts with the right code, when each is opened before any is counted, then one token is issued, three attempts are counted and the rest exceed', async () => {
    const { otpId, target, code } = await issue();
    const clients = Array.from({ length: 6 }, () => generateP256KeyPair());
    const bundles = await Promise.all(clients.map((c) => encryptOtpAttempt(target.targetPublic, code, c.publicKey)));
    const results = await Promise.all(bundles.map((encryptedOtpBundle) => server.client.submit('verify_otp', { otpId, encryptedOtpBundle })));
    const outcomes = results.map((r) => (r.status === 200 ? 'token' : r.body.details[0].errorCode)).sort();
    expect(outcomes).toEqual([
      'ERR_OTP_ATTEMPTS_EXCEEDED',
      'ERR_OTP_ATTEMPTS_EXCEEDED',
      'ERR_OTP_ATTEMPTS_EXCEEDED',
      'ERR_OTP_INVALID',
      'ERR_OTP_INVALID',
      'token',
    ]);
    expect(await rowOf(otpId)).toMatchObject({ attempts: OTP_LIMITS.maxAttempts, usedAt: expect.any(Date) });
    // The one token is bound to the key of the attempt that was counted first.
    const winner = results.findIndex((r) => r.status === 200);
    const token = results[winner]!.body.activity.result.verifyOtpResult.verificationToken as string;
    expect(verifyJwt<VerificationClaims>(token, server.enclave.signingPublicKey, { now: () => now }).public_key).toBe(clients[winner]!.publicKey);
  });

  describe('through consensus (an approval runs the handler without a prefetch)', () => {
    let second: Member;
    beforeAll(async () => {
      second = await addUser(server, { root: true, name: 'second root' });
      await server.client.run('update_root_quorum', { threshold: 2, userIds: [server.org.userId, second.userId] });
    });
    afterAll(async () => {
      // Both roots approve going back to one.
      const reply = await server.client.submit('update_root_quorum', { threshold: 1, userIds: [server.org.userId] });
      await second.client.run('approve_activity', { fingerprint: reply.body.activity.fingerprint });
    });

    it('given a threshold of 2, when init_otp and verify_otp are approved, then the code issued in the approval verifies, a wrong one counted, and the token is bound to the client key', async () => {
      now += 1;
      const pending = await server.client.submit('init_otp', { otpType: 'OTP_TYPE_EMAIL', contact: 'login@example.com' });
      expect(pending.body.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
      const approved = await second.client.run('approve_activity', { fingerprint: pending.body.activity.fingerprint });
      expect(approved.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
      const { otpId, target, code } = await delivered(approved.activity.result.initOtpResultV2 as { otpId: string; otpEncryptionTargetBundle: string });
      expect(await rowOf(otpId)).toMatchObject({ attempts: 0, usedAt: null });

      const client = generateP256KeyPair();
      const wrong = await server.client.submit('verify_otp', {
        otpId,
        encryptedOtpBundle: await encryptOtpAttempt(target.targetPublic, String((Number(code) + 1) % 1_000_000).padStart(6, '0'), client.publicKey),
      });
      expect(wrong.body.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
      const refused = await second.client.run('approve_activity', { fingerprint: wrong.body.activity.fingerprint });
      expect(refused.activity).toMatchObject({ id: wrong.body.activity.id, status: 'ACTIVITY_STATUS_FAILED' });
      const [stored] = await server.store.db.select().from(activities).where(eq(activities.id, wrong.body.activity.id));
      expect(stored?.failure).toMatchObject({ code: 'ERR_OTP_INVALID' });
      expect((await rowOf(otpId)).attempts).toBe(1);

      const right = await server.client.submit('verify_otp', {
        otpId,
        encryptedOtpBundle: await encryptOtpAttempt(target.targetPublic, code, client.publicKey),
      });
      expect(right.body.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
      const done = await second.client.run('approve_activity', { fingerprint: right.body.activity.fingerprint });
      expect(done.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
      // The token is the submitter's to read (an approver sees it redacted).
      const read = await server.client.query('get_activity', { activityId: right.body.activity.id });
      const token = read.body.activity.result.verifyOtpResult.verificationToken as string;
      expect(verifyJwt<VerificationClaims>(token, server.enclave.signingPublicKey, { now: () => now })).toMatchObject({
        contact: 'login@example.com',
        public_key: client.publicKey,
      });
      expect(await rowOf(otpId)).toMatchObject({ attempts: 2, usedAt: expect.any(Date) });
    });
  });
});
