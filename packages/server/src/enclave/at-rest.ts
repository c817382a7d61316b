/**
 * The at-rest key: what seals seeds, private keys, proxy API keys and one-time codes' target keys
 * for the database, and opens them again for one request (decision 0025). Two forms open:
 * - `{nonce, ciphertext}`: AES-256-GCM under a key derived (HKDF-SHA256) from the at-rest private
 *   key. Everything the enclave seals for itself now takes this form: opening it costs a few
 *   microseconds where an HPKE open costs a P-256 ECDH (about 90 µs here), once per signature.
 * - `{encappedPublic, ciphertext}`: HPKE to the at-rest public key, the form callers encrypt
 *   secrets to (OAuth client secrets are stored as sent) and the form of every value sealed before.
 * Both keys come from the same at-rest private key, loaded under the master key (keystore.ts):
 * whoever can open one form can open the other, so the second form adds no exposure.
 */
import { hkdfSync } from 'node:crypto';
import { hexToBytes, hpkeRecipient, type HpkeRecipient } from '@walletkit/crypto';
import { openAesGcm, sealAesGcm } from './aes-gcm.js';
import type { AeadSealed, HpkeSealed, Sealed } from './types.js';

/** HKDF's info for the AEAD key, and the AAD of every value sealed with it (versioned together). */
export const AT_REST_AEAD_INFO = 'walletkit/at-rest/aes-256-gcm/v1';
const AAD = Buffer.from(AT_REST_AEAD_INFO);

/** Whether a stored value is the AES-256-GCM form (else HPKE). */
export function isAeadSealed(sealed: Sealed): sealed is AeadSealed {
  return typeof (sealed as Partial<AeadSealed>).nonce === 'string';
}

export class AtRestKey {
  private constructor(
    private readonly hpke: HpkeRecipient,
    private readonly aeadKey: Buffer,
  ) {}

  /**
   * Prepare the at-rest private key (hex) for sealing and opening: the HPKE recipient and the
   * AES-256-GCM key derived from it.
   * @example const atRest = await AtRestKey.of(atRestPrivateKey);
   */
  static async of(privateKeyHex: string): Promise<AtRestKey> {
    const ikm = hexToBytes(privateKeyHex);
    try {
      const aeadKey = Buffer.from(hkdfSync('sha256', ikm, new Uint8Array(0), AT_REST_AEAD_INFO, 32));
      return new AtRestKey(await hpkeRecipient(privateKeyHex), aeadKey);
    } finally {
      ikm.fill(0);
    }
  }

  /** The uncompressed P-256 public key callers encrypt secrets to (HPKE). */
  get publicKey(): string {
    return this.hpke.publicKey;
  }

  /** Seal `plaintext` for the database (AES-256-GCM, a fresh random nonce). */
  seal(plaintext: Uint8Array): AeadSealed {
    return sealAesGcm(this.aeadKey, plaintext, AAD);
  }

  /**
   * Open a stored value of either form.
   * @throws Error when it does not open (corrupt storage, another at-rest key, a malformed value)
   */
  async open(sealed: Sealed): Promise<Uint8Array<ArrayBuffer>> {
    if (!isAeadSealed(sealed)) return this.hpke.open(sealed as HpkeSealed);
    const plaintext = openAesGcm(this.aeadKey, sealed.nonce, sealed.ciphertext, AAD);
    const out = new Uint8Array(plaintext.length);
    out.set(plaintext);
    plaintext.fill(0);
    return out;
  }
}
