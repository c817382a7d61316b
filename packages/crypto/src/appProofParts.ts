// The parts of an App Proof a verifier checks, read without any curve arithmetic, so that a
// WebCrypto verifier (the kit's) and `verifyAppProof` apply the same rules.
import { hexToBytes, isHex } from './encoding.js';

/**
 * What a well-formed App Proof claims: the hex of its signing key (the second of the two keys it
 * names, or its only one in proofs made before the two-key layout), the signed text, and the
 * signature's bytes with their encoding (raw r||s, or DER in older proofs). `undefined` for a
 * proof of another scheme or with malformed fields; the key and the signature are not checked
 * against any curve here.
 *
 * @example
 * ```ts
 * const parts = appProofParts(proof); // { signingKey: '04…', payload: '{"type":…}', signature: Uint8Array(64), format: 'compact' }
 * ```
 */
export function appProofParts(proof: unknown): { signingKey: string; payload: string; signature: Uint8Array; format: 'compact' | 'der' } | undefined {
  if (typeof proof !== 'object' || proof === null) return undefined;
  const { scheme, publicKey, proofPayload, signature } = proof as Record<string, unknown>;
  if (scheme !== 'SIGNATURE_SCHEME_EPHEMERAL_KEY_P256' || typeof proofPayload !== 'string') return undefined;
  if (typeof publicKey !== 'string' || !isHex(publicKey) || typeof signature !== 'string' || !isHex(signature)) return undefined;
  // Two keys (encryption || signing, 260 hex) or, in older proofs, the signing key alone.
  const signingKey = publicKey.length === 260 ? publicKey.slice(130) : publicKey;
  return { signingKey, payload: proofPayload, signature: hexToBytes(signature), format: signature.length === 128 ? 'compact' : 'der' };
}
