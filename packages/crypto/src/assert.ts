// Internal input guards. Every public function asserts its inputs through these so a bad
// argument fails loudly with a coded error instead of deep inside a primitive.
import { CryptoError, type CryptoErrorCode } from './errors.js';

/** Throws `code` unless `value` is a Uint8Array (optionally of exactly `length` bytes). */
export function assertBytes(value: unknown, name: string, length?: number, code: CryptoErrorCode = 'ERR_INVALID_PARAMETER'): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new CryptoError(code, `${name} must be a Uint8Array`);
  }
  if (length !== undefined && value.length !== length) {
    throw new CryptoError(code, `${name} must be ${length} bytes, got ${value.length}`);
  }
}

/** Throws `code` unless `value` is a string. */
export function assertString(value: unknown, name: string, code: CryptoErrorCode = 'ERR_INVALID_PARAMETER'): asserts value is string {
  if (typeof value !== 'string') throw new CryptoError(code, `${name} must be a string`);
}

/** Throws `code` unless `value` is a plain (non-null, non-array) object. */
export function assertObject(value: unknown, name: string, code: CryptoErrorCode = 'ERR_INVALID_PARAMETER'): asserts value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CryptoError(code, `${name} must be an object`);
  }
}

/** Returns `value` when it is one of `allowed`, else throws `code`. */
export function assertOneOf<T extends string>(value: unknown, allowed: readonly T[], name: string, code: CryptoErrorCode = 'ERR_INVALID_PARAMETER'): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new CryptoError(code, `${name} must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

/** Copies bytes into a fresh ArrayBuffer, the type WebCrypto accepts. */
export function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  const out = new ArrayBuffer(bytes.length);
  new Uint8Array(out).set(bytes);
  return out;
}

/**
 * Narrows bytes to `Uint8Array<ArrayBuffer>` (what WebCrypto's BufferSource accepts), copying
 * only when they sit on a SharedArrayBuffer. Every public function returns this type.
 */
export function plainBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}

/** Bytes as they are, a string as its UTF-8 bytes: what the hash functions take. */
export function hashInput(data: Uint8Array | string): Uint8Array {
  if (typeof data === 'string') return new TextEncoder().encode(data);
  if (data instanceof Uint8Array) return data;
  throw new CryptoError('ERR_INVALID_PARAMETER', 'data must be a Uint8Array or a string');
}
