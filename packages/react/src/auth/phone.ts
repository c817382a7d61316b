/**
 * Phone numbers for the phone form, through libphonenumber-js (its `min` metadata: every
 * country's calling code, lengths and formats, no number types). Only the lazily loaded phone
 * form imports this file, so the library stays out of the kit's first chunk.
 */
import { AsYouType, type CountryCode, getCountries, getCountryCallingCode, parsePhoneNumberFromString, validatePhoneNumberLength } from 'libphonenumber-js/min';

export type { CountryCode };

/** A country of the selector: its code, its name in the kit's language and its calling code. */
export interface CountryOption {
  code: CountryCode;
  name: string;
  callingCode: string;
}

/**
 * Every country the library knows, named in `locale` (`Intl.DisplayNames`) and sorted the
 * locale's way (`Intl.Collator`).
 * @example countryOptions('de').find((c) => c.code === 'DE') // { code: 'DE', name: 'Deutschland', callingCode: '49' }
 */
export function countryOptions(locale: string): CountryOption[] {
  const names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
  const collator = new Intl.Collator(locale);
  return getCountries()
    .map((code) => ({ code, name: names.of(code) ?? code, callingCode: getCountryCallingCode(code) }))
    .sort((a, b) => collator.compare(a.name, b.name));
}

const known = (code: string | undefined): CountryCode | undefined =>
  code && (getCountries() as string[]).includes(code.toUpperCase()) ? (code.toUpperCase() as CountryCode) : undefined;

/**
 * The country the form starts with: the integrator's, else the region of the first browser
 * language in the kit's language (`de-AT` for German: AT), else the kit language's likely
 * region (`Intl.Locale#maximize`: `de` -> DE, `en` -> US, `ar` -> EG), else none.
 * @example defaultCountry('de', undefined, ['en-US', 'de-AT']) // 'AT'
 */
export function defaultCountry(locale: string, given?: string, browser: readonly string[] = globalThis.navigator?.languages ?? []): CountryCode | undefined {
  const fromGiven = known(given);
  if (fromGiven) return fromGiven;
  for (const tag of browser) {
    try {
      const l = new Intl.Locale(tag);
      if (l.language === locale && known(l.region)) return known(l.region);
    } catch {
      // a malformed tag in the browser's list: skip it
    }
  }
  try {
    return known(new Intl.Locale(locale).maximize().region);
  } catch {
    return undefined;
  }
}

/**
 * The number as typed, formatted for reading (`AsYouType`): international when it starts with
 * `+` (and then the country it names), national in `country` otherwise.
 * @example formatAsTyped('+4915123456789') // { text: '+49 1512 3456789', country: 'DE' }
 */
export function formatAsTyped(text: string, country: CountryCode | undefined): { text: string; country: CountryCode | undefined } {
  const international = text.trim().startsWith('+');
  const typer = new AsYouType(international ? undefined : country);
  const formatted = typer.input(text);
  return { text: formatted, country: international ? (typer.getCountry() ?? country) : country };
}

/** Why a number is refused. */
export type PhoneProblem = 'empty' | 'unknownCountry' | 'tooShort' | 'tooLong' | 'invalid';

/**
 * The number in E.164 (`+4915123456789`) with its country, or why it is not a valid number.
 * @example checkPhone('01512 3456789', 'DE') // { e164: '+4915123456789', country: 'DE' }
 */
export function checkPhone(
  text: string,
  country: CountryCode | undefined,
): { e164: string; country: CountryCode | undefined; problem?: undefined } | { problem: PhoneProblem; country: CountryCode | undefined } {
  if (text.trim() === '') return { problem: 'empty', country };
  const international = text.trim().startsWith('+');
  if (!international && !country) return { problem: 'unknownCountry', country };
  const parsed = parsePhoneNumberFromString(text, international ? undefined : { defaultCountry: country! });
  // The country the message names: the number's own when it starts with + (undefined while a
  // shared calling code such as +1 cannot tell yet), else the one chosen.
  const named = parsed?.country ?? (international ? formatAsTyped(text, undefined).country : country);
  if (parsed?.isValid()) return { e164: parsed.number, country: named };
  switch (validatePhoneNumberLength(text, international ? undefined : country)) {
    case 'INVALID_COUNTRY':
      return { problem: 'unknownCountry', country };
    case 'TOO_SHORT':
      return { problem: 'tooShort', country: named };
    case 'TOO_LONG':
      return { problem: 'tooLong', country: named };
    default:
      return { problem: 'invalid', country: named };
  }
}
