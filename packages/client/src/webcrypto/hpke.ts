// HPKE (RFC 9180) base mode as on the wire (DESIGN section 2): DHKEM(P-256, HKDF-SHA256),
// HKDF-SHA256, AES-256-GCM, info "turnkey_hpke", AAD = enc (65 B) || receiver public (65 B).
// `hpke` (panva) runs on WebCrypto, loaded the first time something is sealed or opened
// (on-demand.ts); the receiver of exports is a WebCrypto ECDH key pair.
import type { CipherSuite } from 'hpke';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@walletkit/crypto';
import { WalletKitError } from '../errors.js';
import { loadHpke } from '../on-demand.js';
import { subtle, uncompressedP256 } from './p256.js';

const INFO = utf8ToBytes('turnkey_hpke');
let suite: CipherSuite | undefined;

async function cipherSuite(): Promise<CipherSuite> {
  const { AEAD_AES_256_GCM, CipherSuite, KDF_HKDF_SHA256, KEM_DHKEM_P256_HKDF_SHA256 } = await loadHpke();
  suite ??= new CipherSuite(KEM_DHKEM_P256_HKDF_SHA256, KDF_HKDF_SHA256, AEAD_AES_256_GCM);
  return suite;
}

/**
 * Encrypts `plaintext` to a P-256 public key (hex, compressed or not). Returns the wire's
 * `{encappedPublic, ciphertext}` (hex). `ERR_INVALID_PUBLIC_KEY` for a bad receiver key.
 *
 * @example
 * ```ts
 * const sealed = await hpkeSealTo(utf8ToBytes(mnemonic), targetPublic);
 * JSON.stringify(sealed); // the encryptedBundle of import_wallet
 * ```
 */
export async function hpkeSealTo(plaintext: Uint8Array, receiverPublicKey: string): Promise<{ encappedPublic: string; ciphertext: string }> {
  const receiver = uncompressedP256(receiverPublicKey);
  const hpke = await cipherSuite();
  let recipientPublicKey: Awaited<ReturnType<CipherSuite['DeserializePublicKey']>>;
  try {
    recipientPublicKey = await hpke.DeserializePublicKey(receiver);
  } catch (cause) {
    throw new WalletKitError('ERR_INVALID_PUBLIC_KEY', 'receiver key is not on P-256', { cause });
  }
  const { encapsulatedSecret: enc, ctx } = await hpke.SetupSender(recipientPublicKey, { info: INFO });
  const ciphertext = await ctx.Seal(plaintext, concatBytes(enc, receiver));
  return { encappedPublic: bytesToHex(enc), ciphertext: bytesToHex(ciphertext) };
}

/**
 * A one-time HPKE receiver: a non-extractable WebCrypto ECDH P-256 key pair and its
 * uncompressed public key (hex), the `targetPublicKey` of an export.
 *
 * @example
 * ```ts
 * const target = await createHpkeTarget();
 * await activity.submit('export_wallet', { walletId, targetPublicKey: target.publicKey });
 * ```
 */
export interface HpkeTarget {
  keyPair: CryptoKeyPair;
  publicKey: string;
}

/** Generates an {@link HpkeTarget}. @example const target = await createHpkeTarget(); */
export async function createHpkeTarget(): Promise<HpkeTarget> {
  const keyPair = (await subtle().generateKey({ name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits'])) as CryptoKeyPair;
  return { keyPair, publicKey: bytesToHex(new Uint8Array(await subtle().exportKey('raw', keyPair.publicKey))) };
}

/**
 * Decrypts `{encappedPublic, ciphertext}` (hex) with an {@link HpkeTarget}.
 * `ERR_INVALID_ENCRYPTED_BUNDLE` on any failure.
 *
 * @example
 * ```ts
 * const mnemonic = bytesToUtf8(await hpkeOpenWith(target, data));
 * ```
 */
export async function hpkeOpenWith(target: HpkeTarget, sealed: { encappedPublic: string; ciphertext: string }): Promise<Uint8Array> {
  const hpke = await cipherSuite();
  try {
    const enc = uncompressedP256(sealed.encappedPublic);
    const recipient = await hpke.SetupRecipient(target.keyPair, enc, { info: INFO });
    const aad = concatBytes(enc, hexToBytes(target.publicKey));
    return await recipient.Open(hexToBytes(sealed.ciphertext), aad);
  } catch (cause) {
    throw new WalletKitError('ERR_INVALID_ENCRYPTED_BUNDLE', 'could not decrypt the encrypted bundle', { cause });
  }
}
