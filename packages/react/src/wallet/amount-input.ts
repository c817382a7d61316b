import { parseUnits } from '../units.js';

/** Arabic-Indic (U+0660–0669) and Eastern Arabic-Indic (U+06F0–06F9) digits, as people in those locales type them. */
const LOCAL_DIGITS = /[\u0660-\u0669\u06f0-\u06f9]/g;

/** The character `locale` writes between whole and fraction ("," in German, "٫" in Arabic). */
export function decimalSeparator(locale: string): string {
  return new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
}

/** The Arabic decimal separator (U+066B), a decimal mark wherever it is typed. */
const ARABIC_DECIMAL = '\u066b';

/**
 * An amount as typed, in base units, or undefined when it is not a plain decimal number with at
 * most `decimals` fraction digits. The locale's digits and decimal separator are read as well as
 * ASCII, "." and "٫"; grouping separators are refused (a "1,000" could mean a thousand or one).
 * Exact: the text goes to `parseUnits`, never through a float.
 * @example parseAmountInput('0,25', 18, 'de') // 250_000_000_000_000_000n
 * @example parseAmountInput('٠٫٥', 18, 'ar') // 500_000_000_000_000_000n
 * @example parseAmountInput('1,000', 18, 'en') // undefined
 */
export function parseAmountInput(text: string, decimals: number, locale: string): bigint | undefined {
  const separator = decimalSeparator(locale);
  const ascii = text
    .trim()
    .replace(LOCAL_DIGITS, (d) => String((d.codePointAt(0)! - 0x0660) % 0x90))
    .split(separator)
    .join('.')
    .split(ARABIC_DECIMAL)
    .join('.');
  return parseUnits(ascii, decimals);
}
