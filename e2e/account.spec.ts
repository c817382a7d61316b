/**
 * Account management in the wallet's Security screen, as a user does it on the demo: link a
 * phone by SMS code and unlink it, link the local Google (id token) and Discord (code + PKCE)
 * through their popups and unlink them, add a passkey (Chromium's virtual authenticator) and
 * remove it, and be refused, with the reason, the removal of the last way to sign in.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from '@playwright/test';
import { expect, logInWithEmail, test, uniqueEmail } from './support/fixtures';

/** The wallet panel's Security screen (its tab opened). */
async function openSecurity(page: Page): Promise<Locator> {
  const panel = page.getByRole('region', { name: 'Wallet', exact: true });
  await panel.getByRole('tab', { name: 'Security' }).click();
  const security = panel.getByRole('tabpanel', { name: 'Security' });
  await expect(security.getByRole('heading', { name: 'Sign-in methods' })).toBeVisible({ timeout: 30_000 });
  return security;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe's WCAG 2.1 AA and best-practice violations inside `selector` (colour contrast included). */
async function axeViolations(page: Page, selector: string): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async (sel) => {
    const axe = (
      window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: Array<{ id: string; help: string; nodes: unknown[] }> }> } }
    ).axe;
    const result = await axe.run(document.querySelector(sel), {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      rules: { region: { enabled: false } },
    });
    return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`);
  }, selector);
}

/** The row of the list that holds `text` (a string anywhere in it, or a pattern such as its title: /^Phone/). */
const row = (security: Locator, text: string | RegExp) => security.getByRole('listitem').filter({ hasText: text });

/** A fresh US number the phone form accepts (libphonenumber: 555 numbers are not valid ones). */
const validPhone = () => `+1415${2 + (randomBytes(1)[0]! % 8)}${String(randomBytes(4).readUInt32BE() % 1_000_000).padStart(6, '0')}`;

/** Click a Link button and finish the provider's page in the popup it opens. */
async function linkInPopup(page: Page, button: Locator, fill: (popup: Page) => Promise<void>): Promise<void> {
  const popupOpened = page.waitForEvent('popup');
  await button.click();
  const popup = await popupOpened;
  const closed = popup.isClosed() ? Promise.resolve() : popup.waitForEvent('close', { timeout: 30_000 });
  await fill(popup);
  await closed;
}

test('given a user logged in by email, when they link a phone by SMS code, then Security shows it verified, and unlinking it (after confirming) removes it', async ({
  page,
  inbox,
  stack,
}) => {
  await logInWithEmail(page, inbox, stack.demo.main, uniqueEmail('link-phone'));
  const security = await openSecurity(page);
  await row(security, /^Phone/)
    .getByRole('button', { name: 'Add phone' })
    .click();
  const phone = validPhone();
  await security.getByLabel('New phone number').fill(phone);
  const since = Date.now();
  await security.getByRole('button', { name: 'Send code' }).click();
  const cells = security.getByRole('group', { name: 'Verification code' });
  await expect(security.getByText(`Enter the code we sent to ${phone}.`)).toBeVisible();
  await cells.getByRole('textbox').first().click();
  await page.keyboard.type(await inbox.code(phone, since));
  await expect(security.getByRole('status').filter({ hasText: 'Phone number verified and saved.' })).toBeVisible({ timeout: 30_000 });
  await expect(row(security, phone)).toContainText('Verified');

  await row(security, phone).getByRole('button', { name: 'Remove phone' }).click();
  const confirm = page.getByRole('dialog', { name: `Remove ${phone}?` });
  await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(security.getByRole('status').filter({ hasText: `${phone} removed.` })).toBeVisible({ timeout: 30_000 });
  await expect(row(security, /^Phone/)).toContainText('Not added');
});

test('given a user logged in by email, when they link Google and Discord through the popups, then both are listed as linked, and each unlinks after confirming', async ({
  page,
  inbox,
  stack,
}) => {
  await logInWithEmail(page, inbox, stack.demo.main, uniqueEmail('link-social'));
  const security = await openSecurity(page);

  await linkInPopup(page, security.getByRole('button', { name: 'Link Google' }), async (popup) => {
    await popup.getByLabel('Email').fill(uniqueEmail('google-link'));
    await popup.getByRole('button', { name: 'Continue' }).click();
  });
  await expect(security.getByRole('status').filter({ hasText: 'Google is linked: you can log in with it.' })).toBeVisible({ timeout: 30_000 });
  await expect(row(security, /^Google/)).toContainText('Linked');

  await linkInPopup(page, security.getByRole('button', { name: 'Link Discord' }), async (popup) => {
    await popup.getByLabel('Username').fill(`discord-${randomBytes(4).toString('hex')}`);
    await popup.getByRole('button', { name: 'Authorize' }).click();
  });
  await expect(row(security, /^Discord/)).toContainText('Linked', { timeout: 30_000 });

  for (const provider of ['Google', 'Discord']) {
    await row(security, new RegExp(`^${provider}`))
      .getByRole('button', { name: `Unlink ${provider}` })
      .click();
    await page
      .getByRole('dialog', { name: `Remove ${provider}?` })
      .getByRole('button', { name: `Unlink ${provider}` })
      .click();
    await expect(security.getByRole('status').filter({ hasText: `${provider} removed.` })).toBeVisible({ timeout: 30_000 });
    await expect(security.getByRole('button', { name: `Link ${provider}` })).toBeVisible();
  }
});

test('given a virtual authenticator, when the user adds a passkey in Security and removes it, then the list shows it and then none', async ({
  page,
  inbox,
  stack,
  authenticator,
}) => {
  await logInWithEmail(page, inbox, stack.demo.main, uniqueEmail('passkey-security'));
  const security = await openSecurity(page);
  await expect(security.getByText('No passkey yet.')).toBeVisible();
  await security.getByLabel('Passkey name').fill('Laptop');
  await security.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(security.getByRole('status').filter({ hasText: 'Passkey added.' })).toBeVisible({ timeout: 30_000 });
  expect(await authenticator.credentials()).toHaveLength(1);
  await expect(row(security, /^Laptop/)).toBeVisible();

  await row(security, /^Laptop/)
    .getByRole('button', { name: 'Remove passkey Laptop' })
    .click();
  await page.getByRole('dialog', { name: 'Remove Laptop?' }).getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(security.getByRole('status').filter({ hasText: 'Laptop removed.' })).toBeVisible({ timeout: 30_000 });
  await expect(security.getByText('No passkey yet.')).toBeVisible();
});

test('given the email as the only way to sign in, when the user removes it, then it is refused with the reason, no dialog opens and the email stays', async ({
  page,
  inbox,
  stack,
}) => {
  const email = uniqueEmail('last-method');
  await logInWithEmail(page, inbox, stack.demo.main, email);
  const security = await openSecurity(page);
  await row(security, email).getByRole('button', { name: 'Remove email' }).click();
  await expect(row(security, email).getByRole('alert')).toHaveText('This is the last way to sign in to your account. Add another one before removing it.');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(row(security, email)).toContainText('Verified');
});

test('given the Security screen, when scanned by axe in light and dark and used by keyboard, then there are no violations and the phone form opens and takes the focus', async ({
  page,
  inbox,
  stack,
}) => {
  await logInWithEmail(page, inbox, stack.demo.main, uniqueEmail('security-a11y'));
  const security = await openSecurity(page);
  await expect(security.getByText('This device')).toBeVisible();
  expect(await axeViolations(page, '[role="tabpanel"]:not([hidden])')).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await axeViolations(page, '[role="tabpanel"]:not([hidden])')).toEqual([]);

  const add = security.getByRole('button', { name: 'Add phone' });
  await add.focus();
  await page.keyboard.press('Enter');
  await expect(security.getByLabel('New phone number')).toBeFocused();
  expect(await axeViolations(page, '[role="tabpanel"]:not([hidden])')).toEqual([]);
});
