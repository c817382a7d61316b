// @vitest-environment happy-dom
/**
 * The phone form (libphonenumber-js, loaded on demand): a country selector in the kit's
 * language with calling codes and a default from the locale's region, the number formatted as
 * typed, a wrong number refused with what is wrong, E.164 to the proxy.
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthModal } from '../src/auth/AuthModal';
import { checkPhone, countryOptions, defaultCountry, formatAsTyped } from '../src/auth/phone';
import { createFakeClient } from './support/fake-client';
import { expectNoAxeViolations, failOnConsoleError, renderWithKit } from './support/render';

failOnConsoleError();
afterEach(cleanup);

const country = () => screen.getByRole('combobox', { name: 'Country' }) as HTMLSelectElement;
const selected = () => country().selectedOptions[0]?.textContent;

describe('phone numbers', () => {
  it('given countries, when listed in German, then each is named in German with its calling code, sorted the German way', () => {
    const de = countryOptions('de');
    expect(de.find((c) => c.code === 'DE')).toEqual({ code: 'DE', name: 'Deutschland', callingCode: '49' });
    expect(de.find((c) => c.code === 'AT')?.name).toBe('Österreich');
    const names = de.map((c) => c.name);
    // "Österreich" sorts with O (the German collation), not after Z.
    expect(names.indexOf('Österreich')).toBeLessThan(names.indexOf('Polen'));
  });

  it('given locales and browser languages, when the form starts, then its country is the integrator`s, else the browser`s region in the kit`s language, else the language`s likely region', () => {
    expect(defaultCountry('de', 'ch', ['de-AT'])).toBe('CH');
    expect(defaultCountry('de', undefined, ['en-US', 'de-AT'])).toBe('AT');
    expect(defaultCountry('de', undefined, ['en-US'])).toBe('DE');
    expect(defaultCountry('en', undefined, [])).toBe('US');
    expect(defaultCountry('ja', undefined, [])).toBe('JP');
    expect(defaultCountry('ar', undefined, ['ar-MA'])).toBe('MA');
  });

  it('given numbers as typed, when formatted and checked, then national and international forms become E.164, and wrong ones say why', () => {
    expect(formatAsTyped('+4915123456789', 'US')).toEqual({ text: '+49 1512 3456789', country: 'DE' });
    expect(formatAsTyped('2015550123', 'US').text).toBe('(201) 555-0123');
    expect(checkPhone('01512 3456789', 'DE')).toEqual({ e164: '+4915123456789', country: 'DE' });
    expect(checkPhone('+44 20 7946 0958', 'DE')).toEqual({ e164: '+442079460958', country: 'GB' });
    expect(checkPhone('015', 'DE')).toEqual({ problem: 'tooShort', country: 'DE' });
    expect(checkPhone('0301', 'DE')).toEqual({ problem: 'invalid', country: 'DE' });
    expect(checkPhone('015123456789012345', 'DE')).toEqual({ problem: 'tooLong', country: 'DE' });
    expect(checkPhone('+999 1234567', 'DE').problem).toBe('unknownCountry');
    expect(checkPhone('  ', 'DE').problem).toBe('empty');
    expect(checkPhone('555 0100', undefined).problem).toBe('unknownCountry');
  });
});

describe('AuthModal phone form', () => {
  it('given phone only, when the user types a national number, then it is formatted as typed and the code goes to its E.164 form', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['sms'] } });
    renderWithKit(<AuthModal open onClose={() => undefined} defaultCountry="US" />, client, { authModal: false });
    const input = (await screen.findByRole('textbox', { name: 'Phone number' })) as HTMLInputElement;
    expect(selected()).toBe('United States (+1)');
    await userEvent.type(input, '2015550123');
    expect(input.value).toBe('(201) 555-0123');
    await expectNoAxeViolations();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('group', { name: 'One-time code' });
    expect(client.calls).toContainEqual(['startSmsOtp', '+12015550123']);
    expect(screen.getByText('+12015550123')).toBeTruthy();
  });

  it('given a number typed with + and its country code, when typed, then the selector follows the number`s country', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['sms'] } });
    renderWithKit(<AuthModal open onClose={() => undefined} defaultCountry="US" />, client, { authModal: false });
    await userEvent.type(await screen.findByRole('textbox', { name: 'Phone number' }), '+44 20 7946 0958');
    expect(selected()).toBe('United Kingdom (+44)');
    await userEvent.keyboard('{Enter}');
    await screen.findByRole('group', { name: 'One-time code' });
    expect(client.calls).toContainEqual(['startSmsOtp', '+442079460958']);
  });

  it('given a number too short for the chosen country, when submitted, then no code is sent and the message names the country', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['sms'] } });
    renderWithKit(<AuthModal open onClose={() => undefined} defaultCountry="US" />, client, { authModal: false });
    await screen.findByRole('textbox', { name: 'Phone number' });
    await userEvent.selectOptions(country(), 'DE');
    expect(selected()).toBe('Germany (+49)');
    await userEvent.type(screen.getByRole('textbox', { name: 'Phone number' }), '015{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('This number is too short for Germany. Check the digits.');
    expect(screen.getByRole('textbox', { name: 'Phone number' }).getAttribute('aria-invalid')).toBe('true');
    expect(client.calls.filter(([n]) => n === 'startSmsOtp')).toEqual([]);
    await expectNoAxeViolations();
  });

  it('given the kit in German, when the phone form shows, then countries are German, the default is Germany, and a wrong number is explained in German', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['sms'] } });
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false, locale: 'de' });
    const input = await screen.findByRole('textbox', { name: 'Telefonnummer' });
    await waitFor(() =>
      expect((screen.getByRole('combobox', { name: 'Land' }) as HTMLSelectElement).selectedOptions[0]?.textContent).toBe('Deutschland (+49)'),
    );
    await userEvent.type(input, '015{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('Diese Nummer ist zu kurz für Deutschland. Prüfe die Ziffern.');
  });
});
