// EIP-7702 authorization digest: keccak256(0x05 || rlp([chain_id, address, nonce])).
import { assertObject } from './assert.js';
import { concatBytes, hexToBytes } from './encoding.js';
import { CryptoError } from './errors.js';
import { keccak256 } from './keccak.js';
import { rlpEncode } from './rlp.js';
import { bigIntToBytes, toBigInt } from './uint.js';

/**
 * An EIP-7702 authorization tuple (without signature). Integers as number, bigint or string.
 *
 * @example
 * ```ts
 * const auth: Eip7702Authorization = { chainId: 1, address: '0x63c0c19a282a1b52b07dd5a65b58948a07dae32b', nonce: 0 };
 * ```
 */
export interface Eip7702Authorization {
  chainId: number | bigint | string;
  /** The delegate contract, 0x + 40 hex. */
  address: string;
  nonce: number | bigint | string;
}

const MAGIC = Uint8Array.of(0x05);

function addressBytes(address: unknown): Uint8Array {
  if (typeof address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(address)) {
    throw new CryptoError('ERR_INVALID_PAYLOAD', 'address must be 0x + 40 hex characters');
  }
  return hexToBytes(address);
}

function uint(value: unknown, name: string, bits: number): Uint8Array {
  const n = toBigInt(value, name);
  if (n < 0n || n >= 1n << BigInt(bits)) throw new CryptoError('ERR_INVALID_PAYLOAD', `${name} is out of range`);
  return bigIntToBytes(n);
}

/**
 * The digest an EIP-7702 authorization is signed over. Throws `ERR_INVALID_PAYLOAD` for a
 * malformed tuple (chain id above 2^256, nonce above 2^64, bad address).
 *
 * @example
 * ```ts
 * hashEip7702Authorization({ chainId: 1, address: '0x63c0...', nonce: 0 }); // 32 bytes
 * ```
 */
export function hashEip7702Authorization(authorization: Eip7702Authorization): Uint8Array<ArrayBuffer> {
  assertObject(authorization, 'authorization', 'ERR_INVALID_PAYLOAD');
  const tuple = [uint(authorization.chainId, 'chainId', 256), addressBytes(authorization.address), uint(authorization.nonce, 'nonce', 64)];
  return keccak256(concatBytes(MAGIC, rlpEncode(tuple)));
}
