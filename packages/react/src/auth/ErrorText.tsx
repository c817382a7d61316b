import { errorCodeOf, errorMessage } from '../errors.js';
import { useI18n } from '../i18n/context.js';

/** Props of {@link ErrorText}. */
export interface ErrorTextProps {
  /** An error with an `ERR_*` code (its catalog message is shown), a ready message, or nothing. */
  error: unknown;
  id?: string | undefined;
  /** Wording for some codes where the place knows more than the catalog's general message (`{ ERR_OAUTH_NOT_CONFIGURED: '…' }`). */
  overrides?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * An error message read out by screen readers (`role="alert"`), or nothing.
 * @example <ErrorText error={mutation.error} overrides={{ ERR_USER_NOT_FOUND: t('auth.passkeyNoAccount') }} />
 */
export function ErrorText({ error, id, overrides }: ErrorTextProps) {
  const translator = useI18n();
  if (!error) return null;
  const code = errorCodeOf(error);
  const special = code === undefined ? undefined : overrides?.[code];
  return (
    <p className="wk-error" role="alert" id={id}>
      {typeof error === 'string' ? error : (special ?? errorMessage(error, translator))}
    </p>
  );
}
