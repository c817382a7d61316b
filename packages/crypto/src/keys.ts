// Key generation and public-key encodings for the three curves the wire carries:
// P-256 (API keys, enclave keys, HPKE), secp256k1 (Ethereum) and ed25519 (Solana, API keys).
import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { assertOneOf, assertString } from './assert.js';
import { bytesToHex, hexToBytes, isHex } from './encoding.js';
import { CryptoError } from './errors.js';
import { nativeP256 } from './native-p256.js';
import { decodePrivateKey, decodePublicKey, type EcdsaCurve, publicKeyOf } from './point.js';

/**
 * The short-Weierstrass curves whose public keys have compressed and uncompressed forms.
 *
 * @example
 * ```ts
 * const curve: WeierstrassCurve = 'p256';
 * compressPublicKey(curve, publicKeyHex);
 * ```
 */
export type WeierstrassCurve = 'p256' | 'secp256k1';

/**
 * A P-256 or secp256k1 key pair, all lowercase hex.
 *
 * @example
 * ```ts
 * const { privateKey, publicKey, publicKeyUncompressed }: EcKeyPair = generateP256KeyPair();
 * ```
 */
export interface EcKeyPair {
  /** 32-byte private scalar, hex. */
  privateKey: string;
  /** 33-byte SEC1 compressed public key, hex. */
  publicKey: string;
  /** 65-byte SEC1 uncompressed public key (`04 || x || y`), hex. */
  publicKeyUncompressed: string;
}

/**
 * An ed25519 key pair, lowercase hex. ed25519 keys have one encoding only.
 *
 * @example
 * ```ts
 * const { privateKey, publicKey }: Ed25519KeyPair = generateEd25519KeyPair();
 * ```
 */
export interface Ed25519KeyPair {
  /** 32-byte private seed, hex. */
  privateKey: string;
  /** 32-byte raw public key, hex. */
  publicKey: string;
}

const WEIERSTRASS_CURVES: readonly WeierstrassCurve[] = ['p256', 'secp256k1'];

function weierstrass(curve: WeierstrassCurve): EcdsaCurve {
  return assertOneOf(curve, WEIERSTRASS_CURVES, 'curve', 'ERR_UNSUPPORTED_CURVE_FORMAT') === 'p256' ? p256 : secp256k1;
}

function ecKeyPair(curve: WeierstrassCurve): EcKeyPair {
  const impl = weierstrass(curve);
  const secret = impl.utils.randomSecretKey();
  return {
    privateKey: bytesToHex(secret),
    publicKey: bytesToHex(publicKeyOf(impl, secret, true)),
    publicKeyUncompressed: bytesToHex(publicKeyOf(impl, secret, false)),
  };
}

/**
 * Generates a random P-256 key pair (API keys, HPKE targets, enclave signing keys).
 *
 * @example
 * ```ts
 * const { privateKey, publicKey } = generateP256KeyPair();
 * publicKey.length; // 66 (compressed, hex)
 * ```
 */
export function generateP256KeyPair(): EcKeyPair {
  return ecKeyPair('p256');
}

/**
 * Generates a random secp256k1 key pair.
 *
 * @example
 * ```ts
 * const { publicKeyUncompressed } = generateSecp256k1KeyPair();
 * publicKeyUncompressed.startsWith('04'); // true
 * ```
 */
export function generateSecp256k1KeyPair(): EcKeyPair {
  return ecKeyPair('secp256k1');
}

/**
 * Generates a random ed25519 key pair (raw 32-byte keys).
 *
 * @example
 * ```ts
 * const { publicKey } = generateEd25519KeyPair();
 * publicKey.length; // 64
 * ```
 */
export function generateEd25519KeyPair(): Ed25519KeyPair {
  const { secretKey, publicKey } = ed25519.keygen();
  return { privateKey: bytesToHex(secretKey), publicKey: bytesToHex(publicKey) };
}

/**
 * The P-256 public key of a private key, compressed (33 bytes) by default.
 *
 * @example
 * ```ts
 * p256PublicKey(privateKeyHex); // '02...' or '03...'
 * p256PublicKey(privateKeyHex, false); // '04...'
 * ```
 */
export function p256PublicKey(privateKeyHex: string, compressed = true): string {
  assertString(privateKeyHex, 'privateKeyHex');
  return bytesToHex(publicKeyOf(p256, decodePrivateKey(privateKeyHex, p256), compressed !== false));
}

/**
 * Re-encodes a public key (compressed or uncompressed hex) in compressed form, validating it
 * is on the curve; throws `ERR_INVALID_PUBLIC_KEY` otherwise.
 *
 * @example
 * ```ts
 * compressPublicKey('p256', '04' + x + y); // '02' + x or '03' + x
 * ```
 */
export function compressPublicKey(curve: WeierstrassCurve, publicKeyHex: string): string {
  return reencode(curve, publicKeyHex, true);
}

/**
 * Re-encodings already made: a point's decoding is a square root on the curve (25 µs natively,
 * more in JavaScript), and a server sees the same public keys (its own, its proxy's, a session's)
 * in every request. Public data only, bounded, successes only.
 */
const reencoded = new Map<string, string>();
const REENCODED_LIMIT = 1024;

/** A public key re-encoded (natively for P-256 when a native one is installed), validated on its curve. */
function reencode(curve: WeierstrassCurve, publicKeyHex: string, compressed: boolean): string {
  const memoKey = typeof publicKeyHex === 'string' ? `${curve}${compressed ? 'c' : 'u'}${publicKeyHex}` : undefined;
  const known = memoKey === undefined ? undefined : reencoded.get(memoKey);
  if (known !== undefined) return known;
  const result = reencodeOnce(curve, publicKeyHex, compressed);
  if (memoKey !== undefined) {
    if (reencoded.size >= REENCODED_LIMIT) reencoded.delete(reencoded.keys().next().value as string);
    reencoded.set(memoKey, result);
  }
  return result;
}

function reencodeOnce(curve: WeierstrassCurve, publicKeyHex: string, compressed: boolean): string {
  const native = nativeP256();
  if (native?.convertPublicKey && curve === 'p256') {
    if (typeof publicKeyHex !== 'string' || !isHex(publicKeyHex) || (publicKeyHex.length !== 66 && publicKeyHex.length !== 130)) {
      throw new CryptoError('ERR_INVALID_PUBLIC_KEY', 'public key must be 33 or 65 bytes of hex');
    }
    try {
      return bytesToHex(native.convertPublicKey(hexToBytes(publicKeyHex), compressed));
    } catch (cause) {
      throw new CryptoError('ERR_INVALID_PUBLIC_KEY', 'not a valid public key of the curve', { cause });
    }
  }
  return bytesToHex(decodePublicKey(weierstrass(curve), publicKeyHex).toBytes(compressed));
}

/**
 * Re-encodes a public key (compressed or uncompressed hex) in uncompressed form
 * (`04 || x || y`), validating it is on the curve; throws `ERR_INVALID_PUBLIC_KEY` otherwise.
 *
 * @example
 * ```ts
 * uncompressPublicKey('secp256k1', '02' + x); // '04' + x + y
 * ```
 */
export function uncompressPublicKey(curve: WeierstrassCurve, publicKeyHex: string): string {
  return reencode(curve, publicKeyHex, false);
}
