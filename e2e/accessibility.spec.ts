/** Keyboard-only login through the modal, and an axe scan of the open modal. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from '@playwright/test';
import { accountAddresses, authDialog, expect, expectWallet, openLogin, test, uniqueEmail } from './support/fixtures';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Press Tab until `target` has focus (at most `max` presses). */
async function tabTo(page: Page, target: Locator, max = 25): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

test('given only a keyboard, when the user opens the modal and enters the email and the code, then the wallet is reached', async ({ page, inbox, stack }) => {
  const email = uniqueEmail('keyboard');
  await page.goto(stack.demo.main);
  await tabTo(page, page.getByRole('button', { name: 'Log in', exact: true }));
  await page.keyboard.press('Enter');
  const dialog = authDialog(page);
  await expect(dialog).toBeVisible();

  await tabTo(page, dialog.getByLabel('Email'));
  const since = Date.now();
  await page.keyboard.type(email);
  await page.keyboard.press('Enter');
  const code = await inbox.code(email, since);
  const firstCell = dialog.getByRole('textbox', { name: `Character 1 of ${code.length}` });
  // The code step takes focus on its first cell (the form the user was in is gone).
  await expect(firstCell).toBeFocused();
  await page.keyboard.type(code);
  await expectWallet(page);
  await accountAddresses(page);
});

test('given the open modal, when axe scans the method list and the code step, then there are no violations', async ({ page, stack }) => {
  await openLogin(page, stack.demo.main);
  await page.addScriptTag({ content: axeSource });
  const scan = () =>
    page.evaluate(async () => {
      const axe = (
        window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: Array<{ id: string; help: string; nodes: unknown[] }> }> } }
      ).axe;
      const result = await axe.run(document.querySelector('dialog[open]'), {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      });
      return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`);
    });
  await expect(authDialog(page).getByLabel('Email')).toBeVisible();
  expect(await scan()).toEqual([]);

  // The phone form (loaded on demand), then back.
  await authDialog(page).getByRole('button', { name: 'Continue with phone' }).click();
  await expect(authDialog(page).getByLabel('Phone number')).toBeFocused();
  await expect(authDialog(page).getByLabel('Country')).toBeVisible();
  expect(await scan()).toEqual([]);
  await authDialog(page).getByRole('button', { name: 'Back', exact: true }).click();

  await authDialog(page).getByLabel('Email').fill(uniqueEmail('axe'));
  await authDialog(page).getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(authDialog(page).getByRole('group', { name: 'One-time code' })).toBeVisible();
  expect(await scan()).toEqual([]);
});

test('given the kit in Arabic, when the modal opens, then it is right to left, mirrored, and axe-clean', async ({ page, stack }) => {
  await page.goto(`${stack.demo.main}/?locale=ar`);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'تسجيل الدخول أو إنشاء حساب' });
  await expect(dialog).toHaveAttribute('dir', 'rtl');
  const email = dialog.getByLabel('البريد الإلكتروني');
  await expect(email).toBeVisible();
  // Mirrored: the close button sits at the inline end, the left in Arabic.
  const close = await dialog.getByRole('button', { name: 'إغلاق' }).boundingBox();
  const box = await dialog.boundingBox();
  expect(close!.x - box!.x).toBeLessThan(box!.width / 2);
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: Array<{ id: string; nodes: unknown[] }> }> } }).axe;
    const result = await axe.run(document.querySelector('dialog[open]'), {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map((v) => `${v.id} (${v.nodes.length})`);
  });
  expect(violations).toEqual([]);
});
