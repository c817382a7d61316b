import { useEffect, useState } from 'react';
import { useI18n } from '../i18n/context.js';

/** Props of {@link CopyButton}. */
export interface CopyButtonProps {
  /** What is copied. */
  text: string;
  /** The button's words ("Copy address"). */
  label: string;
  /** Said (and announced) once copied ("Address copied."). */
  copied: string;
  /** Said when the browser refused the clipboard. */
  failed: string;
}

/**
 * A copy button: the text goes to the clipboard, the button reads "Copied" for a moment and a
 * live region announces it to screen readers; if the browser refuses, it says how to copy by hand.
 * @example <CopyButton text={address} label="Copy address" copied="Address copied." failed="Copying failed: select the address and copy it." />
 */
export function CopyButton({ text, label, copied, failed }: CopyButtonProps) {
  const { t } = useI18n();
  const [state, setState] = useState<'copied' | 'failed'>();
  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState(undefined), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = () => {
    const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    if (!clipboard) {
      setState('failed');
      return;
    }
    clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  return (
    <>
      <button type="button" className="wk-button" onClick={copy} data-state={state}>
        <CopyIcon done={state === 'copied'} />
        {state === 'copied' ? t('common.copied') : label}
      </button>
      <span className={state === 'failed' ? 'wk-error' : 'wk-visually-hidden'} role="status">
        {state === 'copied' ? copied : state === 'failed' ? failed : ''}
      </span>
    </>
  );
}

function CopyIcon({ done }: { done: boolean }) {
  return (
    <svg
      className="wk-icon"
      viewBox="0 0 24 24"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {done ? <path d="M5 12l5 5L19 7" /> : <path d="M9 9h10v10H9zM5 15V5h10" />}
    </svg>
  );
}
