import { createTranslator, type Translator } from '../i18n/catalog.js';

/**
 * The English translator: what the pure decoders speak when no translator is passed (the dialog
 * passes the kit's, so they speak its language).
 */
export const english: Translator = createTranslator('en');

/**
 * An exact integer (token base units, a nonce-free count) in the locale's digits and grouping:
 * a bigint goes to `Intl.NumberFormat` as it is, never through a float.
 * @example integerText(2_500_000n, english) // '2,500,000'
 */
export function integerText(value: bigint, translator: Translator = english): string {
  return new Intl.NumberFormat(translator.locale).format(value);
}
