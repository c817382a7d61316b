import { errorMessage } from '../errors.js';
import { useI18n } from '../i18n/context.js';

/** An error message read out by screen readers (`role="alert"`), or nothing. */
export function ErrorText({ error, id }: { error: unknown; id?: string }) {
  const translator = useI18n();
  if (!error) return null;
  return (
    <p className="wk-error" role="alert" id={id}>
      {typeof error === 'string' ? error : errorMessage(error, translator)}
    </p>
  );
}
