/**
 * Microseconds per HPKE seal and open, the `hpke` library over WebCrypto (what browsers run)
 * against the server's node:crypto implementation (packages/server/src/enclave/hpke-node.ts).
 * Not part of `npm run bench`:
 *
 *   node --conditions=@walletkit/source --import tsx bench/hpke.ts
 */
import { randomBytes } from 'node:crypto';
import { generateP256KeyPair, hpkeOpen, hpkeRecipient, hpkeSeal, useNativeHpke } from '@walletkit/crypto';
import { nodeHpke } from '../packages/server/src/enclave/hpke-node.js';

/** Microseconds per call: the median of five rounds of `n` sequential calls, after a warm-up round. */
async function perCall(fn: () => Promise<unknown>, n: number): Promise<number> {
  const rounds: number[] = [];
  for (let round = 0; round < 6; round += 1) {
    const started = performance.now();
    for (let i = 0; i < n; i += 1) await fn();
    if (round > 0) rounds.push(((performance.now() - started) / n) * 1000);
  }
  return rounds.sort((a, b) => a - b)[2]!;
}

const atRest = generateP256KeyPair();
const key = randomBytes(32);

/** The figures of one implementation: the library path (what browsers run) or node:crypto. */
async function measure(impl: 'library' | 'native'): Promise<Array<Record<string, string>>> {
  // biome-ignore lint/correctness/useHookAtTopLevel: useNativeHpke installs an implementation, it is not a React hook
  useNativeHpke(impl === 'native' ? nodeHpke : undefined);
  const n = impl === 'native' ? 2_000 : 400;
  const recipient = await hpkeRecipient(atRest.privateKey);
  const sealed = await hpkeSeal({ plaintext: key, receiverPublicKey: recipient.publicKey });
  const figures = {
    'seal 32 B (uncompressed key)': await perCall(() => hpkeSeal({ plaintext: key, receiverPublicKey: atRest.publicKeyUncompressed }), n),
    'seal 32 B (compressed key)': await perCall(() => hpkeSeal({ plaintext: key, receiverPublicKey: atRest.publicKey }), n),
    'open 32 B (prepared recipient)': await perCall(() => recipient.open(sealed), n),
    'hpkeOpen 32 B (one-shot)': await perCall(() => hpkeOpen({ ...sealed, receiverPrivateKey: atRest.privateKey }), n),
  };
  return Object.entries(figures).map(([what, us]) => ({ impl, what, us: us.toFixed(0) }));
}

console.table([...(await measure('library')), ...(await measure('native'))]);
