// SLIP-10 key derivation for ed25519: hardened-only, HMAC-SHA512 keyed "ed25519 seed".
// https://github.com/satoshilabs/slips/blob/master/slip-0010.md
import { hmac } from '@noble/hashes/hmac.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { plainBytes } from './assert.js';
import { utf8ToBytes } from './encoding.js';
import { CryptoError } from './errors.js';
import { HARDENED_OFFSET } from './path.js';

const MASTER_KEY = utf8ToBytes('ed25519 seed');

/**
 * @internal Derives the ed25519 private key at `path` (child numbers from `parsePath`).
 * Throws `ERR_UNSUPPORTED_CURVE_FORMAT` for a non-hardened segment: ed25519 has no public
 * derivation.
 */
export function slip10Ed25519(seed: Uint8Array, path: readonly number[]): Uint8Array<ArrayBuffer> {
  // Master: I = HMAC-SHA512("ed25519 seed", seed); key = IL, chain code = IR.
  let I = hmac(sha512, MASTER_KEY, seed);
  for (const index of path) {
    if (index < HARDENED_OFFSET) {
      throw new CryptoError('ERR_UNSUPPORTED_CURVE_FORMAT', 'ed25519 derivation supports hardened path segments only');
    }
    // Child: I = HMAC-SHA512(chain code, 0x00 || key || ser32(index)).
    const data = new Uint8Array(37);
    data.set(I.subarray(0, 32), 1);
    new DataView(data.buffer).setUint32(33, index, false);
    const next = hmac(sha512, I.subarray(32), data);
    I.fill(0);
    data.fill(0);
    I = next;
  }
  const key = plainBytes(I.slice(0, 32));
  I.fill(0);
  return key;
}
