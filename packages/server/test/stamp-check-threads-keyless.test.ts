/**
 * The stamp-check threads (signer-pool.ts STAMP_CHECK_THREADS, decision 0038): beside the signer
 * threads, threads that take requests' stamp checks and nothing else, and hold no key. Many reads
 * wait on their stamp checks at once; the signatures, wallets and codes stay on the signer threads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientSignature, generateP256KeyPair, parseApiKeyStamp, stampApiKey } from '@walletkit/crypto';
import type { SignerJob } from '../src/enclave/signer-core';
import { STAMP_CHECK_THREADS } from '../src/enclave/signer-pool';
import { ThreadPool } from '../src/threads/pool';
import { watchWorkerPosts } from './support/worker-posts';

describe('the signer pool: stamp checks on threads of their own, everything else on the signer threads', () => {
  const watched = watchWorkerPosts();

  /** The workers each kind of job was posted to since the spy was cleared. */
  const workersOf = (kind: string): Set<unknown> =>
    new Set(
      watched.posted.mock.calls.flatMap(([message]: unknown[], i: number) =>
        kind in ((message as { job: object }).job ?? {}) ? [watched.posted.mock.contexts[i]] : [],
      ),
    );

  it('given one signer thread, when stamp checks and client signatures each run several at once, then the checks spread over the signer thread and the stamp-check threads, the signatures stay on the signer thread, and every answer is right', async () => {
    const text = JSON.stringify({ organizationId: watched.server.org.organizationId, request: 'a read' });
    const body = new Uint8Array(Buffer.from(text));
    const good = parseApiKeyStamp(stampApiKey(text, watched.server.client.key));
    const bad = parseApiKeyStamp(stampApiKey(`${text} `, watched.server.client.key));
    await watched.server.enclave.stamps.checkStamp(body, good); // the threads started
    watched.posted.mockClear();

    const checks = await Promise.all([good, bad, good, bad, good, bad].map((stamp) => watched.server.enclave.stamps.checkStamp(body, stamp)));
    expect(checks).toEqual([true, false, true, false, true, false]);
    const checkers = workersOf('check');
    expect(checkers.size).toBe(1 + STAMP_CHECK_THREADS);

    const key = generateP256KeyPair();
    const signatures = [0, 1, 2, 3].map((i) => createClientSignature({ privateKey: key.privateKey, message: `message ${i}` }));
    const keys = await Promise.all(signatures.map((s) => watched.server.enclave.clientSignatureKey(s)));
    expect(keys).toEqual([key.publicKey, key.publicKey, key.publicKey, key.publicKey]);
    const signers = workersOf('client');
    expect(signers.size).toBe(1);
    expect(checkers.has([...signers][0])).toBe(true);
  });
});

describe('a stamp-check thread', () => {
  let pool: ThreadPool<SignerJob, unknown>;
  beforeAll(() => {
    // The signer thread's script started as a stamp-check thread is: with no key in its workerData.
    pool = new ThreadPool<SignerJob, unknown>(new URL('../src/enclave/signer-worker.js', import.meta.url), { stampChecksOnly: true }, 1, () => {
      throw new Error('ran in-process');
    });
  });
  afterAll(async () => {
    await pool?.close();
  });

  it('given a request body and its stamp, when it is checked there, then a good stamp holds and a bad one does not', async () => {
    const key = generateP256KeyPair();
    const text = '{"organizationId":"an organization"}';
    const body = new Uint8Array(Buffer.from(text));
    expect(await pool.run({ check: { body, stamp: parseApiKeyStamp(stampApiKey(text, key)) } })).toBe(true);
    expect(await pool.run({ check: { body, stamp: parseApiKeyStamp(stampApiKey(`${text} `, key)) } })).toBe(false);
  });

  it('given any job but a stamp check (a token to sign, a client signature), when it is posted there, then the thread refuses it: it holds no key and does nothing else', async () => {
    const key = generateP256KeyPair();
    await expect(pool.run({ jwt: { sub: 'someone' } } as unknown as SignerJob)).rejects.toThrow('the worker thread failed (Error)');
    await expect(pool.run({ client: createClientSignature({ privateKey: key.privateKey, message: 'hello' }) })).rejects.toThrow(
      'the worker thread failed (Error)',
    );
  });
});
