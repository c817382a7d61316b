/**
 * Sessions on the `short` origin, whose proxy issues 60-second sessions: the kit refreshes
 * before expiry (a new key and JWT, at four fifths of the lifetime), and when it cannot (the
 * refresh is blocked, as offline) the session ends at expiry and the page logs out by itself.
 */
import type { Page } from '@playwright/test';
import { expect, expectWallet, logInWithEmail, test, uniqueEmail } from './support/fixtures';

/** Seconds left on the panel's countdown ("Session expires in 0:42"). */
async function secondsLeft(page: Page): Promise<number> {
  const text = (await page.getByTestId('wk-session-countdown').textContent()) ?? '';
  const m = /(\d+):(\d{2})/.exec(text);
  if (!m) throw new Error(`no countdown in ${JSON.stringify(text)}`);
  return Number(m[1]) * 60 + Number(m[2]);
}

const isRefresh = (url: string) => url.endsWith('/public/v1/submit/stamp_login');

test('given 60-second sessions, when four fifths have passed, then the kit refreshes the session and the new one survives a reload', async ({
  page,
  inbox,
  stack,
}) => {
  test.setTimeout(150_000);
  await logInWithEmail(page, inbox, stack.demo.short, uniqueEmail('refresh'));
  const first = await secondsLeft(page);
  expect(first).toBeGreaterThan(40);
  expect(first).toBeLessThanOrEqual(60);

  const refreshed = await page.waitForResponse((res) => isRefresh(res.url()) && res.request().method() === 'POST', { timeout: 75_000 });
  expect(refreshed.status()).toBe(200);
  // A new 60-second session: the countdown jumped back up.
  await expect.poll(() => secondsLeft(page)).toBeGreaterThan(45);
  await page.reload();
  await expectWallet(page);
  expect(await secondsLeft(page)).toBeGreaterThan(40);
});

test('given 60-second sessions and a blocked refresh, when the session expires, then the page logs out and stays logged out after a reload', async ({
  page,
  inbox,
  stack,
}) => {
  test.setTimeout(150_000);
  await logInWithEmail(page, inbox, stack.demo.short, uniqueEmail('expiry'));
  let blocked = 0;
  await page.route(
    (url) => isRefresh(url.toString()),
    async (route) => {
      blocked += 1;
      await route.abort('internetdisconnected');
    },
  );
  await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible({ timeout: 75_000 });
  expect(blocked).toBeGreaterThan(0);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Wallet', exact: true })).toHaveCount(0);
});
