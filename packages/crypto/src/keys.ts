// Key generation and public-key encodings for the three curves the wire carries:
// P-256 (API keys, enclave keys, HPKE), secp256k1 (Ethereum) and ed25519 (Solana, API keys).
import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { assertBytes, assertOneOf, assertString } from './assert';
import { bytesToHex, hexToBytes, isHex } from './encoding';
import { CryptoError } from './errors';

/** The short-Weierstrass curves whose public keys have compressed and uncompressed forms. */
export type WeierstrassCurve = 'p256' | 'secp256k1';

/** A P-256 or secp256k1 key pair, all lowercase hex. */
export interface EcKeyPair {
  /** 32-byte private scalar, hex. */
  privateKey: string;
  /** 33-byte SEC1 compressed public key, hex. */
  publicKey: string;
  /** 65-byte SEC1 uncompressed public key (`04 || x || y`), hex. */
  publicKeyUncompressed: string;
}

/** An ed25519 key pair, lowercase hex. ed25519 keys have one encoding only. */
export interface Ed25519KeyPair {
  /** 32-byte private seed, hex. */
  privateKey: string;
  /** 32-byte raw public key, hex. */
  publicKey: string;
}

const WEIERSTRASS_CURVES: readonly WeierstrassCurve[] = ['p256', 'secp256k1'];

/** @internal the noble implementation behind a curve name. */
export function weierstrass(curve: WeierstrassCurve): typeof p256 | typeof secp256k1 {
  return assertOneOf(curve, WEIERSTRASS_CURVES, 'curve', 'ERR_UNSUPPORTED_CURVE_FORMAT') === 'p256'
    ? p256
    : secp256k1;
}

/**
 * @internal Parses a 32-byte private key (hex or bytes) and checks it is a valid scalar
 * (0 < d < n) for `curve`; throws `ERR_INVALID_PARAMETER` otherwise.
 */
export function parsePrivateKey(curve: WeierstrassCurve | 'ed25519', key: string | Uint8Array): Uint8Array {
  let bytes: Uint8Array;
  if (typeof key === 'string') {
    if (!isHex(key.startsWith('0x') ? key.slice(2) : key, 32)) {
      throw new CryptoError('ERR_INVALID_PARAMETER', 'private key must be 32 bytes of hex');
    }
    bytes = hexToBytes(key);
  } else {
    assertBytes(key, 'privateKey', 32);
    bytes = key;
  }
  if (curve !== 'ed25519' && !weierstrass(curve).utils.isValidSecretKey(bytes)) {
    throw new CryptoError('ERR_INVALID_PARAMETER', `private key is not a valid ${curve} scalar`);
  }
  return bytes;
}

/**
 * @internal Decodes a SEC1 public key (33-byte compressed or 65-byte uncompressed, hex or
 * bytes) into a validated curve point; throws `ERR_INVALID_PUBLIC_KEY` for anything that is
 * not a point on the curve (including the identity and hybrid encodings).
 */
export function parsePublicKeyPoint(curve: WeierstrassCurve, key: string | Uint8Array) {
  const impl = weierstrass(curve);
  let bytes: Uint8Array;
  if (typeof key === 'string') {
    if (!isHex(key) || (key.length !== 66 && key.length !== 130)) {
      throw new CryptoError('ERR_INVALID_PUBLIC_KEY', `${curve} public key must be 33 or 65 bytes of hex`);
    }
    bytes = hexToBytes(key);
  } else {
    assertBytes(key, 'publicKey', undefined, 'ERR_INVALID_PUBLIC_KEY');
    bytes = key;
  }
  if (bytes.length !== 33 && bytes.length !== 65) {
    throw new CryptoError('ERR_INVALID_PUBLIC_KEY', `${curve} public key must be 33 or 65 bytes`);
  }
  try {
    const point = impl.Point.fromBytes(bytes);
    point.assertValidity();
    if (point.is0()) throw new Error('identity point');
    return point;
  } catch (cause) {
    throw new CryptoError('ERR_INVALID_PUBLIC_KEY', `not a valid ${curve} public key`, { cause });
  }
}

function ecKeyPair(curve: WeierstrassCurve): EcKeyPair {
  const impl = weierstrass(curve);
  const secret = impl.utils.randomSecretKey();
  return {
    privateKey: bytesToHex(secret),
    publicKey: bytesToHex(impl.getPublicKey(secret, true)),
    publicKeyUncompressed: bytesToHex(impl.getPublicKey(secret, false)),
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
  return bytesToHex(p256.getPublicKey(parsePrivateKey('p256', privateKeyHex), compressed !== false));
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
  return bytesToHex(parsePublicKeyPoint(curve, publicKeyHex).toBytes(true));
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
  return bytesToHex(parsePublicKeyPoint(curve, publicKeyHex).toBytes(false));
}

/**
 * @internal The public key of an already-validated private key: SEC1 (compressed by default)
 * for P-256 / secp256k1, raw 32 bytes for ed25519.
 */
export function publicKeyOf(
  curve: WeierstrassCurve | 'ed25519',
  privateKey: Uint8Array,
  compressed = true,
): Uint8Array {
  if (curve === 'ed25519') return ed25519.getPublicKey(privateKey);
  return weierstrass(curve).getPublicKey(privateKey, compressed);
}
