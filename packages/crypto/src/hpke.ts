// HPKE (RFC 9180) base mode as used on the wire (DESIGN section 2): DHKEM(P-256,
// HKDF-SHA256), HKDF-SHA256, AES-256-GCM, info "turnkey_hpke", and
// AAD = encapsulated key (65 B) || receiver public key (65 B), both uncompressed.
import { AEAD_AES_256_GCM, CipherSuite, KDF_HKDF_SHA256, KEM_DHKEM_P256_HKDF_SHA256 } from 'hpke';
import { p256 } from '@noble/curves/nist.js';
import { assertBytes, assertObject, assertString } from './assert.js';
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
  suite ??= new CipherSuite(KEM_DHKEM_P256_HKDF_SHA256, KDF_HKDF_SHA256, AEAD_AES_256_GCM);
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
  const recipientPublicKey = await hpke.DeserializePublicKey(receiver);
  const { encapsulatedSecret: enc, ctx } = await hpke.SetupSender(recipientPublicKey, { info: INFO });
  const aad = concatBytes(enc, receiver);
  const ciphertext = await ctx.Seal(params.plaintext, aad);
  return { encappedPublic: bytesToHex(enc), ciphertext: bytesToHex(ciphertext) };
}

/** A receiver's key pair prepared once (imported, public half computed) to open many ciphertexts. */
export interface HpkeRecipient {
  /** The receiver's uncompressed public key (hex). */
  readonly publicKey: string;
  /**
   * Decrypts one ciphertext; `ERR_INVALID_ENCRYPTED_BUNDLE` on any failure.
   * @example const plaintext = await recipient.open(bundle);
   */
  open(bundle: { encappedPublic: string; ciphertext: string }): Promise<Uint8Array<ArrayBuffer>>;
}

/**
 * Prepares a receiver's P-256 private key (hex) for {@link HpkeRecipient.open}: the key import and
 * the public-key computation, which cost more than a decryption, happen once. For a key that opens
 * many ciphertexts (the server's at-rest key); a malformed key is `ERR_INVALID_PARAMETER`.
 *
 * @example
 * ```ts
 * const recipient = await hpkeRecipient(atRestPrivateKey);
 * const plaintext = await recipient.open(sealed);
 * ```
 */
export async function hpkeRecipient(receiverPrivateKey: string): Promise<HpkeRecipient> {
  assertString(receiverPrivateKey, 'receiverPrivateKey');
  const privateKey = decodePrivateKey(receiverPrivateKey, p256);
  const receiver = publicKeyOf(p256, privateKey, false);
  const hpke = cipherSuite();
  const recipientKey = {
    privateKey: await hpke.DeserializePrivateKey(privateKey, false),
    publicKey: await hpke.DeserializePublicKey(receiver),
  };
  return {
    publicKey: bytesToHex(receiver),
    async open(bundle) {
      try {
        assertObject(bundle, 'bundle');
        assertString(bundle.encappedPublic, 'encappedPublic', 'ERR_INVALID_ENCRYPTED_BUNDLE');
        assertString(bundle.ciphertext, 'ciphertext', 'ERR_INVALID_ENCRYPTED_BUNDLE');
        const enc = decodePublicKey(p256, bundle.encappedPublic).toBytes(false);
        const ciphertext = hexToBytes(bundle.ciphertext);
        const recipient = await hpke.SetupRecipient(recipientKey, enc, { info: INFO });
        return new Uint8Array(await recipient.Open(ciphertext, concatBytes(enc, receiver)));
      } catch (cause) {
        throw new CryptoError('ERR_INVALID_ENCRYPTED_BUNDLE', 'could not decrypt the encrypted bundle', { cause });
      }
    },
  };
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
export async function hpkeOpen(params: { encappedPublic: string; ciphertext: string; receiverPrivateKey: string }): Promise<Uint8Array<ArrayBuffer>> {
  assertObject(params, 'params');
  return (await hpkeRecipient(params.receiverPrivateKey)).open(params);
}
