import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ErrorText } from '../auth/ErrorText.js';

/** Props of {@link NameForm}. */
export interface NameFormProps {
  label: string;
  submitLabel: string;
  defaultName?: string | undefined;
  busy: boolean;
  error: unknown;
  onSubmit: (name: string) => void;
  /** Make the submit button the screen's primary action. */
  primary?: boolean | undefined;
  /** Focus the field when the form appears (it was opened by a button). */
  focusOnMount?: boolean | undefined;
  /** Adds a Cancel button with this label. */
  cancel?: { label: string; onCancel: () => void } | undefined;
}

/**
 * A labelled name field and a submit button (create a wallet).
 * @example <NameForm label="Wallet name" submitLabel="Create wallet" busy={false} error={null} onSubmit={create} />
 */
export function NameForm({ label, submitLabel, defaultName = '', busy, error, onSubmit, primary, focusOnMount, cancel }: NameFormProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [name, setName] = useState(defaultName);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the form appears
  useEffect(() => {
    if (focusOnMount) input.current?.focus();
  }, []);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() && !busy) onSubmit(name.trim());
  };
  return (
    <form className="wk-stack" onSubmit={submit}>
      <label className="wk-label" htmlFor={id}>
        {label}
      </label>
      <div className="wk-row wk-name-row">
        <input ref={input} id={id} className="wk-input" maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <button
          type="submit"
          className="wk-button"
          data-variant={primary ? 'primary' : undefined}
          disabled={busy || !name.trim()}
          aria-busy={busy || undefined}
        >
          {submitLabel}
        </button>
        {cancel && (
          <button type="button" className="wk-button" data-variant="ghost" onClick={cancel.onCancel}>
            {cancel.label}
          </button>
        )}
      </div>
      <ErrorText error={error} />
    </form>
  );
}
