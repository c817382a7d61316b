// @vitest-environment happy-dom
/**
 * The auth modal as a user meets it: the app's logo and name, one primary path (the email field)
 * and an "or" before the other methods in the configured order, social buttons with their marks,
 * browser wallets only when announced, the legal line, a success state before it closes, and
 * errors that say what to do.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthModal } from '../src/auth/AuthModal';
import { resolveAuthMethods } from '../src/auth/methods';
import { isValidEmail } from '../src/auth/validation';
import { createFakeClient } from './support/fake-client';
import { expectNoAxeViolations, failOnConsoleError, renderWithKit } from './support/render';

failOnConsoleError();
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** The methods view's controls, top to bottom: each button's accessible name, and the "or" rule. */
async function methodView(): Promise<string[]> {
  const list = await screen.findByTestId('wk-auth-methods');
  return [...list.querySelectorAll('button, input, .wk-or')].map((el) =>
    el.classList.contains('wk-or')
      ? '— or —'
      : el.tagName === 'INPUT'
        ? `[${el.getAttribute('type')}]`
        : (el.getAttribute('aria-label') ?? el.textContent ?? ''),
  );
}

function announceWallet(name: string, icon = 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>'): () => void {
  const announce = () =>
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', {
        detail: { info: { uuid: `uuid-${name}`, name, icon, rdns: 'test.wallet' }, provider: { request: async () => null } },
      }),
    );
  window.addEventListener('eip6963:requestProvider', announce);
  return () => window.removeEventListener('eip6963:requestProvider', announce);
}

/** A promise the test settles, for a login step that is still running. */
function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('AuthModal header and footer', () => {
  it('given the config names the app and its logo, when opened, then the logo (alt = the name), the heading and the close button show, axe-clean', async () => {
    const client = createFakeClient({ config: { appName: 'Acme', logoUrl: 'https://acme.example/logo.svg' } });
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false });
    const dialog = await screen.findByRole('dialog', { name: 'Log in or sign up' });
    expect((await within(dialog).findByRole('img', { name: 'Acme' })).getAttribute('src')).toBe('https://acme.example/logo.svg');
    expect(within(dialog).getByRole('heading', { name: 'Log in or sign up' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeTruthy();
    await screen.findByTestId('wk-auth-methods');
    await expectNoAxeViolations();
  });

  it('given the provider`s appName and logoUrl, when opened, then they win over the config`s; a logo that fails to load leaves the name and no image', async () => {
    const client = createFakeClient({ config: { appName: 'Demo', logoUrl: 'https://demo.example/logo.png' } });
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false, appName: 'Shop', logoUrl: 'https://shop.example/broken.png' });
    const logo = await screen.findByRole('img', { name: 'Shop' });
    expect(logo.getAttribute('src')).toBe('https://shop.example/broken.png');
    fireEvent.error(logo);
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.getByText('Shop')).toBeTruthy();
    expect(screen.queryByText('Demo')).toBeNull();
  });

  it('given no logo anywhere, when opened, then the app`s name shows and there is no image at all', async () => {
    const client = createFakeClient({ config: { appName: 'Demo' } });
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false });
    await screen.findByTestId('wk-auth-methods');
    expect(screen.getByText('Demo')).toBeTruthy();
    expect(document.querySelector('dialog img')).toBeNull();
  });

  it('given terms and privacy URLs, when opened, then the footer links both, each to a new tab without the opener; with one URL, only that link; with none, no footer', async () => {
    const client = createFakeClient();
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, {
      authModal: false,
      legal: { termsUrl: 'https://acme.example/terms', privacyUrl: 'https://acme.example/privacy' },
    });
    await screen.findByTestId('wk-auth-methods');
    const terms = screen.getByRole('link', { name: 'Terms (opens in a new tab)' });
    const privacy = screen.getByRole('link', { name: 'Privacy Policy (opens in a new tab)' });
    expect(terms.getAttribute('href')).toBe('https://acme.example/terms');
    expect(privacy.getAttribute('href')).toBe('https://acme.example/privacy');
    for (const link of [terms, privacy]) {
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    }
    expect(terms.parentElement?.textContent).toBe('By continuing you agree to the Terms (opens in a new tab) and the Privacy Policy (opens in a new tab).');
    await expectNoAxeViolations();
    cleanup();

    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false, legal: { privacyUrl: '/privacy' } });
    await screen.findByTestId('wk-auth-methods');
    expect(screen.getAllByRole('link').map((a) => a.textContent)).toEqual(['Privacy Policy (opens in a new tab)']);
    cleanup();

    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false });
    await screen.findByTestId('wk-auth-methods');
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.queryByText(/By continuing/)).toBeNull();
  });
});

describe('AuthModal methods', () => {
  it('given every method enabled and a browser wallet, when opened, then the email field leads, then "or", phone, passkey, the four providers as marks, the wallet', async () => {
    const stop = announceWallet('Test Wallet');
    const client = createFakeClient();
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false });
    await screen.findByRole('button', { name: 'Continue with Test Wallet' });
    stop();
    expect(await methodView()).toEqual([
      '[email]',
      'Continue',
      '— or —',
      'Continue with phone',
      'Log in with a passkey',
      'Create a passkey account',
      'Continue with Google',
      'Continue with Apple',
      'Continue with X',
      'Continue with Discord',
      'Continue with Test Wallet',
    ]);
    expect(screen.getByRole('button', { name: 'Continue' }).getAttribute('data-variant')).toBe('primary');
    // More than two providers side by side: a row of marks, each named (and titled) by its sentence.
    const google = screen.getByRole('button', { name: 'Continue with Google' });
    expect(google.textContent).toBe('');
    expect(google.getAttribute('title')).toBe('Continue with Google');
    expect(google.querySelector('svg[aria-hidden="true"]')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue with Test Wallet' }).querySelector('img')?.getAttribute('alt')).toBe('');
    await expectNoAxeViolations();
  });

  it('given two providers and an order putting them first, when opened, then the first leads as the primary button and the second is a full labelled button after "or"', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['email', 'google', 'discord'] } });
    renderWithKit(<AuthModal open onClose={() => undefined} order={['discord', 'google']} />, client, { authModal: false });
    expect(await methodView()).toEqual(['Continue with Discord', '— or —', 'Continue with Google', 'Continue with email']);
    expect(screen.getByRole('button', { name: 'Continue with Discord' }).getAttribute('data-variant')).toBe('primary');
    expect(screen.getByRole('button', { name: 'Continue with Google' }).textContent).toBe('Continue with Google');
  });

  it('given email off, when opened, then the first enabled method leads (the passkey, primary) and phone is a button that opens its form', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['passkey', 'sms'] } });
    renderWithKit(<AuthModal open onClose={() => undefined} order={['passkey']} />, client, { authModal: false });
    expect(await methodView()).toEqual(['Log in with a passkey', 'Create a passkey account', '— or —', 'Continue with phone']);
    expect(screen.getByRole('button', { name: 'Log in with a passkey' }).getAttribute('data-variant')).toBe('primary');
    await userEvent.click(screen.getByRole('button', { name: 'Continue with phone' }));
    const phone = await screen.findByRole('textbox', { name: 'Phone number' });
    // The form takes focus once it is shown (an effect after the render that showed it).
    await waitFor(() => expect(document.activeElement).toBe(phone));
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await methodView()).toEqual(['Log in with a passkey', 'Create a passkey account', '— or —', 'Continue with phone']);
  });

  it('given the wallet method enabled and no wallet announced, when opened, then nothing about wallets takes a slot', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['email', 'wallet'] } });
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false });
    await screen.findByTestId('wk-auth-methods');
    // Discovery waits 200 ms for announcements.
    await new Promise((r) => setTimeout(r, 300));
    expect(await methodView()).toEqual(['[email]', 'Continue']);
    expect(screen.queryByText(/wallet/i)).toBeNull();
  });

  it('given local overrides, when resolved, then methods only hide enabled ones and order puts its entries first', () => {
    expect(resolveAuthMethods({ enabledProviders: ['email', 'passkey', 'google'] }, { methods: ['google', 'passkey', 'apple'], order: ['google'] })).toEqual([
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

describe('AuthModal email and code', () => {
  it('given input checks, then emails are told apart from typos', () => {
    expect(isValidEmail('ada@example.com')).toBe(true);
    expect(isValidEmail('ada@example')).toBe(false);
  });

  it('given a malformed email, when submitted, then no code is sent and the field explains the format', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['email'] } });
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false });
    await userEvent.type(await screen.findByRole('textbox', { name: 'Email' }), 'ada@example{Enter}');
    const input = screen.getByRole('textbox', { name: 'Email' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe('Enter a valid email address, like name@example.com.');
    expect(client.calls.filter(([n]) => n === 'startEmailOtp')).toEqual([]);
    await expectNoAxeViolations();
  });

  it('given keyboard only, when the user enters an email and the code, then the session is authenticated, "You are logged in." shows, then the modal closes', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['email', 'passkey'], otpLength: '6' } });
    const onClose = vi.fn();
    renderWithKit(<AuthModal open onClose={onClose} />, client, { authModal: false });
    await screen.findByRole('textbox', { name: 'Email' });
    // Tab from the dialog's close button to the email field, type, submit with Enter.
    screen.getByRole('button', { name: 'Close' }).focus();
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Email' }));
    await userEvent.keyboard('ada@example.com{Enter}');
    // The code step takes focus on its first cell.
    const first = await screen.findByRole('textbox', { name: 'Character 1 of 6' });
    await waitFor(() => expect(document.activeElement).toBe(first));
    expect(screen.getByText('ada@example.com').closest('p')?.textContent).toBe('Enter the code we sent to ada@example.com.');
    await userEvent.keyboard('123456');
    expect((await screen.findByRole('status')).textContent).toBe('You are logged in.');
    expect(client.session.getState().status).toBe('authenticated');
    expect(onClose).not.toHaveBeenCalled();
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1), { timeout: 3000 });
    expect(client.calls).toContainEqual(['completeOtp', { otpId: expect.any(String), code: '123456' }]);
  });

  it('given a code being sent, when the request runs, then its button is busy, says so, and the other methods are disabled', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['email', 'google'] } });
    const pending = deferred();
    const start = client.auth.startEmailOtp;
    client.auth.startEmailOtp = async (email) => {
      await pending.promise;
      return start(email);
    };
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false });
    await userEvent.type(await screen.findByRole('textbox', { name: 'Email' }), 'ada@example.com{Enter}');
    const sending = await screen.findByRole('button', { name: 'Sending code…' });
    expect(sending.getAttribute('aria-busy')).toBe('true');
    expect((screen.getByRole('button', { name: 'Continue with Google' }) as HTMLButtonElement).disabled).toBe(true);
    pending.resolve();
    await screen.findByRole('group', { name: 'One-time code' });
  });

  it('given wrong codes, when entered, then each says the tries left (plural), the last leaves the code used up with "Send a new code", which issues a new code that works', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['email'], otpLength: '4' } });
    const onClose = vi.fn();
    renderWithKit(<AuthModal open onClose={onClose} />, client, { authModal: false });
    await userEvent.type(await screen.findByRole('textbox', { name: 'Email' }), 'ada@example.com{Enter}');
    const cell = () => screen.getByRole('textbox', { name: 'Character 1 of 4' }) as HTMLInputElement;
    await screen.findByRole('textbox', { name: 'Character 1 of 4' });
    await userEvent.click(cell());
    await userEvent.keyboard('1111');
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong code. 2 tries left.');
    // The cells clear and focus is back on the first one.
    await waitFor(() => expect(document.activeElement).toBe(cell()));
    expect(cell().value).toBe('');
    await userEvent.keyboard('2222');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Wrong code. 1 try left.'));
    await waitFor(() => expect(document.activeElement).toBe(cell()));
    await userEvent.keyboard('3333');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Too many wrong tries: this code no longer works. Send a new code.'));
    expect(cell().disabled).toBe(true);
    const sendNew = screen.getByRole('button', { name: 'Send a new code' });
    await waitFor(() => expect(document.activeElement).toBe(sendNew));
    // Three tries, never a fourth: the server would answer ERR_OTP_ATTEMPTS_EXCEEDED.
    expect(client.calls.filter(([n]) => n === 'completeOtp')).toHaveLength(3);

    await userEvent.click(sendNew);
    await waitFor(() => expect(client.calls.filter(([n]) => n === 'startEmailOtp')).toHaveLength(2));
    await waitFor(() => expect(cell().disabled).toBe(false));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('A new code is on its way.');
    client.otpCode = '4444';
    await userEvent.click(cell());
    await userEvent.keyboard('4444');
    await waitFor(() => expect(onClose).toHaveBeenCalled(), { timeout: 3000 });
    const completes = client.calls.filter(([n]) => n === 'completeOtp').map(([, input]) => (input as { otpId: string }).otpId);
    expect(new Set(completes).size).toBe(2);
  });

  it('given the server refuses the code as used up (a lower limit than counted), when entered, then the step offers a new code at once', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['email'], otpLength: '4' } });
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false });
    await userEvent.type(await screen.findByRole('textbox', { name: 'Email' }), 'ada@example.com{Enter}');
    await userEvent.click(await screen.findByRole('textbox', { name: 'Character 1 of 4' }));
    client.failNext('completeOtp', 'ERR_OTP_ATTEMPTS_EXCEEDED');
    await userEvent.keyboard('1234');
    expect((await screen.findByRole('alert')).textContent).toBe('Too many wrong tries: this code no longer works. Send a new code.');
    expect(screen.getByRole('button', { name: 'Send a new code' })).toBeTruthy();
  });

  it('given the resend countdown, when 30 s pass, then "Resend code" issues a new code id; pasting a code still fills every cell', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const client = createFakeClient({ config: { enabledProviders: ['email'], otpLength: '6', otpAlphanumeric: true } });
    const onClose = vi.fn();
    renderWithKit(<AuthModal open onClose={onClose} />, client, { authModal: false });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.type(await screen.findByRole('textbox', { name: 'Email' }), 'ada@example.com{Enter}');
    const first = await screen.findByRole('textbox', { name: 'Character 1 of 6' });
    expect((first as HTMLInputElement).inputMode).toBe('text');
    expect(screen.getByRole('button', { name: /^Resend code in \d+s$/ })).toBeTruthy();
    vi.advanceTimersByTime(31_000);
    await user.click(await screen.findByRole('button', { name: 'Resend code' }));
    await waitFor(() => expect(client.calls.filter(([n]) => n === 'startEmailOtp')).toHaveLength(2));
    await user.click(await screen.findByRole('textbox', { name: 'Character 1 of 6' }));
    await user.paste(' 123 456 ');
    await waitFor(() => expect(client.session.getState().status).toBe('authenticated'));
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
    await waitFor(() => expect(onClose).toHaveBeenCalled(), { timeout: 3000 });
  });

  it('given a popup in progress, when waiting, then that provider`s button is busy, a status names it, and the other methods are disabled', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['email', 'google', 'apple', 'x', 'passkey'] } });
    const pending = deferred();
    client.auth.logInWithOAuth = () => pending.promise;
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false });
    await userEvent.click(await screen.findByRole('button', { name: 'Continue with Apple' }));
    expect(screen.getByRole('button', { name: 'Continue with Apple' }).getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('status').textContent).toBe('Waiting for Apple…');
    for (const name of ['Continue with Google', 'Continue with X', 'Log in with a passkey', 'Continue']) {
      expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled, name).toBe(true);
    }
    pending.reject(Object.assign(new Error('closed'), { code: 'ERR_POPUP_CLOSED' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The sign-in window was closed before finishing. Try again.');
    expect((screen.getByRole('button', { name: 'Continue with Google' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('given a provider without client id or redirect URL, when chosen, then the modal says the site has not set it up and to use another way', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['email', 'discord'] } });
    client.failNext('logInWithOAuth', 'ERR_OAUTH_NOT_CONFIGURED');
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false });
    await userEvent.click(await screen.findByRole('button', { name: 'Continue with Discord' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Discord sign-in is not set up on this site yet. Choose another way to log in.');
  });

  it('given a blocked popup, when the login fails, then the message says how to allow it', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['discord'] } });
    client.failNext('logInWithOAuth', 'ERR_POPUP_BLOCKED');
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false });
    await userEvent.click(await screen.findByRole('button', { name: 'Continue with Discord' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your browser blocked the sign-in window. Allow pop-ups for this site, then try again.');
  });

  it('given no passkey for the site, when the passkey login fails, then the message explains both causes and "Create a passkey account" signs up', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['email', 'passkey'] } });
    const onClose = vi.fn();
    renderWithKit(<AuthModal open onClose={onClose} />, client, { authModal: false });
    client.failNext('logInWithPasskey', 'ERR_PASSKEY_CANCELLED');
    const signup = await screen.findByRole('button', { name: 'Create a passkey account' });
    expect(signup.getAttribute('data-variant')).toBe('link');
    await userEvent.click(screen.getByRole('button', { name: 'Log in with a passkey' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'No passkey was used. If you have not created one for this site yet, create a passkey account, or choose another way to log in.',
    );
    // The way out is now a full button, right under the message.
    expect(signup.getAttribute('data-variant')).toBeNull();
    await userEvent.click(signup);
    await waitFor(() => expect(onClose).toHaveBeenCalled(), { timeout: 3000 });
    expect(client.calls.map(([n]) => n)).toContain('signUpWithPasskey');
    expect(client.session.getState().status).toBe('authenticated');
  });

  it('given a passkey no account holds, when the login fails, then the message says so; a cancelled sign-up keeps the general words', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['passkey'] } });
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false });
    client.failNext('logInWithPasskey', 'ERR_USER_NOT_FOUND');
    await userEvent.click(await screen.findByRole('button', { name: 'Log in with a passkey' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This passkey is not linked to an account on this site. Create a passkey account, or choose another way to log in.',
    );
    client.failNext('signUpWithPasskey', 'ERR_PASSKEY_CANCELLED');
    await userEvent.click(screen.getByRole('button', { name: 'Create a passkey account' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('The passkey prompt was cancelled or timed out. Try again when ready.'));
  });

  it('given a browser wallet, when chosen, then the client connects its provider and the modal closes after the success state', async () => {
    const stop = announceWallet('Rabby');
    const client = createFakeClient({ config: { enabledProviders: ['wallet'] } });
    const onClose = vi.fn();
    renderWithKit(<AuthModal open onClose={onClose} />, client, { authModal: false });
    await userEvent.click(await screen.findByRole('button', { name: 'Continue with Rabby' }));
    stop();
    expect((await screen.findByRole('status')).textContent).toBe('You are logged in.');
    await waitFor(() => expect(onClose).toHaveBeenCalled(), { timeout: 3000 });
    expect(client.calls.map(([n]) => n)).toContain('connectWallet');
  });

  it('given a wallet announcing an icon that is not a data URI, when listed, then no request goes to it: a generic mark shows instead', async () => {
    const stop = announceWallet('Tracker', 'https://tracker.example/pixel.png');
    const client = createFakeClient({ config: { enabledProviders: ['wallet'] } });
    renderWithKit(<AuthModal open onClose={() => undefined} />, client, { authModal: false });
    const button = await screen.findByRole('button', { name: 'Continue with Tracker' });
    stop();
    expect(button.querySelector('img')).toBeNull();
    expect(button.querySelector('svg')).toBeTruthy();
  });
});
