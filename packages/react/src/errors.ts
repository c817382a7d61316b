import { createTranslator, type MessageKey, type Translator } from './i18n/catalog.js';

const english = createTranslator('en');

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
 * A clear, actionable message for an error, chosen by its code (never by its message text): the
 * catalog's `error.<code>` (i18n/en/errors.ts), in the translator's language (English by default).
 * @example errorMessage({ code: 'ERR_ORIGIN_NOT_ALLOWED' }) // 'This site is not allowed to use this login. ...'
 */
export function errorMessage(error: unknown, translator: Translator = english): string {
  const code = errorCodeOf(error);
  const key = `error.${code}` as MessageKey;
  return code !== undefined && translator.has(key) ? translator.t(key) : translator.t('error.fallback');
}
