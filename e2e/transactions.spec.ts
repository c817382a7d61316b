/**
 * Transactions in a real browser on a real local chain: the demo's dApp section uses wagmi's
 * hooks through the kit's connector; every signature opens the kit's confirmation dialog.
 */
import { createPublicClient, createWalletClient, erc20Abi, getAddress, http, maxUint256, parseEther, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DEV_ACCOUNTS } from '../packages/server/test/support/chain';
import { accountAddresses, expect, logInWithEmail, openWalletScreen, test, uniqueEmail, walletPanel } from './support/fixtures';
import type { StackInfo } from './support/stack-info';
import type { Page } from '@playwright/test';

/** Fund `address` from a dev account of the local chain (a real, mined transfer). */
async function fundFromDevAccount(chain: StackInfo['chain'], address: Address, ether: string): Promise<void> {
  const transport = http(chain.rpcUrl);
  const localChain = {
    id: chain.chainId,
    name: 'Local chain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  } as const;
  // A dev account of this worker's own (the stack's deployer, the first, keeps its nonces to
  // itself): two workers funding from one account at once race for its next nonce.
  const funder = DEV_ACCOUNTS[1 + (test.info().parallelIndex % (DEV_ACCOUNTS.length - 1))]!;
  const dev = createWalletClient({ chain: localChain, transport, account: privateKeyToAccount(funder.privateKey) });
  const hash = await dev.sendTransaction({ to: address, value: parseEther(ether) });
  const receipt = await createPublicClient({ chain: localChain, transport }).waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
}

/** Log in by email, fund the new account, connect the dApp through wagmi; returns the address. */
async function connectedDapp(page: Page, inbox: Parameters<typeof logInWithEmail>[1], stack: StackInfo, tag: string): Promise<Address> {
  await logInWithEmail(page, inbox, stack.demo.main, uniqueEmail(tag));
  const [address] = await accountAddresses(page);
  await fundFromDevAccount(stack.chain, address as Address, '1');
  const dapp = page.getByRole('region', { name: 'A dApp with wagmi' });
  // A login in the kit connects wagmi through the kit's connector; the button is there until then.
  const connected = dapp.getByTestId('dapp-address');
  const connect = dapp.getByRole('button', { name: 'Connect with wagmi' });
  await expect(connected.or(connect)).toBeVisible();
  if (await connect.isVisible()) await connect.click();
  await expect(connected).toHaveText(getAddress(address!));
  await expect(dapp.getByTestId('dapp-balance')).toHaveText('1 ETH');
  return getAddress(address!);
}

test("given a new account funded from a dev account, when the dApp sends 0.01 ETH through wagmi's useSendTransaction with the kit's connector, then the kit's dialog shows the transfer, the receipt is a success and the recipient's balance grew", async ({
  page,
  inbox,
  stack,
}) => {
  const address = await connectedDapp(page, inbox, stack, 'wagmi-send');
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  const rpc = createPublicClient({ transport: http(stack.chain.rpcUrl) });
  expect(await rpc.getBalance({ address: recipient })).toBe(0n);

  const form = page.getByRole('form', { name: 'Send with wagmi' });
  await form.getByLabel('To').fill(recipient);
  await form.getByLabel('Amount (ETH)').fill('0.01');
  await form.getByRole('button', { name: 'Send with wagmi' }).click();

  // One confirmation, in words: the network, who pays whom, how much, the fee ceiling.
  const confirm = page.getByRole('dialog', { name: 'Send this transaction?' });
  await expect(confirm.getByTestId('wk-confirm-network')).toContainText('Local chain');
  await expect(confirm.getByTestId('wk-confirm-to')).toHaveText(recipient);
  await expect(confirm.getByTestId('wk-confirm-value')).toHaveText('0.01 ETH');
  await expect(confirm.getByTestId('wk-confirm-fee')).toContainText('ETH');
  await expect(confirm).toContainText(address);
  await confirm.getByRole('button', { name: 'Send', exact: true }).click();

  const dapp = page.getByRole('region', { name: 'A dApp with wagmi' });
  await expect(dapp.getByTestId('dapp-tx-status')).toHaveText('success', { timeout: 30_000 });
  expect(await rpc.getBalance({ address: recipient })).toBe(parseEther('0.01'));
  const hash = (await dapp.getByTestId('dapp-tx-hash').textContent()) as `0x${string}`;
  const tx = await rpc.getTransaction({ hash });
  expect(getAddress(tx.from)).toBe(address);
});

test('given a connected dApp, when it asks for an unlimited ERC-20 approval, then the kit shows the decoded approval with an unlimited warning, and once approved the allowance is unlimited on chain', async ({
  page,
  inbox,
  stack,
}) => {
  const address = await connectedDapp(page, inbox, stack, 'wagmi-approve');
  await page.getByRole('button', { name: 'Approve unlimited DEMO' }).click();

  const confirm = page.getByRole('dialog', { name: 'Send this transaction?' });
  await expect(confirm.getByRole('heading', { name: 'Token approval' })).toBeVisible();
  await expect(confirm.getByTestId('wk-confirm-amount')).toHaveText('Unlimited');
  await expect(confirm.getByTestId('wk-confirm-warning')).toContainText('Unlimited approval.');
  await expect(confirm.getByTestId('wk-confirm-to')).toHaveText(getAddress(stack.chain.token));
  await confirm.getByRole('button', { name: 'Send', exact: true }).click();

  const dapp = page.getByRole('region', { name: 'A dApp with wagmi' });
  await expect(dapp.getByTestId('dapp-tx-status')).toHaveText('success', { timeout: 30_000 });
  const rpc = createPublicClient({ transport: http(stack.chain.rpcUrl) });
  const allowance = await rpc.readContract({
    address: stack.chain.token as Address,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [address, '0x000000000022D473030F116dDEE9F6B43aC78BA3'],
  });
  expect(allowance).toBe(maxUint256);
});

test('given a funded account, when the user sends from the wallet panel and declines a second send, then the first is mined, the second never leaves the browser, and Receive shows the address as a QR code', async ({
  page,
  inbox,
  stack,
}) => {
  await logInWithEmail(page, inbox, stack.demo.main, uniqueEmail('panel-send'));
  const [address] = await accountAddresses(page);
  await fundFromDevAccount(stack.chain, address as Address, '1');
  const panel = walletPanel(page);
  await panel.getByRole('combobox', { name: 'Account', exact: true }).selectOption(address!);
  await expect(panel.getByTestId('wk-account-address')).toHaveText(address!);
  // The balance is refetched when the page regains focus or the query goes stale (15 s).
  await expect(async () => {
    await openWalletScreen(page, 'Receive');
    await openWalletScreen(page, 'Accounts');
    await expect(panel.getByTestId('wk-balance')).toHaveText('1 ETH', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });

  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  await openWalletScreen(page, 'Send');
  const send = panel.getByRole('form', { name: 'Send' });
  await send.getByLabel('Recipient address').fill(recipient);
  await send.getByLabel('Amount (ETH)').fill('0.25');
  await send.getByRole('button', { name: 'Review and send' }).click();
  const confirm = page.getByRole('dialog', { name: 'Send this transaction?' });
  await expect(confirm.getByTestId('wk-confirm-value')).toHaveText('0.25 ETH');
  await confirm.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(panel.getByTestId('wk-tx-hash')).toHaveText(/^0x[0-9a-f]{64}$/, { timeout: 30_000 });
  const rpc = createPublicClient({ transport: http(stack.chain.rpcUrl) });
  await expect.poll(() => rpc.getBalance({ address: recipient }), { timeout: 15_000 }).toBe(parseEther('0.25'));

  // Declined: nothing is signed, nothing reaches the chain.
  const nonce = await rpc.getTransactionCount({ address: address as Address });
  await send.getByLabel('Recipient address').fill(recipient);
  await send.getByLabel('Amount (ETH)').fill('0.1');
  await send.getByRole('button', { name: 'Review and send' }).click();
  await page.getByRole('dialog', { name: 'Send this transaction?' }).getByRole('button', { name: 'Decline', exact: true }).click();
  await expect(send.getByRole('alert')).toContainText('You declined the request.');
  expect(await rpc.getTransactionCount({ address: address as Address })).toBe(nonce);

  // The balance after the mined send, on the Accounts screen: 0.75 ETH less the fee.
  await openWalletScreen(page, 'Accounts');
  await expect(panel.getByTestId('wk-balance')).toHaveText(/^0\.7499\d* ETH$/, { timeout: 30_000 });

  const receive = await openWalletScreen(page, 'Receive');
  await expect(receive.getByTestId('wk-receive-address')).toHaveText(address!);
  await expect(receive.getByRole('img', { name: `QR code of ${address}` })).toBeVisible();
});
