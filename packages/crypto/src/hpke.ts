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

/**
 * A native HPKE a server may install ({@link useNativeHpke}) in place of the `hpke` library over
 * WebCrypto (node:crypto is about 10x faster): the same suite, info and AAD, byte for byte. The
 * callers here check the argument types and the private key's scalar and map what it throws to
 * this package's error codes, so an implementation only has to throw on a bad key or bundle.
 */
export interface NativeHpke {
  /**
   * Seals `plaintext` to a P-256 public key (compressed or uncompressed hex, either case).
   * Throws when the key is not a point of P-256 (reported as `ERR_INVALID_PUBLIC_KEY`).
   */
  seal(plaintext: Uint8Array, receiverPublicKey: string): HpkeCiphertext;
  /**
   * Prepares a receiver's private key (32 bytes, a valid scalar, zeroed by the caller once this
   * returns) for many opens: `publicKey` is its uncompressed hex; `open` takes the bundle's hex
   * fields as given and throws on any failure (reported as `ERR_INVALID_ENCRYPTED_BUNDLE`).
   */
  recipient(privateKey: Uint8Array): { publicKey: string; open(encappedPublic: string, ciphertext: string): Uint8Array<ArrayBuffer> };
}

let native: NativeHpke | undefined;

/**
 * Installs (or, with undefined, removes) a native HPKE for {@link hpkeSeal}, {@link hpkeRecipient}
 * and {@link hpkeOpen}. For servers; browsers keep the `hpke` library. A recipient prepared
 * before the change keeps the implementation it was prepared with.
 * @example useNativeHpke(nodeHpke); // the server's node:crypto implementation
 */
export function useNativeHpke(impl: NativeHpke | undefined): void {
  native = impl;
}

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
  if (native) {
    try {
      return native.seal(params.plaintext, params.receiverPublicKey);
    } catch (cause) {
      throw new CryptoError('ERR_INVALID_PUBLIC_KEY', 'not a valid public key of the curve', { cause });
    }
  }
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
  if (native) {
    try {
      return nativeRecipient(native, privateKey);
    } finally {
      privateKey.fill(0);
    }
  }
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

function nativeRecipient(impl: NativeHpke, privateKey: Uint8Array): HpkeRecipient {
  const prepared = impl.recipient(privateKey);
  return {
    publicKey: prepared.publicKey,
    async open(bundle) {
      try {
        assertObject(bundle, 'bundle');
        assertString(bundle.encappedPublic, 'encappedPublic', 'ERR_INVALID_ENCRYPTED_BUNDLE');
        assertString(bundle.ciphertext, 'ciphertext', 'ERR_INVALID_ENCRYPTED_BUNDLE');
        return prepared.open(bundle.encappedPublic, bundle.ciphertext);
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
