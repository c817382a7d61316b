/**
 * The Security screen over the real client and server (the proxy test server: PGlite, dev
 * outbox for the codes): a user signed in by email sees the verified email and this device's
 * session; links a phone by typing the SMS code (then a new SMS login reaches the same account),
 * removes it after a confirmation; is refused, with the reason and without a dialog, the removal
 * of the email that is the last way in; logs another device out (its key stops working). In
 * German and in Arabic (right to left) the screen speaks the language, and the refusal too.
 * Keyboard only, and axe finds nothing.
 * The DOM is happy-dom installed by the first import (see support/happy-dom-globals.ts).
 */
import { nodeFetch, teardownHappyDom } from './support/happy-dom-globals';
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { QueryClient } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWalletKitClient, indexedDbSessionKeyStore, type WalletKitClient, type WalletKitConfig } from '@walletkit/client';
import { outboxCode, startProxyServer, type ProxyTestServer } from '../../server/test/support/proxy';
import { SecurityScreen } from '../src/account/SecurityScreen';
import { createTranslator, loadLocale } from '../src/i18n/catalog';
import { WalletKitProvider } from '../src/provider/WalletKitProvider';
import { expectNoAxeViolations, failOnConsoleError } from './support/render';

failOnConsoleError();

describe('the Security screen against the real server', () => {
  let server: ProxyTestServer;
  let base: WalletKitConfig;
  const kits: WalletKitClient[] = [];

  /** A browser profile: its own key store, one client. */
  const browser = () => {
    const kit = createWalletKitClient({ ...base, storage: indexedDbSessionKeyStore({ dbName: `wk-security-${randomUUID()}` }), channel: null });
    kits.push(kit);
    return kit;
  };
  /** A user signed up by email code: the email is their only way in. */
  const signedIn = async (email = `security-${randomUUID().slice(0, 8)}@example.com`) => {
    const kit = browser();
    const { otpId } = await kit.auth.startEmailOtp(email);
    await kit.auth.completeOtp({ otpId, code: await outboxCode(server.url, email) });
    return { kit, email };
  };
  const show = (kit: WalletKitClient, locale?: string) =>
    render(
      <WalletKitProvider kit={kit} locale={locale} queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <main>
          <SecurityScreen />
        </main>
      </WalletKitProvider>,
    );
  /** The list row holding `text`. */
  const row = (text: string | RegExp) => screen.getByText(text).closest('li') as HTMLElement;

  beforeAll(async () => {
    server = await startProxyServer('pglite');
    base = {
      proxyUrl: server.url,
      apiUrl: server.url,
      configId: server.proxy.id,
      organizationId: server.org.organizationId,
      enclavePublicKey: server.enclave.signingPublicKey,
      fetch: nodeFetch,
    };
  });
  afterEach(cleanup);
  afterAll(async () => {
    for (const kit of kits) kit.session.close();
    await server?.dispose();
    await teardownHappyDom();
  });

  it('given a user signed in by email, when they link a phone with the SMS code and remove it again, then each step is announced, the phone logs in to this account while linked, and axe finds nothing', async () => {
    const user = userEvent.setup();
    const { kit, email } = await signedIn();
    show(kit);
    await screen.findByRole('heading', { name: 'Sign-in methods' }, { timeout: 10_000 });
    expect(row(email).textContent).toContain('Verified');
    expect(row('This device').textContent).toMatch(/Since .* · Until /);
    await expectNoAxeViolations();

    await user.click(within(row('Phone')).getByRole('button', { name: 'Add phone' }));
    // A number valid for the US (the form checks it as the login form does: 555 numbers are not).
    const phone = `+1415${2 + Math.floor(Math.random() * 8)}${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;
    await user.type(screen.getByLabelText('New phone number'), phone);
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    const cells = await screen.findByRole('group', { name: 'Verification code' }, { timeout: 10_000 });
    expect(screen.getByText(`Enter the code we sent to ${phone}.`)).toBeTruthy();
    await expectNoAxeViolations();
    await user.click(within(cells).getAllByRole('textbox')[0]!);
    await user.keyboard(await outboxCode(server.url, phone));
    // Said in the screen's status line (read out by screen readers).
    expect((await screen.findByText('Phone number verified and saved.', {}, { timeout: 10_000 })).closest('[role="status"]')).not.toBeNull();
    await waitFor(() => expect(row(phone).textContent).toContain('Verified'));

    // The phone is now a way into this very account.
    const other = browser();
    const { otpId } = await other.auth.startSmsOtp(phone);
    expect((await other.auth.completeOtp({ otpId, code: await outboxCode(server.url, phone) })).organizationId).toBe(kit.session.current()!.organizationId);

    await user.click(within(row(phone)).getByRole('button', { name: 'Remove phone' }));
    const dialog = await screen.findByRole('dialog', { name: `Remove ${phone}?` });
    expect(within(dialog).getByText('You will no longer be able to log in with it.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.getByText(`${phone} removed.`)).toBeTruthy(), { timeout: 10_000 });
    await waitFor(() => expect(row('Phone').textContent).toContain('Not added'));
    expect((await kit.account.profile()).phone).toBeUndefined();
  });

  it('given a phone number that another account logs in with, when the user links it with its code, then the screen says it belongs to another account and the phone stays unlinked', async () => {
    const user = userEvent.setup();
    const phone = `+1415${2 + Math.floor(Math.random() * 8)}${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;
    const owner = browser();
    const first = await owner.auth.startSmsOtp(phone);
    await owner.auth.completeOtp({ otpId: first.otpId, code: await outboxCode(server.url, phone) });

    const { kit } = await signedIn();
    show(kit);
    await screen.findByRole('heading', { name: 'Sign-in methods' }, { timeout: 10_000 });
    await user.click(within(row('Phone')).getByRole('button', { name: 'Add phone' }));
    await user.type(screen.getByLabelText('New phone number'), phone);
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    const cells = await screen.findByRole('group', { name: 'Verification code' }, { timeout: 10_000 });
    await user.click(within(cells).getAllByRole('textbox')[0]!);
    await user.keyboard(await outboxCode(server.url, phone));
    const alert = await screen.findByText(/already belongs to another account/, {}, { timeout: 10_000 });
    expect(alert.textContent).toBe('This phone number already belongs to another account. Log in with it there, or use another number.');
    expect(alert.getAttribute('role')).toBe('alert');
    expect((await kit.account.profile()).phone).toBeUndefined();
  });

  it('given the email as the only way in, when the user removes it with the keyboard, then the reason is said at once (no dialog, nothing sent) and the email stays', async () => {
    const user = userEvent.setup();
    const { kit, email } = await signedIn();
    show(kit);
    const remove = await screen.findByRole('button', { name: 'Remove email' }, { timeout: 10_000 });
    remove.focus();
    await user.keyboard('{Enter}');
    expect(within(row(email)).getByRole('alert').textContent).toBe(createTranslator('en').t('error.ERR_LAST_SIGN_IN_METHOD'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect((await kit.account.profile()).email).toEqual({ value: email, verified: true });
  });

  it('given the same account on another device, when the user logs that session out after confirming, then it is gone from the list and its key is refused', async () => {
    const user = userEvent.setup();
    const { kit, email } = await signedIn();
    const { kit: other } = await signedIn(email);
    show(kit);
    const logOut = await screen.findByRole('button', { name: /^Log out the session since / }, { timeout: 10_000 });
    expect(row('Another device')).toBeTruthy();
    await user.click(logOut);
    const dialog = await screen.findByRole('dialog', { name: 'Log out that device?' });
    await user.click(within(dialog).getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(screen.getByText('That device is logged out.')).toBeTruthy(), { timeout: 10_000 });
    await waitFor(() => expect(screen.queryByText('Another device')).toBeNull());
    expect(screen.getByText('You are not logged in anywhere else.')).toBeTruthy();
    await expect(other.activity.query('whoami', {})).rejects.toMatchObject({ code: 'ERR_STAMP_KEY_UNKNOWN' });
  });

  it('given German and Arabic, when the screen shows and the last method is removed, then headings, rows and the refusal are in the language, and Arabic lays it out right to left', async () => {
    const user = userEvent.setup();
    const { kit } = await signedIn();
    const de = createTranslator('de', await loadLocale('de'));
    const view = show(kit, 'de');
    await screen.findByRole('heading', { name: 'Anmeldemethoden' }, { timeout: 10_000 });
    expect(screen.getByRole('heading', { name: 'Sitzungen' })).toBeTruthy();
    expect(screen.getByText('Dieses Gerät')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'E-Mail entfernen' }));
    expect(screen.getByRole('alert').textContent).toBe(de.t('error.ERR_LAST_SIGN_IN_METHOD'));
    view.unmount();

    const ar = createTranslator('ar', await loadLocale('ar'));
    show(kit, 'ar');
    const heading = await screen.findByRole('heading', { name: ar.t('account.signInMethods') }, { timeout: 10_000 });
    expect(heading.closest('.wk-root')?.getAttribute('dir')).toBe('rtl');
    expect(heading.closest('.wk-root')?.getAttribute('lang')).toBe('ar');
    await user.click(screen.getByRole('button', { name: ar.t('account.removeEmail') }));
    expect(screen.getByRole('alert').textContent).toBe(ar.t('error.ERR_LAST_SIGN_IN_METHOD'));
    await expectNoAxeViolations();
  });
});
