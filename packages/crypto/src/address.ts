// Address formats of wallet accounts: Ethereum (EIP-55), Solana (base58), and raw SEC1 keys.
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base58 } from '@scure/base';
import { assertBytes, assertObject, assertString } from './assert.js';
import { assertCurve, deriveKey, type Curve } from './derive.js';
import { bytesToHex } from './encoding.js';
import { CryptoError } from './errors.js';
import { keccak256 } from './keccak.js';
import { decodePublicKey } from './point.js';

/**
 * Address formats of the wire.
 *
 * @example
 * ```ts
 * const format: AddressFormat = 'ADDRESS_FORMAT_ETHEREUM';
 * ```
 */
export type AddressFormat = 'ADDRESS_FORMAT_ETHEREUM' | 'ADDRESS_FORMAT_SOLANA' | 'ADDRESS_FORMAT_COMPRESSED' | 'ADDRESS_FORMAT_UNCOMPRESSED';

/**
 * A derived wallet account.
 *
 * @example
 * ```ts
 * const { address, publicKey, privateKey }: DerivedAccount = deriveAccount({ seed, curve, path, addressFormat });
 * ```
 */
export interface DerivedAccount {
  address: string;
  /** secp256k1: compressed SEC1 hex; ed25519: raw 32-byte hex. */
  publicKey: string;
  privateKey: Uint8Array<ArrayBuffer>;
}

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

/**
 * EIP-55 mixed-case checksum encoding of a 20-byte Ethereum address (any case, `0x` prefix).
 * Throws `ERR_INVALID_PARAMETER` for anything that is not 40 hex characters after `0x`.
 *
 * @example
 * ```ts
 * checksumAddress('0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359');
 * // '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359'
 * ```
 */
export function checksumAddress(address: string): string {
  assertString(address, 'address');
  if (!ADDRESS_RE.test(address)) throw new CryptoError('ERR_INVALID_PARAMETER', 'address must be 0x + 40 hex characters');
  const lower = address.slice(2).toLowerCase();
  const hash = bytesToHex(keccak256(lower)); // EIP-55 hashes the lowercase hex as ASCII
  let out = '0x';
  for (let i = 0; i < 40; i++) out += Number.parseInt(hash[i]!, 16) >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  return out;
}

function ethereumAddress(publicKey: Uint8Array): string {
  const uncompressed = decodePublicKey(secp256k1, publicKey).toBytes(false);
  return checksumAddress(`0x${bytesToHex(keccak256(uncompressed.subarray(1)).subarray(12))}`);
}

function assertEd25519Key(publicKey: Uint8Array): void {
  if (publicKey.length !== 32) throw new CryptoError('ERR_INVALID_PUBLIC_KEY', 'ed25519 public key must be 32 bytes');
  try {
    ed25519.Point.fromBytes(publicKey);
  } catch (cause) {
    throw new CryptoError('ERR_INVALID_PUBLIC_KEY', 'not a valid ed25519 public key', { cause });
  }
}

function unsupported(curve: Curve, format: unknown): CryptoError {
  return new CryptoError('ERR_UNSUPPORTED_CURVE_FORMAT', `address format ${String(format)} is not supported for ${curve}`);
}

/**
 * Formats a public key as an address. secp256k1 (compressed or uncompressed key):
 * ETHEREUM (EIP-55), COMPRESSED, UNCOMPRESSED. ed25519 (raw 32-byte key): SOLANA (base58),
 * COMPRESSED (the raw key hex). Any other pairing throws `ERR_UNSUPPORTED_CURVE_FORMAT`;
 * an invalid key throws `ERR_INVALID_PUBLIC_KEY`.
 *
 * @example
 * ```ts
 * formatAddress({ curve: 'CURVE_SECP256K1', publicKey, addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }); // '0x...'
 * ```
 */
export function formatAddress(params: { curve: Curve; publicKey: Uint8Array; addressFormat: AddressFormat | (string & {}) }): string {
  assertObject(params, 'params');
  const curve = assertCurve(params.curve);
  const { publicKey, addressFormat } = params;
  assertBytes(publicKey, 'publicKey', undefined, 'ERR_INVALID_PUBLIC_KEY');
  if (curve === 'CURVE_SECP256K1') {
    switch (addressFormat) {
      case 'ADDRESS_FORMAT_ETHEREUM':
        return ethereumAddress(publicKey);
      case 'ADDRESS_FORMAT_COMPRESSED':
        return bytesToHex(decodePublicKey(secp256k1, publicKey).toBytes(true));
      case 'ADDRESS_FORMAT_UNCOMPRESSED':
        return bytesToHex(decodePublicKey(secp256k1, publicKey).toBytes(false));
      default:
        throw unsupported(curve, addressFormat);
    }
  }
  switch (addressFormat) {
    case 'ADDRESS_FORMAT_SOLANA':
      assertEd25519Key(publicKey);
      return base58.encode(publicKey);
    case 'ADDRESS_FORMAT_COMPRESSED':
      assertEd25519Key(publicKey);
      return bytesToHex(publicKey);
    default:
      throw unsupported(curve, addressFormat);
  }
}

/**
 * Derives a wallet account from a seed: the key at `path` and its address.
 *
 * @example
 * ```ts
 * const account = deriveAccount({
 *   seed: mnemonicToSeed(mnemonic),
 *   curve: 'CURVE_SECP256K1',
 *   path: "m/44'/60'/0'/0/0",
 *   addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
 * });
 * account.address; // '0x...'
 * ```
 */
export function deriveAccount(params: { seed: Uint8Array; curve: Curve; path: string; addressFormat: AddressFormat | (string & {}) }): DerivedAccount {
  assertObject(params, 'params');
  const { privateKey, publicKey } = deriveKey(params);
  const address = formatAddress({ curve: params.curve, publicKey, addressFormat: params.addressFormat });
  return { address, publicKey: bytesToHex(publicKey), privateKey };
}
