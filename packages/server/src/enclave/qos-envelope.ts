/**
 * Turnkey's quorum-key envelope (QOS P-256 encryption, `qos_p256::encrypt`), the format of
 * `@turnkey/crypto`'s `encryptToEnclave` / `encryptOauth2ClientSecret`: the secret a caller sends
 * to create_oauth2_credential, encrypted to the enclave's encryption key. Opened here, inside the
 * enclave module only.
 *
 * Layout (borsh): nonce (12 bytes) || ephemeral sender public key (65 bytes, uncompressed) ||
 * u32 little-endian length || AES-256-GCM ciphertext with its 16-byte tag. Key: the first 32 bytes
 * of HMAC-SHA512 keyed by (sender public || receiver public || ECDH x-coordinate) over
 * "qos_encryption_hmac_message". Additional data: sender public || its length (1 byte) ||
 * receiver public || its length (1 byte).
 */
import { createDecipheriv, createECDH, createHmac } from 'node:crypto';

const NONCE_BYTES = 12;
const PUBLIC_BYTES = 65;
const TAG_BYTES = 16;
const HMAC_MESSAGE = Buffer.from('qos_encryption_hmac_message');

/**
 * Whether `value` looks like a hex quorum-key envelope (rather than walletkit's JSON HPKE bundle).
 * @example isQosEnvelopeHex(await encryptOauth2ClientSecret(secret, enclaveEncryptionPublicKey)) // true
 */
export function isQosEnvelopeHex(value: string): boolean {
  return /^[0-9a-fA-F]+$/.test(value) && value.length % 2 === 0 && value.length >= 2 * (NONCE_BYTES + PUBLIC_BYTES + 4 + TAG_BYTES);
}

/**
 * Decrypt a quorum-key envelope addressed to the receiver key pair; undefined for anything that
 * is not one, not addressed to this key, or tampered with (one answer for every failure).
 */
export function openQosEnvelope(envelopeHex: string, receiver: { privateKey: string; publicKeyUncompressed: string }): Uint8Array | undefined {
  if (!isQosEnvelopeHex(envelopeHex)) return undefined;
  const bytes = Buffer.from(envelopeHex, 'hex');
  const nonce = bytes.subarray(0, NONCE_BYTES);
  const senderPublic = bytes.subarray(NONCE_BYTES, NONCE_BYTES + PUBLIC_BYTES);
  const length = bytes.readUInt32LE(NONCE_BYTES + PUBLIC_BYTES);
  const sealed = bytes.subarray(NONCE_BYTES + PUBLIC_BYTES + 4);
  if (sealed.length !== length || length < TAG_BYTES || senderPublic[0] !== 0x04) return undefined;
  const receiverPublic = Buffer.from(receiver.publicKeyUncompressed, 'hex');
  let sharedX: Buffer;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(receiver.privateKey, 'hex'));
    sharedX = ecdh.computeSecret(senderPublic);
  } catch {
    return undefined;
  }
  const key = createHmac('sha512', Buffer.concat([senderPublic, receiverPublic, sharedX]))
    .update(HMAC_MESSAGE)
    .digest()
    .subarray(0, 32);
  sharedX.fill(0);
  const aad = Buffer.concat([senderPublic, Buffer.from([senderPublic.length]), receiverPublic, Buffer.from([receiverPublic.length])]);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, nonce);
    decipher.setAAD(aad);
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    return new Uint8Array(Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]));
  } catch {
    return undefined;
  } finally {
    key.fill(0);
  }
}
