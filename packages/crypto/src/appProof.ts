// App Proofs: an enclave-signed statement about an activity's result, passed through the
// proxy unverified and checked by end-user clients against the pinned enclave key. Encoded as
// Turnkey's v1AppProof (@turnkey/crypto's verifyAppProofSignature accepts them): `publicKey` is
// the enclave's encryption key then its signing key (65 + 65 bytes, uncompressed), `signature`
// the raw r||s of ECDSA-P256 over SHA-256 of the UTF-8 `proofPayload`.
import { p256 } from '@noble/curves/nist.js';
import { appProofParts } from './appProofParts.js';
import { assertString } from './assert.js';
import { ecdsaSign, ecdsaVerify } from './ecdsa.js';
import { bytesToHex, utf8ToBytes } from './encoding.js';
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
  /** The enclave's encryption then signing P-256 public keys, uncompressed, 130 bytes as hex (Turnkey's layout). */
  publicKey: string;
  /** The signed JSON text. */
  proofPayload: string;
  /** ECDSA-P256 over SHA-256 of the UTF-8 `proofPayload`: raw r||s, 64 bytes as hex (proofs made before this layout: DER). */
  signature: string;
}

/**
 * Signs a JSON document as an App Proof with a P-256 private key (hex); `encryptionPublicKey`
 * is the signer's encryption key, carried first in `publicKey` as Turnkey's enclaves do.
 *
 * @example
 * ```ts
 * const proof = signAppProof({ type: 'APP_PROOF_TYPE_ADDRESS_DERIVATION', address, timestampMs }, enclavePrivateKey, enclaveEncryptionPublicKey);
 * ```
 */
export function signAppProof(payload: object, privateKeyHex: string, encryptionPublicKey: string): AppProof {
  if (typeof payload !== 'object' || payload === null) throw new CryptoError('ERR_INVALID_PARAMETER', 'payload must be an object');
  assertString(privateKeyHex, 'privateKeyHex');
  assertString(encryptionPublicKey, 'encryptionPublicKey', 'ERR_INVALID_PUBLIC_KEY');
  const privateKey = decodePrivateKey(privateKeyHex, p256);
  const encryption = decodePublicKey(p256, encryptionPublicKey).toBytes(false);
  const proofPayload = JSON.stringify(payload);
  return {
    scheme: 'SIGNATURE_SCHEME_EPHEMERAL_KEY_P256',
    publicKey: bytesToHex(encryption) + bytesToHex(publicKeyOf(p256, privateKey, false)),
    proofPayload,
    signature: bytesToHex(ecdsaSign(p256, privateKey, utf8ToBytes(proofPayload), 'compact')),
  };
}

/**
 * Verifies an App Proof: its signing key (the last 65 bytes of `publicKey`, or all of it in
 * proofs made before the two-key layout) must be the pinned enclave signing key (compressed or
 * uncompressed hex) and its signature valid (raw r||s, or DER in older proofs). Returns `false`
 * (never throws) for any mismatch or malformed proof; throws `ERR_INVALID_PUBLIC_KEY` only when
 * the pinned key itself is invalid.
 *
 * @example
 * ```ts
 * const trusted = activity.appProofs?.every((p) => verifyAppProof(p, enclavePublicKey));
 * ```
 */
export function verifyAppProof(proof: AppProof, pinnedPublicKey: string): boolean {
  assertString(pinnedPublicKey, 'pinnedPublicKey', 'ERR_INVALID_PUBLIC_KEY');
  const pinned = decodePublicKey(p256, pinnedPublicKey);
  const parts = appProofParts(proof);
  if (!parts) return false;
  try {
    if (!decodePublicKey(p256, parts.signingKey).equals(pinned)) return false;
  } catch {
    return false;
  }
  return ecdsaVerify(p256, pinned.toBytes(false), utf8ToBytes(parts.payload), parts.signature, parts.format);
}
