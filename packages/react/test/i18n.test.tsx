// @vitest-environment happy-dom
/**
 * The kit's message catalog (src/i18n): locale resolution, interpolation, plural forms through
 * Intl.PluralRules (Arabic has six), exact amounts in each locale's digits, per-key overrides on
 * top of a lazily loaded locale, English under a key a catalog lacks, and kit roots carrying the
 * locale's lang and dir.
 */
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorText } from '../src/auth/ErrorText';
import { createTranslator, englishMessages, interpolate, LOCALES, loadLocale, resolveLocale } from '../src/i18n/catalog';
import { I18nProvider, useI18n } from '../src/i18n/context';
import { useKitRoot } from '../src/theme/theme';
import { failOnConsoleError } from './support/render';

failOnConsoleError();
afterEach(cleanup);

describe('the message catalog', () => {
  it('given tags, when resolved, then the shipped locale of their language, English otherwise', () => {
    expect(['de-AT', 'ar_EG', 'JA', 'fr', 'pt-BR', '', undefined].map(resolveLocale)).toEqual(['de', 'ar', 'ja', 'fr', 'en', 'en', 'en']);
  });

  it('given every shipped locale, when loaded, then it has every key of the English catalog and a text for each', async () => {
    for (const locale of LOCALES) {
      const messages = await loadLocale(locale);
      expect(Object.keys(messages).sort(), locale).toEqual(Object.keys(englishMessages).sort());
      for (const [key, text] of Object.entries(messages)) expect(text.trim().length, `${locale} ${key}`).toBeGreaterThan(0);
    }
  });

  it('given placeholders, when filled, then named values replace them and unknown ones stay as written', () => {
    expect(interpolate('Log in to {app} ({app})', { app: 'Acme' })).toBe('Log in to Acme (Acme)');
    expect(interpolate('{missing} stays', {})).toBe('{missing} stays');
  });

  it('given amounts in base units, when formatted in English, German, Arabic and Japanese, then each is exact in its own digits and separators', async () => {
    const eth = { decimals: 18, symbol: 'ETH' };
    const value = 1_234_567_890_123_456_789_012n; // 1234.567890123456789012 ETH: more digits than a double holds
    expect(createTranslator('en').amount(value, eth)).toBe('1,234.567890123456789012 ETH');
    expect(createTranslator('de', await loadLocale('de')).amount(value, eth)).toBe('1.234,567890123456789012 ETH');
    expect(createTranslator('ja', await loadLocale('ja')).amount(10n ** 16n, eth)).toBe('0.01 ETH');
    const arabic = createTranslator('ar', await loadLocale('ar')).amount(10n ** 16n, eth);
    expect(arabic.endsWith(' ETH')).toBe(true);
    expect(arabic).toBe(`${new Intl.NumberFormat('ar', { maximumFractionDigits: 18 }).format('0.01' as unknown as number)} ETH`);
  });

  it('given a plural message, when counted in Arabic and English, then the form of each count is chosen and the count is localized', () => {
    const forms = {
      'x.zero': 'zero {count}',
      'x.one': 'one {count}',
      'x.two': 'two {count}',
      'x.few': 'few {count}',
      'x.many': 'many {count}',
      'x.other': 'other {count}',
    };
    const ar = createTranslator('ar', englishMessages, forms as never);
    const en = createTranslator('en', englishMessages, forms as never);
    const key = 'x' as never;
    expect([0, 1, 2, 3, 11, 100].map((n) => ar.plural(key, n).split(' ')[0])).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
    expect(ar.plural(key, 3)).toBe(`few ${new Intl.NumberFormat('ar').format(3)}`);
    expect([0, 1, 2].map((n) => en.plural(key, n))).toEqual(['other 0', 'one 1', 'other 2']);
  });

  it('given overrides and a locale that lacks a key, when translated, then the override wins and English fills the gap', () => {
    const de = createTranslator('de', { ...englishMessages, 'common.close': 'Schließen' }, { 'common.cancel': 'Lieber nicht' });
    expect(de.t('common.close')).toBe('Schließen');
    expect(de.t('common.cancel')).toBe('Lieber nicht');
    expect(createTranslator('de', {} as never).t('common.back')).toBe('Back');
  });
});

function Probe() {
  const { t, locale, dir } = useI18n();
  const root = useKitRoot('probe');
  return (
    <div {...root} data-testid="root">
      {t('common.close')} {locale} {dir}
      <ErrorText error={{ code: 'ERR_OTP_INVALID' }} />
    </div>
  );
}

describe('I18nProvider', () => {
  it('given Arabic, when the kit renders, then it speaks English until the chunk is there, then Arabic with lang="ar" and dir="rtl" (errors too)', async () => {
    render(
      <I18nProvider locale="ar-EG">
        <Probe />
      </I18nProvider>,
    );
    const ar = await loadLocale('ar');
    await waitFor(() => expect(screen.getByTestId('root').textContent).toContain(ar['common.close']));
    const root = screen.getByTestId('root');
    expect(root.getAttribute('lang')).toBe('ar');
    expect(root.getAttribute('dir')).toBe('rtl');
    expect(screen.getByRole('alert').textContent).toBe(ar['error.ERR_OTP_INVALID']);
  });

  it('given no provider or English with overrides, when rendered, then English with the integrator`s words, left to right', () => {
    render(
      <I18nProvider messages={{ 'common.close': 'Dismiss' }}>
        <Probe />
      </I18nProvider>,
    );
    expect(screen.getByTestId('root').textContent).toContain('Dismiss en ltr');
    expect(screen.getByTestId('root').getAttribute('dir')).toBe('ltr');
  });
});
