/** Passkeys with Chromium's virtual authenticator (CDP WebAuthn domain, added before any ceremony). */
import { verifyMessage } from 'viem';
import { accountAddresses, authDialog, expect, expectWallet, logInWithEmail, logOut, openLogin, signMessage, test, uniqueEmail } from './support/fixtures';

test('given a virtual authenticator, when the user signs up with a passkey, logs out and logs in with it, then the same wallet comes back and survives a reload', async ({
  page,
  stack,
  authenticator,
}) => {
  await openLogin(page, stack.demo.main);
  await authDialog(page).getByRole('button', { name: 'Create a passkey account' }).click();
  await expectWallet(page);
  const [address] = await accountAddresses(page);
  const credentials = await authenticator.credentials();
  expect(credentials).toHaveLength(1);
  expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

  const signature = await signMessage(page, address!, 'signed after a passkey signup');
  expect(await verifyMessage({ address: address as `0x${string}`, message: 'signed after a passkey signup', signature })).toBe(true);

  await logOut(page);
  await openLogin(page, stack.demo.main);
  await authDialog(page).getByRole('button', { name: 'Log in with a passkey' }).click();
  await expectWallet(page);
  expect(await accountAddresses(page)).toEqual([address]);

  await page.reload();
  await expectWallet(page);
  expect(await accountAddresses(page)).toEqual([address]);
});

test('given an account made by email, when a passkey is added in the panel, then logging in with that passkey reaches the same account', async ({
  page,
  inbox,
  stack,
  authenticator,
}) => {
  await logInWithEmail(page, inbox, stack.demo.main, uniqueEmail('addkey'));
  const [address] = await accountAddresses(page);

  // Passkeys are managed in the panel's Security screen.
  const panel = page.getByRole('region', { name: 'Wallet', exact: true });
  await panel.getByRole('tab', { name: 'Security' }).click();
  await panel.getByLabel('Passkey name').fill('Laptop');
  await panel.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(panel.getByRole('status').filter({ hasText: 'Passkey added.' })).toBeVisible({ timeout: 30_000 });
  expect(await authenticator.credentials()).toHaveLength(1);

  await logOut(page);
  await openLogin(page, stack.demo.main);
  await authDialog(page).getByRole('button', { name: 'Log in with a passkey' }).click();
  await expectWallet(page);
  expect(await accountAddresses(page)).toEqual([address]);
});

test('given a browser with no passkey for the site, when the user tries to log in with one, then the modal says what happened and "Create a passkey account" signs up', async ({
  page,
  stack,
  authenticator,
}) => {
  await openLogin(page, stack.demo.main);
  const dialog = authDialog(page);
  await dialog.getByRole('button', { name: 'Log in with a passkey' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'No passkey was used. If you have not created one for this site yet, create a passkey account, or choose another way to log in.',
    { timeout: 30_000 },
  );
  expect(await authenticator.credentials()).toHaveLength(0);
  await dialog.getByRole('button', { name: 'Create a passkey account' }).click();
  await expectWallet(page);
  expect(await authenticator.credentials()).toHaveLength(1);
});
