/**
 * The stable error codes thrown by `@walletkit/crypto`. Callers switch on `code`, never on
 * the message text.
 *
 * @example
 * ```ts
 * const code: CryptoErrorCode = 'ERR_STAMP_MALFORMED';
 * ```
 */
export type CryptoErrorCode =
  | 'ERR_STAMP_MALFORMED'
  | 'ERR_INVALID_PUBLIC_KEY'
  | 'ERR_INVALID_ENCRYPTED_BUNDLE'
  | 'ERR_INVALID_PAYLOAD'
  | 'ERR_INVALID_TRANSACTION'
  | 'ERR_UNSUPPORTED_CURVE_FORMAT'
  | 'ERR_INVALID_PARAMETER'
  | 'ERR_INVALID_SIGNATURE'
  | 'ERR_JWT_INVALID'
  | 'ERR_JWT_EXPIRED';

/**
 * The one error class of this package: a stable string `code` naming the cause, a message
 * for humans, and the underlying platform error (if any) as `cause`.
 *
 * @example
 * ```ts
 * try {
 *   hexToBytes('zz');
 * } catch (e) {
 *   if (e instanceof CryptoError && e.code === 'ERR_INVALID_PARAMETER') return 'bad hex';
 * }
 * ```
 */
export class CryptoError extends Error {
  /** Stable machine-readable code, e.g. `ERR_STAMP_MALFORMED`. */
  readonly code: CryptoErrorCode;

  constructor(code: CryptoErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CryptoError';
    this.code = code;
  }
}

/**
 * Type guard for {@link CryptoError}, optionally narrowed to one code.
 *
 * @example
 * ```ts
 * if (isCryptoError(err, 'ERR_JWT_EXPIRED')) refreshSession();
 * ```
 */
export function isCryptoError(error: unknown, code?: CryptoErrorCode): error is CryptoError {
  return error instanceof CryptoError && (code === undefined || error.code === code);
}
