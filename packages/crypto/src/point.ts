// Internal key decoding for the short-Weierstrass curves. Helpers take the noble curve
// object itself (not a name) so a module that only needs P-256 never pulls secp256k1 into a
// browser bundle (DESIGN section 5).
import type { ECDSA } from '@noble/curves/abstract/weierstrass.js';
import { p256 } from '@noble/curves/nist.js';
import { assertBytes, plainBytes } from './assert.js';
import { nativeP256 } from './native-p256.js';
import { hexToBytes, isHex } from './encoding.js';
import { CryptoError } from './errors.js';

/** A noble ECDSA curve (`p256` or `secp256k1`). */
export type EcdsaCurve = ECDSA;

/**
 * Parses a 32-byte private key (hex, optional `0x`, or bytes). With `curve`, also checks it
 * is a valid scalar (0 < d < n); without, any 32 bytes (an ed25519 seed). Throws
 * `ERR_INVALID_PARAMETER` otherwise.
 */
export function decodePrivateKey(key: string | Uint8Array, curve?: EcdsaCurve): Uint8Array {
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
  if (curve && !curve.utils.isValidSecretKey(bytes)) {
    throw new CryptoError('ERR_INVALID_PARAMETER', 'private key is not a valid scalar of the curve');
  }
  return bytes;
}

/**
 * Decodes a SEC1 public key (33-byte compressed or 65-byte uncompressed, hex or bytes) into a
 * validated point; throws `ERR_INVALID_PUBLIC_KEY` for anything that is not a point on the
 * curve, including the identity and hybrid (06/07) encodings.
 */
export function decodePublicKey(curve: EcdsaCurve, key: string | Uint8Array) {
  let bytes: Uint8Array;
  if (typeof key === 'string') {
    if (!isHex(key) || (key.length !== 66 && key.length !== 130)) {
      throw new CryptoError('ERR_INVALID_PUBLIC_KEY', 'public key must be 33 or 65 bytes of hex');
    }
    bytes = hexToBytes(key);
  } else {
    assertBytes(key, 'publicKey', undefined, 'ERR_INVALID_PUBLIC_KEY');
    bytes = key;
  }
  if (bytes.length !== 33 && bytes.length !== 65) {
    throw new CryptoError('ERR_INVALID_PUBLIC_KEY', 'public key must be 33 or 65 bytes');
  }
  try {
    const point = curve.Point.fromBytes(bytes);
    point.assertValidity();
    if (point.is0()) throw new Error('identity point');
    return point;
  } catch (cause) {
    throw new CryptoError('ERR_INVALID_PUBLIC_KEY', 'not a valid public key of the curve', { cause });
  }
}

/** SEC1 public key of an already-validated private key, compressed by default. */
export function publicKeyOf(curve: EcdsaCurve, privateKey: Uint8Array, compressed = true): Uint8Array<ArrayBuffer> {
  const native = nativeP256();
  if (native?.publicKey && curve === (p256 as unknown as EcdsaCurve)) return plainBytes(native.publicKey(privateKey, compressed));
  return plainBytes(curve.getPublicKey(privateKey, compressed));
}
