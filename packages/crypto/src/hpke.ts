// HPKE (RFC 9180) base mode as used on the wire (DESIGN section 2): DHKEM(P-256,
// HKDF-SHA256), HKDF-SHA256, AES-256-GCM, info "turnkey_hpke", and
// AAD = encapsulated key (65 B) || receiver public key (65 B), both uncompressed.
import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { p256 } from '@noble/curves/nist.js';
import { assertBytes, assertObject, assertString, toArrayBuffer } from './assert.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from './encoding.js';
import { CryptoError } from './errors.js';
import { decodePrivateKey, decodePublicKey, publicKeyOf } from './point.js';

/**
 * HPKE output as carried on the wire, lowercase hex.
 *
 * @example
 * ```ts
 * const sealed: HpkeCiphertext = await hpkeSeal({ plaintext, receiverPublicKey });
 * ```
 */
export interface HpkeCiphertext {
  /** The sender's ephemeral public key, 65-byte uncompressed P-256, hex. */
  encappedPublic: string;
  /** AES-256-GCM ciphertext with its 16-byte tag, hex. */
  ciphertext: string;
}

const INFO = utf8ToBytes('turnkey_hpke');
let suite: CipherSuite | undefined;

function cipherSuite(): CipherSuite {
  suite ??= new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });
  return suite;
}

/**
 * Encrypts `plaintext` to a P-256 public key (compressed or uncompressed hex) with HPKE base
 * mode and the wire's info and AAD. Throws `ERR_INVALID_PUBLIC_KEY` for a bad receiver key.
 *
 * @example
 * ```ts
 * const bundle = await hpkeSeal({
 *   plaintext: utf8ToBytes(JSON.stringify({ otp_code: '123456', public_key: clientKey })),
 *   receiverPublicKey: targetPublic,
 * });
 * // { encappedPublic: '04...', ciphertext: '...' }
 * ```
 */
export async function hpkeSeal(params: { plaintext: Uint8Array; receiverPublicKey: string }): Promise<HpkeCiphertext> {
  assertObject(params, 'params');
  assertBytes(params.plaintext, 'plaintext');
  assertString(params.receiverPublicKey, 'receiverPublicKey', 'ERR_INVALID_PUBLIC_KEY');
  const receiver = decodePublicKey(p256, params.receiverPublicKey).toBytes(false);
  const hpke = cipherSuite();
  const recipientPublicKey = await hpke.kem.deserializePublicKey(toArrayBuffer(receiver));
  const sender = await hpke.createSenderContext({ recipientPublicKey, info: toArrayBuffer(INFO) });
  const enc = new Uint8Array(sender.enc);
  const aad = concatBytes(enc, receiver);
  const ciphertext = new Uint8Array(await sender.seal(toArrayBuffer(params.plaintext), toArrayBuffer(aad)));
  return { encappedPublic: bytesToHex(enc), ciphertext: bytesToHex(ciphertext) };
}

/**
 * Decrypts an HPKE ciphertext with the receiver's P-256 private key (hex). Throws
 * `ERR_INVALID_ENCRYPTED_BUNDLE` on any failure: malformed hex, a bad encapsulated key,
 * a wrong key, or tampered ciphertext. A malformed private key is `ERR_INVALID_PARAMETER`.
 *
 * @example
 * ```ts
 * const plaintext = await hpkeOpen({ ...bundle, receiverPrivateKey: targetPrivateKey });
 * bytesToUtf8(plaintext);
 * ```
 */
export async function hpkeOpen(params: {
  encappedPublic: string;
  ciphertext: string;
  receiverPrivateKey: string;
}): Promise<Uint8Array<ArrayBuffer>> {
  assertObject(params, 'params');
  assertString(params.receiverPrivateKey, 'receiverPrivateKey');
  const privateKey = decodePrivateKey(params.receiverPrivateKey, p256);
  const receiver = publicKeyOf(p256, privateKey, false);
  try {
    assertString(params.encappedPublic, 'encappedPublic', 'ERR_INVALID_ENCRYPTED_BUNDLE');
    assertString(params.ciphertext, 'ciphertext', 'ERR_INVALID_ENCRYPTED_BUNDLE');
    const enc = decodePublicKey(p256, params.encappedPublic).toBytes(false);
    const ciphertext = hexToBytes(params.ciphertext);
    const hpke = cipherSuite();
    const recipientKey: CryptoKeyPair = {
      privateKey: await hpke.kem.importKey('raw', toArrayBuffer(privateKey), false),
      publicKey: await hpke.kem.deserializePublicKey(toArrayBuffer(receiver)),
    };
    const recipient = await hpke.createRecipientContext({ recipientKey, enc: toArrayBuffer(enc), info: toArrayBuffer(INFO) });
    const aad = concatBytes(enc, receiver);
    return new Uint8Array(await recipient.open(toArrayBuffer(ciphertext), toArrayBuffer(aad)));
  } catch (cause) {
    throw new CryptoError('ERR_INVALID_ENCRYPTED_BUNDLE', 'could not decrypt the encrypted bundle', { cause });
  }
}
