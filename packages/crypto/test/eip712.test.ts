import fc from 'fast-check';
import { hashTypedData as viemHashTypedData } from 'viem/utils';
import { describe, expect, it } from 'vitest';
import { bytesToHex, hashTypedData, type TypedData } from '../src/index';
import { ETHER_MAIL_TYPED_DATA } from './fixtures';
import { codeOf } from './support';

const viemHash = (td: TypedData) => viemHashTypedData(td as never).slice(2);
/** What the wire carries: JSON text, with big integers as decimal strings. */
const viaJson = (td: TypedData): TypedData => JSON.parse(JSON.stringify(td, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as TypedData;

// The example of the EIP-712 specification (Example.js / Example.sol), with EIP712Domain spelled
// out as the specification does (the shared fixture leaves it to be inferred, as wallets send it).
const MAIL: TypedData = {
  ...ETHER_MAIL_TYPED_DATA,
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    ...ETHER_MAIL_TYPED_DATA.types,
  },
} as TypedData;

describe('EIP-712 hashTypedData', () => {
  it('given the EIP-712 specification example, then the published digest comes out (and viem agrees)', () => {
    const expected = 'be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2';
    expect(bytesToHex(hashTypedData(MAIL))).toBe(expected);
    expect(bytesToHex(hashTypedData(viaJson(MAIL)))).toBe(expected);
    expect(viemHash(MAIL)).toBe(expected);
  });

  it('given types without EIP712Domain, then the domain type is inferred from the fields present, like viem', () => {
    const { EIP712Domain: _omit, ...types } = MAIL.types;
    const cases: TypedData['domain'][] = [
      MAIL.domain,
      {},
      undefined,
      { chainId: 10 },
      { name: 'x', salt: `0x${'ab'.repeat(32)}` },
      { name: 'x', version: null, chainId: 5n },
    ];
    for (const domain of cases) {
      const td = { ...MAIL, types, domain } as TypedData;
      expect(bytesToHex(hashTypedData(td))).toBe(viemHash(td));
    }
  });

  it('given primaryType EIP712Domain, then only the domain separator is hashed, like viem', () => {
    const td: TypedData = { ...MAIL, primaryType: 'EIP712Domain', message: {} };
    expect(bytesToHex(hashTypedData(td))).toBe(viemHash(td));
  });

  const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${bytesToHex(b)}`);
  const hex = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max }).map((b) => `0x${bytesToHex(b)}`);
  const uint256 = fc.bigInt(0n, 2n ** 256n - 1n);
  const person = fc.record({
    name: fc.string({ unit: 'grapheme', maxLength: 12 }),
    wallets: fc.array(address, { maxLength: 3 }),
    age: fc.integer({ min: 0, max: 255 }),
  });
  const types = {
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallets', type: 'address[]' },
      { name: 'age', type: 'uint8' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person[]' },
      { name: 'contents', type: 'string' },
      { name: 'attachment', type: 'bytes' },
      { name: 'tag', type: 'bytes4' },
      { name: 'delta', type: 'int64' },
      { name: 'small', type: 'int8' },
      { name: 'grid', type: 'uint256[2][]' },
      { name: 'flags', type: 'bool[]' },
      { name: 'hashes', type: 'bytes32[]' },
      { name: 'nonce', type: 'uint256' },
      { name: 'reply', type: 'Reply' },
    ],
    Reply: [
      { name: 'author', type: 'Person' },
      { name: 'notes', type: 'string[]' },
    ],
  };
  const mail = fc.record({
    from: person,
    to: fc.array(person, { maxLength: 2 }),
    contents: fc.string({ unit: 'grapheme', maxLength: 40 }),
    attachment: hex(0, 70),
    tag: hex(4, 4),
    delta: fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n),
    small: fc.integer({ min: -128, max: 127 }),
    grid: fc.array(fc.tuple(uint256, uint256), { maxLength: 3 }),
    flags: fc.array(fc.boolean(), { maxLength: 4 }),
    hashes: fc.array(hex(32, 32), { maxLength: 2 }),
    nonce: uint256,
    reply: fc.record({ author: person, notes: fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }) }),
  });
  const domain = fc.record(
    {
      name: fc.string({ maxLength: 10 }),
      version: fc.string({ maxLength: 4 }),
      chainId: fc.integer({ min: 1, max: 2 ** 40 }),
      verifyingContract: address,
      salt: hex(32, 32),
    },
    { requiredKeys: [] },
  );

  it('given random documents with nested structs, struct arrays, nested fixed arrays, bytes, bytesN, signed ints and strings, then the digest equals viem (property)', () => {
    fc.assert(
      fc.property(domain, mail, (d, message) => {
        const td = { domain: d, types, primaryType: 'Mail', message } as TypedData;
        const expected = viemHash(td);
        expect(bytesToHex(hashTypedData(td))).toBe(expected);
        expect(bytesToHex(hashTypedData(viaJson(td)))).toBe(expected);
      }),
      { numRuns: 60 },
    );
  });

  it.each([
    ['unknown primaryType', { ...MAIL, primaryType: 'Letter' }],
    ['unknown member type', { ...MAIL, types: { ...MAIL.types, Person: [{ name: 'name', type: 'strin' }] } }],
    [
      'uint without size',
      { ...MAIL, types: { ...MAIL.types, Person: [{ name: 'n', type: 'uint' }] }, message: { from: { n: 1 }, to: { n: 1 }, contents: '' } },
    ],
    ['missing member', { ...MAIL, message: { from: MAIL.message.from, contents: 'x' } }],
    ['bad address', { ...MAIL, message: { ...MAIL.message, to: { name: 'B', wallet: '0x1234' } } }],
    ['uint out of range', { ...MAIL, domain: { ...MAIL.domain, chainId: -1 } }],
    ['struct given a string', { ...MAIL, message: { ...MAIL.message, from: 'Cow' } }],
    ['prototype member name', { ...MAIL, types: { ...MAIL.types, Mail: [{ name: 'constructor', type: 'string' }] }, message: {} }],
    ['prototype type name', { ...MAIL, primaryType: 'toString' }],
    ['non-object', 'typed data'],
  ])('given typed data with %s, then ERR_INVALID_PAYLOAD', (_name, td) => {
    expect(codeOf(() => hashTypedData(td as TypedData))).toBe('ERR_INVALID_PAYLOAD');
  });

  it('given a fixed-size array of the wrong length or bytesN of the wrong size, then ERR_INVALID_PAYLOAD', () => {
    const base = { domain: {}, primaryType: 'T' };
    expect(codeOf(() => hashTypedData({ ...base, types: { T: [{ name: 'a', type: 'uint8[2]' }] }, message: { a: [1] } }))).toBe('ERR_INVALID_PAYLOAD');
    expect(codeOf(() => hashTypedData({ ...base, types: { T: [{ name: 'a', type: 'bytes2' }] }, message: { a: '0x01' } }))).toBe('ERR_INVALID_PAYLOAD');
    expect(codeOf(() => hashTypedData({ ...base, types: { T: [{ name: 'a', type: 'bool' }] }, message: { a: 'true' } }))).toBe('ERR_INVALID_PAYLOAD');
  });
});
