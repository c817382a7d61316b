import { isErrorCode, type ErrorCode } from '@walletkit/protocol/wire';

/**
 * Error codes that only the client kit raises (the browser, not the server, is the cause).
 * This is the one table of them; server codes come from `@walletkit/protocol`'s `errorTable`.
 *
 * @example
 * ```ts
 * clientErrorTable.ERR_POPUP_BLOCKED.message; // 'The browser blocked the sign-in popup.'
 * ```
 */
export const clientErrorTable = {
  ERR_NETWORK: { message: 'The server could not be reached.' },
  ERR_UNEXPECTED_RESPONSE: { message: 'The server replied with something that is not the expected JSON.' },
  ERR_POPUP_BLOCKED: { message: 'The browser blocked the sign-in popup; continuing with a redirect.' },
  ERR_POPUP_CLOSED: { message: 'The sign-in window was closed before it finished.' },
  ERR_OAUTH_STATE_MISMATCH: { message: 'The sign-in reply does not belong to this attempt.' },
  ERR_OAUTH_CALLBACK_INVALID: { message: 'The sign-in callback carries no token or code.' },
  ERR_OAUTH_PROVIDER_ERROR: { message: 'The sign-in provider refused the request.' },
  ERR_NO_SESSION: { message: 'There is no active session; log in first.' },
  ERR_SESSION_EXPIRED: { message: 'The session has expired; log in again.' },
  ERR_KEY_STORAGE_UNAVAILABLE: { message: 'The browser cannot store the session key (IndexedDB is unavailable).' },
  ERR_PASSKEY_CANCELLED: { message: 'The passkey prompt was cancelled or timed out.' },
  ERR_PASSKEY_UNSUPPORTED: { message: 'This browser does not support passkeys.' },
  ERR_PASSKEY_FAILED: { message: 'The passkey operation failed.' },
  ERR_WALLET_REJECTED: { message: 'The wallet refused the signature request.' },
  ERR_WALLET_UNAVAILABLE: { message: 'No wallet account is available to sign.' },
  ERR_ACTIVITY_NOT_COMPLETED: { message: 'The activity did not complete (it needs approval or failed).' },
  ERR_APP_PROOF_INVALID: { message: "The server's App Proof is missing or does not vouch for this result." },
  ERR_USER_REJECTED: { message: 'The request was declined.' },
  ERR_UNSUPPORTED_ACCOUNT: { message: 'This account cannot sign this kind of request (an Ethereum request with a Solana account, or the reverse).' },
  ERR_CHAIN_NOT_CONFIGURED: { message: 'The kit has no RPC endpoint for this chain.' },
  ERR_CHAIN_MISMATCH: { message: 'The transaction is for another chain than the one selected.' },
  ERR_RPC: { message: "The chain's RPC endpoint refused or failed the request." },
  ERR_OAUTH_NOT_CONFIGURED: { message: 'This sign-in provider is not set up for this site (no client id or redirect URL).' },
  ERR_LOGIN_CANCELLED: { message: 'The login was closed before it finished.' },
  ERR_MNEMONIC_INVALID: { message: 'The recovery phrase is not a valid BIP39 phrase (a word is misspelled, missing or out of order).' },
  ERR_CHUNK_LOAD_FAILED: { message: 'Part of the kit, loaded when first used, could not be downloaded; check the connection and try again.' },
} as const satisfies Record<string, { message: string }>;

/** A code only the client raises, e.g. `ERR_POPUP_BLOCKED`. */
export type ClientErrorCode = keyof typeof clientErrorTable;

/** Every code a {@link WalletKitError} can carry: the server's and the client's. */
export type WalletKitErrorCode = ErrorCode | ClientErrorCode;

/**
 * The one error class of the client kit: a stable `code` to switch on, the HTTP status when
 * the server replied, and the platform error (fetch, WebAuthn, wallet) as `cause`.
 *
 * @example
 * ```ts
 * try {
 *   await kit.auth.completeOtp({ otpId, code });
 * } catch (e) {
 *   if (isWalletKitError(e, 'ERR_OTP_INVALID')) showWrongCode();
 * }
 * ```
 */
export class WalletKitError extends Error {
  /** Stable machine-readable code. */
  readonly code: WalletKitErrorCode;
  /** HTTP status of the server reply, when there was one. */
  readonly status: number | undefined;

  constructor(code: WalletKitErrorCode, message?: string, options: { status?: number | undefined; cause?: unknown } = {}) {
    super(message ?? defaultMessage(code), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'WalletKitError';
    this.code = code;
    this.status = options.status;
  }
}

function defaultMessage(code: WalletKitErrorCode): string {
  return (clientErrorTable as Record<string, { message: string }>)[code]?.message ?? code;
}

/**
 * Type guard for {@link WalletKitError}, optionally narrowed to one code.
 *
 * @example
 * ```ts
 * if (isWalletKitError(err, 'ERR_POPUP_BLOCKED')) useRedirect();
 * ```
 */
export function isWalletKitError(error: unknown, code?: WalletKitErrorCode): error is WalletKitError {
  return error instanceof WalletKitError && (code === undefined || error.code === code);
}

/**
 * The code of an error from `@walletkit/crypto` (same names as the wire) or a fallback.
 * @internal
 */
export function toWalletKitError(error: unknown, fallback: WalletKitErrorCode): WalletKitError {
  if (error instanceof WalletKitError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const known = isErrorCode(code) || (typeof code === 'string' && Object.hasOwn(clientErrorTable, code));
  return new WalletKitError(known ? (code as WalletKitErrorCode) : fallback, (error as Error)?.message, { cause: error });
}
