/**
 * What a job posts to a signer thread: a request body is a view of a few dozen bytes on Node's
 * shared allocation pool, and a message to a worker copies the whole ArrayBuffer under a typed
 * array. The signer pool posts a body's own bytes only (signer-pool.ts `ownBytes`): nothing else
 * of the pool (other requests' bytes, anything decoded into a small Buffer) reaches the thread,
 * and the stamp is checked as before.
 */
import { describe, expect, it } from 'vitest';
import { hexToBytes, parseApiKeyStamp, stampApiKey } from '@walletkit/crypto';
import { StampProof } from '../src/activity/stamp-check';
import { ownBytes } from '../src/enclave/signer-pool';
import { watchWorkerPosts } from './support/worker-posts';

const MARKER = 'not-this-body-'.repeat(8);

/** `text` as a view in the middle of a larger buffer holding MARKER on both sides, as a pooled body is. */
function pooledView(text: string): Uint8Array {
  const around = Buffer.from(`${MARKER}${text}${MARKER}`);
  return around.subarray(MARKER.length, MARKER.length + Buffer.byteLength(text));
}

/** The typed arrays a posted message holds, anywhere in it. */
function typedArraysIn(value: unknown, found: Uint8Array[] = []): Uint8Array[] {
  if (value instanceof Uint8Array) found.push(value);
  else if (Array.isArray(value)) for (const v of value) typedArraysIn(v, found);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) typedArraysIn(v, found);
  return found;
}

describe('a signer job posts its own bytes only', () => {
  const watched = watchWorkerPosts();

  /** Every typed array posted to a worker since the spy was cleared. */
  const postedBytes = (): Uint8Array[] => watched.posted.mock.calls.flatMap(([message]: unknown[]) => typedArraysIn(message));

  it('given a body that is a view on a larger buffer, when its stamp is checked on the thread, then the job holds exactly its bytes, and a good stamp holds while a bad one does not', async () => {
    const text = JSON.stringify({ organizationId: watched.server.org.organizationId, request: 'a read' });
    const body = pooledView(text);
    expect(body.buffer.byteLength).toBeGreaterThan(body.byteLength);
    const good = parseApiKeyStamp(stampApiKey(text, watched.server.client.key));
    const bad = parseApiKeyStamp(stampApiKey(`${text} `, watched.server.client.key));

    watched.posted.mockClear();
    expect(await watched.server.enclave.stamps.checkStamp(body, good)).toBe(true);
    expect(await watched.server.enclave.stamps.checkStamp(body, bad)).toBe(false);
    const bytes = postedBytes();
    expect(bytes.length).toBe(2);
    for (const b of bytes) {
      expect(b.buffer.byteLength).toBe(body.byteLength);
      expect(Buffer.from(b.buffer).toString()).toBe(text);
    }
  });

  it('given a signature whose stamp rides in its job, when it is posted, then its body and its digest are their own bytes, and it signs', async () => {
    const { sealedPrivateKey } = await watched.server.enclave.createPrivateKey('CURVE_SECP256K1');
    const text = JSON.stringify({ organizationId: watched.server.org.organizationId, request: 'a signature' });
    const body = pooledView(text);
    const stamp = parseApiKeyStamp(stampApiKey(text, watched.server.client.key));
    const proof = new StampProof({ body, stamp }, (job) => watched.server.enclave.stamps.checkStamp(job.body, job.stamp));
    const digest = Buffer.concat([Buffer.alloc(100, 7), Buffer.from(hexToBytes('11'.repeat(32)))]).subarray(100);

    watched.posted.mockClear();
    const [signature] = await watched.server.enclave.signMessages({ kind: 'privateKey', sealedPrivateKey, curve: 'CURVE_SECP256K1' }, [digest], proof);
    expect(signature?.r).toMatch(/^[0-9a-f]{64}$/);
    const bytes = postedBytes();
    expect(bytes.map((b) => b.buffer.byteLength).sort((a, b) => a - b)).toEqual([32, body.byteLength].sort((a, b) => a - b));
    expect(bytes.some((b) => Buffer.from(b.buffer).toString().includes(MARKER))).toBe(false);
  });

  it('given bytes that own their buffer, when prepared for a job, then they are posted as they are', () => {
    const own = new Uint8Array([1, 2, 3]);
    expect(ownBytes(own)).toBe(own);
    const view = new Uint8Array([9, 1, 2, 3, 9]).subarray(1, 4);
    expect(Array.from(ownBytes(view))).toEqual([1, 2, 3]);
    expect(ownBytes(view).buffer.byteLength).toBe(3);
  });
});
