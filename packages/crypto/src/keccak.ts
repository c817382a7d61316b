// Keccak-256 apart from SHA-256 (hash.ts): Ethereum addresses need it in the kit's first chunk,
// SHA-256 only where the WebCrypto one cannot serve (a bundle keeps modules whole).
import { keccak_256 } from '@noble/hashes/sha3.js';
import { hashInput, plainBytes } from './assert.js';

/**
 * Keccak-256 (the Ethereum variant, not NIST SHA3-256) of bytes or UTF-8 text.
 *
 * @example
 * ```ts
 * bytesToHex(keccak256('')); // 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470'
 * ```
 */
export function keccak256(data: Uint8Array | string): Uint8Array<ArrayBuffer> {
  return plainBytes(keccak_256(hashInput(data)));
}
