import { useEffect, useId, useRef, type FormEvent } from 'react';
import { useI18n } from '../i18n/context.js';
import { useKitMutation } from '../provider/hooks.js';
import { smsOtpMutationOptions } from '../queries.js';
import { type OtpSent, SendCodeButton } from './ContactForm.js';
import { LOGIN_MUTATION_KEY, useLoginRunning } from './flow.js';
import { PhoneFields, usePhoneEntry } from './PhoneFields.js';

/**
 * The phone form (loaded on demand with libphonenumber-js): a country selector (names in the
 * kit's language, calling codes shown, the default from the locale's region), the number
 * formatted as typed (a number typed with `+` picks its country), checked before a code is
 * sent (too short, too long, not a number of that country: each said), E.164 to the proxy.
 * @example <PhoneForm onSent={(sent) => setStep(sent)} />
 */
export function PhoneForm({
  onSent,
  focusOnMount,
  defaultCountry: given,
}: {
  onSent: (sent: OtpSent) => void;
  focusOnMount?: boolean | undefined;
  defaultCountry?: string | undefined;
}) {
  const { t } = useI18n();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const entry = usePhoneEntry(given);
  const running = useLoginRunning();
  const start = useKitMutation((c) => ({ ...smsOtpMutationOptions(c), mutationKey: [...LOGIN_MUTATION_KEY, 'sms'] }));
  // biome-ignore lint/correctness/useExhaustiveDependencies: on mount only
  useEffect(() => {
    if (focusOnMount) input.current?.focus();
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (running) return;
    const contact = entry.check();
    if (contact === undefined) return;
    start.mutate(contact, { onSuccess: ({ otpId }) => onSent({ kind: 'sms', contact, otpId }) });
  };

  return (
    <form className="wk-stack" onSubmit={submit} noValidate>
      <PhoneFields id={id} entry={entry} label={t('auth.phoneLabel')} error={start.error} inputRef={input} />
      <SendCodeButton pending={start.isPending} disabled={running && !start.isPending} />
    </form>
  );
}
