import { p256 } from '@noble/curves/nist.js';
import { expand, extract } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex, bytesToUtf8, concatBytes, CryptoError, generateP256KeyPair, hexToBytes, hpkeOpen, hpkeSeal, utf8ToBytes } from '../src/index';

async function codeOfAsync(fn: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await fn();
  } catch (e) {
    return e instanceof CryptoError ? e.code : `not a CryptoError: ${String(e)}`;
  }
  return undefined;
}

// An independent RFC 9180 base-mode implementation (section 4.1 DHKEM, section 5.1 key
// schedule) for DHKEM(P-256, HKDF-SHA256) / HKDF-SHA256 / AES-256-GCM, written from the RFC
// with noble primitives and WebCrypto AES-GCM, to prove hpkeSeal/hpkeOpen follow the RFC and
// the wire's info and AAD rather than merely agreeing with themselves.
const te = (s: string) => new TextEncoder().encode(s);
const i2osp = (n: number, len: number) => Uint8Array.from({ length: len }, (_, i) => (n >> (8 * (len - 1 - i))) & 0xff);
const KEM_SUITE = concatBytes(te('KEM'), i2osp(0x0010, 2));
const HPKE_SUITE = concatBytes(te('HPKE'), i2osp(0x0010, 2), i2osp(0x0001, 2), i2osp(0x0002, 2));
const labeledExtract = (suite: Uint8Array, salt: Uint8Array, label: string, ikm: Uint8Array) =>
  extract(sha256, concatBytes(te('HPKE-v1'), suite, te(label), ikm), salt);
const labeledExpand = (suite: Uint8Array, prk: Uint8Array, label: string, info: Uint8Array, length: number) =>
  expand(sha256, prk, concatBytes(i2osp(length, 2), te('HPKE-v1'), suite, te(label), info), length);

async function referenceKeys(dh: Uint8Array, enc: Uint8Array, pkR: Uint8Array) {
  const empty = new Uint8Array();
  const eaePrk = labeledExtract(KEM_SUITE, empty, 'eae_prk', dh);
  const sharedSecret = labeledExpand(KEM_SUITE, eaePrk, 'shared_secret', concatBytes(enc, pkR), 32);
  const context = concatBytes(
    Uint8Array.of(0), // mode_base
    labeledExtract(HPKE_SUITE, empty, 'psk_id_hash', empty),
    labeledExtract(HPKE_SUITE, empty, 'info_hash', te('turnkey_hpke')),
  );
  const secret = labeledExtract(HPKE_SUITE, sharedSecret, 'secret', empty);
  const key = await crypto.subtle.importKey('raw', labeledExpand(HPKE_SUITE, secret, 'key', context, 32), 'AES-GCM', false, ['encrypt', 'decrypt']);
  return { key, nonce: labeledExpand(HPKE_SUITE, secret, 'base_nonce', context, 12), aad: concatBytes(enc, pkR) };
}

async function referenceOpen(encHex: string, ctHex: string, skRHex: string): Promise<Uint8Array> {
  const enc = hexToBytes(encHex);
  const pkR = p256.getPublicKey(hexToBytes(skRHex), false);
  const dh = p256.getSharedSecret(hexToBytes(skRHex), enc).subarray(1);
  const { key, nonce, aad } = await referenceKeys(dh, enc, pkR);
  return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: nonce, additionalData: aad }, key, hexToBytes(ctHex)));
}

async function referenceSeal(plaintext: Uint8Array<ArrayBuffer>, pkRHex: string) {
  const pkR = p256.Point.fromHex(pkRHex).toBytes(false);
  const skE = p256.utils.randomSecretKey();
  const enc = p256.getPublicKey(skE, false);
  const dh = p256.getSharedSecret(skE, pkR).subarray(1);
  const { key, nonce, aad } = await referenceKeys(dh, enc, pkR);
  const ct = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv: nonce, additionalData: aad }, key, plaintext));
  return { encappedPublic: bytesToHex(enc), ciphertext: bytesToHex(ct) };
}

const receiver = generateP256KeyPair();

describe('HPKE (RFC 9180 base mode, wire info and AAD)', () => {
  it('given an OTP payload sealed to a compressed key, when opened with the private key, then the plaintext comes back and enc is 65-byte uncompressed', async () => {
    const plaintext = utf8ToBytes(JSON.stringify({ otp_code: '123456', public_key: generateP256KeyPair().publicKey }));
    const sealed = await hpkeSeal({ plaintext, receiverPublicKey: receiver.publicKey });
    expect(sealed.encappedPublic).toMatch(/^04[0-9a-f]{128}$/);
    expect(hexToBytes(sealed.ciphertext)).toHaveLength(plaintext.length + 16);
    expect(bytesToUtf8(await hpkeOpen({ ...sealed, receiverPrivateKey: receiver.privateKey }))).toBe(bytesToUtf8(plaintext));
  });

  it('given hpkeSeal output, when decrypted by an independent RFC 9180 implementation, then it yields the plaintext', async () => {
    const plaintext = utf8ToBytes('export bundle: a BIP39 mnemonic');
    const sealed = await hpkeSeal({ plaintext, receiverPublicKey: receiver.publicKeyUncompressed });
    expect(await referenceOpen(sealed.encappedPublic, sealed.ciphertext, receiver.privateKey)).toEqual(plaintext);
  });

  it('given a ciphertext from the independent RFC 9180 implementation, when opened with hpkeOpen, then it yields the plaintext', async () => {
    const plaintext = utf8ToBytes('import bundle');
    const sealed = await referenceSeal(plaintext, receiver.publicKey);
    expect(await hpkeOpen({ ...sealed, receiverPrivateKey: receiver.privateKey })).toEqual(plaintext);
  });

  it('given random plaintexts, when sealed and opened, then they round-trip (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 512 }), async (plaintext) => {
        const sealed = await hpkeSeal({ plaintext, receiverPublicKey: receiver.publicKey });
        expect(await hpkeOpen({ ...sealed, receiverPrivateKey: receiver.privateKey })).toEqual(plaintext);
      }),
      { numRuns: 30 },
    );
  });

  it('given a sealed bundle, when any byte of the ciphertext or the encapsulated key is changed, then opening fails with ERR_INVALID_ENCRYPTED_BUNDLE (property)', async () => {
    const sealed = await hpkeSeal({ plaintext: utf8ToBytes('secret seed material'), receiverPublicKey: receiver.publicKey });
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.nat(), fc.integer({ min: 1, max: 255 }), async (inEnc, at, flip) => {
        const field = inEnc ? 'encappedPublic' : 'ciphertext';
        const bytes = hexToBytes(sealed[field]);
        bytes[at % bytes.length]! ^= flip;
        const tampered = { ...sealed, [field]: bytesToHex(bytes) };
        expect(await codeOfAsync(() => hpkeOpen({ ...tampered, receiverPrivateKey: receiver.privateKey }))).toBe('ERR_INVALID_ENCRYPTED_BUNDLE');
      }),
      { numRuns: 40 },
    );
  });

  it('given the wrong private key, truncated or non-hex data, then ERR_INVALID_ENCRYPTED_BUNDLE', async () => {
    const sealed = await hpkeSeal({ plaintext: utf8ToBytes('x'), receiverPublicKey: receiver.publicKey });
    const other = generateP256KeyPair();
    expect(await codeOfAsync(() => hpkeOpen({ ...sealed, receiverPrivateKey: other.privateKey }))).toBe('ERR_INVALID_ENCRYPTED_BUNDLE');
    expect(await codeOfAsync(() => hpkeOpen({ ...sealed, ciphertext: sealed.ciphertext.slice(0, 20), receiverPrivateKey: receiver.privateKey }))).toBe(
      'ERR_INVALID_ENCRYPTED_BUNDLE',
    );
    expect(await codeOfAsync(() => hpkeOpen({ ...sealed, ciphertext: 'zz', receiverPrivateKey: receiver.privateKey }))).toBe('ERR_INVALID_ENCRYPTED_BUNDLE');
    expect(await codeOfAsync(() => hpkeOpen({ ...sealed, encappedPublic: '04', receiverPrivateKey: receiver.privateKey }))).toBe(
      'ERR_INVALID_ENCRYPTED_BUNDLE',
    );
    expect(await codeOfAsync(() => hpkeOpen({ ...sealed, receiverPrivateKey: 'abc' }))).toBe('ERR_INVALID_PARAMETER');
  });

  it('given an invalid receiver key or plaintext, when sealing, then coded errors', async () => {
    expect(await codeOfAsync(() => hpkeSeal({ plaintext: utf8ToBytes('x'), receiverPublicKey: `02${'00'.repeat(31)}07` }))).toBe('ERR_INVALID_PUBLIC_KEY');
    expect(await codeOfAsync(() => hpkeSeal({ plaintext: 'x' as unknown as Uint8Array, receiverPublicKey: receiver.publicKey }))).toBe('ERR_INVALID_PARAMETER');
  });
});
