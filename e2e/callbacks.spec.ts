/**
 * The integrator API on the demo, read from its callback log (`?callbacks`): the landing page's
 * "Log in" awaits `login()`, which resolves once the email login completes, with
 * `onAuthenticationSuccess` heard (and not again when a reload restores the session); closing
 * the modal rejects `login()` with ERR_LOGIN_CANCELLED; on the `short` origin (60-second
 * sessions) with the refresh blocked, `beforeSessionExpiry` comes before the end and
 * `onSessionExpired` at it, and the page logs out.
 */
import type { Page } from '@playwright/test';
import { authDialog, expect, expectWallet, logInWithEmail, test, uniqueEmail } from './support/fixtures';

/** The log's lines, oldest first (the time stripped). */
async function logLines(page: Page): Promise<string[]> {
  return page.getByTestId('callback-entry').locator('code').allTextContents();
}

const withLog = (url: string) => `${url}/?callbacks`;

test('given the demo with its callback log, when the user logs in by email, then login() resolves and onAuthenticationSuccess is heard once; a reload restores the session without another', async ({
  page,
  inbox,
  stack,
}) => {
  await logInWithEmail(page, inbox, withLog(stack.demo.main), uniqueEmail('callbacks'));
  await expect.poll(() => logLines(page)).toHaveLength(2);
  const [success, resolved] = await logLines(page);
  expect(success).toMatch(/^onAuthenticationSuccess [0-9a-f-]{8}$/);
  expect(resolved).toBe(`login() resolved ${success!.split(' ')[1]}`);

  await page.reload();
  await expectWallet(page);
  await expect(page.getByRole('complementary', { name: 'Kit callbacks' })).toContainText('Nothing yet.');
});

test('given the auth modal opened by login(), when the user closes it, then login() rejects with ERR_LOGIN_CANCELLED and nothing else is heard', async ({
  page,
  stack,
}) => {
  await page.goto(withLog(stack.demo.main));
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(authDialog(page)).toBeVisible();
  await authDialog(page).getByRole('button', { name: 'Close' }).click();
  await expect(authDialog(page)).toBeHidden();
  await expect.poll(() => logLines(page)).toEqual(['login() rejected ERR_LOGIN_CANCELLED']);
});

test('given 60-second sessions and a blocked refresh, when the session runs out, then beforeSessionExpiry comes first (seconds left), then onSessionExpired, and the page logs out', async ({
  page,
  inbox,
  stack,
}) => {
  test.setTimeout(150_000);
  await logInWithEmail(page, inbox, withLog(stack.demo.short), uniqueEmail('expiry-callbacks'));
  await page.route(
    (url) => url.toString().endsWith('/public/v1/submit/stamp_login'),
    (route) => route.abort('internetdisconnected'),
  );
  await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible({ timeout: 75_000 });
  const lines = (await logLines(page)).filter((l) => !l.startsWith('login()') && !l.startsWith('onAuthenticationSuccess'));
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(/^beforeSessionExpiry \d+$/);
  const secondsLeft = Number(lines[0]!.split(' ')[1]);
  expect(secondsLeft).toBeGreaterThan(0);
  expect(secondsLeft).toBeLessThanOrEqual(12);
  expect(lines[1]).toBe('onSessionExpired');
});
