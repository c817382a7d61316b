import { useId, useState, type FormEvent } from 'react';
import { emailOtpMutationOptions, smsOtpMutationOptions } from '../queries.js';
import { useKitMutation } from '../provider/hooks.js';
import { ErrorText } from './ErrorText.js';
import { isValidEmail, toE164 } from './validation.js';

/** A code was sent; the OTP step takes over. */
export interface OtpSent {
  kind: 'email' | 'sms';
  contact: string;
  otpId: string;
}

const copy = {
  email: {
    label: 'Email',
    type: 'email',
    autoComplete: 'email',
    inputMode: 'email',
    placeholder: 'name@example.com',
    submit: 'Continue with email',
    invalid: 'Enter a valid email address, like name@example.com.',
  },
  sms: {
    label: 'Phone number',
    type: 'tel',
    autoComplete: 'tel',
    inputMode: 'tel',
    placeholder: '+1 415 555 0100',
    submit: 'Continue with phone',
    invalid: 'Enter the number in international format, starting with + and the country code, like +14155550100.',
  },
} as const;

/**
 * Email or phone entry: validates, then asks the client to send a one-time code.
 * @example <ContactForm kind="email" onSent={(s) => setStep(s)} />
 */
export function ContactForm({ kind, onSent }: { kind: 'email' | 'sms'; onSent: (sent: OtpSent) => void }) {
  const text = copy[kind];
  const id = useId();
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);
  const start = useKitMutation((c) => (kind === 'email' ? emailOtpMutationOptions(c) : smsOtpMutationOptions(c)));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const contact = kind === 'email' ? (isValidEmail(value) ? value.trim() : undefined) : toE164(value);
    setInvalid(contact === undefined);
    if (contact === undefined) return;
    start.mutate(contact, { onSuccess: ({ otpId }) => onSent({ kind, contact, otpId }) });
  };

  const error = invalid ? text.invalid : start.error;
  return (
    <form className="wk-stack" onSubmit={submit} noValidate>
      <label className="wk-label" htmlFor={`${id}-input`}>
        {text.label}
      </label>
      <input
        id={`${id}-input`}
        className="wk-input"
        type={text.type}
        autoComplete={text.autoComplete}
        inputMode={text.inputMode}
        placeholder={text.placeholder}
        value={value}
        onChange={(e) => setValue(e.currentTarget.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <ErrorText error={error} id={`${id}-error`} />
      <button type="submit" className="wk-button" data-variant="primary" disabled={start.isPending}>
        {start.isPending ? 'Sending code…' : text.submit}
      </button>
    </form>
  );
}
