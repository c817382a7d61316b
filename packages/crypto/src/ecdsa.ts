// ECDSA sign/verify shared by stamps, bundles, JWTs, client signatures and App Proofs.
// Verification accepts high-S signatures: WebCrypto and OpenSSL produce them, and
// malleability does not matter here (requests are deduplicated by body hash, not signature).
import { p256 } from '@noble/curves/nist.js';
import { bytesToHex, isHex, hexToBytes } from './encoding.js';
import { type EcdsaFormat, nativeP256 } from './native-p256.js';
import { decodePublicKey, type EcdsaCurve } from './point.js';

export type { EcdsaFormat, NativeP256 } from './native-p256.js';
export { useNativeP256 } from './native-p256.js';

/**
 * @internal Signs with RFC 6979 deterministic nonces and low-S normalization (a native P-256,
 * when installed, signs with random nonces, also low-S). With `prehash` (default) the message is
 * hashed with SHA-256 first; without it `message` must be the 32-byte digest. `publicKey`, the
 * uncompressed public key of `privateKey` when the caller derived it already, spares a native
 * P-256 deriving it again (noble does not need it).
 */
export function ecdsaSign(
  curve: EcdsaCurve,
  privateKey: Uint8Array,
  message: Uint8Array,
  format: EcdsaFormat,
  prehash = true,
  publicKey?: Uint8Array,
): Uint8Array {
  const native = nativeP256();
  if (native && prehash && curve === (p256 as unknown as EcdsaCurve)) {
    const compact = native.sign(privateKey, message, publicKey);
    return format === 'compact' ? compact : p256.Signature.fromBytes(compact, 'compact').toBytes('der');
  }
  return curve.sign(message, privateKey, { prehash, format, lowS: true });
}

/**
 * @internal Verifies an ECDSA signature. Never throws: malformed keys, signatures or
 * encodings all return `false`.
 */
export function ecdsaVerify(
  curve: EcdsaCurve,
  publicKey: string | Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
  format: EcdsaFormat,
  prehash = true,
): boolean {
  try {
    if (format === 'compact' && signature.length !== 64) return false;
    const native = nativeP256();
    if (native && prehash && curve === (p256 as unknown as EcdsaCurve)) {
      const hex = typeof publicKey === 'string' ? publicKey : bytesToHex(publicKey);
      if (!/^(02|03)[0-9a-fA-F]{64}$|^04[0-9a-fA-F]{128}$/.test(hex)) return false;
      return native.verify(hex.toLowerCase(), message, signature, format);
    }
    const point = decodePublicKey(curve, publicKey);
    return curve.verify(signature, message, point.toBytes(false), {
      prehash,
      format,
      lowS: false,
    });
  } catch {
    return false;
  }
}

/**
 * Verifies an ECDSA-P256-SHA256 signature in ASN.1 DER over `message` (hashed here), with a
 * compressed or uncompressed public key in hex. This is the default P-256 verifier of
 * {@link verifyApiKeyStamp}; a server may inject a faster native one with the same contract.
 * Never throws: anything malformed returns `false`. High-S signatures are accepted.
 *
 * @example
 * ```ts
 * verifyP256Der(stamp.publicKey, rawBody, stamp.signature); // true | false
 * ```
 */
export function verifyP256Der(publicKeyHex: string, message: Uint8Array, derSignatureHex: string): boolean {
  if (typeof publicKeyHex !== 'string' || !(message instanceof Uint8Array)) return false;
  if (!isHex(derSignatureHex) || derSignatureHex.length > 2 * 72) return false;
  return ecdsaVerify(p256, publicKeyHex, message, hexToBytes(derSignatureHex), 'der');
}
