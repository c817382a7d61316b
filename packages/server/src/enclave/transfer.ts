/**
 * Keys crossing the enclave's edge on purpose (DESIGN section 2): export bundles HPKE-encrypted to
 * a caller's target key and signed by the enclave key, and import bundles a client encrypted to a
 * target key derived here for (organization, user), and secrets a caller encrypted to the at-rest
 * key (OAuth 2.0 client secrets). Used by the Enclave facade (index.ts) only;
 * the private keys it passes in never leave these calls.
 */
import { createHmac } from 'node:crypto';
import { hpkeOpen, hpkeSeal, p256PublicKey, signBundle, uncompressPublicKey } from '@walletkit/crypto';
import type { AtRestKey } from './at-rest.js';
import { ApiError } from '../errors.js';
import type { HpkeSealed, Sealed } from './types.js';
import type { EnclaveKeyPair } from './keystore.js';
import { isQosEnvelopeHex, openQosEnvelope } from './qos-envelope.js';

const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

/** `{encappedPublic, ciphertext}` parsed from a caller's JSON. @throws ApiError ERR_INVALID_ENCRYPTED_BUNDLE */
export function parseEncryptedBundle(value: string, field: string): HpkeSealed {
  try {
    const parsed = JSON.parse(value) as Partial<HpkeSealed> | null;
    if (typeof parsed?.encappedPublic === 'string' && typeof parsed.ciphertext === 'string') {
      return { encappedPublic: parsed.encappedPublic, ciphertext: parsed.ciphertext };
    }
  } catch {
    // fall through
  }
  throw new ApiError('ERR_INVALID_ENCRYPTED_BUNDLE', `${field} must be JSON {encappedPublic, ciphertext}`, field);
}

/**
 * A caller's export target as uncompressed P-256 hex (one spelling per key); checked before
 * any secret is opened. @throws ApiError ERR_INVALID_PUBLIC_KEY
 */
export function exportTarget(targetPublicKey: string): string {
  try {
    return uncompressPublicKey('p256', targetPublicKey);
  } catch (cause) {
    throw new ApiError('ERR_INVALID_PUBLIC_KEY', 'targetPublicKey is not a P-256 public key', 'targetPublicKey', { cause });
  }
}

/** Signed bundle `{encappedPublic, ciphertext, organizationId}` of `plaintext` to `target` (uncompressed hex); zeroes `plaintext`. */
export async function exportBundle(signingPrivateKey: string, plaintext: Uint8Array, target: string, organizationId: string): Promise<string> {
  try {
    const { encappedPublic, ciphertext } = await hpkeSeal({ plaintext, receiverPublicKey: target });
    return JSON.stringify(signBundle({ encappedPublic, ciphertext, organizationId }, signingPrivateKey));
  } finally {
    plaintext.fill(0);
  }
}

/**
 * The import target key of (organization, user): derived from the at-rest key so that no
 * extra secret is stored and any instance can open what a client encrypted to it.
 */
function importTargetPrivateKey(atRestPrivateKey: string, organizationId: string, userId: string): string {
  for (let counter = 0; ; counter += 1) {
    const candidate = createHmac('sha256', Buffer.from(atRestPrivateKey, 'hex'))
      .update(`walletkit-import-target|${organizationId}|${userId}|${counter}`)
      .digest();
    const scalar = BigInt(`0x${candidate.toString('hex')}`);
    if (scalar > 0n && scalar < P256_ORDER) return candidate.toString('hex');
  }
}

/** Signed import bundle `{targetPublic, organizationId, userId}` (DESIGN section 2). */
export function importBundle(atRestPrivateKey: string, signingPrivateKey: string, organizationId: string, userId: string): string {
  const targetPublic = p256PublicKey(importTargetPrivateKey(atRestPrivateKey, organizationId, userId), false);
  return JSON.stringify(signBundle({ targetPublic, organizationId, userId }, signingPrivateKey));
}

/**
 * What a client encrypted to the import target of (organization, user), as `parse` reads it; the
 * decrypted bytes are zeroed after. @throws ApiError ERR_INVALID_ENCRYPTED_BUNDLE (or what `parse` throws)
 */
export async function openImportBundle<T>(
  atRestPrivateKey: string,
  encryptedBundle: string,
  organizationId: string,
  userId: string,
  parse: (bytes: Uint8Array) => T,
): Promise<T> {
  const bundle = parseEncryptedBundle(encryptedBundle, 'encryptedBundle');
  let bytes: Uint8Array;
  try {
    bytes = await hpkeOpen({ ...bundle, receiverPrivateKey: importTargetPrivateKey(atRestPrivateKey, organizationId, userId) });
  } catch (cause) {
    throw new ApiError('ERR_INVALID_ENCRYPTED_BUNDLE', 'the import bundle does not decrypt for this user', 'encryptedBundle', { cause });
  }
  try {
    return parse(bytes);
  } finally {
    bytes.fill(0);
  }
}

/**
 * Accept a secret a caller encrypted to the at-rest key: walletkit's HPKE bundle (JSON
 * {encappedPublic, ciphertext}), checked to decrypt and stored as sent, or Turnkey's
 * quorum-key envelope (hex, `@turnkey/crypto`'s encryptOauth2ClientSecret), opened and sealed
 * at rest with `seal`. Either way the plaintext never leaves this call.
 * @throws ApiError ERR_INVALID_ENCRYPTED_BUNDLE | ERR_INVALID_PARAMETER (empty secret)
 */
export async function acceptCallerSecret(
  encrypted: string,
  field: string,
  atRest: EnclaveKeyPair,
  atRestRecipient: AtRestKey,
  seal: (plaintext: Uint8Array) => Sealed | Promise<Sealed>,
): Promise<Sealed> {
  if (isQosEnvelopeHex(encrypted)) {
    const plaintext = openQosEnvelope(encrypted, atRest);
    if (!plaintext) throw new ApiError('ERR_INVALID_ENCRYPTED_BUNDLE', `${field} does not decrypt to the enclave encryption key`, field);
    try {
      if (plaintext.length === 0) throw new ApiError('ERR_INVALID_PARAMETER', `${field} decrypts to an empty secret`, field);
      return await seal(plaintext);
    } finally {
      plaintext.fill(0);
    }
  }
  const sealed = parseEncryptedBundle(encrypted, field);
  try {
    // Caller input, so a failure is a 400 (a stored value that does not open is a 500).
    const plaintext = await atRestRecipient.open(sealed);
    const empty = plaintext.length === 0;
    plaintext.fill(0);
    if (empty) throw new ApiError('ERR_INVALID_PARAMETER', `${field} decrypts to an empty secret`, field);
  } catch (cause) {
    if (cause instanceof ApiError) throw cause;
    throw new ApiError('ERR_INVALID_ENCRYPTED_BUNDLE', `${field} does not decrypt to the enclave encryption key`, field, { cause });
  }
  return sealed;
}
