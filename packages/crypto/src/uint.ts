// Integer inputs of EIP-712 and EIP-7702 payloads: JSON carries them as numbers, decimal
// strings or 0x-hex strings; all are accepted, anything else is ERR_INVALID_PAYLOAD.
import { hexToBytes } from './encoding.js';
import { CryptoError } from './errors.js';

/** @internal parses an integer-like value to a bigint, or throws `ERR_INVALID_PAYLOAD`. */
export function toBigInt(value: unknown, name: string): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string') {
    if (/^-?(0|[1-9][0-9]*)$/.test(value)) return BigInt(value);
    if (/^0x[0-9a-fA-F]+$/.test(value)) return BigInt(value);
  }
  throw new CryptoError('ERR_INVALID_PAYLOAD', `${name} must be an integer (number, decimal or 0x-hex string)`);
}

/** @internal big-endian bytes of a non-negative integer, fixed `length` (which it must fit) or minimal. */
export function bigIntToBytes(value: bigint, length?: number): Uint8Array {
  if (value < 0n) throw new RangeError(`${value} is negative`);
  let hex = value.toString(16);
  if (hex === '0') hex = '';
  if (hex.length % 2) hex = `0${hex}`;
  const bytes = hexToBytes(hex);
  if (length === undefined || length === bytes.length) return bytes;
  if (bytes.length > length) throw new RangeError(`${value} does not fit in ${length} bytes`);
  const out = new Uint8Array(length);
  out.set(bytes, length - bytes.length);
  return out;
}
