/**
 * Private-key-only HD derivation on node's HMAC-SHA512 and libsecp256k1, for every account the
 * enclave derives (new wallets and accounts, imports, and the first signature of an account
 * stored before its key was sealed). @walletkit/crypto's `deriveKey` (@scure/bip32) computes a
 * public key at every level in JS, ~10x slower; here a public key is computed only where BIP32
 * needs one (the parent of a non-hardened child). `test/key-derivation.test.ts` holds it to
 * @walletkit/crypto's derivation for random seeds and paths on both curves.
 */
import { createHmac } from 'node:crypto';
import { HARDENED_OFFSET, parsePath, type Curve } from '@walletkit/crypto';
import { pointFromScalar } from 'tiny-secp256k1';
import { ApiError } from '../errors.js';

/** Order of the secp256k1 group. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const toBigInt = (bytes: Uint8Array): bigint => BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
const toBytes32 = (n: bigint): Buffer => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');

function invalid(message: string): ApiError {
  // Probability about 2^-127 per level (BIP32 "proceed with the next i"); reported, not skipped.
  return new ApiError('ERR_INVALID_PARAMETER', message, 'path');
}

/** BIP32 CKDpriv from the master key of `seed` along `indexes`. */
function bip32(seed: Uint8Array, indexes: readonly number[]): Uint8Array {
  let I = createHmac('sha512', 'Bitcoin seed').update(seed).digest();
  let k = toBigInt(I.subarray(0, 32));
  if (k === 0n || k >= N) throw invalid('the seed yields no valid BIP32 master key');
  for (const index of indexes) {
    const data = Buffer.alloc(37);
    const key = toBytes32(k);
    if (index >= HARDENED_OFFSET) {
      key.copy(data, 1); // 0x00 || ser256(k)
    } else {
      data.set(secp256k1PublicKey(key, true), 0); // serP(point(k))
    }
    key.fill(0);
    data.writeUInt32BE(index, 33);
    const chainCode = I.subarray(32);
    const next = createHmac('sha512', chainCode).update(data).digest();
    data.fill(0);
    I.fill(0);
    I = next;
    const tweak = toBigInt(I.subarray(0, 32));
    if (tweak >= N) throw invalid('BIP32 derivation produced an invalid child key');
    k = (tweak + k) % N;
    if (k === 0n) throw invalid('BIP32 derivation produced an invalid child key');
  }
  I.fill(0);
  return new Uint8Array(toBytes32(k));
}

/**
 * The public key of a valid secp256k1 scalar, by libsecp256k1 (WebAssembly, as the server's
 * wallet signatures): about 0.2 ms here against 0.65 ms for node's `createECDH`, whose OpenSSL
 * has no fast path for this curve.
 */
export function secp256k1PublicKey(privateKey: Uint8Array, compressed: boolean): Uint8Array {
  const point = pointFromScalar(privateKey, compressed);
  if (!point) throw new ApiError('ERR_INVALID_PARAMETER', 'not a valid secp256k1 private key');
  return point;
}

/** SLIP-10 for ed25519: hardened segments only (checked before the enclave is called). */
function slip10(seed: Uint8Array, indexes: readonly number[]): Uint8Array {
  let I = createHmac('sha512', 'ed25519 seed').update(seed).digest();
  for (const index of indexes) {
    if (index < HARDENED_OFFSET) throw new ApiError('ERR_UNSUPPORTED_CURVE_FORMAT', 'ed25519 paths must be hardened in every segment', 'path');
    const data = Buffer.alloc(37);
    I.copy(data, 1, 0, 32);
    data.writeUInt32BE(index, 33);
    const next = createHmac('sha512', I.subarray(32)).update(data).digest();
    data.fill(0);
    I.fill(0);
    I = next;
  }
  const key = new Uint8Array(I.subarray(0, 32));
  I.fill(0);
  return key;
}

/**
 * The 32-byte private key at `path` under `seed`: BIP32 for secp256k1, SLIP-10 for ed25519.
 * @example const key = derivePrivateKeyNative(seed, 'CURVE_SECP256K1', "m/44'/60'/0'/0/0");
 */
export function derivePrivateKeyNative(seed: Uint8Array, curve: Curve, path: string): Uint8Array {
  let indexes: number[];
  try {
    indexes = parsePath(path);
  } catch (cause) {
    throw new ApiError('ERR_INVALID_PARAMETER', `invalid BIP32 path "${path}"`, 'path', { cause });
  }
  return curve === 'CURVE_ED25519' ? slip10(seed, indexes) : bip32(seed, indexes);
}
