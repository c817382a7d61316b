// App Proofs (decision 0018) verified through WebCrypto: the same rules as @walletkit/crypto's
// verifyAppProof (both read the proof with `appProofParts`), without P-256 arithmetic in the kit
// (DESIGN section 5).
import { type AppProof, appProofParts, bytesToHex, utf8ToBytes } from '@walletkit/crypto';
import { sha256HexWeb } from './digest.js';
import { derSignatureToRaw, uncompressedP256, verifyP256 } from './p256.js';

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
  const parts = appProofParts(proof);
  if (!parts) return false;
  try {
    if (bytesToHex(uncompressedP256(parts.signingKey)) !== bytesToHex(pinned)) return false;
  } catch {
    return false;
  }
  const raw = parts.format === 'compact' ? parts.signature : derSignatureToRaw(parts.signature);
  if (!raw) return false;
  return verifyP256(bytesToHex(pinned), utf8ToBytes(parts.payload), raw);
}

/**
 * Turnkey's activity fingerprint of a request body, `sha256:<lowercase hex>`, through WebCrypto
 * (@walletkit/crypto's `activityFingerprint`).
 * @example await activityFingerprintWeb(body) // 'sha256:3b5f…'
 */
export async function activityFingerprintWeb(body: string): Promise<string> {
  return `sha256:${await sha256HexWeb(body)}`;
}
