// @vitest-environment happy-dom
import { act, cleanup, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { privateKeyToAccount } from 'viem/accounts';
import { afterEach, describe, expect, it } from 'vitest';
import { useWalletKit } from '../src/provider/useWalletKit';
import { WalletKitClientProvider } from '../src/provider/WalletKitClientProvider';
import { normalizeMnemonic } from '../src/wallet/mnemonic';
import { WalletPanel } from '../src/wallet/WalletPanel';
import { createFakeClient } from './support/fake-client';
import { expectNoAxeViolations, failOnConsoleError, renderWithKit } from './support/render';

failOnConsoleError();
afterEach(cleanup);

const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const ABANDON_ADDRESS = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';
const toKey = (hex: string) => `0x${hex.replace(/^0x/, '')}` as `0x${string}`;

describe('WalletPanel account key export', () => {
  it('given an account, when its key is exported after confirmation, then it opens the secret frame for that address and this document never holds the key', async () => {
    const client = createFakeClient();
    client.login();
    const { queryClient } = renderWithKit(<WalletPanel />, client);
    const address = client.wallets[0]!.accounts[0]!.address;
    await userEvent.click(await screen.findByRole('button', { name: `Export key of ${address}` }));
    expect(screen.queryByTitle('Private key')).toBeNull();
    const dialog = screen.getByRole('dialog', { name: 'Show the private key?' });
    expect(within(dialog).getByTestId('wk-confirm-content').textContent).toBe(address);
    await expectNoAxeViolations();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Show private key' }));
    expect((await screen.findByTitle('Private key')).tagName).toBe('IFRAME');
    await waitFor(() => expect(client.calls).toContainEqual(['exportInFrame', { address }]));
    const key = (await client.wallet.exportAccount(address)).replace(/^0x/, '');
    expect(document.documentElement.outerHTML).not.toContain(key);
    expect(
      queryClient
        .getMutationCache()
        .getAll()
        .map((m) => m.state.data),
    ).not.toContain(key);
    await userEvent.click(screen.getByRole('button', { name: `Hide private key of ${address}` }));
    expect(screen.queryByTitle('Private key')).toBeNull();
  });

  it('given the export is refused, when confirmed, then the mapped error is announced', async () => {
    const client = createFakeClient();
    client.login();
    client.failNext('exportInFrame', 'ERR_PERMISSION_DENIED');
    renderWithKit(<WalletPanel />, client);
    const address = client.wallets[0]!.accounts[0]!.address;
    await userEvent.click(await screen.findByRole('button', { name: `Export key of ${address}` }));
    await userEvent.click(screen.getByRole('button', { name: 'Show private key' }));
    expect((await screen.findByRole('alert')).textContent).toBe('You are not allowed to do this.');
  });
});

describe('WalletPanel import wallet', () => {
  it('given the abandon phrase typed in the secret frame, when imported, then its address is listed and this document never held the phrase', async () => {
    const client = createFakeClient();
    client.login();
    client.frameSecret = ABANDON;
    renderWithKit(<WalletPanel />, client);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Imported wallet name' }), 'Old');
    await expectNoAxeViolations();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('radio', { name: ABANDON_ADDRESS });
    expect(screen.queryByTitle('Recovery phrase')).toBeNull(); // the frame is removed once its work is done
    expect(
      within(screen.getByRole('group', { name: 'Old' }))
        .getByRole('radio')
        .getAttribute('value'),
    ).toBe(ABANDON_ADDRESS);
    expect(client.calls).toContainEqual(['importInFrame', { secret: 'mnemonic', name: 'Old' }]);
    expect(screen.getByRole('status').textContent).toBe(`Wallet Old imported: ${ABANDON_ADDRESS}.`);
    expect(document.documentElement.outerHTML).not.toContain('abandon');
  });

  it('given Private key chosen, when continued, then the frame asks for a private key under the key name', async () => {
    const client = createFakeClient();
    client.login();
    client.frameSecret = ABANDON;
    renderWithKit(<WalletPanel />, client);
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'What to import' }), 'privateKey');
    await userEvent.type(screen.getByRole('textbox', { name: 'Imported key name' }), 'Cold');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(client.calls).toContainEqual(['importInFrame', { secret: 'privateKey', name: 'Cold' }]));
    expect((await screen.findByRole('status')).textContent).toMatch(/^Key Cold imported: 0x/);
    // The imported key is listed with its address, and exports through the frame too.
    const keys = await screen.findByRole('list', { name: 'Private keys' });
    expect(within(keys).getByText(client.privateKeys[0]!.addresses[0]!.address)).toBeTruthy();
    expect(screen.queryByTitle('Private key')).toBeNull(); // the import frame is gone
    await userEvent.click(within(keys).getByRole('button', { name: 'Export private key Cold' }));
    await userEvent.click(screen.getByRole('button', { name: 'Show private key' }));
    expect((await screen.findByTitle('Private key')).tagName).toBe('IFRAME');
    await waitFor(() => expect(client.calls).toContainEqual(['exportInFrame', { privateKeyId: 'k-1' }]));
  });

  it('given the server refuses the import, when continued, then the mapped error shows', async () => {
    const client = createFakeClient();
    client.login();
    client.frameSecret = ABANDON;
    client.failNext('importInFrame', 'ERR_ALREADY_EXISTS');
    renderWithKit(<WalletPanel />, client);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Imported wallet name' }), 'Main');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This already exists. Log in instead, or pick another name.');
  });

  it.each([
    [12, true],
    [15, true],
    [18, true],
    [21, true],
    [24, true],
    [13, false],
    [0, false],
  ])('given %i words, when normalized, then accepted is %s', (n, ok) => {
    expect(normalizeMnemonic(Array(n).fill('abandon').join('  ')) !== undefined).toBe(ok);
  });
});

describe('useWalletKit exportAccount and importWallet', () => {
  it('given a session, when the actions run, then the key reproduces the address and the imported wallet is listed', async () => {
    const client = createFakeClient();
    client.login();
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <WalletKitClientProvider client={client} queryClient={queryClient}>
        {children}
      </WalletKitClientProvider>
    );
    const { result } = renderHook(() => useWalletKit(), { wrapper });
    const address = client.wallets[0]!.accounts[0]!.address;
    expect(privateKeyToAccount(toKey(await result.current.exportAccount(address))).address).toBe(address);
    await act(() => result.current.importWallet('Old', ABANDON));
    await waitFor(() => expect(result.current.wallets.map((w) => w.walletName)).toEqual(['Main', 'Old']));
    expect(client.wallets[1]!.accounts[0]!.address).toBe(ABANDON_ADDRESS);
  });
});
