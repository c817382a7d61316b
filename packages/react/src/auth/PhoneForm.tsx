import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { MessageKey } from '../i18n/catalog.js';
import { useI18n } from '../i18n/context.js';
import { useKitMutation } from '../provider/hooks.js';
import { smsOtpMutationOptions } from '../queries.js';
import type { OtpSent } from './ContactForm.js';
import { ErrorText } from './ErrorText.js';
import { LOGIN_MUTATION_KEY, useLoginRunning } from './flow.js';
import { Spinner } from './icons.js';
import { checkPhone, type CountryCode, countryOptions, defaultCountry, formatAsTyped, type PhoneProblem } from './phone.js';

const problemKeys: Record<Exclude<PhoneProblem, 'empty' | 'unknownCountry'>, [named: MessageKey, any: MessageKey]> = {
  tooShort: ['auth.phoneTooShort', 'auth.phoneTooShortAny'],
  tooLong: ['auth.phoneTooLong', 'auth.phoneTooLongAny'],
  invalid: ['auth.phoneInvalid', 'auth.phoneInvalidAny'],
};

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
  const { t, locale } = useI18n();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const countries = useMemo(() => countryOptions(locale), [locale]);
  // Until the user picks one (or types +<code>), the country follows the kit's language, which
  // may arrive after the form (its catalog loads on demand).
  const [picked, setCountry] = useState<CountryCode | ''>();
  const country = picked === undefined ? defaultCountry(locale, given) : picked || undefined;
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string>();
  const running = useLoginRunning();
  const start = useKitMutation((c) => ({ ...smsOtpMutationOptions(c), mutationKey: [...LOGIN_MUTATION_KEY, 'sms'] }));
  // biome-ignore lint/correctness/useExhaustiveDependencies: on mount only
  useEffect(() => {
    if (focusOnMount) input.current?.focus();
  }, []);

  const nameOf = (code: CountryCode | undefined) => countries.find((c) => c.code === code)?.name;

  const onType = (text: string) => {
    // Deleting keeps the text as it is (reformatting would put back the space just removed).
    if (text.length < value.length) return setValue(text);
    const typed = formatAsTyped(text, country);
    setValue(typed.text);
    if (typed.country && typed.country !== country) setCountry(typed.country);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (running) return;
    const checked = checkPhone(value, country);
    if (checked.problem !== undefined) {
      const name = nameOf(checked.country);
      if (checked.problem === 'empty') setProblem(t('auth.phoneEmpty'));
      else if (checked.problem === 'unknownCountry') setProblem(t('auth.phoneUnknownCountry'));
      else {
        const [named, any] = problemKeys[checked.problem];
        setProblem(name ? t(named, { country: name }) : t(any));
      }
      return;
    }
    setProblem(undefined);
    if (checked.country) setCountry(checked.country);
    const contact = checked.e164;
    start.mutate(contact, { onSuccess: ({ otpId }) => onSent({ kind: 'sms', contact, otpId }) });
  };

  const error = problem ?? start.error;
  return (
    <form className="wk-stack" onSubmit={submit} noValidate>
      <label className="wk-label" htmlFor={`${id}-country`}>
        {t('auth.countryLabel')}
      </label>
      <select
        id={`${id}-country`}
        className="wk-input"
        value={country ?? ''}
        onChange={(e) => {
          setCountry(e.currentTarget.value as CountryCode | '');
          setProblem(undefined);
        }}
      >
        {!country && <option value="">—</option>}
        {countries.map((c) => (
          <option key={c.code} value={c.code}>
            {t('auth.countryOption', { country: c.name, code: c.callingCode })}
          </option>
        ))}
      </select>
      <label className="wk-label" htmlFor={`${id}-input`}>
        {t('auth.phoneLabel')}
      </label>
      <input
        ref={input}
        id={`${id}-input`}
        className="wk-input"
        type="tel"
        dir="ltr"
        autoComplete="tel"
        inputMode="tel"
        value={value}
        onChange={(e) => onType(e.currentTarget.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <ErrorText error={error} id={`${id}-error`} />
      <button
        type="submit"
        className="wk-button"
        data-variant="primary"
        disabled={running && !start.isPending}
        {...(start.isPending ? { 'aria-busy': true, 'aria-disabled': true } : {})}
      >
        {start.isPending && <Spinner />}
        {start.isPending ? t('auth.sendingCode') : t('common.continue')}
      </button>
    </form>
  );
}
