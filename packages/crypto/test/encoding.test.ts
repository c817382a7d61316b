import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  base64urlDecode,
  base64urlEncode,
  bytesToHex,
  bytesToUtf8,
  concatBytes,
  CryptoError,
  equalBytes,
  hexToBytes,
  isCryptoError,
  keccak256,
  sha256,
  sha256Hex,
  utf8ToBytes,
} from '../src/index';
import { codeOf } from './support';

describe('hex', () => {
  it('given bytes, when encoded, then lowercase hex without prefix round-trips (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const hex = bytesToHex(bytes);
        expect(hex).toMatch(/^[0-9a-f]*$/);
        expect(hexToBytes(hex)).toEqual(bytes);
        expect(hexToBytes(`0x${hex.toUpperCase()}`)).toEqual(bytes);
      }),
    );
  });

  it.each(['0', 'abc', 'zz', '0x0g', ' 00', '00 ', '0x-1'])('given malformed hex %j, then ERR_INVALID_PARAMETER', (bad) => {
    expect(codeOf(() => hexToBytes(bad))).toBe('ERR_INVALID_PARAMETER');
  });

  it('given a non-string, then ERR_INVALID_PARAMETER', () => {
    expect(codeOf(() => hexToBytes(12 as unknown as string))).toBe('ERR_INVALID_PARAMETER');
  });
});

describe('base64url', () => {
  it('given RFC 4648 test strings, when encoded, then the unpadded base64url matches', () => {
    // RFC 4648 section 10, with padding stripped (base64url alphabet is identical for these).
    const cases: [string, string][] = [
      ['', ''],
      ['f', 'Zg'],
      ['fo', 'Zm8'],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg'],
      ['fooba', 'Zm9vYmE'],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [text, encoded] of cases) {
      expect(base64urlEncode(utf8ToBytes(text))).toBe(encoded);
      expect(bytesToUtf8(base64urlDecode(encoded))).toBe(text);
    }
    expect(base64urlEncode(new Uint8Array([0xfb, 0xff]))).toBe('-_8');
  });

  it('given random bytes, when encoded and decoded, then they round-trip, also with correct padding (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const text = base64urlEncode(bytes);
        expect(text).not.toMatch(/[=+/]/);
        expect(base64urlDecode(text)).toEqual(bytes);
        expect(base64urlDecode(text + '='.repeat((4 - (text.length % 4)) % 4))).toEqual(bytes);
      }),
    );
  });

  it.each(['a', 'ab+c', 'ab/c', 'Zg=', 'Z===', 'Zm 9v', '!!!!'])('given malformed base64url %j, then ERR_INVALID_PARAMETER', (bad) => {
    expect(codeOf(() => base64urlDecode(bad))).toBe('ERR_INVALID_PARAMETER');
  });
});

describe('the codecs on Node Buffer (servers) and without it (browsers)', () => {
  /** The outcome of a codec call: its value as hex/text, or the error code it throws (each module copy has its own CryptoError class). */
  function outcome(fn: () => Uint8Array | string): string {
    try {
      const value = fn();
      return typeof value === 'string' ? `text ${value}` : `bytes ${Array.from(value).join(',')}`;
    } catch (err) {
      return `error ${(err as { name?: string }).name} ${(err as { code?: string }).code}`;
    }
  }

  it('given any text over the base64url and base64 alphabets, padding and junk, and any bytes, when coded with and without Buffer, then both give the same bytes, text or refusal (property)', async () => {
    // The module read afresh without Buffer (a browser), then afresh with it (a server).
    const saved = globalThis.Buffer;
    let browser: typeof import('../src/encoding');
    try {
      (globalThis as { Buffer?: unknown }).Buffer = undefined;
      vi.resetModules();
      browser = await import('../src/encoding');
    } finally {
      globalThis.Buffer = saved;
    }
    vi.resetModules();
    const node = await import('../src/encoding');
    expect(node).not.toBe(browser);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/= .!\n'.split('');
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 40 }), (text) => {
        expect(
          outcome(() => node.base64urlDecode(text)),
          text,
        ).toBe(outcome(() => browser.base64urlDecode(text)));
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFxXg '.split('')), maxLength: 20 }), (text) => {
        expect(
          outcome(() => node.hexToBytes(text)),
          text,
        ).toBe(outcome(() => browser.hexToBytes(text)));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), fc.nat(8), (bytes, offset) => {
        // A view into a larger buffer, as a subarray is: only its own bytes are coded.
        const view = new Uint8Array(bytes.length + offset + 3).subarray(offset, offset + bytes.length);
        view.set(bytes);
        expect(node.bytesToHex(view)).toBe(browser.bytesToHex(view));
        expect(node.base64urlEncode(view)).toBe(browser.base64urlEncode(view));
      }),
    );
    // Canonical only: trailing bits that are not zero, or a length of 4k + 1, are refused on both.
    for (const bad of ['Zh', 'Zm9', 'Zm9vY', 'Zm8=x'])
      expect(
        outcome(() => node.base64urlDecode(bad)),
        bad,
      ).toBe('error CryptoError ERR_INVALID_PARAMETER');
    // Decoded bytes own their memory (Node pools small buffers).
    expect(node.hexToBytes('00ff').buffer.byteLength).toBe(2);
    expect(node.base64urlDecode('AP8').buffer.byteLength).toBe(2);
  });
});

describe('utf8, concat, equality', () => {
  it('given invalid UTF-8, when decoded, then ERR_INVALID_PARAMETER rather than replacement characters', () => {
    expect(codeOf(() => bytesToUtf8(new Uint8Array([0xc3, 0x28])))).toBe('ERR_INVALID_PARAMETER');
    expect(bytesToUtf8(utf8ToBytes('hé ✓'))).toBe('hé ✓');
  });

  it('given byte arrays, when concatenated and compared, then results are exact', () => {
    expect(concatBytes(new Uint8Array([1]), new Uint8Array([]), new Uint8Array([2, 3]))).toEqual(new Uint8Array([1, 2, 3]));
    expect(equalBytes(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(equalBytes(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(equalBytes(new Uint8Array([1, 2]), new Uint8Array([1, 2, 3]))).toBe(false);
    expect(codeOf(() => equalBytes('ab' as unknown as Uint8Array, new Uint8Array()))).toBe('ERR_INVALID_PARAMETER');
  });
});

describe('hashes', () => {
  it('given the FIPS 180 and Keccak reference inputs, when hashed, then the published digests come out', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(bytesToHex(sha256(new Uint8Array()))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(bytesToHex(keccak256(''))).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect(isCryptoError(new CryptoError('ERR_JWT_EXPIRED', 'x'), 'ERR_JWT_EXPIRED')).toBe(true);
  });
});
