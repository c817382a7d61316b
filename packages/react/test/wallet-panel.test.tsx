// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mnemonicToAccount } from 'viem/accounts';
import { verifyMessage, verifyTypedData } from 'viem';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useWalletKit, type WalletKit } from '../src/provider/useWalletKit';
import { WalletKitClientProvider } from '../src/provider/WalletKitClientProvider';
import { SessionCountdown } from '../src/wallet/SessionCountdown';
import { WalletPanel } from '../src/wallet/WalletPanel';
import { createFakeClient } from './support/fake-client';
import { expectNoAxeViolations, failOnConsoleError, renderWithKit } from './support/render';

failOnConsoleError();
afterEach(cleanup);

const typedData = {
  domain: { name: 'Demo', version: '1', chainId: 1, verifyingContract: '0x0000000000000000000000000000000000000001' },
  types: { Mail: [{ name: 'contents', type: 'string' }] },
  primaryType: 'Mail',
  message: { contents: 'Hello, Bob' },
} as const;

async function selectFirstAccount(client: ReturnType<typeof createFakeClient>) {
  const address = client.wallets[0]!.accounts[0]!.address;
  await userEvent.click(await screen.findByRole('radio', { name: address }));
  return address;
}

describe('WalletPanel', () => {
  it('given a session, when a message is signed, then the kit dialog showed it once and the signature verifies with viem', async () => {
    const client = createFakeClient();
    client.login();
    renderWithKit(<WalletPanel />, client);
    const address = await selectFirstAccount(client);
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Log in to Demo, nonce 7');
    await userEvent.click(screen.getByRole('button', { name: 'Sign message' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign this message?' });
    expect((await within(dialog).findByTestId('wk-confirm-content')).textContent).toBe('Log in to Demo, nonce 7');
    expect(within(dialog).getByTestId('wk-confirm-origin').textContent).toBe(location.origin);
    expect(screen.getAllByRole('dialog')).toHaveLength(1); // the panel asks through the client's one confirmation, not a second dialog
    await expectNoAxeViolations();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign' }));
    const signature = (await screen.findByTestId('wk-signature')).textContent as `0x${string}`;
    expect(await verifyMessage({ address: address as `0x${string}`, message: 'Log in to Demo, nonce 7', signature })).toBe(true);
  });

  it('given EIP-712 JSON, when signed, then the kit dialog showed the typed data structured and the signature verifies with viem', async () => {
    const client = createFakeClient();
    client.login();
    renderWithKit(<WalletPanel />, client);
    const address = await selectFirstAccount(client);
    const input = screen.getByRole('textbox', { name: 'Typed data (EIP-712 JSON)' });
    await userEvent.click(input);
    await userEvent.paste(JSON.stringify(typedData));
    await userEvent.click(screen.getByRole('button', { name: 'Sign typed data' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign this typed data?' });
    const message = await within(dialog).findByLabelText('Message');
    expect(message.textContent).toBe('contents stringHello, Bob'); // name, type, value: a definition list, not JSON
    expect(within(dialog).getByTestId('wk-confirm-primary-type').textContent).toBe('Mail');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign' }));
    const signature = (await screen.findByTestId('wk-signature')).textContent as `0x${string}`;
    expect(await verifyTypedData({ address: address as `0x${string}`, ...typedData, signature })).toBe(true);
  });

  it('given a wallet, when exported after confirmation, then the secret frame opens for it and this document never holds the phrase', async () => {
    const client = createFakeClient();
    client.login();
    renderWithKit(<WalletPanel />, client);
    await userEvent.click(await screen.findByRole('button', { name: 'Export Main' }));
    expect(screen.queryByTitle('Recovery phrase')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Show recovery phrase' }));
    expect((await screen.findByTitle('Recovery phrase')).tagName).toBe('IFRAME');
    await waitFor(() => expect(client.calls).toContainEqual(['exportInFrame', { walletId: 'w-1' }]));
    for (const word of client.wallets[0]!.mnemonic.split(' ')) expect(document.body.textContent).not.toMatch(new RegExp(`\\b${word}\\b`));
    await userEvent.click(screen.getByRole('button', { name: 'Hide recovery phrase of Main' }));
    expect(screen.queryByTitle('Recovery phrase')).toBeNull();
  });

  it('given a session, when a wallet and an account are created, then the lists refresh with the new addresses', async () => {
    const client = createFakeClient();
    client.login();
    renderWithKit(<WalletPanel />, client);
    await userEvent.click(await screen.findByRole('button', { name: 'Add account to Main' }));
    await waitFor(() => expect(screen.getAllByRole('radio')).toHaveLength(2));
    expect(client.calls).toContainEqual([
      'createAccounts',
      'w-1',
      [expect.objectContaining({ path: "m/44'/60'/0'/0/1", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' })],
    ]);
    await userEvent.type(screen.getByRole('textbox', { name: 'New wallet name' }), 'Savings{Enter}');
    await screen.findByRole('group', { name: 'Savings' });
    await userEvent.type(screen.getByRole('textbox', { name: 'New passkey name' }), 'Laptop{Enter}');
    expect((await screen.findByRole('status')).textContent).toBe('Passkey added.');
    await expectNoAxeViolations();
  });

  it('given a session, when Log out is clicked, then the session is anonymous and the panel disappears', async () => {
    const client = createFakeClient();
    client.login();
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
    <button type="button" onClick={kit.login}>
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
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(kit.status).toBe('authenticated');
    expect(kit.user).toEqual({ userId: 'user-1', organizationId: 'sub-org-1' });
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
