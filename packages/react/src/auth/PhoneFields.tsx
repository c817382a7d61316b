import { type Ref, useMemo, useState } from 'react';
import type { MessageKey } from '../i18n/catalog.js';
import { useI18n } from '../i18n/context.js';
import { ErrorText } from './ErrorText.js';
import { checkPhone, type CountryCode, countryOptions, defaultCountry, formatAsTyped, type PhoneProblem } from './phone.js';

const problemKeys: Record<Exclude<PhoneProblem, 'empty' | 'unknownCountry'>, [named: MessageKey, any: MessageKey]> = {
  tooShort: ['auth.phoneTooShort', 'auth.phoneTooShortAny'],
  tooLong: ['auth.phoneTooLong', 'auth.phoneTooLongAny'],
  invalid: ['auth.phoneInvalid', 'auth.phoneInvalidAny'],
};

/** A phone number being entered: its country, its text, and the check before a code is sent. */
export interface PhoneEntry {
  countries: ReturnType<typeof countryOptions>;
  country: CountryCode | undefined;
  /** The user's pick ('' for none). */
  pick(country: CountryCode | ''): void;
  value: string;
  /** The text as typed, formatted for its country (a number typed with `+` picks its country). */
  type(text: string): void;
  /** What is wrong with the number, in the kit's language. */
  problem: string | undefined;
  /** The number in E.164, or undefined once `problem` says why not. */
  check(): string | undefined;
}

/**
 * The state of {@link PhoneFields}. Until the user picks a country (or types +<code>), it follows
 * the kit's language, which may arrive after the form (its catalog loads on demand).
 * @example const entry = usePhoneEntry(); const e164 = entry.check();
 */
export function usePhoneEntry(given?: string): PhoneEntry {
  const { t, locale } = useI18n();
  const countries = useMemo(() => countryOptions(locale), [locale]);
  const [picked, setPicked] = useState<CountryCode | ''>();
  const country = picked === undefined ? defaultCountry(locale, given) : picked || undefined;
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string>();
  return {
    countries,
    country,
    pick: (next) => {
      setPicked(next);
      setProblem(undefined);
    },
    value,
    type: (text) => {
      // Deleting keeps the text as it is (reformatting would put back the space just removed).
      if (text.length < value.length) return setValue(text);
      const typed = formatAsTyped(text, country);
      setValue(typed.text);
      if (typed.country && typed.country !== country) setPicked(typed.country);
    },
    problem,
    check: () => {
      const checked = checkPhone(value, country);
      if (checked.problem === undefined) {
        setProblem(undefined);
        if (checked.country) setPicked(checked.country);
        return checked.e164;
      }
      const name = countries.find((c) => c.code === checked.country)?.name;
      if (checked.problem === 'empty') setProblem(t('auth.phoneEmpty'));
      else if (checked.problem === 'unknownCountry') setProblem(t('auth.phoneUnknownCountry'));
      else {
        const [named, any] = problemKeys[checked.problem];
        setProblem(name ? t(named, { country: name }) : t(any));
      }
      return undefined;
    },
  };
}

/**
 * A country selector (names in the kit's language, calling codes shown) and the number, formatted
 * as typed, with what is wrong under it (the entry's problem, else `error`).
 * @example <PhoneFields id={id} entry={entry} label={t('auth.phoneLabel')} error={start.error} />
 */
export function PhoneFields({
  id,
  entry,
  label,
  error,
  inputRef,
  autoFocus,
}: {
  id: string;
  entry: PhoneEntry;
  label: string;
  error?: unknown;
  inputRef?: Ref<HTMLInputElement> | undefined;
  autoFocus?: boolean | undefined;
}) {
  const { t } = useI18n();
  const shown = entry.problem ?? error;
  return (
    <>
      <label className="wk-label" htmlFor={`${id}-country`}>
        {t('auth.countryLabel')}
      </label>
      <select id={`${id}-country`} className="wk-input" value={entry.country ?? ''} onChange={(e) => entry.pick(e.currentTarget.value as CountryCode | '')}>
        {!entry.country && <option value="">—</option>}
        {entry.countries.map((c) => (
          <option key={c.code} value={c.code}>
            {t('auth.countryOption', { country: c.name, code: c.callingCode })}
          </option>
        ))}
      </select>
      <label className="wk-label" htmlFor={`${id}-input`}>
        {label}
      </label>
      <input
        ref={inputRef}
        id={`${id}-input`}
        className="wk-input"
        type="tel"
        dir="ltr"
        autoComplete="tel"
        inputMode="tel"
        // biome-ignore lint/a11y/noAutofocus: only where the form replaces the button the user just pressed
        autoFocus={autoFocus}
        value={entry.value}
        onChange={(e) => entry.type(e.currentTarget.value)}
        aria-invalid={shown ? true : undefined}
        aria-describedby={shown ? `${id}-error` : undefined}
      />
      <ErrorText error={shown} id={`${id}-error`} />
    </>
  );
}
