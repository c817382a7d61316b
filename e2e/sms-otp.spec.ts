/** SMS one-time codes: sign up by phone, log out, log in again to the same wallet. */
import { accountAddresses, expect, expectWallet, logInWithCode, logOut, test, uniquePhone } from './support/fixtures';

test('given a new phone number, when the user signs up with the SMS code and later logs in again, then a wallet exists and the same address comes back', async ({
  page,
  inbox,
  stack,
}) => {
  const phone = uniquePhone();
  await logInWithCode(page, inbox, stack.demo.main, 'phone', phone);
  const [address] = await accountAddresses(page);
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);

  await page.reload();
  await expectWallet(page);

  await logOut(page);
  await logInWithCode(page, inbox, stack.demo.main, 'phone', phone);
  expect(await accountAddresses(page)).toEqual([address]);
});
