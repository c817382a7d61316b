import type { WalletKitErrorCode } from '@walletkit/client';

/**
 * What the user reads for each error code: a cause and the next step. Server codes come from
 * `@walletkit/protocol`; client-only codes (popup, passkey, wallet) are the ones
 * `@walletkit/client` lists in its own table. Unknown codes fall back to a generic message.
 */
const messages: Partial<Record<WalletKitErrorCode, string>> = {
  ERR_ORIGIN_NOT_ALLOWED: 'This site is not allowed to use this login. Ask the site owner to add its origin.',
  ERR_CONFIG_NOT_FOUND: 'This login is not configured. Ask the site owner to check the configuration id.',
  ERR_CONFIG_ID_MISSING: 'This login is not configured. Ask the site owner to check the configuration id.',
  ERR_PROXY_DISABLED: 'Login is turned off for this site. Ask the site owner to enable it.',
  ERR_AUTH_METHOD_DISABLED: 'This login method is turned off. Choose another one.',
  ERR_OTP_INVALID: 'That code is wrong or has expired. Check it, or send a new code.',
  ERR_OTP_ATTEMPTS_EXCEEDED: 'Too many wrong codes. Send a new code and try again.',
  ERR_RATE_LIMITED: 'Too many attempts. Wait a minute, then try again.',
  ERR_DELIVERY_FAILED: 'We could not send the code. Check the address or number and try again.',
  ERR_DELIVERY_NOT_CONFIGURED: 'This site cannot send codes this way yet. Choose another login method, or ask the site owner to set up delivery.',
  ERR_TARGET_KEY_REUSED: 'This export was already started. Start it again.',
  ERR_VERIFICATION_TOKEN_INVALID: 'Your verification expired. Start again.',
  ERR_OIDC_TOKEN_INVALID: 'The sign-in with that provider could not be verified. Try again.',
  ERR_OAUTH_EXCHANGE_FAILED: 'The provider refused the sign-in. Try again, or choose another method.',
  ERR_API_KEY_EXPIRED: 'Your session has expired. Log in again.',
  ERR_STAMP_KEY_UNKNOWN: 'Your session is no longer valid. Log in again.',
  ERR_PERMISSION_DENIED: 'You are not allowed to do this.',
  ERR_ALREADY_EXISTS: 'This already exists. Log in instead, or pick another name.',
  ERR_INVALID_ATTESTATION: 'The passkey could not be verified. Try again with another passkey.',
  ERR_UNAVAILABLE: 'The service is unavailable right now. Try again in a moment.',
  // client-only codes (@walletkit/client's clientErrorTable)
  ERR_NETWORK: 'The server cannot be reached. Check your connection and try again.',
  ERR_UNEXPECTED_RESPONSE: 'The server sent an unexpected answer. Try again later.',
  ERR_POPUP_BLOCKED: 'Your browser blocked the sign-in window. Allow pop-ups for this site, then try again.',
  ERR_POPUP_CLOSED: 'The sign-in window was closed before finishing. Try again.',
  ERR_OAUTH_STATE_MISMATCH: 'The sign-in answer did not match this attempt. Try again.',
  ERR_OAUTH_CALLBACK_INVALID: 'The sign-in did not finish. Try again.',
  ERR_OAUTH_PROVIDER_ERROR: 'The provider refused the sign-in. Try again, or choose another method.',
  ERR_NO_SESSION: 'You are logged out. Log in again.',
  ERR_SESSION_EXPIRED: 'Your session has expired. Log in again.',
  ERR_KEY_STORAGE_UNAVAILABLE: 'This browser cannot keep you logged in (storage is blocked, e.g. in private mode). Allow site storage and try again.',
  ERR_PASSKEY_CANCELLED: 'The passkey prompt was cancelled or timed out. Try again when ready.',
  ERR_PASSKEY_UNSUPPORTED: 'This browser does not support passkeys. Use another method.',
  ERR_PASSKEY_FAILED: 'The passkey did not work. Try again, or use another method.',
  ERR_WALLET_REJECTED: 'The request was rejected in your wallet. Approve it to continue.',
  ERR_WALLET_UNAVAILABLE: 'Your wallet has no account to sign with. Unlock it and try again.',
  ERR_ACTIVITY_NOT_COMPLETED: 'The request needs approval before it can finish.',
  ERR_APP_PROOF_INVALID:
    'The wallet server could not prove this result came from its secure enclave, so it was not used. Try again; if it keeps happening, contact the site owner.',
  ERR_USER_REJECTED: 'You declined the request.',
  ERR_UNSUPPORTED_ACCOUNT: 'This account cannot sign this request. Choose an account of the right network.',
  ERR_CHAIN_NOT_CONFIGURED: 'This network is not available in this app. Choose another network.',
  ERR_CHAIN_MISMATCH: 'The request is for another network than the one selected. Switch networks and try again.',
  ERR_RPC: 'The network did not accept the request. Check your balance and try again.',
  ERR_INVALID_TRANSACTION: 'This transaction cannot be signed. Ask the app to check it.',
};

const fallback = 'Something went wrong. Try again.';

/**
 * The stable `ERR_*` code of an error, when it carries one (a `WalletKitError` or anything
 * with a string `code` starting with `ERR_`).
 * @example errorCodeOf(new WalletKitError('ERR_OTP_INVALID')) // 'ERR_OTP_INVALID'
 */
export function errorCodeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  // A prefix check, not isErrorCode of @walletkit/protocol/wire (schema-free, no TypeBox): that
  // table holds the server codes only, and the client-only ones (ERR_POPUP_BLOCKED, ...) must
  // pass too; it also keeps the error table out of the React bundle.
  return typeof code === 'string' && code.startsWith('ERR_') ? code : undefined;
}

/**
 * A clear, actionable message for an error, chosen by its code (never by its message text).
 * @example errorMessage({ code: 'ERR_ORIGIN_NOT_ALLOWED' }) // 'This site is not allowed to use this login. ...'
 */
export function errorMessage(error: unknown): string {
  const code = errorCodeOf(error);
  return (code !== undefined && messages[code as WalletKitErrorCode]) || fallback;
}
