/**
 * The wire's HPKE on node:crypto (installed into `@walletkit/crypto` with `useNativeHpke` by
 * native-crypto.ts): RFC 9180 base mode, DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM,
 * info "turnkey_hpke", AAD = enc || receiver public key (both 65-byte uncompressed), the 16-byte
 * tag after the ciphertext. Byte for byte what the `hpke` library path makes and opens, without its
 * WebCrypto jobs and noble point decoding: about 10x faster per seal and per open, which the server
 * pays on every signature (the sealed key), one-time code and proxy stamp.
 */
import { createCipheriv, createDecipheriv, createECDH, createHmac, ECDH } from 'node:crypto';
import type { HpkeCiphertext, NativeHpke } from '@walletkit/crypto';

const CURVE = 'prime256v1';
const EMPTY = Buffer.alloc(0);
const V1 = Buffer.from('HPKE-v1');
/** suite_id of the KEM (RFC 9180 section 4.1): "KEM" || I2OSP(kem_id 0x0010, 2). */
const KEM_SUITE = Buffer.from('KEM\x00\x10', 'latin1');
/** suite_id of the scheme (section 5.1): "HPKE" || kem_id 0x0010 || kdf_id 0x0001 || aead_id 0x0002. */
const HPKE_SUITE = Buffer.from('HPKE\x00\x10\x00\x01\x00\x02', 'latin1');
const INFO = Buffer.from('turnkey_hpke');
/** AES-256-GCM key, nonce and tag lengths (Nk, Nn, Nt). */
const NK = 32;
const NN = 12;
const NT = 16;
const HEX = /^[0-9a-fA-F]*$/;

/** LabeledExtract (section 4): HKDF-Extract with HMAC-SHA256; an empty salt is HMAC's zero key. */
function labeledExtract(suite: Buffer, salt: Buffer, label: string, ikm: Buffer): Buffer {
  return createHmac('sha256', salt).update(V1).update(suite).update(label).update(ikm).digest();
}

/** LabeledExpand (section 4): HKDF-Expand with HMAC-SHA256 over I2OSP(L, 2) || "HPKE-v1" || suite || label || info. */
function labeledExpand(suite: Buffer, prk: Buffer, label: string, info: Buffer, length: number): Buffer {
  const labeled = Buffer.concat([Buffer.from([length >> 8, length & 0xff]), V1, suite, Buffer.from(label), info]);
  const blocks: Buffer[] = [];
  let previous = EMPTY;
  for (let i = 1; blocks.length * 32 < length; i += 1) {
    previous = createHmac('sha256', prk)
      .update(previous)
      .update(labeled)
      .update(Buffer.from([i]))
      .digest();
    blocks.push(previous);
  }
  const okm = blocks.length === 1 ? blocks[0]! : Buffer.concat(blocks);
  return okm.subarray(0, length);
}

/**
 * @internal DHKEM's ExtractAndExpand (section 4.1): the shared secret of a Diffie-Hellman value
 * (the x coordinate) and kem_context = enc || pkRm.
 */
export function kemSharedSecret(dh: Buffer, kemContext: Buffer): Buffer {
  const eaePrk = labeledExtract(KEM_SUITE, EMPTY, 'eae_prk', dh);
  const sharedSecret = labeledExpand(KEM_SUITE, eaePrk, 'shared_secret', kemContext, 32);
  eaePrk.fill(0);
  return sharedSecret;
}

/** @internal key_schedule_context of base mode (section 5.1): mode || psk_id_hash || info_hash. */
export function keyScheduleContext(suite: Buffer, info: Buffer): Buffer {
  return Buffer.concat([Buffer.from([0]), labeledExtract(suite, EMPTY, 'psk_id_hash', EMPTY), labeledExtract(suite, EMPTY, 'info_hash', info)]);
}

/** The wire's context: one info, so computed once. */
const WIRE_CONTEXT = keyScheduleContext(HPKE_SUITE, INFO);

/**
 * @internal KeySchedule of base mode (section 5.1, empty psk): the AEAD key and base nonce. The
 * defaults are the wire's suite and info; the test checks RFC 9180's vectors through the others.
 */
export function keySchedule(sharedSecret: Buffer, context = WIRE_CONTEXT, suite = HPKE_SUITE, nk = NK): { key: Buffer; baseNonce: Buffer } {
  const secret = labeledExtract(suite, sharedSecret, 'secret', EMPTY);
  const key = labeledExpand(suite, secret, 'key', context, nk);
  const baseNonce = labeledExpand(suite, secret, 'base_nonce', context, NN);
  secret.fill(0);
  return { key, baseNonce };
}

/**
 * A SEC1 P-256 public key in hex (02/03 + 32 bytes or 04 + 64 bytes, either case) as its 65-byte
 * uncompressed form. Decompression rejects an x without a point; whether an uncompressed point is
 * on the curve is checked by `computeSecret`. Hybrid (06/07) and any other encoding throw.
 */
function uncompressedPoint(hex: string): Buffer {
  const compressed = hex.length === 66 && (hex.startsWith('02') || hex.startsWith('03'));
  if (!(compressed || (hex.length === 130 && hex.startsWith('04'))) || !HEX.test(hex)) {
    throw new Error('a P-256 public key is 33 bytes compressed or 65 bytes uncompressed, in hex');
  }
  const bytes = Buffer.from(hex, 'hex');
  return compressed ? (ECDH.convertKey(bytes, CURVE, undefined, undefined, 'uncompressed') as Buffer) : bytes;
}

/** The ciphertext's hex (optional 0x, as `hexToBytes` reads it): at least the tag. */
function ciphertextBytes(hex: string): Buffer {
  const body = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
  if (body.length % 2 !== 0 || !HEX.test(body)) throw new Error('the ciphertext is not hex');
  const bytes = Buffer.from(body, 'hex');
  if (bytes.length < NT) throw new Error('the ciphertext is shorter than its tag');
  return bytes;
}

/**
 * @internal SetupBaseS and one Seal with a given ephemeral key pair (`enc` is its uncompressed
 * public key): `nodeHpke.seal` with a fresh one; the test's known-answer seam with a fixed one.
 * @throws when the receiver key is not a point of P-256
 */
export function sealWith(ephemeral: ECDH, enc: Buffer, plaintext: Uint8Array, receiverPublicKey: string): HpkeCiphertext {
  const pkR = uncompressedPoint(receiverPublicKey);
  const dh = ephemeral.computeSecret(pkR);
  // kem_context and the wire's AAD are the same bytes: enc || pkRm.
  const aad = Buffer.concat([enc, pkR]);
  const sharedSecret = kemSharedSecret(dh, aad);
  dh.fill(0);
  const { key, baseNonce } = keySchedule(sharedSecret);
  sharedSecret.fill(0);
  const cipher = createCipheriv('aes-256-gcm', key, baseNonce);
  key.fill(0);
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { encappedPublic: enc.toString('hex'), ciphertext: ciphertext.toString('hex') };
}

/** SetupBaseR and one Open with a prepared receiver (its ECDH and uncompressed public key). */
function openWith(receiver: ECDH, pkR: Buffer, encappedPublic: string, ciphertextHex: string): Uint8Array<ArrayBuffer> {
  const enc = uncompressedPoint(encappedPublic);
  const ciphertext = ciphertextBytes(ciphertextHex);
  // Throws for a point that is not on the curve.
  const dh = receiver.computeSecret(enc);
  const aad = Buffer.concat([enc, pkR]);
  const sharedSecret = kemSharedSecret(dh, aad);
  dh.fill(0);
  const { key, baseNonce } = keySchedule(sharedSecret);
  sharedSecret.fill(0);
  const decipher = createDecipheriv('aes-256-gcm', key, baseNonce, { authTagLength: NT });
  key.fill(0);
  decipher.setAAD(aad);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - NT));
  const opened = decipher.update(ciphertext.subarray(0, ciphertext.length - NT));
  try {
    // Throws when the tag does not match: the unauthenticated bytes are zeroed below.
    decipher.final();
    // A fresh ArrayBuffer of its own (never a view into a shared pool), as the library path returns.
    const plaintext = new Uint8Array(opened.length);
    plaintext.set(opened);
    return plaintext;
  } finally {
    opened.fill(0);
  }
}

/**
 * The ephemeral key pair of every seal of this thread, replaced by `generateKeys()` at each one
 * (OpenSSL clears the previous private key): a fresh ECDH per seal costs another 10 us. It holds
 * the last seal's ephemeral key until the next seal, where fresh ones would each wait for the
 * garbage collector.
 */
const ephemeral = createECDH(CURVE);

/**
 * `@walletkit/crypto`'s HPKE on node:crypto (see the module comment). A seal costs two scalar
 * multiplications (the ephemeral key, fixed base, and the shared point); a prepared recipient keeps
 * its ECDH and public key, so an open costs one.
 */
export const nodeHpke: NativeHpke = {
  seal(plaintext, receiverPublicKey) {
    return sealWith(ephemeral, ephemeral.generateKeys(), plaintext, receiverPublicKey);
  },
  recipient(privateKey) {
    const receiver = createECDH(CURVE);
    receiver.setPrivateKey(privateKey);
    const pkR = receiver.getPublicKey();
    return {
      publicKey: pkR.toString('hex'),
      open: (encappedPublic, ciphertext) => openWith(receiver, pkR, encappedPublic, ciphertext),
    };
  },
};
