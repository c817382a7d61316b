// @vitest-environment happy-dom
/**
 * The wallet panel's balance, Send and Receive over an injected client whose signing is real
 * (viem accounts) and whose balances move on a send: the amount typed becomes exact wei, the
 * kit's confirmation shows what is sent, the client gets the right `to` and value, the hash and
 * explorer link show, the balance is refetched; Receive's QR code decodes back to the address.
 */
import type { ChainConfig } from '@walletkit/client';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { getAddress, parseEther, parseTransaction, recoverTransactionAddress } from 'viem';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useWalletKit, type WalletKit } from '../src/provider/useWalletKit';
import { WalletPanel } from '../src/wallet/WalletPanel';
import { createFakeClient, hardhat } from './support/fake-client';
import { openScreen } from './support/panel';
import { decodeSvgQr } from './support/qr';
import { expectNoAxeViolations, failOnConsoleError, renderWithKit } from './support/render';

failOnConsoleError();
beforeEach(() => sessionStorage.clear());
afterEach(cleanup);

const RECIPIENT = '0x90f79bf6eb2c4f870365e785982e1f101e93b906';
const sepolia: ChainConfig = {
  id: 11155111,
  name: 'Sepolia',
  rpcUrl: 'http://127.0.0.1:1',
  nativeCurrency: { name: 'Sepolia Ether', symbol: 'SEP', decimals: 18 },
};

/** A signed-in panel (its first account selected, as the panel does) with 1.5 ETH on Hardhat. */
async function panel(opts: { chains?: ChainConfig[] } = {}) {
  const client = createFakeClient(opts);
  client.login();
  const address = client.wallets[0]!.accounts[0]!.address;
  client.balances.set(`31337:${address.toLowerCase()}`, parseEther('1.5'));
  renderWithKit(<WalletPanel />, client);
  expect((await screen.findByTestId('wk-account-address')).textContent).toBe(address);
  return { client, address };
}

const sends = (client: ReturnType<typeof createFakeClient>) => client.calls.filter(([name]) => name === 'sendTransaction').map(([, params]) => params);

async function fillSend(to: string, amount: string) {
  await openScreen('Send');
  const form = await screen.findByRole('form', { name: 'Send' });
  await userEvent.type(within(form).getByRole('textbox', { name: 'Recipient address' }), to);
  await userEvent.type(within(form).getByRole('textbox', { name: 'Amount (ETH)' }), amount);
  return form;
}

describe('WalletPanel balance and Send', () => {
  it('given 1.5 ETH on the default chain, when an account is selected, then its balance shows with the network name, axe-clean', async () => {
    await panel();
    expect(await screen.findByText('Balance on Hardhat')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('wk-balance').textContent).toBe('1.5 ETH'));
    await expectNoAxeViolations();
  });

  it('given a recipient and 0.25 ETH, when sent and confirmed, then the client sends exact wei to the EIP-55 address, the hash links to the explorer and the balance refetches', async () => {
    const { client, address } = await panel();
    await waitFor(() => expect(screen.getByTestId('wk-balance').textContent).toBe('1.5 ETH'));
    const form = await fillSend(RECIPIENT, '0.25');
    expect(within(form).getByText('Sent on Hardhat.')).toBeTruthy(); // one network: named, no selector
    expect(within(form).queryByRole('combobox')).toBeNull();
    await waitFor(() => expect(within(form).getByText('Available: 1.5 ETH')).toBeTruthy());
    await expectNoAxeViolations();
    await userEvent.click(within(form).getByRole('button', { name: 'Review and send' }));

    const dialog = await screen.findByRole('dialog', { name: 'Send this transaction?' });
    await within(dialog).findByTestId('wk-confirm-approve');
    expect(within(dialog).getByTestId('wk-confirm-to').textContent).toBe(getAddress(RECIPIENT));
    expect(within(dialog).getByTestId('wk-confirm-value').textContent).toBe('0.25 ETH');
    expect(within(dialog).getByTestId('wk-confirm-network').textContent).toBe('Hardhat (chain id 31337)');
    expect(within(dialog).getByTestId('wk-confirm-fee').textContent).toBe('up to 0.000042 ETH');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));

    const hash = (await screen.findByTestId('wk-tx-hash')).textContent!;
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(within(form).getByText('Sent. Transaction hash:').getAttribute('role')).toBe('status');
    expect(sends(client)).toEqual([{ address, chainId: 31337, transaction: { to: getAddress(RECIPIENT), value: 250_000_000_000_000_000n } }]);
    expect(screen.getByRole('link', { name: 'View in the block explorer' }).getAttribute('href')).toBe(`https://explorer.example/tx/${hash}`);
    await waitFor(() => expect(within(form).getByText('Available: 1.25 ETH')).toBeTruthy());
    await openScreen('Accounts');
    await waitFor(() => expect(screen.getByTestId('wk-balance').textContent).toBe('1.25 ETH'));
    expect(client.balances.get(`31337:${RECIPIENT}`)).toBe(parseEther('0.25'));
  });

  it('given a wrong checksum, too many decimals or more than the balance, when submitted, then each is refused in the form and nothing is sent', async () => {
    const { client } = await panel();
    await waitFor(() => expect(screen.getByTestId('wk-balance').textContent).toBe('1.5 ETH'));
    const form = await fillSend(getAddress(RECIPIENT).replace('F79', 'f79'), '0.0000000000000000001');
    await waitFor(() => expect(within(form).getByText('Available: 1.5 ETH')).toBeTruthy());
    await userEvent.click(within(form).getByRole('button', { name: 'Review and send' }));
    const to = within(form).getByRole('textbox', { name: 'Recipient address' });
    const amount = within(form).getByRole('textbox', { name: 'Amount (ETH)' });
    expect(to.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(to.getAttribute('aria-describedby')!)!.textContent).toMatch(/wrong checksum/);
    expect(document.getElementById(amount.getAttribute('aria-describedby')!)!.textContent).toBe('Enter an amount in ETH, like 0.01 (at most 18 decimals).');
    await userEvent.clear(amount);
    await userEvent.type(amount, '2');
    await userEvent.click(within(form).getByRole('button', { name: 'Review and send' }));
    expect(document.getElementById(amount.getAttribute('aria-describedby')!)!.textContent).toBe('That is more than the balance (1.5 ETH).');
    await expectNoAxeViolations();
    expect(sends(client)).toEqual([]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('given a send, when the confirmation is declined, then the form says so by code and no hash shows', async () => {
    await panel();
    const form = await fillSend(RECIPIENT, '0.1');
    await userEvent.click(within(form).getByRole('button', { name: 'Review and send' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('You declined the request.');
    expect(screen.queryByTestId('wk-tx-hash')).toBeNull();
  });

  it('given two chains, when Sepolia is chosen, then the send goes to that chain, the dialog names it in SEP, and no explorer link is made up', async () => {
    const { client, address } = await panel({ chains: [hardhat, sepolia] });
    client.balances.set(`11155111:${address.toLowerCase()}`, parseEther('3'));
    await openScreen('Send');
    const form = await screen.findByRole('form', { name: 'Send' });
    expect((within(form).getByRole('combobox', { name: 'Network' }) as HTMLSelectElement).value).toBe('31337');
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: 'Network' }), 'Sepolia');
    await waitFor(() => expect(within(form).getByText('Available: 3 SEP')).toBeTruthy());
    await userEvent.type(within(form).getByRole('textbox', { name: 'Recipient address' }), RECIPIENT);
    await userEvent.type(within(form).getByRole('textbox', { name: 'Amount (SEP)' }), '1');
    await userEvent.click(within(form).getByRole('button', { name: 'Review and send' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send this transaction?' });
    expect((await within(dialog).findByTestId('wk-confirm-network')).textContent).toBe('Sepolia (chain id 11155111)');
    expect(within(dialog).getByTestId('wk-confirm-value').textContent).toBe('1 SEP');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    await screen.findByTestId('wk-tx-hash');
    expect(sends(client)).toEqual([{ address, chainId: 11155111, transaction: { to: getAddress(RECIPIENT), value: 10n ** 18n } }]);
    expect(screen.queryByRole('link', { name: 'View in the block explorer' })).toBeNull();
  });

  it('given no chain configured, when an account is selected, then there is no balance or Send form, and Receive still works', async () => {
    const { address } = await panel({ chains: [] });
    const noChain = 'This app has no network set up, so there is no balance or Send. You can still receive funds.';
    expect(screen.getByText(noChain)).toBeTruthy();
    expect(screen.queryByTestId('wk-balance')).toBeNull();
    const send = await openScreen('Send');
    expect(within(send).getByText(noChain)).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Send' })).toBeNull();
    await openScreen('Receive');
    expect((await screen.findByTestId('wk-receive-address')).textContent).toBe(address);
  });
});

describe('WalletPanel Receive', () => {
  it('given an account, when Receive is opened, then the address shows, Copy copies it, and the SVG QR code decodes to it, axe-clean', async () => {
    const { address } = await panel();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const receive = await openScreen('Receive');
    expect(within(receive).getByText('Share this address to receive funds on Hardhat.')).toBeTruthy();
    expect((await screen.findByTestId('wk-receive-address')).textContent).toBe(address);
    const qr = screen.getByRole('img', { name: `QR code of ${address}` });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(decodeSvgQr(qr as unknown as SVGSVGElement)).toBe(address);
    await userEvent.click(screen.getByRole('button', { name: 'Copy address' }));
    expect(writeText).toHaveBeenCalledWith(address);
    expect(screen.getByText('Address copied.').getAttribute('role')).toBe('status');
    await expectNoAxeViolations();
  });
});

function Probe({ onKit }: { onKit: (kit: WalletKit) => void }) {
  onKit(useWalletKit());
  return null;
}

describe('useWalletKit transactions', () => {
  it('given the hook, when a transaction is signed after confirmation, then it recovers to the account, and balance, chains and provider come from the client', async () => {
    const client = createFakeClient();
    client.login();
    const address = client.wallets[0]!.accounts[0]!.address as `0x${string}`;
    client.balances.set(`31337:${address.toLowerCase()}`, 7n);
    let kit!: WalletKit;
    renderWithKit(<Probe onKit={(k) => (kit = k)} />, client);
    expect(kit.chains).toEqual([hardhat]);
    expect(kit.ethereumProvider).toBe(client.provider);
    expect(await kit.getBalance({ address })).toBe(7n);

    const signing = kit.signTransaction({ address, transaction: { to: RECIPIENT, value: 5n } });
    const dialog = await screen.findByRole('dialog', { name: 'Sign this transaction?' });
    expect((await within(dialog).findByTestId('wk-confirm-value')).textContent).toBe('0.000000000000000005 ETH');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign' }));
    const signed = (await signing) as `0x${string}`;
    expect(parseTransaction(signed)).toMatchObject({ to: RECIPIENT, value: 5n, chainId: 31337 });
    expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(address);
  });
});
