import { errorMessage } from '../errors.js';

/** An error message read out by screen readers (`role="alert"`), or nothing. */
export function ErrorText({ error, id }: { error: unknown; id?: string }) {
  if (!error) return null;
  return (
    <p className="wk-error" role="alert" id={id}>
      {typeof error === 'string' ? error : errorMessage(error)}
    </p>
  );
}
