/**
 * A payload signed with HASH_FUNCTION_KECCAK256 is hashed on the signer thread, not on the event
 * loop (signing.ts `toSign`, crypto's `payloadToSign`, decision 0040): the job carries the decoded
 * payload and `keccak: true`, and the signature is the one over the payload's keccak-256 digest.
 */
import { describe, expect, it } from 'vitest';
import { serializeTransaction } from 'viem';
import { bytesToHex, keccak256, payloadToSign, prepareEthereumTransaction, utf8ToBytes } from '@walletkit/crypto';
import { watchWorkerPosts } from './support/worker-posts';

describe('keccak-256 on the signer thread', () => {
  const watched = watchWorkerPosts();

  /** The sign jobs posted to a worker since the spy was cleared. */
  const signJobs = () =>
    watched.posted.mock.calls
      .map(([message]) => (message as { job?: { sign?: { messages: Uint8Array[]; keccak?: true } } }).job?.sign)
      .filter((job) => job !== undefined);

  it('given a UTF-8 payload with KECCAK256, when signed, then the thread gets the payload and keccak, and the signature is the one over its digest', async () => {
    const { sealedPrivateKey } = await watched.server.enclave.createPrivateKey('CURVE_SECP256K1');
    const key = { kind: 'privateKey' as const, sealedPrivateKey, curve: 'CURVE_SECP256K1' as const };
    const prepared = payloadToSign({
      payload: 'hello',
      encoding: 'PAYLOAD_ENCODING_TEXT_UTF8',
      hashFunction: 'HASH_FUNCTION_KECCAK256',
      curve: 'CURVE_SECP256K1',
    });
    expect(prepared.keccak).toBe(true);
    expect(Array.from(prepared.bytes)).toEqual(Array.from(utf8ToBytes('hello')));

    watched.posted.mockClear();
    const [onThread] = await watched.server.enclave.signMessages(key, [prepared.bytes], undefined, true);
    const jobs = signJobs();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.keccak).toBe(true);
    expect(Array.from(jobs[0]!.messages[0]!)).toEqual(Array.from(utf8ToBytes('hello')));

    watched.posted.mockClear();
    const [overDigest] = await watched.server.enclave.signMessages(key, [keccak256('hello')]);
    expect(signJobs()[0]!.keccak).toBeUndefined();
    expect(onThread).toEqual(overDigest);
  });

  it('given an unsigned EIP-1559 transaction, when its bytes are signed with keccak on the thread, then the signature is the one over its digest', async () => {
    const { sealedPrivateKey } = await watched.server.enclave.createPrivateKey('CURVE_SECP256K1');
    const key = { kind: 'privateKey' as const, sealedPrivateKey, curve: 'CURVE_SECP256K1' as const };
    const unsigned = serializeTransaction({
      type: 'eip1559',
      chainId: 31337,
      nonce: 3,
      to: `0x${'22'.repeat(20)}`,
      value: 1n,
      gas: 21000n,
      maxFeePerGas: 2n,
      maxPriorityFeePerGas: 1n,
    });
    const tx = prepareEthereumTransaction(unsigned);
    expect(bytesToHex(keccak256(tx.unsigned))).toBe(bytesToHex(tx.digest));

    watched.posted.mockClear();
    const [onThread] = await watched.server.enclave.signMessages(key, [tx.unsigned], undefined, true);
    expect(signJobs()[0]!.keccak).toBe(true);
    const [overDigest] = await watched.server.enclave.signMessages(key, [tx.digest]);
    expect(onThread).toEqual(overDigest);
  });
});
