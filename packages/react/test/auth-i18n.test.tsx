// @vitest-environment happy-dom
/**
 * The auth modal in another language: German (every visible text of the methods, the code step
 * and the success state) and Arabic (right to left: the dialog carries dir="rtl", its rules are
 * logical so the layout mirrors, while the email, phone and code stay left to right; the tries
 * left take Arabic's plural forms).
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthModal } from '../src/auth/AuthModal';
import { authCss } from '../src/auth/styles';
import { createFakeClient } from './support/fake-client';
import { expectNoAxeViolations, failOnConsoleError, renderWithKit } from './support/render';

failOnConsoleError();
afterEach(cleanup);

/** Visible texts and accessible names of the methods view, top to bottom. */
function methodTexts(): string[] {
  const list = screen.getByTestId('wk-auth-methods');
  return [...list.querySelectorAll('label, button, .wk-or')].map((el) => el.getAttribute('aria-label') ?? el.textContent ?? '');
}

describe('AuthModal in German', () => {
  it('given locale "de", when a user logs in by email with one wrong code, then every text on the way is German', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['email', 'sms', 'passkey', 'google', 'apple', 'x'], otpLength: '6' } });
    const onClose = vi.fn();
    renderWithKit(<AuthModal open onClose={onClose} />, client, {
      authModal: false,
      locale: 'de',
      legal: { termsUrl: '/agb', privacyUrl: '/datenschutz' },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Anmelden oder registrieren' });
    expect(dialog.getAttribute('lang')).toBe('de');
    await screen.findByTestId('wk-auth-methods');
    expect(methodTexts()).toEqual([
      'E-Mail',
      'Weiter',
      'oder',
      'Weiter mit Telefonnummer',
      'Mit Passkey anmelden',
      'Konto mit Passkey erstellen',
      'Weiter mit Google',
      'Weiter mit Apple',
      'Weiter mit X',
    ]);
    expect(within(dialog).getByRole('button', { name: 'Schließen' })).toBeTruthy();
    expect(screen.getByText(/Wenn du fortfährst/).textContent).toBe(
      'Wenn du fortfährst, stimmst du den Nutzungsbedingungen (öffnet in einem neuen Tab) und der Datenschutzerklärung (öffnet in einem neuen Tab) zu.',
    );
    await expectNoAxeViolations();

    await userEvent.type(screen.getByRole('textbox', { name: 'E-Mail' }), 'ada@example{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('Gib eine gültige E-Mail-Adresse ein, z. B. name@beispiel.de.');
    await userEvent.type(screen.getByRole('textbox', { name: 'E-Mail' }), '.com{Enter}');
    const first = await screen.findByRole('textbox', { name: 'Zeichen 1 von 6' });
    expect(screen.getByRole('group', { name: 'Einmalcode' })).toBeTruthy();
    expect(screen.getByText('ada@example.com').closest('p')?.textContent).toBe('Gib den Code ein, den wir an ada@example.com gesendet haben.');
    expect(screen.getByRole('button', { name: /^Code erneut senden in \d+ s$/ })).toBeTruthy();
    await userEvent.click(first);
    await userEvent.keyboard('000000');
    expect((await screen.findByRole('alert')).textContent).toBe('Falscher Code. Noch 2 Versuche.');
    await waitFor(() => expect(document.activeElement).toBe(first));
    await userEvent.keyboard('123456');
    expect((await screen.findByRole('status')).textContent).toBe('Du bist angemeldet.');
    await waitFor(() => expect(onClose).toHaveBeenCalled(), { timeout: 3000 });
  });
});

describe('AuthModal in Arabic', () => {
  it('given locale "ar", when opened, then the dialog is right to left in Arabic, the email field stays left to right, axe-clean', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['email', 'passkey', 'discord'] } });
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false, locale: 'ar' });
    const dialog = await screen.findByRole('dialog', { name: 'تسجيل الدخول أو إنشاء حساب' });
    expect(dialog.getAttribute('dir')).toBe('rtl');
    expect(dialog.getAttribute('lang')).toBe('ar');
    await screen.findByTestId('wk-auth-methods');
    expect(methodTexts()).toEqual(['البريد الإلكتروني', 'متابعة', 'أو', 'تسجيل الدخول بمفتاح مرور', 'إنشاء حساب بمفتاح مرور', 'المتابعة باستخدام Discord']);
    expect(screen.getByRole('textbox', { name: 'البريد الإلكتروني' }).getAttribute('dir')).toBe('ltr');
    expect(within(dialog).getByRole('button', { name: 'إغلاق' })).toBeTruthy();
    await expectNoAxeViolations();
  });

  it('given wrong codes in Arabic, when entered, then the tries left take the dual, then the singular; the code cells run left to right', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['email'], otpLength: '4' } });
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false, locale: 'ar' });
    await userEvent.type(await screen.findByRole('textbox', { name: 'البريد الإلكتروني' }), 'ada@example.com{Enter}');
    const group = await screen.findByRole('group', { name: 'رمز لمرة واحدة' });
    expect(group.getAttribute('dir')).toBe('ltr');
    const one = new Intl.NumberFormat('ar').format(1);
    const four = new Intl.NumberFormat('ar').format(4);
    const first = screen.getByRole('textbox', { name: `الحرف ${one} من ${four}` });
    await userEvent.click(first);
    await userEvent.keyboard('0000');
    expect((await screen.findByRole('alert')).textContent).toBe('الرمز غير صحيح. تتبقى محاولتان.');
    await waitFor(() => expect(document.activeElement).toBe(first));
    await userEvent.keyboard('1111');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('الرمز غير صحيح. تتبقى محاولة واحدة.'));
  });

  it('given a server allowing five tries, when one is wrong in Arabic, then "few" counts them in Arabic digits', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['email'], otpLength: '4' } });
    renderWithKit(<AuthModal open onClose={() => undefined} otpAttempts={5} />, client, { authModal: false, locale: 'ar' });
    await userEvent.type(await screen.findByRole('textbox', { name: 'البريد الإلكتروني' }), 'ada@example.com{Enter}');
    await screen.findByRole('group', { name: 'رمز لمرة واحدة' });
    await userEvent.keyboard('0000');
    expect((await screen.findByRole('alert')).textContent).toBe(`الرمز غير صحيح. تتبقى ${new Intl.NumberFormat('ar').format(4)} محاولات.`);
  });

  it('given the auth stylesheet, when read, then it mirrors by construction: logical properties only, every selector under .wk-root', () => {
    expect(authCss).not.toMatch(/(^|[^-])(left|right)\b/);
    expect(authCss).not.toMatch(/(margin|padding|border)-(top|bottom)\b/);
    expect(authCss).not.toContain('@keyframes');
    const selectors = authCss
      .replace(/@media[^{]*\{/g, '')
      .split('}')
      .map((rule) => rule.split('{')[0]!.trim())
      .filter(Boolean)
      .flatMap((s) => s.split(','));
    expect(selectors.length).toBeGreaterThan(10);
    for (const s of selectors) expect(s.trim(), s).toMatch(/^\.wk-root/);
  });
});
