// EIP-191 version 0x45 ("personal_sign") message hashing.
import { CryptoError } from './errors.js';
import { concatBytes, utf8ToBytes } from './encoding.js';
import { keccak256 } from './keccak.js';

/**
 * The EIP-191 personal-message digest: `keccak256("\x19Ethereum Signed Message:\n" + len +
 * message)`, with `len` the decimal byte length. Strings are taken as UTF-8 text (like
 * viem's `hashMessage('...')`); pass bytes for raw data (like `hashMessage({ raw })`).
 *
 * @example
 * ```ts
 * bytesToHex(hashPersonalMessage('hello world'));
 * // 'd9eba16ed0ecae432b71fe008c98cc872bb4cc214d3220a36f365326cf807d68'
 * ```
 */
export function hashPersonalMessage(message: Uint8Array | string): Uint8Array<ArrayBuffer> {
  let bytes: Uint8Array;
  if (typeof message === 'string') bytes = utf8ToBytes(message);
  else if (message instanceof Uint8Array) bytes = message;
  else throw new CryptoError('ERR_INVALID_PARAMETER', 'message must be a Uint8Array or a string');
  const prefix = utf8ToBytes(`\x19Ethereum Signed Message:\n${bytes.length}`);
  return keccak256(concatBytes(prefix, bytes));
}
