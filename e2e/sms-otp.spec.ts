/** SMS one-time codes: sign up by phone, log out, log in again to the same wallet. */
import { accountAddresses, authDialog, enterCode, expect, expectWallet, logOut, openLogin, test, uniquePhone, type Inbox } from './support/fixtures';
import type { Page } from '@playwright/test';

async function logInWithPhone(page: Page, inbox: Inbox, url: string, phone: string): Promise<void> {
  await openLogin(page, url);
  const since = Date.now();
  await authDialog(page).getByLabel('Phone number').fill(phone);
  await authDialog(page).getByRole('button', { name: 'Continue with phone' }).click();
  await enterCode(page, await inbox.code(phone, since));
  await expectWallet(page);
}

test('given a new phone number, when the user signs up with the SMS code and later logs in again, then a wallet exists and the same address comes back', async ({ page, inbox, stack }) => {
  const phone = uniquePhone();
  await logInWithPhone(page, inbox, stack.demo.main, phone);
  const [address] = await accountAddresses(page);
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);

  await page.reload();
  await expectWallet(page);

  await logOut(page);
  await logInWithPhone(page, inbox, stack.demo.main, phone);
  expect(await accountAddresses(page)).toEqual([address]);
});
