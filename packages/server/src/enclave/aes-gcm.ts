/**
 * AES-256-GCM as the enclave stores it: a random 12-byte nonce, and the ciphertext followed by its
 * 16-byte tag, both hex. Used for the enclave's own keys under the master key (keystore.ts) and for
 * values sealed at rest under the at-rest key (at-rest.ts).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const CIPHER = 'aes-256-gcm';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** Encrypt `plaintext` under `key` (32 bytes) with `aad` bound. */
export function sealAesGcm(key: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): { nonce: string; ciphertext: string } {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv(CIPHER, key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { nonce: nonce.toString('hex'), ciphertext: ciphertext.toString('hex') };
}

/**
 * Decrypt what `sealAesGcm` made.
 * @throws Error when it does not open (altered, another key or AAD, malformed)
 */
export function openAesGcm(key: Uint8Array, nonceHex: string, ciphertextHex: string, aad: Uint8Array): Buffer {
  const nonce = Buffer.from(nonceHex, 'hex');
  const data = Buffer.from(typeof ciphertextHex === 'string' ? ciphertextHex : '', 'hex');
  if (nonce.length !== NONCE_BYTES || data.length < TAG_BYTES) throw new Error('a sealed value is malformed');
  const decipher = createDecipheriv(CIPHER, key, nonce, { authTagLength: TAG_BYTES });
  decipher.setAAD(aad);
  decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - TAG_BYTES)), decipher.final()]);
}
