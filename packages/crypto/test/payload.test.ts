import fc from 'fast-check';
import { hashAuthorization, hashMessage, hashTypedData as viemHashTypedData, keccak256 as viemKeccak } from 'viem/utils';
import { describe, expect, it } from 'vitest';
import {
  bytesToHex,
  hashEip7702Authorization,
  hashPersonalMessage,
  keccak256,
  payloadDigest,
  payloadToSign,
  sha256,
  utf8ToBytes,
  type HashFunction,
  type PayloadEncoding,
} from '../src/index';
import { codeOf } from './support';

const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${bytesToHex(b)}`);

describe('EIP-191 personal messages', () => {
  it('given the text "hello world", then the well-known digest comes out', () => {
    expect(bytesToHex(hashPersonalMessage('hello world'))).toBe('d9eba16ed0ecae432b71fe008c98cc872bb4cc214d3220a36f365326cf807d68');
  });

  it('given random text and bytes, then the digest equals viem hashMessage (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.uint8Array({ maxLength: 200 }), (text, raw) => {
        expect(`0x${bytesToHex(hashPersonalMessage(text))}`).toBe(hashMessage(text));
        expect(`0x${bytesToHex(hashPersonalMessage(raw))}`).toBe(hashMessage({ raw }));
      }),
      { numRuns: 100 },
    );
  });
});

describe('EIP-7702 authorizations', () => {
  it('given random (chainId, address, nonce) incl. zeros and the 2^64-1 nonce edge, then the digest equals viem hashAuthorization (property)', () => {
    const small = fc.oneof(fc.constant(0n), fc.constant(1n), fc.constant(127n), fc.constant(128n), fc.constant(2n ** 64n - 1n), fc.bigInt(0n, 2n ** 64n - 1n));
    fc.assert(
      fc.property(small, address, small, (chainId, addr, nonce) => {
        // viem's parameter types say number, but numberToHex takes bigints too.
        const expected = hashAuthorization({ chainId: chainId as unknown as number, address: addr as `0x${string}`, nonce: nonce as unknown as number });
        expect(`0x${bytesToHex(hashEip7702Authorization({ chainId, address: addr, nonce }))}`).toBe(expected);
        const wire = { chainId: chainId.toString(), address: addr, nonce: `0x${nonce.toString(16)}` };
        expect(`0x${bytesToHex(hashEip7702Authorization(wire))}`).toBe(expected);
      }),
      { numRuns: 100 },
    );
  });

  it('given out-of-range or malformed fields, then ERR_INVALID_PAYLOAD', () => {
    const addr = `0x${'11'.repeat(20)}`;
    for (const bad of [
      { chainId: -1, address: addr, nonce: 0 },
      { chainId: 1, address: addr, nonce: 2n ** 64n },
      { chainId: 2n ** 256n, address: addr, nonce: 0 },
      { chainId: 1, address: '0x1234', nonce: 0 },
      { chainId: 1.5, address: addr, nonce: 0 },
      { chainId: '1e3', address: addr, nonce: 0 },
    ]) {
      expect(codeOf(() => hashEip7702Authorization(bad))).toBe('ERR_INVALID_PAYLOAD');
    }
  });
});

describe('payloadDigest', () => {
  const k1 = (payload: string, encoding: PayloadEncoding, hashFunction: HashFunction) =>
    payloadDigest({ payload, encoding, hashFunction, curve: 'CURVE_SECP256K1' });
  const ed = (payload: string, encoding: PayloadEncoding, hashFunction: HashFunction) =>
    payloadDigest({ payload, encoding, hashFunction, curve: 'CURVE_ED25519' });
  const digest32 = 'ab'.repeat(32);

  it('given secp256k1 payloads, then NO_OP passes 32 bytes through and SHA256/KECCAK256 hash the decoded bytes', () => {
    expect(bytesToHex(k1(digest32, 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NO_OP'))).toBe(digest32);
    expect(bytesToHex(k1(`0x${digest32}`, 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NO_OP'))).toBe(digest32);
    expect(k1('0xdeadbeef', 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_KECCAK256')).toEqual(keccak256(new Uint8Array([0xde, 0xad, 0xbe, 0xef])));
    expect(`0x${bytesToHex(k1('hello', 'PAYLOAD_ENCODING_TEXT_UTF8', 'HASH_FUNCTION_KECCAK256'))}`).toBe(viemKeccak(utf8ToBytes('hello')));
    expect(k1('hello', 'PAYLOAD_ENCODING_TEXT_UTF8', 'HASH_FUNCTION_SHA256')).toEqual(sha256('hello'));
  });

  it('given EIP712 / EIP7702 JSON payloads, then KECCAK256 and NOT_APPLICABLE both yield the structured digest', () => {
    const td = JSON.stringify({
      domain: { chainId: 1 },
      types: { T: [{ name: 'a', type: 'uint256' }] },
      primaryType: 'T',
      message: { a: '1' },
    });
    const a = k1(td, 'PAYLOAD_ENCODING_EIP712', 'HASH_FUNCTION_KECCAK256');
    expect(k1(td, 'PAYLOAD_ENCODING_EIP712', 'HASH_FUNCTION_NOT_APPLICABLE')).toEqual(a);
    const auth = { chainId: '1', address: `0x${'22'.repeat(20)}`, nonce: '7' };
    const expected = hashAuthorization({ chainId: 1, address: auth.address as `0x${string}`, nonce: 7 });
    expect(`0x${bytesToHex(k1(JSON.stringify(auth), 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION', 'HASH_FUNCTION_NOT_APPLICABLE'))}`).toBe(expected);
    const viemShaped = { chainId: 1, contractAddress: auth.address, nonce: 7 };
    expect(`0x${bytesToHex(k1(JSON.stringify(viemShaped), 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION', 'HASH_FUNCTION_KECCAK256'))}`).toBe(expected);
  });

  it('given EIP712 / EIP7702 JSON payloads with NO_OP (what @turnkey/viem sends), then the same structured digest as KECCAK256', () => {
    const typed = {
      domain: { name: 'Mail', chainId: 1, verifyingContract: `0x${'33'.repeat(20)}` },
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        Note: [{ name: 'body', type: 'string' }],
      },
      primaryType: 'Note',
      message: { body: 'hi' },
    } as const;
    const td = JSON.stringify(typed);
    expect(`0x${bytesToHex(k1(td, 'PAYLOAD_ENCODING_EIP712', 'HASH_FUNCTION_NO_OP'))}`).toBe(
      viemHashTypedData(typed as unknown as Parameters<typeof viemHashTypedData>[0]),
    );
    // @turnkey/viem's signAuthorization: JSON.stringify({ address, chainId, nonce }) with numbers.
    const auth = { address: `0x${'44'.repeat(20)}`, chainId: 31337, nonce: 3 };
    const expected = hashAuthorization({ chainId: 31337, address: auth.address as `0x${string}`, nonce: 3 });
    expect(`0x${bytesToHex(k1(JSON.stringify(auth), 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION', 'HASH_FUNCTION_NO_OP'))}`).toBe(expected);
  });

  it('given a precomputed digest as an EIP712 payload with NO_OP, then ERR_INVALID_PAYLOAD (NO_OP never means "already hashed" there)', () => {
    expect(codeOf(() => k1(`0x${digest32}`, 'PAYLOAD_ENCODING_EIP712', 'HASH_FUNCTION_NO_OP'))).toBe('ERR_INVALID_PAYLOAD');
    expect(codeOf(() => k1(`0x${digest32}`, 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION', 'HASH_FUNCTION_NO_OP'))).toBe('ERR_INVALID_PAYLOAD');
  });

  it('given ed25519 payloads, then the decoded message is returned as-is with NOT_APPLICABLE or NO_OP', () => {
    expect(bytesToHex(ed('0x0102', 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NOT_APPLICABLE'))).toBe('0102');
    expect(ed('a Solana message', 'PAYLOAD_ENCODING_TEXT_UTF8', 'HASH_FUNCTION_NO_OP')).toEqual(utf8ToBytes('a Solana message'));
  });

  it.each([
    ['secp256k1 NO_OP with 31 bytes', () => k1('ab'.repeat(31), 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NO_OP')],
    ['secp256k1 NO_OP with text', () => k1('hello', 'PAYLOAD_ENCODING_TEXT_UTF8', 'HASH_FUNCTION_NO_OP')],
    ['secp256k1 NOT_APPLICABLE with hex', () => k1(digest32, 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NOT_APPLICABLE')],
    ['EIP712 with SHA256', () => k1('{}', 'PAYLOAD_ENCODING_EIP712', 'HASH_FUNCTION_SHA256')],
    [
      'EIP7702 with SHA256',
      () => k1(JSON.stringify({ chainId: 1, address: `0x${'22'.repeat(20)}`, nonce: 0 }), 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION', 'HASH_FUNCTION_SHA256'),
    ],
    ['EIP7702 with NO_OP and an empty tuple', () => k1('{}', 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION', 'HASH_FUNCTION_NO_OP')],
    ['EIP712 that is not JSON', () => k1('{', 'PAYLOAD_ENCODING_EIP712', 'HASH_FUNCTION_KECCAK256')],
    ['EIP7702 that is a JSON array', () => k1('[]', 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION', 'HASH_FUNCTION_KECCAK256')],
    ['undecodable hex', () => k1('0xzz', 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_KECCAK256')],
    ['odd-length hex', () => k1('abc', 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_KECCAK256')],
    ['unknown encoding', () => k1('00', 'PAYLOAD_ENCODING_BASE64' as PayloadEncoding, 'HASH_FUNCTION_KECCAK256')],
    ['unknown hash function', () => k1('00', 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_MD5' as HashFunction)],
    ['ed25519 with SHA256', () => ed('00', 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_SHA256')],
    ['ed25519 with KECCAK256', () => ed('00', 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_KECCAK256')],
    ['ed25519 with EIP712', () => ed('{}', 'PAYLOAD_ENCODING_EIP712', 'HASH_FUNCTION_NOT_APPLICABLE')],
    [
      'non-string payload',
      () =>
        payloadDigest({
          payload: 5 as unknown as string,
          encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
          hashFunction: 'HASH_FUNCTION_SHA256',
          curve: 'CURVE_SECP256K1',
        }),
    ],
  ])('given %s, then ERR_INVALID_PAYLOAD', (_name, fn) => {
    expect(codeOf(fn)).toBe('ERR_INVALID_PAYLOAD');
  });
});

describe('payloadToSign: payloadDigest with its keccak left to the signer', () => {
  const encodings: PayloadEncoding[] = [
    'PAYLOAD_ENCODING_HEXADECIMAL',
    'PAYLOAD_ENCODING_TEXT_UTF8',
    'PAYLOAD_ENCODING_EIP712',
    'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION',
  ];
  const hashes: HashFunction[] = ['HASH_FUNCTION_NO_OP', 'HASH_FUNCTION_SHA256', 'HASH_FUNCTION_KECCAK256', 'HASH_FUNCTION_NOT_APPLICABLE'];
  const outcome = (f: () => Uint8Array): string => {
    try {
      return bytesToHex(f());
    } catch (err) {
      return `refused ${(err as { code?: string }).code} ${(err as Error).message}`;
    }
  };

  it('given every curve, encoding and hash function over random payloads, then its bytes (hashed with keccak-256 when it says so) or its refusal are those of payloadDigest, and only a hex or UTF-8 secp256k1 KECCAK256 payload waits for keccak (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('CURVE_SECP256K1' as const, 'CURVE_ED25519' as const),
        fc.constantFrom(...encodings),
        fc.constantFrom(...hashes),
        fc.oneof(
          fc.uint8Array({ maxLength: 64 }).map((b) => `0x${bytesToHex(b)}`),
          fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => bytesToHex(b)),
          fc.string({ maxLength: 40 }),
        ),
        (curve, encoding, hashFunction, payload) => {
          const params = { curve, encoding, hashFunction, payload };
          let waits = false;
          const viaToSign = outcome(() => {
            const { bytes, keccak } = payloadToSign(params);
            waits = keccak;
            return keccak ? keccak256(bytes) : bytes;
          });
          expect(viaToSign).toBe(outcome(() => payloadDigest(params)));
          const canWait =
            curve === 'CURVE_SECP256K1' &&
            hashFunction === 'HASH_FUNCTION_KECCAK256' &&
            (encoding === 'PAYLOAD_ENCODING_HEXADECIMAL' || encoding === 'PAYLOAD_ENCODING_TEXT_UTF8');
          expect(waits).toBe(canWait && !viaToSign.startsWith('refused'));
        },
      ),
      { numRuns: 400 },
    );
  });
});
