import fc from 'fast-check';
import { getAddress } from 'viem/utils';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { bytesToHex, checksumAddress, formatAddress, generateEd25519KeyPair, generateSecp256k1KeyPair, hexToBytes } from '../src/index';
import { codeOf } from './support';

describe('EIP-55 addresses', () => {
  it.each([
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ])('given the EIP-55 example %s in lowercase, when checksummed, then the spec casing comes back', (address) => {
    expect(checksumAddress(address.toLowerCase())).toBe(address);
  });

  it('given random 20-byte addresses, when checksummed, then viem getAddress agrees (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), (bytes) => {
        const lower = `0x${bytesToHex(bytes)}`;
        expect(checksumAddress(lower)).toBe(getAddress(lower));
      }),
      { numRuns: 200 },
    );
  });

  it.each(['', '0x', '0x123', 'ab'.repeat(20), `0x${'zz'.repeat(20)}`])('given %j, then ERR_INVALID_PARAMETER', (bad) => {
    expect(codeOf(() => checksumAddress(bad))).toBe('ERR_INVALID_PARAMETER');
  });
});

describe('formatAddress', () => {
  it('given random secp256k1 keys (either encoding), when formatted for Ethereum, then the address is what viem derives (property)', () => {
    fc.assert(
      fc.property(fc.constant(null), fc.boolean(), (_, compressed) => {
        const k = generateSecp256k1KeyPair();
        const publicKey = hexToBytes(compressed ? k.publicKey : k.publicKeyUncompressed);
        const address = formatAddress({ curve: 'CURVE_SECP256K1', publicKey, addressFormat: 'ADDRESS_FORMAT_ETHEREUM' });
        expect(address).toBe(privateKeyToAccount(`0x${k.privateKey}`).address);
        expect(formatAddress({ curve: 'CURVE_SECP256K1', publicKey, addressFormat: 'ADDRESS_FORMAT_COMPRESSED' })).toBe(k.publicKey);
        expect(formatAddress({ curve: 'CURVE_SECP256K1', publicKey, addressFormat: 'ADDRESS_FORMAT_UNCOMPRESSED' })).toBe(k.publicKeyUncompressed);
      }),
      { numRuns: 20 },
    );
  });

  it('given an ed25519 key, then SOLANA is base58 of the key and COMPRESSED is its hex', () => {
    const k = generateEd25519KeyPair();
    const publicKey = hexToBytes(k.publicKey);
    expect(formatAddress({ curve: 'CURVE_ED25519', publicKey, addressFormat: 'ADDRESS_FORMAT_COMPRESSED' })).toBe(k.publicKey);
    const solana = formatAddress({ curve: 'CURVE_ED25519', publicKey, addressFormat: 'ADDRESS_FORMAT_SOLANA' });
    expect(solana).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
  });

  it('given curve/format pairs that do not exist, then ERR_UNSUPPORTED_CURVE_FORMAT; given invalid keys, then ERR_INVALID_PUBLIC_KEY', () => {
    const ed = hexToBytes(generateEd25519KeyPair().publicKey);
    const k1 = hexToBytes(generateSecp256k1KeyPair().publicKey);
    expect(codeOf(() => formatAddress({ curve: 'CURVE_ED25519', publicKey: ed, addressFormat: 'ADDRESS_FORMAT_UNCOMPRESSED' }))).toBe(
      'ERR_UNSUPPORTED_CURVE_FORMAT',
    );
    expect(codeOf(() => formatAddress({ curve: 'CURVE_ED25519', publicKey: ed, addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }))).toBe(
      'ERR_UNSUPPORTED_CURVE_FORMAT',
    );
    expect(codeOf(() => formatAddress({ curve: 'CURVE_SECP256K1', publicKey: k1, addressFormat: 'ADDRESS_FORMAT_SOLANA' }))).toBe(
      'ERR_UNSUPPORTED_CURVE_FORMAT',
    );
    expect(codeOf(() => formatAddress({ curve: 'CURVE_SECP256K1', publicKey: k1, addressFormat: 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH' }))).toBe(
      'ERR_UNSUPPORTED_CURVE_FORMAT',
    );
    expect(codeOf(() => formatAddress({ curve: 'CURVE_P256' as 'CURVE_ED25519', publicKey: k1, addressFormat: 'ADDRESS_FORMAT_COMPRESSED' }))).toBe(
      'ERR_UNSUPPORTED_CURVE_FORMAT',
    );
    expect(codeOf(() => formatAddress({ curve: 'CURVE_SECP256K1', publicKey: new Uint8Array(33), addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }))).toBe(
      'ERR_INVALID_PUBLIC_KEY',
    );
    expect(codeOf(() => formatAddress({ curve: 'CURVE_ED25519', publicKey: new Uint8Array(31), addressFormat: 'ADDRESS_FORMAT_SOLANA' }))).toBe(
      'ERR_INVALID_PUBLIC_KEY',
    );
  });
});
