// @vitest-environment happy-dom
/**
 * The wallet panel as a small app, over an injected client whose signing is real (viem accounts
 * from a BIP39 phrase): a header (account, short address, network, countdown, Log out) over
 * screens reached by WAI-ARIA tabs (keyboard included); the Accounts screen (select, full address,
 * copy, QR code, balance, network, add an account, create a wallet, the empty and error states);
 * signing after the kit's confirmation; the last screen and account remembered for the session.
 */
import type { ChainConfig } from '@walletkit/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mnemonicToAccount } from 'viem/accounts';
import { parseEther, verifyMessage, verifyTypedData } from 'viem';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChainsState } from '../src/client-contract';
import { useWalletKit, type WalletKit } from '../src/provider/useWalletKit';
import { WalletKitClientProvider } from '../src/provider/WalletKitClientProvider';
import { SessionCountdown } from '../src/wallet/SessionCountdown';
import { WalletPanel } from '../src/wallet/WalletPanel';
import { createFakeClient, hardhat } from './support/fake-client';
import { accountSelect, chooseAccount, listedAddresses, openScreen, walletRegion } from './support/panel';
import { decodeSvgQr } from './support/qr';
import { expectNoAxeViolations, failOnConsoleError, renderWithKit } from './support/render';

failOnConsoleError();
beforeEach(() => sessionStorage.clear());
afterEach(cleanup);

const typedData = {
  domain: { name: 'Demo', version: '1', chainId: 1, verifyingContract: '0x0000000000000000000000000000000000000001' },
  types: { Mail: [{ name: 'contents', type: 'string' }] },
  primaryType: 'Mail',
  message: { contents: 'Hello, Bob' },
} as const;

const sepolia: ChainConfig = {
  id: 11155111,
  name: 'Sepolia',
  rpcUrl: 'http://127.0.0.1:1',
  nativeCurrency: { name: 'Sepolia Ether', symbol: 'SEP', decimals: 18 },
};

function signedIn(opts: Parameters<typeof createFakeClient>[0] = {}) {
  const client = createFakeClient(opts);
  client.login();
  return { client, address: client.wallets[0]!.accounts[0]!.address };
}

describe('WalletPanel screens', () => {
  it('given a session, when the panel opens, then Accounts shows the first account whole with its balance, and the header names it with its network, axe-clean', async () => {
    const { client, address } = signedIn();
    client.balances.set(`31337:${address.toLowerCase()}`, parseEther('1.5'));
    renderWithKit(<WalletPanel />, client);
    const panel = await walletRegion();
    expect(
      within(panel)
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['Accounts', 'Send', 'Receive', 'Sign', 'Export & import', 'Security']);
    expect(within(panel).getByRole('tab', { name: 'Accounts' }).getAttribute('aria-selected')).toBe('true');
    expect((await within(panel).findByTestId('wk-account-address')).textContent).toBe(address);
    expect((await accountSelect()).value).toBe(address);
    await waitFor(() => expect(within(panel).getByTestId('wk-balance').textContent).toBe('1.5 ETH'));
    expect(within(panel).getByText('Balance on Hardhat')).toBeTruthy();
    const header = panel.querySelector('header')!;
    expect(header.textContent).toContain('Main · Account 1');
    expect(header.textContent).toContain(`${address.slice(0, 6)}…${address.slice(-4)} · Hardhat`);
    expect(within(header).getByRole('button', { name: 'Log out' })).toBeTruthy();
    await expectNoAxeViolations();
  });

  it('given the tabs, when only the keyboard is used, then one tab stop, arrows open the next and previous (wrapping), Home and End the ends', async () => {
    const { client } = signedIn();
    renderWithKit(<WalletPanel />, client);
    const accounts = await screen.findByRole('tab', { name: 'Accounts' });
    expect(screen.getAllByRole('tab').filter((t) => t.tabIndex === 0)).toEqual([accounts]);
    accounts.focus();
    await userEvent.keyboard('{ArrowRight}');
    const send = screen.getByRole('tab', { name: 'Send' });
    expect(document.activeElement).toBe(send);
    expect(send.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: 'Send' }).hidden).toBe(false);
    expect(await screen.findByRole('form', { name: 'Send' })).toBeTruthy();
    await userEvent.keyboard('{End}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Security' }));
    await userEvent.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(accounts);
    await userEvent.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Security' }).getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('{Home}');
    expect(accounts.getAttribute('aria-selected')).toBe('true');
    expect(screen.getAllByRole('tab').filter((t) => t.tabIndex === 0)).toEqual([accounts]);
    // Every tab names its panel, which is in the document (hidden unless selected).
    for (const tab of screen.getAllByRole('tab')) expect(document.getElementById(tab.getAttribute('aria-controls')!)?.getAttribute('role')).toBe('tabpanel');
  });

  it('given a session, when a message is signed on the Sign screen, then the kit dialog showed it once and the signature verifies with viem', async () => {
    const { client, address } = signedIn();
    renderWithKit(<WalletPanel />, client);
    const sign = await openScreen('Sign');
    await userEvent.type(await within(sign).findByRole('textbox', { name: 'Message' }), 'Log in to Demo, nonce 7');
    await userEvent.click(within(sign).getByRole('button', { name: 'Sign message' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign this message?' });
    expect((await within(dialog).findByTestId('wk-confirm-content')).textContent).toBe('Log in to Demo, nonce 7');
    expect(within(dialog).getByTestId('wk-confirm-origin').textContent).toBe(location.origin);
    expect(screen.getAllByRole('dialog')).toHaveLength(1); // the panel asks through the client's one confirmation, not a second dialog
    expect(within(sign).getByRole('status').textContent).toBe('Waiting for your confirmation…');
    await expectNoAxeViolations();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign' }));
    const signature = (await within(sign).findByTestId('wk-signature')).textContent as `0x${string}`;
    expect(await verifyMessage({ address: address as `0x${string}`, message: 'Log in to Demo, nonce 7', signature })).toBe(true);
  });

  it('given EIP-712 JSON, when signed, then the kit dialog showed the typed data structured and the signature verifies with viem; bad JSON is refused in place', async () => {
    const { client, address } = signedIn();
    renderWithKit(<WalletPanel />, client);
    const sign = await openScreen('Sign');
    const input = await within(sign).findByRole('textbox', { name: 'Typed data (EIP-712 JSON)' });
    await userEvent.type(input, 'not json');
    await userEvent.click(within(sign).getByRole('button', { name: 'Sign typed data' }));
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(input.getAttribute('aria-describedby')!)!.textContent).toBe('The typed data is not valid JSON.');
    await userEvent.clear(input);
    await userEvent.click(input);
    await userEvent.paste(JSON.stringify(typedData));
    await userEvent.click(within(sign).getByRole('button', { name: 'Sign typed data' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign this typed data?' });
    expect((await within(dialog).findByLabelText('Message')).textContent).toBe('contents stringHello, Bob');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign' }));
    const signature = (await within(sign).findByTestId('wk-signature')).textContent as `0x${string}`;
    expect(await verifyTypedData({ address: address as `0x${string}`, ...typedData, signature })).toBe(true);
  });

  it('given a session, when an account is added and a wallet created, then the select lists them, the new account is selected and signs as itself', async () => {
    const { client, address } = signedIn();
    renderWithKit(<WalletPanel />, client);
    await userEvent.click(await screen.findByRole('button', { name: 'Add account to Main' }));
    expect((await screen.findByText('Account added.')).getAttribute('role')).toBe('status');
    expect(client.calls).toContainEqual([
      'createAccounts',
      'w-1',
      [expect.objectContaining({ path: "m/44'/60'/0'/0/1", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' })],
    ]);
    const second = mnemonicToAccount(client.wallets[0]!.mnemonic, { addressIndex: 1 }).address;
    expect(await listedAddresses(2)).toEqual([address, second]);
    expect((await accountSelect()).value).toBe(second);
    expect(screen.getByTestId('wk-account-address').textContent).toBe(second);
    expect(screen.getByRole('region', { name: 'Wallet' }).querySelector('header')!.textContent).toContain('Main · Account 2');

    await userEvent.click(screen.getByRole('button', { name: 'New wallet' }));
    const name = screen.getByRole('textbox', { name: 'Wallet name' });
    expect(document.activeElement).toBe(name);
    await userEvent.type(name, 'Savings{Enter}');
    expect((await screen.findByText('Wallet Savings created.')).getAttribute('role')).toBe('status');
    await waitFor(() => expect(within(screen.getByRole('combobox', { name: 'Account' })).getByRole('group', { name: 'Savings' })).toBeTruthy());
    expect(await listedAddresses(3)).toHaveLength(3);

    const sign = await openScreen('Sign');
    await userEvent.type(await within(sign).findByRole('textbox', { name: 'Message' }), 'second');
    await userEvent.click(within(sign).getByRole('button', { name: 'Sign message' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Sign this message?' })).getByRole('button', { name: 'Sign' }));
    const signature = (await within(sign).findByTestId('wk-signature')).textContent as `0x${string}`;
    expect(await verifyMessage({ address: second, message: 'second', signature })).toBe(true);
    await expectNoAxeViolations();
  });

  it('given a user without a wallet, when the panel opens, then one action leads: "Create your first wallet", which makes one and shows its address', async () => {
    const { client } = signedIn();
    client.wallets.splice(0);
    renderWithKit(<WalletPanel />, client);
    expect(await screen.findByText("You don't have a wallet yet")).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Wallet name' }) as HTMLInputElement).value).toBe('My wallet');
    await expectNoAxeViolations();
    // Other screens point back here rather than showing an empty form.
    const send = await openScreen('Send');
    await userEvent.click(within(send).getByRole('button', { name: 'Create your first wallet' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Create your first wallet' }));
    const address = await screen.findByTestId('wk-account-address');
    expect(address.textContent).toBe(client.wallets[0]!.accounts[0]!.address);
    expect(client.wallets[0]!.walletName).toBe('My wallet');
  });

  it('given the wallet list fails to load, when shown, then the error says what to do and Try again loads it', async () => {
    const { client, address } = signedIn();
    client.failNext('listWallets', 'ERR_NETWORK');
    renderWithKit(<WalletPanel />, client);
    expect((await screen.findByRole('alert')).textContent).toBe('The server cannot be reached. Check your connection and try again.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByTestId('wk-account-address')).textContent).toBe(address);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('given an account, when its address is copied and its QR code shown, then the clipboard holds it, "Copied" is announced, and the code decodes to it', async () => {
    const { client, address } = signedIn();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithKit(<WalletPanel />, client);
    const copy = await screen.findByRole('button', { name: 'Copy address' });
    await userEvent.click(copy);
    expect(writeText).toHaveBeenCalledWith(address);
    expect(copy.textContent).toBe('Copied');
    expect(screen.getByRole('status').textContent).toBe('Address copied.');
    const show = screen.getByRole('button', { name: 'Show QR code' });
    expect(show.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(show);
    const qr = await screen.findByRole('img', { name: `QR code of ${address}` });
    expect(decodeSvgQr(qr as unknown as SVGSVGElement)).toBe(address);
    expect(screen.getByRole('button', { name: 'Hide QR code' }).getAttribute('aria-expanded')).toBe('true');
    await expectNoAxeViolations();
  });

  it('given a clipboard the browser refuses, when Copy is pressed, then the user is told to copy by hand', async () => {
    const { client } = signedIn();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async () => Promise.reject(new Error('denied')) }, configurable: true });
    renderWithKit(<WalletPanel />, client);
    await userEvent.click(await screen.findByRole('button', { name: 'Copy address' }));
    expect((await screen.findByText('Copying failed: select the text and copy it.')).getAttribute('role')).toBe('status');
  });

  it('given several networks, when another is chosen, then the kit switches its chain (as a dApp would) and the balance and header follow', async () => {
    const { client, address } = signedIn({ chains: [hardhat, sepolia] });
    // The chains state of the real client: wallet_switchEthereumChain selects, subscribers hear it.
    let chains: ChainsState = { chains: [hardhat, sepolia], selectedId: hardhat.id };
    const listeners = new Set<() => void>();
    client.chains = {
      getState: () => chains,
      subscribe: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    };
    const requests: unknown[] = [];
    client.provider = {
      request: async (args) => {
        requests.push(args);
        chains = { ...chains, selectedId: Number((args.params as Array<{ chainId: string }>)[0]!.chainId) };
        for (const l of listeners) l();
        return null;
      },
    };
    client.balances.set(`11155111:${address.toLowerCase()}`, parseEther('3'));
    renderWithKit(<WalletPanel />, client);
    const network = await screen.findByRole('combobox', { name: 'Network' });
    expect((network as HTMLSelectElement).value).toBe('31337');
    await userEvent.selectOptions(network, 'Sepolia');
    expect(requests).toEqual([{ method: 'wallet_switchEthereumChain', params: [{ chainId: '0xaa36a7' }] }]);
    await waitFor(() => expect(screen.getByTestId('wk-balance').textContent).toBe('3 SEP'));
    expect(screen.getByText('Balance on Sepolia')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Wallet' }).querySelector('header')!.textContent).toContain('· Sepolia');
  });

  it('given the Sign screen and the second account chosen, when the panel mounts again in the session, then both are remembered; Log out forgets them', async () => {
    const { client } = signedIn();
    const second = mnemonicToAccount(client.wallets[0]!.mnemonic, { addressIndex: 1 }).address;
    client.wallets[0]!.accounts.push({ walletId: 'w-1', address: second, path: "m/44'/60'/0'/0/1" });
    const first = renderWithKit(<WalletPanel />, client);
    await chooseAccount(second);
    await openScreen('Sign');
    first.unmount();

    renderWithKit(<WalletPanel />, client);
    expect((await screen.findByRole('tab', { name: 'Sign' })).getAttribute('aria-selected')).toBe('true');
    expect(await within(screen.getByRole('tabpanel', { name: 'Sign' })).findByText(second)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Wallet' })).toBeNull());
    cleanup();

    client.login();
    renderWithKit(<WalletPanel />, client);
    expect((await screen.findByRole('tab', { name: 'Accounts' })).getAttribute('aria-selected')).toBe('true');
    expect((await screen.findByTestId('wk-account-address')).textContent).toBe(client.wallets[0]!.accounts[0]!.address);
  });

  it('given screens and initialScreen props, when rendered, then only those tabs show, in that order, starting on the initial one', async () => {
    const { client, address } = signedIn();
    renderWithKit(<WalletPanel screens={['receive', 'accounts']} initialScreen="receive" />, client);
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Receive', 'Accounts']);
    expect(tabs[0]!.getAttribute('aria-selected')).toBe('true');
    expect((await screen.findByTestId('wk-receive-address')).textContent).toBe(address);
  });

  it('given the Security screen, when opened, then its panel (the account area) is mounted under its tab', async () => {
    const { client } = signedIn();
    renderWithKit(<WalletPanel />, client);
    const security = await openScreen('Security');
    expect(security.getAttribute('aria-labelledby')).toBe(screen.getByRole('tab', { name: 'Security' }).id);
    await waitFor(() => expect(within(security).queryByRole('status')).toBeNull()); // its chunk loaded
  });

  it('given a session, when Log out is clicked, then the session is anonymous and the panel disappears', async () => {
    const { client } = signedIn();
    renderWithKit(<WalletPanel />, client);
    await userEvent.click(await screen.findByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Wallet' })).toBeNull());
    expect(client.session.getState().status).toBe('anonymous');
  });

  it('given a session expiring in 90 s, when time passes, then the countdown follows and ends as expired', () => {
    vi.useFakeTimers();
    try {
      const start = Date.now();
      render(<SessionCountdown expiresAt={start + 90_000} />);
      expect(screen.getByTestId('wk-session-countdown').textContent).toBe('Session expires in 1:30');
      act(() => vi.advanceTimersByTime(61_000));
      expect(screen.getByTestId('wk-session-countdown').textContent).toBe('Session expires in 0:29');
      act(() => vi.advanceTimersByTime(30_000));
      expect(screen.getByTestId('wk-session-countdown').textContent).toBe('Session expired');
    } finally {
      vi.useRealTimers();
    }
  });
});

function Probe({ onKit }: { onKit: (kit: WalletKit) => void }) {
  const kit = useWalletKit();
  onKit(kit);
  return (
    <button type="button" onClick={() => void kit.login()}>
      {kit.status}
    </button>
  );
}

describe('WalletKitClientProvider and useWalletKit', () => {
  it('given an app QueryClientProvider, when anonymous, then login() opens the modal and an OTP login fills state and wallets', async () => {
    const client = createFakeClient({ config: { enabledProviders: ['email'] } });
    let kit!: WalletKit;
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={queryClient}>
        <WalletKitClientProvider client={client}>
          <Probe onKit={(k) => (kit = k)} />
        </WalletKitClientProvider>
      </QueryClientProvider>,
    );
    expect(client.calls).toContainEqual(['restore']);
    await userEvent.click(screen.getByRole('button', { name: 'anonymous' }));
    await userEvent.type(await screen.findByRole('textbox', { name: 'Email' }), 'ada@example.com{Enter}');
    await userEvent.click(await screen.findByRole('textbox', { name: 'Character 1 of 6' }));
    await userEvent.keyboard('123456');
    await waitFor(() => expect(kit.wallets).toEqual([{ walletId: 'w-1', walletName: 'Main' }]));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(kit.status).toBe('authenticated');
    expect(kit.user).toMatchObject({ userId: 'user-1', organizationId: 'sub-org-1' });
    const address = client.wallets[0]!.accounts[0]!.address as `0x${string}`;
    // A headless call: `confirm: false` skips the dialog for this one signature.
    const signature = (await kit.signMessage(address, 'hi', { confirm: false })) as `0x${string}`;
    expect(await verifyMessage({ address, message: 'hi', signature })).toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(mnemonicToAccount(await kit.exportWallet('w-1')).address).toBe(address);
    await act(() => kit.createWallet('Second'));
    await waitFor(() => expect(kit.wallets.map((w) => w.walletName)).toEqual(['Main', 'Second']));
    await act(() => kit.logout());
    await waitFor(() => expect(kit.status).toBe('anonymous'));
    expect(kit.wallets).toEqual([]);
  });

  it('given no QueryClient at all, when the provider renders, then it fails loudly instead of creating one', () => {
    const client = createFakeClient();
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(() => render(<WalletKitClientProvider client={client} />)).toThrow(/QueryClient/);
    } finally {
      spy.mockRestore();
    }
  });
});
