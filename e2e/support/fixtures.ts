/**
 * The e2e suite's `test`: Playwright's, plus the stack's URLs, the inbox (codes read from the
 * SMTP/SMS sink as a user reads their messages), and the steps every spec shares, written as
 * a user does them (roles and labels, no test ids where a label exists).
 */
import { randomBytes } from 'node:crypto';
import { expect, test as base, type CDPSession, type Locator, type Page } from '@playwright/test';
import { stackInfo, type StackInfo } from './stack-info';

export { expect };

export interface Inbox {
  /** The code of the newest message to `to` received after `since` (ms), waiting up to 15 s. */
  code(to: string, since: number): Promise<string>;
}

export interface VirtualAuthenticator {
  cdp: CDPSession;
  authenticatorId: string;
  /** Credentials the authenticator holds (WebAuthn.getCredentials). */
  credentials(): Promise<Array<{ credentialId: string; isResidentCredential: boolean; rpId?: string }>>;
}

export const test = base.extend<{ stack: StackInfo; inbox: Inbox; authenticator: VirtualAuthenticator }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from its first parameter, which must be a destructuring pattern
  stack: async ({}, use) => {
    await use(stackInfo());
  },
  inbox: async ({ stack }, use) => {
    await use({
      async code(to, since) {
        let last = '';
        for (let i = 0; i < 60; i++) {
          const res = await fetch(`${stack.mailboxUrl}/messages?to=${encodeURIComponent(to)}`);
          const { messages } = (await res.json()) as { messages: Array<{ at: number; code?: string }> };
          const fresh = messages.filter((m) => m.at >= since && m.code).at(-1);
          if (fresh?.code) return fresh.code;
          last = JSON.stringify(messages.length);
          await new Promise((r) => setTimeout(r, 250));
        }
        throw new Error(`no code reached ${to} (messages: ${last})`);
      },
    });
  },
  // A platform authenticator with user verification, added before any passkey ceremony.
  authenticator: async ({ page }, use) => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await use({
      cdp,
      authenticatorId,
      credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
    });
  },
});

/** A fresh address at the sink's domain. */
export function uniqueEmail(tag: string): string {
  return `${tag}-${randomBytes(5).toString('hex')}@e2e.walletkit.test`;
}

/** US area codes a phone validator accepts (the kit's phone form checks numbers with libphonenumber-js). */
const AREA_CODES = ['201', '202', '206', '212', '213', '303', '305', '312', '404', '415', '503', '512', '602', '617', '646', '702', '718', '773', '805', '917'];

/** A fresh, valid E.164 number: a US area code, the 555 exchange of fiction, four random digits. */
export function uniquePhone(): string {
  const n = randomBytes(4).readUInt32BE();
  return `+1${AREA_CODES[n % AREA_CODES.length]}555${String(Math.floor(n / AREA_CODES.length) % 10_000).padStart(4, '0')}`;
}

/** The open auth modal ("Log in or sign up"). */
export function authDialog(page: Page) {
  return page.getByRole('dialog', { name: /log in/i });
}

/** Open the demo and its auth modal from the landing page's "Log in" button. */
export async function openLogin(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(authDialog(page)).toBeVisible();
}

/** Type a one-time code into the code cells (the kit submits it when complete). */
export async function enterCode(page: Page, code: string): Promise<void> {
  await authDialog(page)
    .getByRole('textbox', { name: `Character 1 of ${code.length}` })
    .click();
  await page.keyboard.type(code);
}

/**
 * A one-time-code login through the modal, from the landing page to the wallet panel: the email
 * field leads the modal; the phone form opens from "Continue with phone" (a number typed with +
 * and its country code picks its country).
 */
export async function logInWithCode(page: Page, inbox: Inbox, url: string, kind: 'email' | 'phone', contact: string): Promise<void> {
  await openLogin(page, url);
  const dialog = authDialog(page);
  if (kind === 'phone') await dialog.getByRole('button', { name: 'Continue with phone' }).click();
  const since = Date.now();
  await dialog.getByLabel(kind === 'email' ? 'Email' : 'Phone number').fill(contact);
  await dialog.getByRole('button', { name: 'Continue', exact: true }).click();
  await enterCode(page, await inbox.code(contact, since));
  await expectWallet(page);
}

/** Email OTP through the modal, from the landing page to the wallet panel. */
export function logInWithEmail(page: Page, inbox: Inbox, url: string, email: string): Promise<void> {
  return logInWithCode(page, inbox, url, 'email', email);
}

/** The wallet panel (its accessible name is "Wallet"). */
export function walletPanel(page: Page): Locator {
  return page.getByRole('region', { name: 'Wallet', exact: true });
}

/** Open a screen of the wallet panel by its tab (Accounts, Send, Receive, Sign, Export & import, Security); returns its panel. */
export async function openWalletScreen(page: Page, name: string): Promise<Locator> {
  const tab = walletPanel(page).getByRole('tab', { name, exact: true });
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  return walletPanel(page).getByRole('tabpanel', { name, exact: true });
}

/** The wallet panel is shown (a session exists) and the modal is closed. */
export async function expectWallet(page: Page): Promise<void> {
  await expect(walletPanel(page)).toBeVisible({ timeout: 30_000 });
  await expect(authDialog(page)).toBeHidden();
}

/** The addresses of the accounts the panel offers (its Accounts screen's account select), waiting for at least `min`. */
export async function accountAddresses(page: Page, min = 1): Promise<string[]> {
  await openWalletScreen(page, 'Accounts');
  const options = walletPanel(page).getByRole('combobox', { name: 'Account', exact: true }).locator('option');
  await expect.poll(() => options.count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(Math.max(min, 1));
  return options.evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
}

/** Choose an account (Accounts screen), sign `message` on the Sign screen through the confirmation dialog, return the signature. */
export async function signMessage(page: Page, address: string, message: string): Promise<`0x${string}`> {
  await openWalletScreen(page, 'Accounts');
  await walletPanel(page).getByRole('combobox', { name: 'Account', exact: true }).selectOption(address);
  const sign = await openWalletScreen(page, 'Sign');
  await expect(sign).toContainText(address);
  await sign.getByLabel('Message', { exact: true }).fill(message);
  await sign.getByRole('button', { name: 'Sign message' }).click();
  const confirm = page.getByRole('dialog', { name: 'Sign this message?' });
  await expect(confirm.getByTestId('wk-confirm-content')).toHaveText(message);
  await confirm.getByRole('button', { name: 'Sign', exact: true }).click();
  const signature = sign.getByTestId('wk-signature');
  await expect(signature).toHaveText(/^0x[0-9a-f]{130}$/, { timeout: 30_000 });
  return (await signature.textContent()) as `0x${string}`;
}

/** Log out from the panel's header and land back on the landing page. */
export async function logOut(page: Page): Promise<void> {
  await walletPanel(page).getByRole('button', { name: 'Log out', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();
  await expect(walletPanel(page)).toHaveCount(0);
}
