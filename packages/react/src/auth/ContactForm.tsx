import { lazy, Suspense, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { FailureBoundary } from '../components/FailureBoundary.js';
import { useI18n } from '../i18n/context.js';
import { useKitMutation } from '../provider/hooks.js';
import { emailOtpMutationOptions } from '../queries.js';
import { ErrorText } from './ErrorText.js';
import { LOGIN_MUTATION_KEY, useLoginRunning } from './flow.js';
import { Spinner } from './icons.js';
import { isValidEmail } from './validation.js';

/** A code was sent; the OTP step takes over. */
export interface OtpSent {
  kind: 'email' | 'sms';
  /** The address, or the number in E.164. */
  contact: string;
  otpId: string;
}

/** Props of {@link ContactForm}. */
export interface ContactFormProps {
  kind: 'email' | 'sms';
  onSent: (sent: OtpSent) => void;
  /** Move focus to the field when the form appears (it replaced what the user was in). */
  focusOnMount?: boolean | undefined;
  /** The phone form's first country (ISO 3166 alpha-2). */
  defaultCountry?: string | undefined;
}

/** The phone form with its number library (libphonenumber-js): a chunk of its own, fetched on demand. */
export const loadPhoneForm = () => import('./PhoneForm.js');
const PhoneForm = lazy(() => loadPhoneForm().then((m) => ({ default: m.PhoneForm })));

/**
 * Email or phone entry: checks what was typed, then asks the client to send a one-time code.
 * The phone form (country, number formatted as typed, E.164) loads on first use.
 * @example <ContactForm kind="email" onSent={(s) => setStep(s)} />
 */
export function ContactForm({ kind, onSent, focusOnMount, defaultCountry }: ContactFormProps) {
  const { t } = useI18n();
  if (kind === 'email') return <EmailForm onSent={onSent} focusOnMount={focusOnMount} />;
  return (
    <FailureBoundary fallback={<ErrorText error={t('auth.phoneLoadFailed')} />}>
      <Suspense
        fallback={
          <p className="wk-hint" role="status">
            {t('common.loading')}
          </p>
        }
      >
        <PhoneForm onSent={onSent} focusOnMount={focusOnMount} defaultCountry={defaultCountry} />
      </Suspense>
    </FailureBoundary>
  );
}

/** The email field and its primary "Continue". */
function EmailForm({ onSent, focusOnMount }: { onSent: (sent: OtpSent) => void; focusOnMount?: boolean | undefined }) {
  const { t } = useI18n();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);
  const running = useLoginRunning();
  const start = useKitMutation((c) => ({ ...emailOtpMutationOptions(c), mutationKey: [...LOGIN_MUTATION_KEY, 'email'] }));
  // biome-ignore lint/correctness/useExhaustiveDependencies: on mount only
  useEffect(() => {
    if (focusOnMount) input.current?.focus();
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (running) return;
    const ok = isValidEmail(value);
    setInvalid(!ok);
    if (!ok) return;
    const contact = value.trim();
    start.mutate(contact, { onSuccess: ({ otpId }) => onSent({ kind: 'email', contact, otpId }) });
  };

  const error = invalid ? t('auth.emailInvalid') : start.error;
  return (
    <form className="wk-stack" onSubmit={submit} noValidate>
      <label className="wk-label" htmlFor={`${id}-input`}>
        {t('auth.emailLabel')}
      </label>
      <input
        ref={input}
        id={`${id}-input`}
        className="wk-input"
        type="email"
        dir="ltr"
        autoComplete="email"
        inputMode="email"
        placeholder={t('auth.emailPlaceholder')}
        value={value}
        onChange={(e) => setValue(e.currentTarget.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <ErrorText error={error} id={`${id}-error`} />
      <SendCodeButton pending={start.isPending} disabled={running && !start.isPending} />
    </form>
  );
}

/**
 * The contact forms' submit: "Continue", then "Sending code…" with a spinner while it is sent.
 * @example <SendCodeButton pending={start.isPending} disabled={running && !start.isPending} />
 */
export function SendCodeButton({ pending, disabled }: { pending: boolean; disabled: boolean }) {
  const { t } = useI18n();
  return (
    <button type="submit" className="wk-button" data-variant="primary" disabled={disabled} {...(pending ? { 'aria-busy': true, 'aria-disabled': true } : {})}>
      {pending && <Spinner />}
      {pending ? t('auth.sendingCode') : t('common.continue')}
    </button>
  );
}
