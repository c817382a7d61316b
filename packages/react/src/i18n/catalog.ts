/**
 * The kit's one message catalog (decision 0024): every user-facing string is a key of the
 * English catalog (`en/`, bundled: it is also every other locale's fallback), translated in
 * `de/`, `es/`, `fr/`, `ja/` and `ar/` (each loaded on demand, its own chunk), and replaceable per
 * key by the integrator (`messages` of the provider). Messages hold `{name}` placeholders; plural
 * messages are keys ending in `.one`, `.other` (and `.zero`, `.two`, `.few`, `.many` where the
 * language has them), chosen by `Intl.PluralRules`. Numbers, amounts and dates go through `Intl`.
 */
import { formatUnits } from '../units.js';
import { messages as en } from './en/index.js';

/** Every message key, and the English text. */
export type Messages = { [K in keyof typeof en]: string };
export type MessageKey = keyof Messages;
/** Per-key replacements of the active locale's messages (the integrator's wording). */
export type MessageOverrides = Partial<Messages>;
/** The base of a plural message: `x` for keys `x.one` / `x.other`. */
export type PluralKey = MessageKey extends infer K ? (K extends `${infer B}.other` ? B : never) : never;

/** The locales the kit ships. */
export const LOCALES = ['en', 'de', 'es', 'fr', 'ja', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];
/** Written right to left: the kit mirrors its layout (`dir="rtl"`). */
export const RTL_LOCALES: ReadonlySet<Locale> = new Set<Locale>(['ar']);

export const englishMessages: Messages = en;

/**
 * The shipped locale for a BCP 47 tag (`de-AT` -> `de`), English for anything else; `auto`
 * takes the browser's preferred languages.
 * @example resolveLocale('ar-EG') // 'ar'
 */
export function resolveLocale(tag: string | undefined): Locale {
  const candidates = tag === 'auto' ? (typeof navigator === 'undefined' ? [] : [...(navigator.languages ?? []), navigator.language]) : tag ? [tag] : [];
  for (const candidate of candidates) {
    const base = candidate?.toLowerCase().split(/[-_]/)[0];
    if (base && (LOCALES as readonly string[]).includes(base)) return base as Locale;
  }
  return 'en';
}

const loaders: Record<Exclude<Locale, 'en'>, () => Promise<{ messages: Messages }>> = {
  de: () => import('./de/index.js'),
  es: () => import('./es/index.js'),
  fr: () => import('./fr/index.js'),
  ja: () => import('./ja/index.js'),
  ar: () => import('./ar/index.js'),
};

/**
 * The catalog of `locale` (a chunk of its own, fetched once).
 * @example const de = await loadLocale('de');
 */
export async function loadLocale(locale: Locale): Promise<Messages> {
  if (locale === 'en') return en;
  return (await loaders[locale]()).messages;
}

/** Values for a message's `{name}` placeholders. */
export type MessageValues = Record<string, string | number>;

/** `{name}` replaced by `values.name` (a placeholder without a value stays as written). */
export function interpolate(template: string, values?: MessageValues): string {
  if (!values) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** What the kit's components use to speak: messages, plurals and `Intl` formatting of one locale. */
export interface Translator {
  locale: Locale;
  dir: 'ltr' | 'rtl';
  /** The message of `key` with its placeholders filled. */
  t(key: MessageKey, values?: MessageValues): string;
  /** Whether the catalog has `key` (for keys built at run time, such as `error.<code>`). */
  has(key: string): boolean;
  /** The plural form of `key` for `count` (`{count}` is filled with the localized number). */
  plural(key: PluralKey, count: number, values?: MessageValues): string;
  /** A number in the locale's digits and grouping. */
  number(value: number, options?: Intl.NumberFormatOptions): string;
  /**
   * Base units (wei, lamports) as the locale writes the exact decimal amount, with its symbol.
   * @example amount(10n ** 16n, { decimals: 18, symbol: 'ETH' }) // 'de': '0,01 ETH'
   */
  amount(value: bigint, currency: { decimals: number; symbol: string }): string;
  /** A date (and time) in the locale's words. */
  date(value: Date | number, options?: Intl.DateTimeFormatOptions): string;
}

/**
 * A translator over `messages` (the locale's, or English while it loads), with `overrides` on top
 * and English under any key a catalog lacks.
 * @example createTranslator('de', deMessages).t('common.close') // 'Schließen'
 */
export function createTranslator(locale: Locale, messages: Messages = en, overrides?: MessageOverrides): Translator {
  const lookup = (key: string): string | undefined =>
    (overrides as Record<string, string | undefined> | undefined)?.[key] ??
    (messages as Record<string, string | undefined>)[key] ??
    (en as Record<string, string | undefined>)[key];
  const numbers = new Intl.NumberFormat(locale);
  const plurals = new Intl.PluralRules(locale);
  const translator: Translator = {
    locale,
    dir: RTL_LOCALES.has(locale) ? 'rtl' : 'ltr',
    t: (key, values) => interpolate(lookup(key) ?? key, values),
    has: (key) => lookup(key) !== undefined,
    plural: (key, count, values) => {
      const form = plurals.select(count);
      const template = lookup(`${key}.${form}`) ?? lookup(`${key}.other`) ?? key;
      return interpolate(template, { ...values, count: numbers.format(count) });
    },
    number: (value, options) => (options ? new Intl.NumberFormat(locale, options) : numbers).format(value),
    amount: (value, currency) => {
      // Exact: the decimal text goes to Intl as a string (no float in between).
      const exact = formatUnits(value, currency.decimals);
      const digits = new Intl.NumberFormat(locale, { maximumFractionDigits: Math.min(currency.decimals, 100) }).format(exact as unknown as number);
      return `${digits} ${currency.symbol}`;
    },
    date: (value, options) => new Intl.DateTimeFormat(locale, options ?? { dateStyle: 'medium', timeStyle: 'short' }).format(value),
  };
  return translator;
}
