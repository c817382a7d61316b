// App Proofs (decision 0018) verified through WebCrypto: the same rules as @walletkit/crypto's
// verifyAppProof, without P-256 arithmetic in the kit (DESIGN section 5).
import { type AppProof, bytesToHex, hexToBytes, utf8ToBytes } from '@walletkit/crypto';
import { sha256HexWeb } from './digest.js';
import { derSignatureToRaw, uncompressedP256, verifyP256 } from './p256.js';

const HEX = /^(?:[0-9a-fA-F]{2})+$/;

/**
 * Whether `proof` is signed by `pinnedPublicKey` (hex, compressed or not): its signing key (the
 * second of the two keys it names, or its only one in older proofs) is the pinned key, and the
 * ECDSA-P256 signature (raw `r || s`, or DER in older proofs) over SHA-256 of the UTF-8
 * `proofPayload` verifies. A malformed proof is `false`; a bad pinned key throws
 * `ERR_INVALID_PUBLIC_KEY`.
 * @example await verifyAppProofWeb(reply.activity.appProofs[0], enclavePublicKey) // true
 */
export async function verifyAppProofWeb(proof: AppProof, pinnedPublicKey: string): Promise<boolean> {
  const pinned = uncompressedP256(pinnedPublicKey);
  if (typeof proof !== 'object' || proof === null) return false;
  const { scheme, publicKey, proofPayload, signature } = proof;
  if (scheme !== 'SIGNATURE_SCHEME_EPHEMERAL_KEY_P256' || typeof proofPayload !== 'string') return false;
  if (typeof publicKey !== 'string' || !HEX.test(publicKey) || typeof signature !== 'string' || !HEX.test(signature)) return false;
  // Two keys (encryption || signing, 260 hex) or, in older proofs, the signing key alone.
  const signingKey = publicKey.length === 260 ? publicKey.slice(130) : publicKey;
  try {
    if (bytesToHex(uncompressedP256(signingKey)) !== bytesToHex(pinned)) return false;
  } catch {
    return false;
  }
  const raw = signature.length === 128 ? hexToBytes(signature) : derSignatureToRaw(hexToBytes(signature));
  if (!raw) return false;
  return verifyP256(bytesToHex(pinned), utf8ToBytes(proofPayload), raw);
}

/**
 * Turnkey's activity fingerprint of a request body, `sha256:<lowercase hex>`, through WebCrypto
 * (@walletkit/crypto's `activityFingerprint`).
 * @example await activityFingerprintWeb(body) // 'sha256:3b5f…'
 */
export async function activityFingerprintWeb(body: string): Promise<string> {
  return `sha256:${await sha256HexWeb(body)}`;
}
