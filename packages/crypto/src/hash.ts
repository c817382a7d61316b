// Hash functions over bytes or UTF-8 text. Thin wrappers so callers never pick a hash
// library themselves and strings are always hashed as UTF-8.
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { hashInput, plainBytes } from './assert.js';
import { bytesToHex } from './encoding.js';

/**
 * A SHA-256 a server may install ({@link useNativeSha256}) in place of noble's, which the
 * server's event loop runs for every activity's fingerprint (node:crypto's is native): the
 * 32-byte digest of `data` on an ArrayBuffer of its own, and the same as lowercase hex (what a
 * fingerprint is; a native hash makes it without a buffer in between).
 */
export interface NativeSha256 {
  bytes(data: Uint8Array): Uint8Array;
  hex(data: Uint8Array): string;
}

let native: NativeSha256 | undefined;

/**
 * SHA-256 of bytes, or of the UTF-8 encoding of a string.
 *
 * @example
 * ```ts
 * bytesToHex(sha256('abc')); // 'ba7816bf...15ad'
 * ```
 */
export function sha256(data: Uint8Array | string): Uint8Array<ArrayBuffer> {
  const input = hashInput(data);
  return plainBytes(native ? native.bytes(input) : nobleSha256(input));
}

/**
 * Hash with `impl` from now on ({@link sha256} and all that uses it); undefined: noble again.
 * Returns the one it replaces (undefined: noble).
 *
 * @example
 * ```ts
 * useNativeSha256({ bytes: (data) => new Uint8Array(hash('sha256', data, 'buffer')), hex: (data) => hash('sha256', data) });
 * ```
 */
export function useNativeSha256(impl: NativeSha256 | undefined): NativeSha256 | undefined {
  const replaced = native;
  native = impl;
  return replaced;
}

/**
 * The fingerprint of an activity: SHA-256 of the exact request body, as Turnkey's servers write
 * it (`sha256:<lowercase hex>`; @turnkey/crypto's computeActivityFingerprint). Anyone holding the
 * body can compute it (idempotency, consensus votes, App Proof statements).
 *
 * @example
 * ```ts
 * activityFingerprint('{"type":"ACTIVITY_TYPE_CREATE_WALLET",...}'); // 'sha256:3b5f...'
 * ```
 */
export function activityFingerprint(body: Uint8Array | string): string {
  return `sha256:${sha256Hex(body)}`;
}

/**
 * Lowercase hex SHA-256, the form used for WebAuthn challenges.
 *
 * @example
 * ```ts
 * sha256Hex('{"type":"ACTIVITY_TYPE_..."}'); // 64 lowercase hex chars
 * ```
 */
export function sha256Hex(data: Uint8Array | string): string {
  return native ? native.hex(hashInput(data)) : bytesToHex(sha256(data));
}

export { keccak256 } from './keccak.js';
