// BIP32 derivation paths ("m/44'/60'/0'/0/0").
import { assertString } from './assert.js';
import { CryptoError } from './errors.js';

/**
 * Offset added to an index to mark it hardened (BIP32).
 *
 * @example
 * ```ts
 * parsePath("m/44'")[0] === 44 + HARDENED_OFFSET; // true
 * ```
 */
export const HARDENED_OFFSET = 0x80000000;

const SEGMENT_RE = /^(0|[1-9][0-9]*)(['hH]?)$/;
const MAX_DEPTH = 255;

/**
 * Parses a BIP32 path into child numbers (hardened ones have {@link HARDENED_OFFSET} added).
 * Hardened segments are marked `'`, `h` or `H`; indexes are decimal below 2^31 without
 * leading zeros. `m` alone is the master key. Throws `ERR_INVALID_PARAMETER` otherwise.
 *
 * @example
 * ```ts
 * parsePath("m/44'/60'/0'/0/0"); // [2147483692, 2147483708, 2147483648, 0, 0]
 * ```
 */
export function parsePath(path: string): number[] {
  assertString(path, 'path');
  const parts = path.split('/');
  if (parts[0] !== 'm') throw new CryptoError('ERR_INVALID_PARAMETER', 'path must start with "m"');
  if (parts.length - 1 > MAX_DEPTH) throw new CryptoError('ERR_INVALID_PARAMETER', 'path is deeper than 255 levels');
  return parts.slice(1).map((segment) => {
    const match = SEGMENT_RE.exec(segment);
    const index = match ? Number(match[1]) : Number.NaN;
    if (!match || !Number.isSafeInteger(index) || index >= HARDENED_OFFSET) {
      throw new CryptoError('ERR_INVALID_PARAMETER', `invalid path segment "${segment}"`);
    }
    return match[2] ? index + HARDENED_OFFSET : index;
  });
}
