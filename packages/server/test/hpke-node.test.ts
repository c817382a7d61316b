/**
 * The server's node:crypto HPKE (src/enclave/hpke-node.ts `nodeHpke`), installed into
 * @walletkit/crypto by installNativeCrypto(): RFC 9180's own vector for its key schedule, the same
 * bytes as the `hpke` library for a fixed ephemeral key, interoperation both ways with the library
 * path (what browsers run), and the same error codes for every failure.
 */
import { createCipheriv, createECDH, ECDH, randomBytes } from 'node:crypto';
import { AEAD_AES_256_GCM, CipherSuite, KDF_HKDF_SHA256, KEM_DHKEM_P256_HKDF_SHA256, type KEMFactory } from 'hpke';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CryptoError, generateP256KeyPair, hpkeOpen, hpkeRecipient, hpkeSeal, type HpkeCiphertext, useNativeHpke, useNativeP256 } from '@walletkit/crypto';
import { kemSharedSecret, keySchedule, keyScheduleContext, nodeHpke, sealWith } from '../src/enclave/hpke-node';
import { installNativeCrypto } from '../src/native-crypto';

type Impl = 'library' | 'native';
const IMPLS: Impl[] = ['library', 'native'];

function use(impl: Impl): void {
  useNativeHpke(impl === 'native' ? nodeHpke : undefined);
}

/** 'ok' or the CryptoError code of `fn` under `impl`. */
async function outcome(impl: Impl, fn: () => Promise<unknown>): Promise<string> {
  use(impl);
  try {
    await fn();
    return 'ok';
  } catch (e) {
    return e instanceof CryptoError ? e.code : `not a CryptoError: ${String(e)}`;
  } finally {
    use('library');
  }
}

/** The outcome of `fn` under both implementations: they must agree. */
async function bothOutcomes(fn: () => Promise<unknown>): Promise<string> {
  const [library, native] = [await outcome('library', fn), await outcome('native', fn)];
  expect({ native }).toEqual({ native: library });
  return library;
}

async function sealAs(impl: Impl, plaintext: Uint8Array, receiverPublicKey: string): Promise<HpkeCiphertext> {
  use(impl);
  try {
    return await hpkeSeal({ plaintext, receiverPublicKey });
  } finally {
    use('library');
  }
}

async function openAs(impl: Impl, bundle: HpkeCiphertext, receiverPrivateKey: string): Promise<Uint8Array> {
  use(impl);
  try {
    return await hpkeOpen({ ...bundle, receiverPrivateKey });
  } finally {
    use('library');
  }
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const flip = (hexString: string, at: number) => {
  const bytes = Buffer.from(hexString, 'hex');
  bytes[at < 0 ? bytes.length + at : at]! ^= 0x01;
  return bytes.toString('hex');
};
const SIZES = [0, 1, 31, 32, 33, 100, 1024];
const INFO = Buffer.from('turnkey_hpke');

/**
 * The library path of packages/crypto/src/hpke.ts with its ephemeral key fixed: the `hpke`
 * library's DHKEM with GenerateKeyPair returning `skE`.
 */
async function librarySealWith(skE: Buffer, plaintext: Uint8Array, receiverUncompressed: Buffer): Promise<HpkeCiphertext> {
  const pkE = keyPairOf(hex(skE)).publicKeyUncompressed;
  const fixed: KEMFactory = () => {
    const kem = { ...KEM_DHKEM_P256_HKDF_SHA256() };
    kem.GenerateKeyPair = async () => ({
      privateKey: await kem.DeserializePrivateKey(skE, false),
      publicKey: await kem.DeserializePublicKey(Buffer.from(pkE, 'hex')),
    });
    return kem;
  };
  const suite = new CipherSuite(fixed, KDF_HKDF_SHA256, AEAD_AES_256_GCM);
  const { encapsulatedSecret: enc, ctx } = await suite.SetupSender(await suite.DeserializePublicKey(receiverUncompressed), { info: INFO });
  const ciphertext = await ctx.Seal(plaintext, Buffer.concat([enc, receiverUncompressed]));
  return { encappedPublic: hex(enc), ciphertext: hex(ciphertext) };
}

function nativeSealWith(skE: Buffer, plaintext: Uint8Array, receiverPublicKey: string): HpkeCiphertext {
  const ephemeral = createECDH('prime256v1');
  ephemeral.setPrivateKey(skE);
  return sealWith(ephemeral, ephemeral.getPublicKey(), plaintext, receiverPublicKey);
}

describe('nodeHpke', () => {
  afterEach(() => {
    useNativeHpke(undefined);
    useNativeP256(undefined);
  });

  it("given RFC 9180 A.3.1 (DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM), when its keys go through the KEM and key schedule, then enc, shared_secret, key, base_nonce and the first ciphertext are the RFC's", () => {
    // RFC 9180 appendix A.3.1: same KEM and KDF as the wire; only the AEAD (so suite_id and Nk) differs.
    const v = {
      info: '4f6465206f6e2061204772656369616e2055726e',
      skEm: '4995788ef4b9d6132b249ce59a77281493eb39af373d236a1fe415cb0c2d7beb',
      pkEm: '04a92719c6195d5085104f469a8b9814d5838ff72b60501e2c4466e5e67b325ac98536d7b61a1af4b78e5b7f951c0900be863c403ce65c9bfcb9382657222d18c4',
      skRm: 'f3ce7fdae57e1a310d87f1ebbde6f328be0a99cdbcadf4d6589cf29de4b8ffd2',
      pkRm: '04fe8c19ce0905191ebc298a9245792531f26f0cece2460639e8bc39cb7f706a826a779b4cf969b8a0e539c7f62fb3d30ad6aa8f80e30f1d128aafd68a2ce72ea0',
      sharedSecret: 'c0d26aeab536609a572b07695d933b589dcf363ff9d93c93adea537aeabb8cb8',
      key: '868c066ef58aae6dc589b6cfdd18f97e',
      baseNonce: '4e0bc5018beba4bf004cca59',
      pt: '4265617574792069732074727574682c20747275746820626561757479',
      aad0: '436f756e742d30',
      ct0: '5ad590bb8baa577f8619db35a36311226a896e7342a6d836d8b7bcd2f20b6c7f9076ac232e3ab2523f39513434',
    };
    const sender = createECDH('prime256v1');
    sender.setPrivateKey(Buffer.from(v.skEm, 'hex'));
    const enc = sender.getPublicKey();
    expect(hex(enc)).toBe(v.pkEm);
    const pkRm = Buffer.from(v.pkRm, 'hex');
    const dh = sender.computeSecret(pkRm);
    const receiver = createECDH('prime256v1');
    receiver.setPrivateKey(Buffer.from(v.skRm, 'hex'));
    expect(hex(receiver.getPublicKey())).toBe(v.pkRm);
    expect(hex(receiver.computeSecret(enc))).toBe(hex(dh));

    const sharedSecret = kemSharedSecret(dh, Buffer.concat([enc, pkRm]));
    expect(hex(sharedSecret)).toBe(v.sharedSecret);
    const suite = Buffer.from('HPKE\x00\x10\x00\x01\x00\x01', 'latin1'); // kem 0x0010, kdf 0x0001, aead 0x0001 (AES-128-GCM)
    const { key, baseNonce } = keySchedule(sharedSecret, keyScheduleContext(suite, Buffer.from(v.info, 'hex')), suite, 16);
    expect(hex(key)).toBe(v.key);
    expect(hex(baseNonce)).toBe(v.baseNonce);
    // Sequence 0 seals with the base nonce itself; the tag follows the ciphertext.
    const cipher = createCipheriv('aes-128-gcm', key, baseNonce);
    cipher.setAAD(Buffer.from(v.aad0, 'hex'));
    expect(hex(Buffer.concat([cipher.update(Buffer.from(v.pt, 'hex')), cipher.final(), cipher.getAuthTag()]))).toBe(v.ct0);
  });

  it('given a fixed ephemeral key, when the wire suite seals with node:crypto and with the hpke library, then the bytes are the same, and they are this frozen vector', async () => {
    const skE = Buffer.from('6f1ddbc8d3c5d84dfe5b0b05e2db7a2e8a4f2b2c4ce4f7ef9d13f3ab1ab6c011', 'hex');
    const skR = 'c31f8a2f6bd9d9a81a4b1e4ab2f0f46a6b7b34dc8e7cb2b0cf8f84e3c2a1d0e7';
    const receiver = keyPairOf(skR);
    for (const size of SIZES) {
      const plaintext = Uint8Array.from({ length: size }, (_, i) => (i * 7 + size) & 0xff);
      const native = nativeSealWith(skE, plaintext, receiver.publicKey);
      expect(nativeSealWith(skE, plaintext, receiver.publicKeyUncompressed)).toEqual(native);
      expect(await librarySealWith(skE, plaintext, Buffer.from(receiver.publicKeyUncompressed, 'hex'))).toEqual(native);
      for (const impl of IMPLS) expect(await openAs(impl, native, skR)).toEqual(plaintext);
    }
    // Frozen: the wire's bytes for this ephemeral key, receiver and plaintext, whichever implementation seals.
    const plaintext = Buffer.from('walletkit at-rest key');
    const frozen: HpkeCiphertext = {
      encappedPublic: '0421ee41d4ddd686a4c47899c577d8b6ba640a55f9efbf1ba836cc04f0579cc87eeeea8381d82a2c399e3f6d9ec97eaa4bd5a341f47edea4a03b3f4162877b71a1',
      ciphertext: '525e8800eb9539346ac74fbb66395b34b474af08a1c80f67364fec895db04b6fa7562263d6',
    };
    expect(receiver.publicKey).toBe('035d58746305c2c7e68533ddd82bab1148b445305735268ef8a9e801957b5e26bb');
    expect(nativeSealWith(skE, plaintext, receiver.publicKey)).toEqual(frozen);
    expect(await librarySealWith(skE, plaintext, Buffer.from(receiver.publicKeyUncompressed, 'hex'))).toEqual(frozen);
    for (const impl of IMPLS) expect(Buffer.from(await openAs(impl, frozen, skR))).toEqual(plaintext);
  });

  it('given plaintexts from 0 B to 1 KiB and compressed or uncompressed receiver keys, when either implementation seals, then both open it (both ways)', async () => {
    const receiver = generateP256KeyPair();
    for (const size of SIZES) {
      const plaintext = new Uint8Array(randomBytes(size));
      for (const receiverKey of [receiver.publicKey, receiver.publicKeyUncompressed, receiver.publicKey.toUpperCase()]) {
        for (const sealer of IMPLS) {
          const sealed = await sealAs(sealer, plaintext, receiverKey);
          expect(sealed.encappedPublic).toMatch(/^04[0-9a-f]{128}$/);
          expect(sealed.ciphertext).toMatch(/^[0-9a-f]*$/);
          expect(sealed.ciphertext).toHaveLength(2 * (size + 16));
          for (const opener of IMPLS)
            expect({ sealer, opener, size, opened: await openAs(opener, sealed, receiver.privateKey) }).toEqual({ sealer, opener, size, opened: plaintext });
        }
      }
    }
  });

  it('given a recipient prepared once, when it opens 200 bundles from both implementations, then each opens and its public key is the uncompressed one', async () => {
    const receiver = generateP256KeyPair();
    use('native');
    const recipient = await hpkeRecipient(receiver.privateKey);
    use('library');
    expect(recipient.publicKey).toBe(receiver.publicKeyUncompressed);
    expect((await hpkeRecipient(receiver.privateKey)).publicKey).toBe(recipient.publicKey);
    const plaintexts = Array.from({ length: 200 }, (_, i) => new Uint8Array(randomBytes(i % 64)));
    for (const [i, plaintext] of plaintexts.entries()) {
      const sealed = await sealAs(i % 4 === 0 ? 'library' : 'native', plaintext, i % 2 ? receiver.publicKey : recipient.publicKey);
      expect(await recipient.open(sealed)).toEqual(plaintext);
    }
  });

  it('given a sealed bundle, when it is tampered with, malformed or opened with the wrong key, then both implementations fail with ERR_INVALID_ENCRYPTED_BUNDLE', async () => {
    const receiver = generateP256KeyPair();
    const other = generateP256KeyPair();
    const sealed = await sealAs('library', new TextEncoder().encode('a sealed 32-byte private key....'), receiver.publicKey);
    const enc = sealed.encappedPublic;
    const ct = sealed.ciphertext;
    const x = enc.slice(2, 66);
    const y = BigInt(`0x${enc.slice(66)}`);
    const offCurve = `04${x}${((y + 1n) % 2n ** 256n).toString(16).padStart(64, '0')}`;
    expect(onCurve(offCurve)).toBe(false);
    expect(onCurve(enc)).toBe(true);
    const cases: Record<string, Partial<HpkeCiphertext> | { receiverPrivateKey: string } | Record<string, unknown>> = {
      'ciphertext byte flipped': { ciphertext: flip(ct, 0) },
      'tag byte flipped': { ciphertext: flip(ct, -1) },
      'encappedPublic byte flipped (another point or none)': { encappedPublic: flip(enc, 40) },
      'encappedPublic off the curve': { encappedPublic: offCurve },
      'encappedPublic hybrid (06/07) encoding of the right point': { encappedPublic: `0${(BigInt(`0x${enc.slice(-2)}`) & 1n) === 1n ? 7 : 6}${enc.slice(2)}` },
      'encappedPublic compressed x without a point': { encappedPublic: `02${'00'.repeat(31)}07` },
      'encappedPublic of 64 bytes': { encappedPublic: enc.slice(0, 128) },
      'encappedPublic of 66 bytes': { encappedPublic: `${enc}00` },
      'encappedPublic empty': { encappedPublic: '' },
      'encappedPublic with 0x': { encappedPublic: `0x${enc}` },
      'encappedPublic not hex': { encappedPublic: `04${'zz'.repeat(64)}` },
      'encappedPublic the identity (00)': { encappedPublic: '00' },
      'encappedPublic all zero': { encappedPublic: `04${'00'.repeat(64)}` },
      'ciphertext shorter than its tag': { ciphertext: ct.slice(0, 30) },
      'ciphertext of the tag only': { ciphertext: ct.slice(-32) },
      'ciphertext truncated by one byte': { ciphertext: ct.slice(0, -2) },
      'ciphertext with a byte appended': { ciphertext: `${ct}00` },
      'ciphertext of odd length': { ciphertext: ct.slice(0, -1) },
      'ciphertext not hex': { ciphertext: `${ct.slice(0, -2)}zz` },
      'ciphertext empty': { ciphertext: '' },
      'ciphertext not a string': { ciphertext: 42 },
      'encappedPublic missing': { encappedPublic: undefined },
      'wrong receiver key': { receiverPrivateKey: other.privateKey },
    };
    for (const [name, change] of Object.entries(cases)) {
      const input = { ...sealed, receiverPrivateKey: receiver.privateKey, ...change } as HpkeCiphertext & { receiverPrivateKey: string };
      expect({ name, outcome: await bothOutcomes(() => hpkeOpen(input)) }).toEqual({ name, outcome: 'ERR_INVALID_ENCRYPTED_BUNDLE' });
    }
    // The same through a prepared recipient, and a bundle that is not an object.
    for (const impl of IMPLS) {
      use(impl);
      const recipient = await hpkeRecipient(receiver.privateKey);
      use('library');
      for (const bad of [null, 'bundle', { ...sealed, ciphertext: flip(ct, 5) }] as unknown as HpkeCiphertext[]) {
        await expect(recipient.open(bad)).rejects.toMatchObject({ code: 'ERR_INVALID_ENCRYPTED_BUNDLE' });
      }
    }
  });

  it('given the spellings the library accepts (uppercase hex, 0x before the ciphertext, a compressed encappedPublic), when opened, then both implementations open them', async () => {
    const receiver = generateP256KeyPair();
    const plaintext = new TextEncoder().encode('spelled differently');
    const sealed = await sealAs('native', plaintext, receiver.publicKey);
    const spellings: HpkeCiphertext[] = [
      { encappedPublic: sealed.encappedPublic.toUpperCase(), ciphertext: sealed.ciphertext.toUpperCase() },
      { ...sealed, ciphertext: `0x${sealed.ciphertext}` },
      { ...sealed, ciphertext: `0X${sealed.ciphertext}` },
      { ...sealed, encappedPublic: ECDH.convertKey(sealed.encappedPublic, 'prime256v1', 'hex', 'hex', 'compressed') as string },
    ];
    for (const spelling of spellings) {
      expect(await bothOutcomes(() => hpkeOpen({ ...spelling, receiverPrivateKey: receiver.privateKey }))).toBe('ok');
      for (const impl of IMPLS) expect(await openAs(impl, spelling, receiver.privateKey)).toEqual(plaintext);
    }
  });

  it('given a malformed private key, when preparing or opening, then both implementations fail with ERR_INVALID_PARAMETER', async () => {
    const receiver = generateP256KeyPair();
    const sealed = await sealAs('native', new Uint8Array([1, 2, 3]), receiver.publicKey);
    const order = 'ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551';
    for (const key of ['abc', receiver.privateKey.slice(2), `${receiver.privateKey}00`, '00'.repeat(32), order, 'f'.repeat(64), 'zz'.repeat(32), 42]) {
      expect(await bothOutcomes(() => hpkeRecipient(key as string))).toBe('ERR_INVALID_PARAMETER');
      expect(await bothOutcomes(() => hpkeOpen({ ...sealed, receiverPrivateKey: key as string }))).toBe('ERR_INVALID_PARAMETER');
    }
    // The 0x prefix and uppercase hex are private keys to both.
    expect(await bothOutcomes(() => hpkeOpen({ ...sealed, receiverPrivateKey: `0x${receiver.privateKey.toUpperCase()}` }))).toBe('ok');
  });

  it('given a bad receiver key or plaintext, when sealing, then both implementations fail with the same code', async () => {
    const receiver = generateP256KeyPair();
    const y = BigInt(`0x${receiver.publicKeyUncompressed.slice(66)}`);
    const offCurve = `04${receiver.publicKeyUncompressed.slice(2, 66)}${((y + 1n) % 2n ** 256n).toString(16).padStart(64, '0')}`;
    const plaintext = new Uint8Array([1]);
    const badKeys: Record<string, unknown> = {
      'off the curve': offCurve,
      'compressed x without a point': `02${'00'.repeat(31)}07`,
      'hybrid (06/07) encoding': `06${receiver.publicKeyUncompressed.slice(2)}`,
      'wrong prefix': `05${receiver.publicKeyUncompressed.slice(2)}`,
      'all zero': `04${'00'.repeat(64)}`,
      '64 bytes': receiver.publicKeyUncompressed.slice(0, 128),
      'with 0x': `0x${receiver.publicKey}`,
      'not hex': `02${'zz'.repeat(32)}`,
      empty: '',
      'not a string': 7,
    };
    for (const [name, key] of Object.entries(badKeys)) {
      expect({ name, outcome: await bothOutcomes(() => hpkeSeal({ plaintext, receiverPublicKey: key as string })) }).toEqual({
        name,
        outcome: 'ERR_INVALID_PUBLIC_KEY',
      });
    }
    expect(await bothOutcomes(() => hpkeSeal({ plaintext: 'x' as unknown as Uint8Array, receiverPublicKey: receiver.publicKey }))).toBe(
      'ERR_INVALID_PARAMETER',
    );
    expect(await bothOutcomes(() => hpkeSeal(null as unknown as { plaintext: Uint8Array; receiverPublicKey: string }))).toBe('ERR_INVALID_PARAMETER');
  });

  it('given installNativeCrypto, when sealing, preparing and opening, then nodeHpke does each, and an opened plaintext owns its ArrayBuffer', async () => {
    const receiver = generateP256KeyPair();
    const seal = vi.spyOn(nodeHpke, 'seal');
    const prepare = vi.spyOn(nodeHpke, 'recipient');
    try {
      installNativeCrypto();
      const sealed = await hpkeSeal({ plaintext: new Uint8Array([9, 9]), receiverPublicKey: receiver.publicKey });
      const recipient = await hpkeRecipient(receiver.privateKey);
      const opened = await recipient.open(sealed);
      expect(opened).toEqual(new Uint8Array([9, 9]));
      expect(opened.buffer.byteLength).toBe(2);
      expect(await hpkeOpen({ ...sealed, receiverPrivateKey: receiver.privateKey })).toEqual(new Uint8Array([9, 9]));
      expect(seal).toHaveBeenCalledTimes(1);
      expect(prepare).toHaveBeenCalledTimes(2);
    } finally {
      seal.mockRestore();
      prepare.mockRestore();
    }
  });
});

/** A key pair from a fixed private key, in @walletkit/crypto's shape. */
function keyPairOf(privateKey: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKey, 'hex'));
  return {
    privateKey,
    publicKey: ecdh.getPublicKey('hex', 'compressed'),
    publicKeyUncompressed: ecdh.getPublicKey('hex', 'uncompressed'),
  };
}

/** Whether an uncompressed point (hex) satisfies y^2 = x^3 - 3x + b over P-256's field, by hand. */
function onCurve(uncompressed: string): boolean {
  const p = 2n ** 256n - 2n ** 224n + 2n ** 192n + 2n ** 96n - 1n;
  const b = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;
  const x = BigInt(`0x${uncompressed.slice(2, 66)}`);
  const y = BigInt(`0x${uncompressed.slice(66)}`);
  return x < p && y < p && (y * y - (x * x * x - 3n * x + b)) % p === 0n;
}
