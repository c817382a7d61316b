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
  it('given an account, when its key is exported after confirmation, then the key reproduces the address and Hide forgets it', async () => {
    const client = createFakeClient();
    client.login();
    const { queryClient } = renderWithKit(<WalletPanel />, client);
    const address = client.wallets[0]!.accounts[0]!.address;
    await userEvent.click(await screen.findByRole('button', { name: `Export key of ${address}` }));
    expect(screen.queryByTestId('wk-private-key')).toBeNull();
    const dialog = screen.getByRole('dialog', { name: 'Show the private key?' });
    expect(within(dialog).getByTestId('wk-confirm-content').textContent).toBe(address);
    await expectNoAxeViolations();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Show private key' }));
    const key = (await screen.findByTestId('wk-private-key')).textContent!;
    expect(privateKeyToAccount(toKey(key)).address).toBe(address);
    await expectNoAxeViolations();
    await userEvent.click(screen.getByRole('button', { name: `Hide private key of ${address}` }));
    expect(screen.queryByTestId('wk-private-key')).toBeNull();
    const cached = queryClient.getMutationCache().getAll().map((m) => m.state.data);
    expect(cached).not.toContain(key);
  });

  it('given the export is refused, when confirmed, then the mapped error is announced and no key shows', async () => {
    const client = createFakeClient();
    client.login();
    client.failNext('exportAccount', 'ERR_PERMISSION_DENIED');
    renderWithKit(<WalletPanel />, client);
    const address = client.wallets[0]!.accounts[0]!.address;
    await userEvent.click(await screen.findByRole('button', { name: `Export key of ${address}` }));
    await userEvent.click(screen.getByRole('button', { name: 'Show private key' }));
    expect((await screen.findByRole('alert')).textContent).toBe('You are not allowed to do this.');
    expect(screen.queryByTestId('wk-private-key')).toBeNull();
  });
});

describe('WalletPanel import wallet', () => {
  it('given the abandon phrase, when imported, then its address is listed and the phrase field is cleared', async () => {
    const client = createFakeClient();
    client.login();
    renderWithKit(<WalletPanel />, client);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Imported wallet name' }), 'Old');
    const phrase = screen.getByRole('textbox', { name: 'Recovery phrase' });
    await userEvent.click(phrase);
    await userEvent.paste(`  ${ABANDON.toUpperCase()}\n`);
    await userEvent.click(screen.getByRole('button', { name: 'Import wallet' }));
    await screen.findByRole('radio', { name: ABANDON_ADDRESS });
    expect(within(screen.getByRole('group', { name: 'Old' })).getByRole('radio').getAttribute('value')).toBe(ABANDON_ADDRESS);
    expect(client.calls).toContainEqual(['importWallet', { walletName: 'Old', mnemonic: ABANDON }]);
    expect((phrase as HTMLTextAreaElement).value).toBe('');
    expect(screen.getByRole('status').textContent).toBe('Wallet Old imported.');
    await expectNoAxeViolations();
  });

  it('given 11 words, when submitted, then it is refused here with a hint and the client is not called', async () => {
    const client = createFakeClient();
    client.login();
    renderWithKit(<WalletPanel />, client);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Imported wallet name' }), 'Old');
    await userEvent.type(screen.getByRole('textbox', { name: 'Recovery phrase' }), ABANDON.split(' ').slice(1).join(' '));
    await userEvent.click(screen.getByRole('button', { name: 'Import wallet' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Enter a recovery phrase of 12, 15, 18, 21, 24 words.');
    expect(screen.getByRole('textbox', { name: 'Recovery phrase' }).getAttribute('aria-invalid')).toBe('true');
    expect(client.calls.some(([name]) => name === 'importWallet')).toBe(false);
    await expectNoAxeViolations();
  });

  it('given the server refuses the import, when submitted, then the mapped error shows and the phrase is kept to fix', async () => {
    const client = createFakeClient();
    client.login();
    client.failNext('importWallet', 'ERR_ALREADY_EXISTS');
    renderWithKit(<WalletPanel />, client);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Imported wallet name' }), 'Main');
    await userEvent.type(screen.getByRole('textbox', { name: 'Recovery phrase' }), ABANDON);
    await userEvent.click(screen.getByRole('button', { name: 'Import wallet' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This already exists. Log in instead, or pick another name.');
    expect((screen.getByRole('textbox', { name: 'Recovery phrase' }) as HTMLTextAreaElement).value).toBe(ABANDON);
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
