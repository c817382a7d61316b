/**
 * The kit's look, for a person to review: screenshots of the auth modal and of the wallet panel in
 * light, dark, at a phone's width (390 px) and in Arabic (right to left), written to
 * `test-results/screenshots/` and attached to the report. Each shot also asserts what it shows
 * (the theme's colours, the width, the direction), and the demo's landing page loads without a
 * console error (the favicon included).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page, TestInfo } from '@playwright/test';
import { authDialog, expect, logInWithEmail, openLogin, test, uniqueEmail, walletPanel } from './support/fixtures';

const SHOTS = join(import.meta.dirname, '..', 'test-results', 'screenshots');
const PHONE = { width: 390, height: 844 };

async function shoot(target: Locator, name: string, testInfo: TestInfo): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, `${name}.png`);
  // Animations off: the shot shows the settled state.
  await target.screenshot({ path, animations: 'disabled' });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** The computed background of the kit root `target` (`rgb(r, g, b)`): light or dark. */
async function isDark(target: Locator): Promise<boolean> {
  const rgb = await target.evaluate((el) => getComputedStyle(el).backgroundColor);
  const [r, g, b] = (rgb.match(/\d+/g) ?? []).map(Number);
  return (r ?? 255) + (g ?? 255) + (b ?? 255) < 3 * 96;
}

/** Errors the page logs or throws while `run` goes on. */
async function consoleErrors(page: Page, run: () => Promise<void>): Promise<string[]> {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await run();
  return errors;
}

test('given the demo, when its landing page loads and the modal opens, then no error reaches the console', async ({ page, stack }) => {
  const errors = await consoleErrors(page, async () => {
    await openLogin(page, stack.demo.main);
    await expect(authDialog(page).getByLabel('Email')).toBeVisible();
    // Let late requests (the favicon, the catalog, lazy chunks) finish.
    await page.waitForLoadState('networkidle');
  });
  expect(errors).toEqual([]);
});

test('given the auth modal, when shown in light, dark, at a phone`s width and in Arabic, then each is captured and shows its theme, width and direction', async ({
  page,
  stack,
}, testInfo) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openLogin(page, stack.demo.main);
  const light = authDialog(page);
  await expect(light.getByLabel('Email')).toBeVisible();
  expect(await isDark(light)).toBe(false);
  await shoot(light, 'modal-light', testInfo);

  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await isDark(light)).toBe(true);
  await shoot(light, 'modal-dark', testInfo);

  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(PHONE);
  const box = await light.boundingBox();
  expect(box!.width).toBeLessThanOrEqual(PHONE.width);
  await shoot(light, 'modal-phone', testInfo);

  await page.goto(`${stack.demo.main}/?locale=ar`);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  const arabic = page.getByRole('dialog', { name: 'تسجيل الدخول أو إنشاء حساب' });
  await expect(arabic).toHaveAttribute('dir', 'rtl');
  await expect(arabic.getByLabel('البريد الإلكتروني')).toBeVisible();
  await shoot(arabic, 'modal-phone-arabic', testInfo);
});

test('given a signed-in user, when the wallet is shown in light, dark, at a phone`s width and in Arabic, then each is captured and shows its theme, width and direction', async ({
  page,
  inbox,
  stack,
}, testInfo) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await logInWithEmail(page, inbox, stack.demo.main, uniqueEmail('look'));
  const panel = walletPanel(page);
  await expect(panel.getByRole('combobox', { name: 'Account', exact: true })).toBeVisible({ timeout: 30_000 });
  expect(await isDark(panel)).toBe(false);
  await shoot(panel, 'wallet-light', testInfo);

  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await isDark(panel)).toBe(true);
  await shoot(panel, 'wallet-dark', testInfo);

  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(PHONE);
  expect((await panel.boundingBox())!.width).toBeLessThanOrEqual(PHONE.width);
  // Nothing wider than the screen: no horizontal scrolling at a phone's width.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await shoot(panel, 'wallet-phone', testInfo);

  // The same session, the kit in Arabic.
  await page.goto(`${stack.demo.main}/?locale=ar`);
  const arabic = page.locator('.wk-root[dir="rtl"]').filter({ has: page.getByRole('tablist') });
  await expect(arabic).toBeVisible({ timeout: 30_000 });
  await expect(arabic).toHaveAttribute('lang', 'ar');
  await shoot(arabic, 'wallet-phone-arabic', testInfo);
});
