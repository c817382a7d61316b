import { errorBody, errorTable, type ErrorBody, type ErrorCode } from '@walletkit/protocol';

/**
 * The one server error: a stable code from `@walletkit/protocol`'s table, a public message
 * (4xx only; 5xx replies always use the table's generic text) and an optional field name.
 * @example throw new ApiError('ERR_WALLET_NOT_FOUND', `no wallet ${walletId}`, 'walletId')
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;
  constructor(code: ErrorCode, message?: string, field?: string, options?: { cause?: unknown }) {
    super(message ?? errorTable[code].message, options);
    this.name = 'ApiError';
    this.code = code;
    this.field = field;
  }

  get status(): number {
    return errorTable[this.code].status;
  }

  /** Wire body; a 5xx never carries the internal message. */
  toBody(): ErrorBody {
    return this.status >= 500 ? errorBody(this.code) : errorBody(this.code, this.message, this.field);
  }
}

/** Narrow unknown errors thrown by crypto helpers (which carry `code`) into ApiError. */
export function asApiError(err: unknown, fallback: ErrorCode = 'ERR_INTERNAL'): ApiError {
  if (err instanceof ApiError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && Object.hasOwn(errorTable, code)) {
    return new ApiError(code as ErrorCode, (err as Error).message, undefined, { cause: err });
  }
  return new ApiError(fallback, undefined, undefined, { cause: err });
}
