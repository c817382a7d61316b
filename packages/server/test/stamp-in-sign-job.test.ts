/**
 * A signature's X-Stamp checked by its own job on the signer thread (decision 0022, "The stamp
 * checked in the signature's job"): when the key and the signer are cached and the caller is a
 * root quorum member, the stamp goes unchecked to the signature's job, which checks it before it
 * opens the key. Whatever else is wrong with a request, a bad stamp is answered 401
 * ERR_STAMP_INVALID, nothing is stored for it, and a good stamp is answered as before.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { keccak256, recoverAddress, toHex, type Hex } from 'viem';
import { activityFingerprint, generateP256KeyPair, parseApiKeyStamp, stampApiKey } from '@walletkit/crypto';
import { operations, type OperationName, type ParamsOf } from '@walletkit/protocol';
import { AtRestKey } from '../src/enclave/at-rest';
import { signSealed } from '../src/enclave/signer-core';
import { activities, apiKeys } from '../src/store/schema';
import { startTestServer, type ActivityClient, type Reply, type TestServer } from './support/harness';
import { addUser, expectError } from './support/members';

const ETH = { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' } as const;
const HEX = 'PAYLOAD_ENCODING_HEXADECIMAL';
const NO_OP = 'HASH_FUNCTION_NO_OP';

const cases = [
  ['pglite', 1],
  ['pglite', 0],
  ['postgres', 1],
] as const;

describe.each(cases)('the stamp checked in the signature job: %s, %i signer threads', (kind, threads) => {
  let server: TestServer;
  let address: string;
  let checks: ReturnType<typeof vi.spyOn>;

  /** A body stamped by `client`, sent with its stamp (`good`) or with the stamp of another body (a bad stamp). */
  const send = <N extends OperationName>(
    client: ActivityClient,
    op: N,
    parameters: ParamsOf<N>,
    good: boolean,
  ): Promise<Reply & { body: any; text: string }> => {
    const text = client.envelope(op, parameters);
    const stamp = stampApiKey(good ? text : `${text} `, client.key);
    return client.post(operations[op].path, text, { 'x-stamp': stamp }).then((r) => ({ ...r, text }));
  };
  const digest = () => keccak256(toHex(randomBytes(16)));
  const signParams = (signWith: string, payload: string = digest()): ParamsOf<'sign_raw_payloads'> => ({
    signWith,
    payloads: [payload],
    encoding: HEX,
    hashFunction: NO_OP,
  });
  const storedFor = async (text: string) =>
    (
      await server.store.db
        .select({ status: activities.status })
        .from(activities)
        .where(eq(activities.fingerprint, activityFingerprint(new TextEncoder().encode(text))))
    ).map((r) => r.status);

  beforeAll(async () => {
    server = await startTestServer(kind, { config: { signerThreads: threads } });
    [address] = (await server.client.run('create_wallet', { walletName: 'Signer', accounts: [ETH] })).addresses as [string];
    checks = vi.spyOn(server.enclave.stamps, 'checkStamp');
    // Warm: sign until the key's and the signer's facts are served from the cache (on PostgreSQL
    // the change feed goes live, and the wallet's own change arrives, a moment after the start).
    for (let i = 0; ; i++) {
      checks.mockClear();
      await server.client.run('sign_raw_payloads', signParams(address));
      if (checks.mock.calls.length === 0) break;
      if (i > 100) throw new Error('the facts were never cached');
      await new Promise((r) => setTimeout(r, 20));
    }
  });
  afterAll(async () => {
    checks?.mockRestore();
    await server?.dispose();
  });

  it('given cached facts, when a good stamp signs, then the signature recovers to the account, the activity is stored completed, and no separate stamp check ran', async () => {
    checks.mockClear();
    const hash = digest();
    const reply = await send(server.client, 'sign_raw_payloads', signParams(address, hash), true);
    expect(reply.status).toBe(200);
    const [sig] = reply.body.activity.result.signRawPayloadsResult.signatures as Array<{ r: string; s: string; v: string }>;
    expect(await recoverAddress({ hash: hash as Hex, signature: { r: `0x${sig!.r}`, s: `0x${sig!.s}`, yParity: Number.parseInt(sig!.v, 16) } })).toBe(address);
    expect(await storedFor(reply.text)).toEqual(['ACTIVITY_STATUS_COMPLETED']);
    expect(checks).not.toHaveBeenCalled();
  });

  it('given cached facts, when a bad stamp signs, then 401 ERR_STAMP_INVALID and nothing is stored; the same body with its own stamp then signs once', async () => {
    const params = signParams(address);
    const bad = await send(server.client, 'sign_raw_payloads', params, false);
    expectError(bad, 401, 'ERR_STAMP_INVALID');
    expect(await storedFor(bad.text)).toEqual([]);
    const good = await server.client.post(operations.sign_raw_payloads.path, bad.text);
    expect(good.status).toBe(200);
    // A replay of the stored body with a bad stamp learns nothing either: not the stored record.
    const replay = await server.client.post(operations.sign_raw_payloads.path, bad.text, { 'x-stamp': stampApiKey(`${bad.text} `, server.client.key) });
    expectError(replay, 401, 'ERR_STAMP_INVALID');
    expect(await storedFor(bad.text)).toEqual(['ACTIVITY_STATUS_COMPLETED']);
  });

  it('given a request wrong in some other way too, when its stamp is bad, then ERR_STAMP_INVALID wins and no refusal is stored; with a good stamp, the other refusal is the answer', async () => {
    const wrong: Array<[string, OperationName, Record<string, unknown>, number, string]> = [
      ['a payload that is not hex', 'sign_raw_payloads', { ...signParams(address), payloads: ['zz'] }, 400, 'ERR_INVALID_PAYLOAD'],
      ['an account that does not exist', 'sign_raw_payloads', signParams(`0x${'ab'.repeat(20)}`), 404, 'ERR_WALLET_ACCOUNT_NOT_FOUND'],
      [
        'a transaction that does not parse',
        'sign_transaction',
        { signWith: address, unsignedTransaction: '02c0ffee', type: 'TRANSACTION_TYPE_ETHEREUM' },
        400,
        'ERR_INVALID_TRANSACTION',
      ],
    ];
    for (const [what, op, params, status, code] of wrong) {
      const bad = await send(server.client, op, params as never, false);
      expect({ what, status: bad.status, code: bad.body?.details?.[0]?.errorCode }).toEqual({ what, status: 401, code: 'ERR_STAMP_INVALID' });
      expect({ what, stored: await storedFor(bad.text) }).toEqual({ what, stored: [] });
      const good = await server.client.post(operations[op].path, bad.text);
      expect({ what, status: good.status, code: good.body?.details?.[0]?.errorCode }).toEqual({ what, status, code });
    }
  });

  it('given a key nobody cached, an unknown key or an expired key, when the stamp is bad, then 401 ERR_STAMP_INVALID before any of it is read; with a good stamp, the usual answer', async () => {
    const fresh = await addUser(server, { root: true });
    checks.mockClear();
    expectError(await send(fresh.client, 'sign_raw_payloads', signParams(address), false), 401, 'ERR_STAMP_INVALID');
    // Not cached: checked on its own, before the key is read.
    expect(checks).toHaveBeenCalledTimes(1);
    expect((await send(fresh.client, 'sign_raw_payloads', signParams(address), true)).status).toBe(200);

    const stranger = generateP256KeyPair();
    const unknown = server.client.with({ key: { publicKey: stranger.publicKey, privateKey: stranger.privateKey } });
    expectError(await send(unknown, 'sign_raw_payloads', signParams(address), false), 401, 'ERR_STAMP_INVALID');
    expectError(await send(unknown, 'sign_raw_payloads', signParams(address), true), 401, 'ERR_STAMP_KEY_UNKNOWN');

    const expiring = await addUser(server, { root: true });
    expect((await send(expiring.client, 'sign_raw_payloads', signParams(address), true)).status).toBe(200); // cached now
    await server.store.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(apiKeys.userId, expiring.userId), eq(apiKeys.publicKey, expiring.client.key.publicKey)));
    server.store.changes.changed(server.org.organizationId);
    expectError(await send(expiring.client, 'sign_raw_payloads', signParams(address), false), 401, 'ERR_STAMP_INVALID');
    expectError(await send(expiring.client, 'sign_raw_payloads', signParams(address), true), 401, 'ERR_API_KEY_EXPIRED');
  });

  it('given a user allowed by policy (not a root member), when it signs, then its stamp is checked before the policies are read: a bad one is 401, a good one signs', async () => {
    const member = await addUser(server);
    await server.client.run('create_policy', {
      policyName: `sign ${member.userId}`,
      effect: 'EFFECT_ALLOW',
      consensus: `approvers.any(user, user.id == '${member.userId}')`,
      condition: "activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS'",
    } as never);
    expect((await send(member.client, 'sign_raw_payloads', signParams(address), true)).status).toBe(200);
    checks.mockClear();
    const bad = await send(member.client, 'sign_raw_payloads', signParams(address), false);
    expectError(bad, 401, 'ERR_STAMP_INVALID');
    expect(checks).toHaveBeenCalledTimes(1);
    expect(await storedFor(bad.text)).toEqual([]);
  });

  it('given concurrent signatures, half with bad stamps, then each gets its own answer and only the good ones are stored', async () => {
    const replies = await Promise.all(Array.from({ length: 24 }, (_, i) => send(server.client, 'sign_raw_payloads', signParams(address), i % 2 === 0)));
    expect(replies.map((r) => r.status)).toEqual(Array.from({ length: 24 }, (_, i) => (i % 2 === 0 ? 200 : 401)));
    const stored = await Promise.all(replies.map((r) => storedFor(r.text)));
    expect(stored).toEqual(Array.from({ length: 24 }, (_, i) => (i % 2 === 0 ? ['ACTIVITY_STATUS_COMPLETED'] : [])));
  });

  it('given a quorum of two, when a signature waits for consensus, then a bad stamp is 401 and leaves no pending activity', async () => {
    const second = await addUser(server, { root: true });
    await server.client.run('update_root_quorum', { threshold: 2, userIds: [server.org.userId, second.userId] });
    try {
      const pending = await send(server.client, 'sign_raw_payloads', signParams(address), true);
      expect(pending.body.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
      const bad = await send(server.client, 'sign_raw_payloads', signParams(address), false);
      expectError(bad, 401, 'ERR_STAMP_INVALID');
      expect(await storedFor(bad.text)).toEqual([]);
    } finally {
      const lower = await send(server.client, 'update_root_quorum', { threshold: 1, userIds: [server.org.userId, second.userId] }, true);
      await second.client.post(
        operations.approve_activity.path,
        second.client.envelope('approve_activity', { fingerprint: lower.body.activity.fingerprint } as never),
      );
    }
  });
});

describe('signSealed with a stamp', () => {
  it('refuses a bad stamp before opening the key, and opens it only for a good one', async () => {
    const atRest = await AtRestKey.of(generateP256KeyPair().privateKey);
    const key = { privateKey: randomBytes(32).toString('hex') };
    const body = new TextEncoder().encode('{"a":1}');
    const good = { body, stamp: parseApiKeyStamp(stampApiKey('{"a":1}', key)) };
    const bad = { body, stamp: parseApiKeyStamp(stampApiKey('{"a":2}', key)) };
    // A sealed value that cannot open: opening it throws, so null proves it was never opened.
    const broken = { encappedPublic: `04${'11'.repeat(64)}`, ciphertext: '00'.repeat(48) };
    const messages = [new Uint8Array(32).fill(1)];
    expect(await signSealed(atRest, { sealedPrivateKey: broken, curve: 'CURVE_SECP256K1', messages, stamp: bad })).toBeNull();
    await expect(signSealed(atRest, { sealedPrivateKey: broken, curve: 'CURVE_SECP256K1', messages, stamp: good })).rejects.toThrow();
    const sealed = atRest.seal(new Uint8Array(32).fill(7));
    const signatures = await signSealed(atRest, { sealedPrivateKey: sealed, curve: 'CURVE_SECP256K1', messages, stamp: good });
    expect(signatures).toHaveLength(1);
  });
});
