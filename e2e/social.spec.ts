/**
 * Social login through the local providers: Google (OIDC implicit id_token) and X / Discord
 * (OAuth 2.0 code + PKCE, exchanged by the server) in the popup, and the redirect fallback
 * when the browser blocks the popup.
 */
import { randomBytes } from 'node:crypto';
import { verifyMessage } from 'viem';
import type { Page } from '@playwright/test';
import { accountAddresses, authDialog, expect, expectWallet, logOut, openLogin, signMessage, test, uniqueEmail } from './support/fixtures';

/** Click "Continue with <provider>" and finish the provider's page in the popup it opens. */
async function popupLogin(page: Page, provider: 'Google' | 'X' | 'Discord', fill: (popup: Page) => Promise<void>): Promise<void> {
  const popupOpened = page.waitForEvent('popup');
  await authDialog(page)
    .getByRole('button', { name: `Continue with ${provider}` })
    .click();
  const popup = await popupOpened;
  // Listen before acting: the callback page may close the popup as soon as the form submits.
  const closed = popup.isClosed() ? Promise.resolve() : popup.waitForEvent('close', { timeout: 30_000 });
  await fill(popup);
  await closed;
  await expectWallet(page);
}

const googleSignIn = (email: string) => async (popup: Page) => {
  await popup.getByLabel('Email').fill(email);
  await popup.getByRole('button', { name: 'Continue' }).click();
};
const consent = (username: string) => async (popup: Page) => {
  await popup.getByLabel('Username').fill(username);
  await popup.getByRole('button', { name: 'Authorize' }).click();
};

test('given Google (local OIDC provider), when the user signs in through the popup twice, then a wallet is created, its signature verifies and the same address comes back', async ({
  page,
  stack,
}) => {
  const email = uniqueEmail('google');
  await openLogin(page, stack.demo.main);
  // The three providers of this site, in the kit's order, as one row of named marks.
  const marks = authDialog(page).locator('.wk-social-row button');
  await expect(marks).toHaveCount(3);
  expect(await marks.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).toEqual([
    'Continue with Google',
    'Continue with X',
    'Continue with Discord',
  ]);
  await popupLogin(page, 'Google', googleSignIn(email));
  const [address] = await accountAddresses(page);
  const signature = await signMessage(page, address!, 'signed after Google');
  expect(await verifyMessage({ address: address as `0x${string}`, message: 'signed after Google', signature })).toBe(true);

  await logOut(page);
  await openLogin(page, stack.demo.main);
  await popupLogin(page, 'Google', googleSignIn(email));
  expect(await accountAddresses(page)).toEqual([address]);
});

for (const provider of ['Discord', 'X'] as const) {
  test(`given ${provider} (local OAuth 2.0 code flow), when the user consents in the popup twice, then the second login reaches the same address`, async ({
    page,
    stack,
  }) => {
    const username = `${provider.toLowerCase()}-${randomBytes(4).toString('hex')}`;
    await openLogin(page, stack.demo.main);
    await popupLogin(page, provider, consent(username));
    const [address] = await accountAddresses(page);

    await page.reload();
    await expectWallet(page);
    await logOut(page);
    await openLogin(page, stack.demo.main);
    await popupLogin(page, provider, consent(username));
    expect(await accountAddresses(page)).toEqual([address]);
  });
}

test('given a popup blocker, when the user picks Discord, then the page goes to the provider and the callback page finishes the login', async ({
  page,
  stack,
}) => {
  // A popup blocker: window.open returns null, as browsers do when they block it.
  await page.addInitScript(() => {
    window.open = () => null;
  });
  await openLogin(page, stack.demo.main);
  await authDialog(page).getByRole('button', { name: 'Continue with Discord' }).click();
  await page.waitForURL((url) => url.pathname === '/authorize');
  await consent(`redirect-${randomBytes(4).toString('hex')}`)(page);
  await expectWallet(page);
  expect(new URL(page.url()).pathname).toBe('/');
  await accountAddresses(page);

  await page.reload();
  await expectWallet(page);
});
