// App Proofs: an enclave-signed statement about an activity's result, passed through the
// proxy unverified and checked by end-user clients against the pinned enclave key.
import { p256 } from '@noble/curves/nist.js';
import { assertString } from './assert.js';
import { ecdsaSign, ecdsaVerify } from './ecdsa.js';
import { bytesToHex, hexToBytes, isHex, utf8ToBytes } from './encoding.js';
import { CryptoError } from './errors.js';
import { decodePrivateKey, decodePublicKey, publicKeyOf } from './point.js';

/**
 * An App Proof as carried in `activity.appProofs`.
 *
 * @example
 * ```ts
 * const proof: AppProof = signAppProof({ activityId }, enclavePrivateKey);
 * ```
 */
export interface AppProof {
  scheme: 'SIGNATURE_SCHEME_EPHEMERAL_KEY_P256';
  /** The signer's uncompressed P-256 public key, hex. */
  publicKey: string;
  /** The signed JSON text. */
  proofPayload: string;
  /** DER hex ECDSA-P256 over SHA-256 of the UTF-8 `proofPayload`. */
  signature: string;
}

/**
 * Signs a JSON document as an App Proof with a P-256 private key (hex).
 *
 * @example
 * ```ts
 * const proof = signAppProof({ type: 'APP_PROOF_TYPE_ADDRESS_DERIVATION', address, timestampMs }, enclavePrivateKey);
 * ```
 */
export function signAppProof(payload: object, privateKeyHex: string): AppProof {
  if (typeof payload !== 'object' || payload === null) throw new CryptoError('ERR_INVALID_PARAMETER', 'payload must be an object');
  assertString(privateKeyHex, 'privateKeyHex');
  const privateKey = decodePrivateKey(privateKeyHex, p256);
  const proofPayload = JSON.stringify(payload);
  return {
    scheme: 'SIGNATURE_SCHEME_EPHEMERAL_KEY_P256',
    publicKey: bytesToHex(publicKeyOf(p256, privateKey, false)),
    proofPayload,
    signature: bytesToHex(ecdsaSign(p256, privateKey, utf8ToBytes(proofPayload), 'der')),
  };
}

/**
 * Verifies an App Proof: its key must be the pinned enclave key (compressed or uncompressed
 * hex) and its signature valid. Returns `false` (never throws) for any mismatch or malformed
 * proof; throws `ERR_INVALID_PUBLIC_KEY` only when the pinned key itself is invalid.
 *
 * @example
 * ```ts
 * const trusted = activity.appProofs?.every((p) => verifyAppProof(p, enclavePublicKey));
 * ```
 */
export function verifyAppProof(proof: AppProof, pinnedPublicKey: string): boolean {
  assertString(pinnedPublicKey, 'pinnedPublicKey', 'ERR_INVALID_PUBLIC_KEY');
  const pinned = decodePublicKey(p256, pinnedPublicKey);
  if (typeof proof !== 'object' || proof === null) return false;
  const { scheme, publicKey, proofPayload, signature } = proof;
  if (scheme !== 'SIGNATURE_SCHEME_EPHEMERAL_KEY_P256' || typeof proofPayload !== 'string') return false;
  if (typeof publicKey !== 'string' || !isHex(signature)) return false;
  try {
    if (!decodePublicKey(p256, publicKey).equals(pinned)) return false;
  } catch {
    return false;
  }
  return ecdsaVerify(p256, pinned.toBytes(false), utf8ToBytes(proofPayload), hexToBytes(signature), 'der');
}
