/** The wallet panel's actions in a real browser: EIP-712 signing, recovery-phrase export, import of a known phrase. */
import { getAddress, verifyTypedData } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { ETHER_MAIL_TYPED_DATA } from '../packages/crypto/test/fixtures';
import { accountAddresses, expect, expectWallet, logInWithEmail, test, uniqueEmail } from './support/fixtures';

// Hardhat's well-known development phrase and its first Ethereum account (m/44'/60'/0'/0/0).
const KNOWN_MNEMONIC = 'test test test test test test test test test test test junk';
const KNOWN_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

test('given an account, when EIP-712 typed data is signed in the panel, then viem verifies the signature', async ({ page, inbox, stack }) => {
  await logInWithEmail(page, inbox, stack.demo.main, uniqueEmail('typed'));
  const [address] = await accountAddresses(page);
  const panel = page.getByRole('region', { name: 'Wallet', exact: true });
  await panel.getByRole('radio', { name: address }).check();
  await panel.getByLabel('Typed data (EIP-712 JSON)').fill(JSON.stringify(ETHER_MAIL_TYPED_DATA));
  await panel.getByRole('button', { name: 'Sign typed data' }).click();
  const confirm = page.getByRole('dialog', { name: 'Sign this typed data?' });
  // Typed data as structure (primary type, then the message's fields), never raw JSON.
  await expect(confirm.getByTestId('wk-confirm-primary-type')).toHaveText('Mail');
  await expect(confirm.getByLabel('Message')).toContainText('Hello, Bob!');
  await confirm.getByRole('button', { name: 'Sign', exact: true }).click();
  const signature = panel.getByTestId('wk-signature');
  await expect(signature).toHaveText(/^0x[0-9a-f]{130}$/, { timeout: 30_000 });
  const valid = await verifyTypedData({ address: address as `0x${string}`, ...ETHER_MAIL_TYPED_DATA, signature: (await signature.textContent()) as `0x${string}` });
  expect(valid).toBe(true);
});

test('given an account, when its wallet is exported and a known phrase imported, then the phrase reproduces the address and the imported address is listed after a reload', async ({ page, inbox, stack }) => {
  await logInWithEmail(page, inbox, stack.demo.main, uniqueEmail('export'));
  const [address] = await accountAddresses(page);
  const panel = page.getByRole('region', { name: 'Wallet', exact: true });

  await panel.getByRole('button', { name: 'Export Default wallet' }).click();
  await page.getByRole('dialog', { name: 'Show the recovery phrase?' }).getByRole('button', { name: 'Show recovery phrase' }).click();
  const phrase = (await panel.getByTestId('wk-mnemonic').textContent({ timeout: 30_000 }))!.trim();
  expect(phrase.split(/\s+/)).toHaveLength(12);
  expect(mnemonicToAccount(phrase).address).toBe(getAddress(address!));
  await panel.getByRole('button', { name: 'Hide' }).click();
  await expect(panel.getByTestId('wk-mnemonic')).toHaveCount(0);

  const importForm = panel.getByRole('form', { name: 'Import wallet' });
  await importForm.getByLabel('Imported wallet name').fill('Hardhat');
  await importForm.getByLabel('Recovery phrase').fill(KNOWN_MNEMONIC);
  await importForm.getByRole('button', { name: 'Import wallet' }).click();
  await expect(importForm.getByRole('status')).toContainText('Hardhat', { timeout: 30_000 });
  const addresses = await accountAddresses(page, 2);
  expect(addresses.map((a) => getAddress(a))).toEqual(expect.arrayContaining([getAddress(address!), KNOWN_ADDRESS]));

  // Both wallets are the server's: they are still there after a reload.
  await page.reload();
  await expectWallet(page);
  expect((await accountAddresses(page, 2)).map((a) => getAddress(a)).sort()).toEqual([getAddress(address!), KNOWN_ADDRESS].sort());
});
