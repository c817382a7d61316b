/** Email one-time codes: sign up (a wallet is created), sign, log out, log in again to the same wallet. */
import { verifyMessage } from 'viem';
import { accountAddresses, expect, expectWallet, logInWithEmail, logOut, signMessage, test, uniqueEmail } from './support/fixtures';

test('given a new email, when the user signs up with the code from their inbox, signs, logs out and logs in again, then the signature verifies and the same address comes back', async ({
  page,
  inbox,
  stack,
}) => {
  const email = uniqueEmail('email');
  await logInWithEmail(page, inbox, stack.demo.main, email);
  const [address] = await accountAddresses(page);
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);

  const message = `hello from ${email}`;
  const signature = await signMessage(page, address!, message);
  expect(await verifyMessage({ address: address as `0x${string}`, message, signature })).toBe(true);

  // The session survives a reload (key in IndexedDB, JWT restored).
  await page.reload();
  await expectWallet(page);
  expect(await accountAddresses(page)).toEqual([address]);

  await logOut(page);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();

  await logInWithEmail(page, inbox, stack.demo.main, email);
  expect(await accountAddresses(page)).toEqual([address]);
});
