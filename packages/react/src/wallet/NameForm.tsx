import { useId, useState, type FormEvent } from 'react';
import { ErrorText } from '../auth/ErrorText.js';

/** Props of {@link NameForm}. */
export interface NameFormProps {
  label: string;
  submitLabel: string;
  defaultName?: string | undefined;
  busy: boolean;
  error: unknown;
  onSubmit: (name: string) => void;
}

/**
 * A labelled name field and a submit button (create wallet, add passkey).
 * @example <NameForm label="Wallet name" submitLabel="Create wallet" busy={false} error={null} onSubmit={create} />
 */
export function NameForm({ label, submitLabel, defaultName = '', busy, error, onSubmit }: NameFormProps) {
  const id = useId();
  const [name, setName] = useState(defaultName);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) onSubmit(name.trim());
  };
  return (
    <form className="wk-stack" onSubmit={submit}>
      <label className="wk-label" htmlFor={id}>
        {label}
      </label>
      <div className="wk-row">
        <input id={id} className="wk-input" style={{ flex: 1, width: 'auto' }} value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <button type="submit" className="wk-button" disabled={busy || !name.trim()}>
          {submitLabel}
        </button>
      </div>
      <ErrorText error={error} />
    </form>
  );
}
