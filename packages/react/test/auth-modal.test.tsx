// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthModal } from '../src/auth/AuthModal';
import { resolveAuthMethods } from '../src/auth/methods';
import { isValidEmail, toE164 } from '../src/auth/validation';
import { createFakeClient } from './support/fake-client';
import { expectNoAxeViolations, failOnConsoleError, renderWithKit } from './support/render';

failOnConsoleError();
afterEach(cleanup);

/** Visible method labels, top to bottom. */
async function methodLabels(): Promise<string[]> {
  const list = await screen.findByTestId('wk-auth-methods');
  return within(list)
    .getAllByRole('button')
    .map((b) => b.textContent ?? '');
}

describe('AuthModal methods', () => {
  it('given a config enabling sms, google and email, when opened, then exactly those show, email first', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['sms', 'google', 'email'] } });
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false });
    expect(await methodLabels()).toEqual(['Continue with email', 'Continue with phone', 'Continue with Google']);
    expect(screen.getByRole('dialog', { name: 'Log in to Demo' })).toBeTruthy();
    await expectNoAxeViolations();
  });

  it('given every method enabled, when opened, then the order is email, phone, passkey, Google, Apple, X, Discord, wallet', async () => {
    const client = createFakeClient();
    const announce = () =>
      window.dispatchEvent(
        new CustomEvent('eip6963:announceProvider', {
          detail: { info: { uuid: 'u1', name: 'Test Wallet', icon: 'data:image/svg+xml,<svg/>', rdns: 'test' }, provider: { request: async () => null } },
        }),
      );
    window.addEventListener('eip6963:requestProvider', announce);
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false });
    await screen.findByRole('button', { name: 'Continue with Test Wallet' });
    window.removeEventListener('eip6963:requestProvider', announce);
    expect(await methodLabels()).toEqual([
      'Continue with email',
      'Continue with phone',
      'Log in with a passkey',
      'Sign up with a passkey',
      'Continue with Google',
      'Continue with Apple',
      'Continue with X',
      'Continue with Discord',
      'Continue with Test Wallet',
    ]);
    await expectNoAxeViolations();
  });

  it('given local overrides, when resolved, then methods only hide enabled ones and order puts its entries first', () => {
    const config = { enabledProviders: ['email', 'passkey', 'google'] as const };
    expect(resolveAuthMethods({ enabledProviders: [...config.enabledProviders] }, { methods: ['google', 'passkey', 'apple'], order: ['google'] })).toEqual([
      'google',
      'passkey',
    ]);
  });

  it('given the config request is refused for the origin, when opened, then an actionable message shows', async () => {
    const client = createFakeClient();
    client.failNext('walletKitConfig', 'ERR_ORIGIN_NOT_ALLOWED');
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false });
    expect((await screen.findByRole('alert')).textContent).toBe('This site is not allowed to use this login. Ask the site owner to add its origin.');
  });
});

describe('AuthModal email and phone', () => {
  it('given input checks, then emails and E.164 numbers are told apart from typos', () => {
    expect(isValidEmail('ada@example.com')).toBe(true);
    expect(isValidEmail('ada@example')).toBe(false);
    expect(toE164('+1 (415) 555-0100')).toBe('+14155550100');
    expect(toE164('0415 555 0100')).toBeUndefined();
  });

  it('given a malformed email, when submitted, then no code is sent and the field explains the format', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['email'] } });
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false });
    await userEvent.type(await screen.findByRole('textbox', { name: 'Email' }), 'ada@example{Enter}');
    const input = screen.getByRole('textbox', { name: 'Email' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toContain('Enter a valid email address');
    expect(client.calls.filter(([n]) => n === 'startEmailOtp')).toEqual([]);
    await expectNoAxeViolations();
  });

  it('given a phone number with spaces, when submitted, then the code goes to its E.164 form', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['sms'] } });
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false });
    await userEvent.type(await screen.findByRole('textbox', { name: 'Phone number' }), '+44 20 7946 0958{Enter}');
    await screen.findByRole('group', { name: 'One-time code' });
    expect(client.calls).toContainEqual(['startSmsOtp', '+442079460958']);
  });

  it('given keyboard only, when the user enters an email and the code, then the session is authenticated and the modal closes', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['email', 'passkey'], otpLength: '6' } });
    const onClose = vi.fn();
    renderWithKit(<AuthModal open onClose={onClose} />, client, { authModal: false });
    await screen.findByRole('textbox', { name: 'Email' });
    // Tab from the dialog's close button to the email field, type, submit with Enter.
    screen.getByRole('button', { name: 'Close' }).focus();
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Email' }));
    await userEvent.keyboard('ada@example.com{Enter}');
    const first = await screen.findByRole('textbox', { name: 'Character 1 of 6' });
    expect(screen.getByText('ada@example.com')).toBeTruthy();
    first.focus();
    await userEvent.keyboard('123456');
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(client.session.getState().status).toBe('authenticated');
    expect(client.calls).toContainEqual(['completeOtp', { otpId: expect.any(String), code: '123456' }]);
  });

  it('given a wrong code, when entered, then the error says so, the cells clear, and a resend issues a new code id', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const client = createFakeClient({ config: { enabledProviders: ['email'], otpLength: '4', otpAlphanumeric: true } });
      renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false });
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      await user.type(await screen.findByRole('textbox', { name: 'Email' }), 'ada@example.com{Enter}');
      const first = await screen.findByRole('textbox', { name: 'Character 1 of 4' });
      expect((first as HTMLInputElement).inputMode).toBe('text');
      await user.click(first);
      await user.keyboard('ZZZZ');
      expect((await screen.findByRole('alert')).textContent).toBe('That code is wrong or has expired. Check it, or send a new code.');
      expect((first as HTMLInputElement).value).toBe('');
      vi.advanceTimersByTime(31_000);
      await user.click(await screen.findByRole('button', { name: 'Resend code' }));
      await waitFor(() => expect(client.calls.filter(([n]) => n === 'startEmailOtp')).toHaveLength(2));
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('AuthModal passkeys and OAuth', () => {
  it('given Google enabled, when its button is clicked, then the client is called synchronously inside the click', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['google'] } });
    const onClose = vi.fn();
    renderWithKit(<AuthModal open onClose={onClose} />, client, { authModal: false });
    const button = await screen.findByRole('button', { name: 'Continue with Google' });
    fireEvent.click(button);
    // No await between the click and this assertion: the popup would open in the gesture.
    expect(client.calls).toContainEqual(['logInWithOAuth:sync', 'google']);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('given a blocked popup, when the login fails, then the message says how to allow it', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['discord'] } });
    client.failNext('logInWithOAuth', 'ERR_POPUP_BLOCKED');
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false });
    await userEvent.click(await screen.findByRole('button', { name: 'Continue with Discord' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your browser blocked the sign-in window. Allow pop-ups for this site, then try again.');
  });

  it('given passkeys enabled, when sign-up then log-in are used, then each calls its client flow and authenticates', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['passkey'] } });
    const onClose = vi.fn();
    renderWithKit(<AuthModal open onClose={onClose} />, client, { authModal: false });
    client.failNext('signUpWithPasskey', 'ERR_PASSKEY_CANCELLED');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign up with a passkey' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The passkey prompt was cancelled or timed out. Try again when ready.');
    await userEvent.click(screen.getByRole('button', { name: 'Log in with a passkey' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(client.session.getState().status).toBe('authenticated');
  });
});
