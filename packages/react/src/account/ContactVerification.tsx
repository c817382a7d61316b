import { type FormEvent, useId, useRef, useState } from 'react';
import { ErrorText } from '../auth/ErrorText.js';
import { isValidEmail } from '../auth/validation.js';
import { PhoneFields, usePhoneEntry } from '../auth/PhoneFields.js';
import { OtpInput } from '../components/OtpInput.js';
import { useI18n } from '../i18n/context.js';
import { useWalletKitConfig } from '../provider/hooks.js';
import { useStartContactVerification, useVerifyContact } from './hooks.js';

/** Props of {@link ContactVerification}. */
export interface ContactVerificationProps {
  kind: 'email' | 'phone';
  /** Verify this contact as it is (a saved, unverified one): the code is sent at once, no form. */
  contact?: string | undefined;
  /** The contact is verified and saved. */
  onDone: () => void;
  onCancel: () => void;
}

/** Why a phone number is refused, in the auth area's words (the same form rules as the login's). */
/**
 * Link, change or verify an email or phone number: the new contact (a phone with its country,
 * checked as the login form checks it), a one-time code sent to it, the code typed in the kit's
 * code cells; the contact is then saved as verified. A wrong code clears the cells and says so.
 * @example <ContactVerification kind="phone" onDone={() => say('Saved')} onCancel={close} />
 */
export function ContactVerification({ kind, contact: given, onDone, onCancel }: ContactVerificationProps) {
  const { t } = useI18n();
  const start = useStartContactVerification();
  const [sent, setSent] = useState<{ otpId: string; contact: string }>();
  const send = (contact: string) => start.mutate({ kind, contact }, { onSuccess: ({ otpId }) => setSent({ otpId, contact }) });
  // Saving a contact another account holds is refused with ERR_ALREADY_EXISTS: here that means exactly this.
  const taken = { ERR_ALREADY_EXISTS: t(kind === 'email' ? 'account.emailTaken' : 'account.phoneTaken') };
  if (sent) return <CodeStep sent={sent} onResend={() => send(sent.contact)} onDone={onDone} onCancel={onCancel} resendError={start.error} overrides={taken} />;
  if (given)
    return (
      <div className="wk-stack wk-account-form">
        <div className="wk-row">
          <button type="button" className="wk-button" data-variant="primary" disabled={start.isPending} onClick={() => send(given)}>
            {start.isPending ? t('account.sendingCode') : t('account.sendCode')}
          </button>
          <button type="button" className="wk-button" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        </div>
        <ErrorText error={start.error} />
      </div>
    );
  return kind === 'email' ? (
    <EmailForm busy={start.isPending} error={start.error} onSubmit={send} onCancel={onCancel} />
  ) : (
    <PhoneForm busy={start.isPending} error={start.error} onSubmit={send} onCancel={onCancel} />
  );
}

interface FormProps {
  busy: boolean;
  error: unknown;
  onSubmit: (contact: string) => void;
  onCancel: () => void;
}

function Buttons({ busy, onCancel }: { busy: boolean; onCancel: () => void }) {
  const { t } = useI18n();
  return (
    <div className="wk-row">
      <button type="submit" className="wk-button" data-variant="primary" disabled={busy}>
        {busy ? t('account.sendingCode') : t('account.sendCode')}
      </button>
      <button type="button" className="wk-button" onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </div>
  );
}

function EmailForm({ busy, error, onSubmit, onCancel }: FormProps) {
  const { t } = useI18n();
  const id = useId();
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const email = value.trim();
    if (!isValidEmail(email)) return setProblem(t('account.emailInvalid'));
    setProblem(undefined);
    onSubmit(email);
  };
  const shown = problem ?? error;
  return (
    <form className="wk-stack wk-account-form" onSubmit={submit} noValidate>
      <label className="wk-label" htmlFor={`${id}-email`}>
        {t('account.newEmail')}
      </label>
      <input
        id={`${id}-email`}
        className="wk-input"
        type="email"
        autoComplete="email"
        // biome-ignore lint/a11y/noAutofocus: the form replaces the button the user just pressed; the field is where they continue
        autoFocus
        value={value}
        aria-invalid={shown ? true : undefined}
        aria-describedby={shown ? `${id}-error` : undefined}
        onChange={(e) => setValue(e.currentTarget.value)}
      />
      <ErrorText error={shown} id={`${id}-error`} />
      <Buttons busy={busy} onCancel={onCancel} />
    </form>
  );
}

function PhoneForm({ busy, error, onSubmit, onCancel }: FormProps) {
  const { t } = useI18n();
  const id = useId();
  const entry = usePhoneEntry();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const e164 = entry.check();
    if (e164 !== undefined) onSubmit(e164);
  };
  return (
    <form className="wk-stack wk-account-form" onSubmit={submit} noValidate>
      <PhoneFields id={id} entry={entry} label={t('account.newPhone')} error={error} autoFocus />
      <Buttons busy={busy} onCancel={onCancel} />
    </form>
  );
}

/** The code step: the kit's code cells, checked when full; a wrong code clears them. */
function CodeStep({
  sent,
  onResend,
  onDone,
  onCancel,
  resendError,
  overrides,
}: {
  sent: { otpId: string; contact: string };
  onResend: () => void;
  onDone: () => void;
  onCancel: () => void;
  resendError: unknown;
  overrides: Readonly<Record<string, string>>;
}) {
  const { t } = useI18n();
  const id = useId();
  const config = useWalletKitConfig().data;
  const verify = useVerifyContact();
  const [code, setCode] = useState('');
  const checked = useRef<string>(undefined);
  const complete = (value: string) => {
    if (checked.current === value && verify.isPending) return;
    checked.current = value;
    verify.mutate({ otpId: sent.otpId, code: value }, { onSuccess: onDone, onError: () => setCode('') });
  };
  const error = verify.error ?? resendError;
  return (
    <div className="wk-stack wk-account-form">
      <p className="wk-hint" id={`${id}-sent`}>
        {t('account.codeSent', { contact: sent.contact })}
      </p>
      <OtpInput
        length={Number(config?.otpLength ?? 6)}
        alphanumeric={config?.otpAlphanumeric ?? false}
        label={t('account.codeLabel')}
        value={code}
        onChange={setCode}
        onComplete={complete}
        onResend={onResend}
        busy={verify.isPending}
        focusOnMount
        errorId={error ? `${id}-error` : undefined}
      />
      {verify.isPending && (
        <p className="wk-hint" role="status">
          {t('account.checkingCode')}
        </p>
      )}
      <ErrorText error={error} id={`${id}-error`} overrides={overrides} />
      <div className="wk-row">
        <button type="button" className="wk-button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </div>
  );
}
