import { ed25519 } from '@noble/curves/ed25519.js';
import fc from 'fast-check';
import { recoverAddress } from 'viem/utils';
import { privateKeyToAccount, sign as viemSign } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import {
  bytesToHex,
  deriveAccount,
  hexToBytes,
  mnemonicToSeed,
  payloadDigest,
  signRawPayload,
  verifyRawSignature,
  type HashFunction,
  type PayloadEncoding,
} from '../src/index';
import { codeOf } from './support';

const seed = mnemonicToSeed('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about');
const eth = deriveAccount({ seed, curve: 'CURVE_SECP256K1', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' });
const sol = deriveAccount({ seed, curve: 'CURVE_ED25519', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' });

const TYPED = {
  domain: { name: 'Permit', version: '1', chainId: 1, verifyingContract: '0x000000000022d473030f116ddee9f6b43ac78ba3' },
  types: {
    Permit: [
      { name: 'owner', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
  },
  primaryType: 'Permit',
  message: { owner: eth.address, value: '1000000000000000000' },
} as const;

const SECP_REQUESTS: [string, PayloadEncoding, HashFunction][] = [
  [`0x${'ab'.repeat(32)}`, 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NO_OP'],
  ['deadbeef', 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_KECCAK256'],
  ['hello', 'PAYLOAD_ENCODING_TEXT_UTF8', 'HASH_FUNCTION_SHA256'],
  [JSON.stringify(TYPED), 'PAYLOAD_ENCODING_EIP712', 'HASH_FUNCTION_NOT_APPLICABLE'],
  [JSON.stringify({ chainId: 1, address: `0x${'33'.repeat(20)}`, nonce: 0 }), 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION', 'HASH_FUNCTION_KECCAK256'],
];

describe('signRawPayload (secp256k1)', () => {
  it.each(SECP_REQUESTS)(
    'given payload %s (%s, %s), when signed, then viem recovers the account address from {r, s, v}',
    async (payload, encoding, hashFunction) => {
      const sig = signRawPayload({ curve: 'CURVE_SECP256K1', privateKey: eth.privateKey, payload, encoding, hashFunction });
      expect(sig.r).toMatch(/^[0-9a-f]{64}$/);
      expect(sig.s).toMatch(/^[0-9a-f]{64}$/);
      expect(['00', '01']).toContain(sig.v);
      const hash = `0x${bytesToHex(payloadDigest({ payload, encoding, hashFunction, curve: 'CURVE_SECP256K1' }))}` as const;
      const recovered = await recoverAddress({ hash, signature: `0x${sig.r}${sig.s}${(27 + Number.parseInt(sig.v, 16)).toString(16)}` });
      expect(recovered).toBe(eth.address);
      // Deterministic RFC 6979 + low-S: identical to viem's signature of the same digest.
      const reference = await viemSign({ hash, privateKey: `0x${bytesToHex(eth.privateKey)}` });
      expect([`0x${sig.r}`, `0x${sig.s}`, Number.parseInt(sig.v, 16)]).toEqual([reference.r, reference.s, reference.yParity]);
    },
  );

  it('given an EIP-712 payload, when signed, then the signature equals viem signTypedData', async () => {
    const sig = signRawPayload({
      curve: 'CURVE_SECP256K1',
      privateKey: eth.privateKey,
      payload: JSON.stringify(TYPED),
      encoding: 'PAYLOAD_ENCODING_EIP712',
      hashFunction: 'HASH_FUNCTION_KECCAK256',
    });
    const account = privateKeyToAccount(`0x${bytesToHex(eth.privateKey)}`);
    const viemSig = await account.signTypedData({ ...TYPED, message: { owner: eth.address as `0x${string}`, value: 10n ** 18n } });
    expect(`0x${sig.r}${sig.s}${(27 + Number.parseInt(sig.v, 16)).toString(16)}`).toBe(viemSig);
  });

  it('given random digests, when signed, then the signature is low-S and verifyRawSignature accepts it only for that digest and v (property)', () => {
    const halfN = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;
    const publicKey = hexToBytes(eth.publicKey);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (digest) => {
        const sig = signRawPayload({
          curve: 'CURVE_SECP256K1',
          privateKey: eth.privateKey,
          payload: bytesToHex(digest),
          encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
          hashFunction: 'HASH_FUNCTION_NO_OP',
        });
        expect(BigInt(`0x${sig.s}`) <= halfN).toBe(true);
        expect(verifyRawSignature({ curve: 'CURVE_SECP256K1', publicKey, digestOrMessage: digest, signature: sig })).toBe(true);
        expect(
          verifyRawSignature({ curve: 'CURVE_SECP256K1', publicKey, digestOrMessage: digest, signature: { ...sig, v: sig.v === '00' ? '1b' : '1c' } }),
        ).toBe(true);
        expect(
          verifyRawSignature({ curve: 'CURVE_SECP256K1', publicKey, digestOrMessage: digest, signature: { ...sig, v: sig.v === '00' ? '01' : '00' } }),
        ).toBe(false);
        const other = digest.slice();
        other[0]! ^= 1;
        expect(verifyRawSignature({ curve: 'CURVE_SECP256K1', publicKey, digestOrMessage: other, signature: sig })).toBe(false);
      }),
      { numRuns: 12 },
    );
  });
});

describe('signRawPayload (ed25519)', () => {
  it('given a message, when signed, then r||s is an RFC 8032 signature by the Solana account key and v is 00', () => {
    const message = 'Sign in to example.com';
    const sig = signRawPayload({
      curve: 'CURVE_ED25519',
      privateKey: sol.privateKey,
      payload: message,
      encoding: 'PAYLOAD_ENCODING_TEXT_UTF8',
      hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE',
    });
    expect(sig.v).toBe('00');
    const publicKey = hexToBytes(sol.publicKey);
    const bytes = new TextEncoder().encode(message);
    expect(ed25519.verify(hexToBytes(sig.r + sig.s), bytes, publicKey, { zip215: false })).toBe(true);
    expect(verifyRawSignature({ curve: 'CURVE_ED25519', publicKey, digestOrMessage: bytes, signature: sig })).toBe(true);
    expect(verifyRawSignature({ curve: 'CURVE_ED25519', publicKey, digestOrMessage: bytes.subarray(1), signature: sig })).toBe(false);
  });
});

describe('raw signature inputs', () => {
  it('given malformed signatures or keys, then verifyRawSignature returns false without throwing', () => {
    const digest = new Uint8Array(32).fill(7);
    const publicKey = hexToBytes(eth.publicKey);
    for (const signature of [
      { r: 'zz', s: '00', v: '00' },
      { r: '00'.repeat(32), s: '00'.repeat(32), v: '00' },
      { r: '11'.repeat(32), s: '11'.repeat(32), v: '05' },
      { r: '11'.repeat(32), s: '11'.repeat(32), v: '0' },
      null,
    ]) {
      expect(verifyRawSignature({ curve: 'CURVE_SECP256K1', publicKey, digestOrMessage: digest, signature: signature as never })).toBe(false);
    }
    expect(
      verifyRawSignature({
        curve: 'CURVE_SECP256K1',
        publicKey: new Uint8Array(33),
        digestOrMessage: digest,
        signature: { r: '11'.repeat(32), s: '11'.repeat(32), v: '00' },
      }),
    ).toBe(false);
    expect(
      verifyRawSignature({
        curve: 'CURVE_SECP256K1',
        publicKey,
        digestOrMessage: new Uint8Array(31),
        signature: { r: '11'.repeat(32), s: '11'.repeat(32), v: '00' },
      }),
    ).toBe(false);
  });

  it('given a bad private key, curve or payload, then coded errors', () => {
    const request = { payload: 'hi', encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', hashFunction: 'HASH_FUNCTION_KECCAK256' } as const;
    expect(codeOf(() => signRawPayload({ ...request, curve: 'CURVE_SECP256K1', privateKey: new Uint8Array(32) }))).toBe('ERR_INVALID_PARAMETER');
    expect(codeOf(() => signRawPayload({ ...request, curve: 'CURVE_SECP256K1', privateKey: new Uint8Array(16) }))).toBe('ERR_INVALID_PARAMETER');
    expect(codeOf(() => signRawPayload({ ...request, curve: 'CURVE_P256' as 'CURVE_ED25519', privateKey: eth.privateKey }))).toBe(
      'ERR_UNSUPPORTED_CURVE_FORMAT',
    );
    expect(codeOf(() => signRawPayload({ ...request, curve: 'CURVE_ED25519', privateKey: sol.privateKey }))).toBe('ERR_INVALID_PAYLOAD');
  });
});
