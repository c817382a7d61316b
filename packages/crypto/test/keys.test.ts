import { p256 } from '@noble/curves/nist.js';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import {
  bytesToHex,
  compressPublicKey,
  generateEd25519KeyPair,
  generateP256KeyPair,
  generateSecp256k1KeyPair,
  hexToBytes,
  p256PublicKey,
  parseApiKeyStamp,
  stampApiKey,
  uncompressPublicKey,
  utf8ToBytes,
  verifyP256Der,
} from '../src/index';
import { codeOf } from './support';

// RFC 6979 appendix A.2.5: ECDSA, 256 bits (prime field), P-256.
const RFC6979 = {
  x: 'c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721',
  Ux: '60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6',
  Uy: '7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299',
  sha256: [
    {
      message: 'sample',
      r: 'efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716',
      s: 'f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8',
    },
    {
      message: 'test',
      r: 'f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367',
      s: '019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083',
    },
  ],
};
const P256_N = p256.Point.CURVE().n;

/** Minimal DER reader for the test: SEQUENCE { INTEGER r, INTEGER s }. */
function derToRS(derHex: string): { r: bigint; s: bigint } {
  const der = hexToBytes(derHex);
  expect(der[0]).toBe(0x30);
  const rLen = der[3]!;
  const r = BigInt(`0x${bytesToHex(der.subarray(4, 4 + rLen))}`);
  const sLen = der[5 + rLen]!;
  const s = BigInt(`0x${bytesToHex(der.subarray(6 + rLen, 6 + rLen + sLen))}`);
  return { r, s };
}

describe('RFC 6979 deterministic P-256 signatures', () => {
  it('given the RFC key, when its public key is derived, then it is the published U', () => {
    expect(p256PublicKey(RFC6979.x, false)).toBe(`04${RFC6979.Ux}${RFC6979.Uy}`);
  });

  it.each(RFC6979.sha256)('given message $message, when noble signs with SHA-256, then (r, s) is the published pair', ({ message, r, s }) => {
    const sig = p256.sign(utf8ToBytes(message), hexToBytes(RFC6979.x), { lowS: false });
    expect(bytesToHex(sig)).toBe(r + s);
  });

  it.each(RFC6979.sha256)(
    'given message $message as a body, when stamped, then the DER signature carries the RFC r and s (low-S normalized)',
    ({ message, r, s }) => {
      const stamp = parseApiKeyStamp(stampApiKey(message, { privateKey: RFC6979.x }));
      const sig = derToRS(stamp.signature);
      expect(sig.r).toBe(BigInt(`0x${r}`));
      const rfcS = BigInt(`0x${s}`);
      expect(sig.s === rfcS || sig.s === P256_N - rfcS).toBe(true);
      expect(sig.s <= P256_N / 2n).toBe(true);
      expect(verifyP256Der(stamp.publicKey, utf8ToBytes(message), stamp.signature)).toBe(true);
    },
  );
});

describe('key pairs and encodings', () => {
  it('given generated key pairs, then each has the documented shape and the encodings agree', () => {
    for (const pair of [generateP256KeyPair(), generateSecp256k1KeyPair()]) {
      expect(pair.privateKey).toMatch(/^[0-9a-f]{64}$/);
      expect(pair.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
      expect(pair.publicKeyUncompressed).toMatch(/^04[0-9a-f]{128}$/);
    }
    const p = generateP256KeyPair();
    expect(p256PublicKey(p.privateKey)).toBe(p.publicKey);
    expect(compressPublicKey('p256', p.publicKeyUncompressed)).toBe(p.publicKey);
    expect(uncompressPublicKey('p256', p.publicKey)).toBe(p.publicKeyUncompressed);
    const ed = generateEd25519KeyPair();
    expect(ed.privateKey).toMatch(/^[0-9a-f]{64}$/);
    expect(ed.publicKey).toMatch(/^[0-9a-f]{64}$/);
  });

  it('given a secp256k1 key, when uncompressed, then viem derives the same public key', () => {
    const k = generateSecp256k1KeyPair();
    expect(privateKeyToAccount(`0x${k.privateKey}`).publicKey).toBe(`0x${k.publicKeyUncompressed}`);
    expect(uncompressPublicKey('secp256k1', k.publicKey)).toBe(k.publicKeyUncompressed);
  });

  it.each([
    ['empty', ''],
    ['identity', '00'],
    ['x not on curve', `02${'00'.repeat(31)}07`],
    ['x >= p', `02${'ff'.repeat(32)}`],
    [
      'y tampered',
      (() => {
        const k = generateP256KeyPair().publicKeyUncompressed;
        return k.slice(0, -2) + (k.endsWith('00') ? '01' : '00');
      })(),
    ],
    ['hybrid prefix 06', `06${generateP256KeyPair().publicKeyUncompressed.slice(2)}`],
    ['bad length', `02${'11'.repeat(31)}`],
    ['not hex', `02${'zz'.repeat(32)}`],
  ])('given an invalid P-256 public key (%s), then ERR_INVALID_PUBLIC_KEY', (_name, hex) => {
    expect(codeOf(() => compressPublicKey('p256', hex))).toBe('ERR_INVALID_PUBLIC_KEY');
    expect(codeOf(() => uncompressPublicKey('p256', hex))).toBe('ERR_INVALID_PUBLIC_KEY');
  });

  it('given invalid private keys or curves, then coded errors', () => {
    expect(codeOf(() => p256PublicKey('00'.repeat(32)))).toBe('ERR_INVALID_PARAMETER');
    expect(codeOf(() => p256PublicKey(P256_N.toString(16)))).toBe('ERR_INVALID_PARAMETER');
    expect(codeOf(() => p256PublicKey('11'.repeat(31)))).toBe('ERR_INVALID_PARAMETER');
    expect(codeOf(() => compressPublicKey('ed25519' as 'p256', '00'))).toBe('ERR_UNSUPPORTED_CURVE_FORMAT');
  });
});
