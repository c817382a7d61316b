// @vitest-environment happy-dom
import { act, cleanup, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { privateKeyToAccount } from 'viem/accounts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useWalletKit } from '../src/provider/useWalletKit';
import { WalletKitClientProvider } from '../src/provider/WalletKitClientProvider';
import { normalizeMnemonic } from '../src/wallet/mnemonic';
import { WalletPanel } from '../src/wallet/WalletPanel';
import { createFakeClient } from './support/fake-client';
import { listedAddresses, openScreen } from './support/panel';
import { expectNoAxeViolations, failOnConsoleError, renderWithKit } from './support/render';

failOnConsoleError();
beforeEach(() => sessionStorage.clear());
afterEach(cleanup);

/** A signed-in panel on its Export & import screen. */
async function backupScreen(client: ReturnType<typeof createFakeClient>, onError?: (error: unknown) => void) {
  client.login();
  const view = renderWithKit(<WalletPanel />, client, { onError });
  return { ...view, screen: await openScreen('Export & import') };
}

const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const ABANDON_ADDRESS = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';
const toKey = (hex: string) => `0x${hex.replace(/^0x/, '')}` as `0x${string}`;

describe('WalletPanel recovery phrase export', () => {
  it('given a wallet, when its phrase is exported after confirmation, then the secret frame opens for it, this document never holds the phrase, and Hide removes it', async () => {
    const client = createFakeClient();
    await backupScreen(client);
    await userEvent.click(await screen.findByRole('button', { name: 'Show recovery phrase of Main' }));
    expect(screen.queryByTitle('Recovery phrase')).toBeNull();
    const dialog = screen.getByRole('dialog', { name: 'Show the recovery phrase?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Show recovery phrase' }));
    expect((await screen.findByTitle('Recovery phrase')).tagName).toBe('IFRAME');
    await waitFor(() => expect(client.calls).toContainEqual(['exportInFrame', { walletId: 'w-1' }]));
    expect(screen.getByText('Recovery phrase of Main. Anyone who sees it controls the wallet.')).toBeTruthy();
    // No part of the phrase: no two of its words in a row, however laid out (a single word alone
    // proves nothing: BIP39 has words such as "that" or "frame" that the kit's own copy uses).
    const words = client.wallets[0]!.mnemonic.split(' ');
    for (let i = 1; i < words.length; i += 1) {
      expect(document.body.textContent).not.toMatch(new RegExp(`\\b${words[i - 1]}\\s*${words[i]}\\b`));
    }
    await userEvent.click(screen.getByRole('button', { name: 'Hide the recovery phrase of Main' }));
    expect(screen.queryByTitle('Recovery phrase')).toBeNull();
  });

  it('given a phrase shown, when the user leaves the screen, then the frame goes with it', async () => {
    const client = createFakeClient();
    await backupScreen(client);
    await userEvent.click(await screen.findByRole('button', { name: 'Show recovery phrase of Main' }));
    await userEvent.click(screen.getByRole('button', { name: 'Show recovery phrase' }));
    expect(await screen.findByTitle('Recovery phrase')).toBeTruthy();
    await openScreen('Accounts');
    expect(screen.queryByTitle('Recovery phrase')).toBeNull();
  });
});

describe('WalletPanel account key export', () => {
  it('given an account, when its key is exported after confirmation, then it opens the secret frame for that address and this document never holds the key', async () => {
    const client = createFakeClient();
    const { queryClient } = await backupScreen(client);
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
    expect(screen.getByText(`Private key of ${address}. Anyone who sees it controls this account.`)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: `Hide the private key of ${address}` }));
    expect(screen.queryByTitle('Private key')).toBeNull();
  });

  it('given the export is refused, when confirmed, then the mapped error is announced and the integrator hears it', async () => {
    const client = createFakeClient();
    client.failNext('exportInFrame', 'ERR_PERMISSION_DENIED');
    const errors: unknown[] = [];
    await backupScreen(client, (e) => errors.push(e));
    const address = client.wallets[0]!.accounts[0]!.address;
    await userEvent.click(await screen.findByRole('button', { name: `Export key of ${address}` }));
    await userEvent.click(screen.getByRole('button', { name: 'Show private key' }));
    expect((await screen.findByRole('alert')).textContent).toBe('You are not allowed to do this.');
    expect(errors).toEqual([expect.objectContaining({ code: 'ERR_PERMISSION_DENIED' })]);
  });
});

describe('WalletPanel import wallet', () => {
  it('given the abandon phrase typed in the secret frame, when imported, then its address is listed and this document never held the phrase', async () => {
    const client = createFakeClient();
    client.frameSecret = ABANDON;
    await backupScreen(client);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Imported wallet name' }), 'Old');
    await expectNoAxeViolations();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByText(`Wallet Old imported: ${ABANDON_ADDRESS}.`)).getAttribute('role')).toBe('status');
    expect(screen.queryByTitle('Recovery phrase')).toBeNull(); // the frame is removed once its work is done
    expect(client.calls).toContainEqual(['importInFrame', { secret: 'mnemonic', name: 'Old' }]);
    // Its wallet is listed, with its own export, and on the Accounts screen under its name.
    expect(await screen.findByRole('button', { name: 'Show recovery phrase of Old' })).toBeTruthy();
    await openScreen('Accounts');
    expect(await listedAddresses(2)).toContain(ABANDON_ADDRESS);
    const option = screen.getByRole('option', { name: `Account 1 · ${ABANDON_ADDRESS.slice(0, 6)}…${ABANDON_ADDRESS.slice(-4)}`, hidden: true });
    expect(option.parentElement!.getAttribute('label')).toBe('Old');
    expect(document.documentElement.outerHTML).not.toContain('abandon');
  });

  it('given Private key chosen, when continued, then the frame asks for a private key under the key name', async () => {
    const client = createFakeClient();
    client.frameSecret = ABANDON;
    await backupScreen(client);
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'What to import' }), 'privateKey');
    await userEvent.type(screen.getByRole('textbox', { name: 'Imported key name' }), 'Cold');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(client.calls).toContainEqual(['importInFrame', { secret: 'privateKey', name: 'Cold' }]));
    expect(await screen.findByText(/^Key Cold imported: 0x/)).toBeTruthy();
    // The imported key is listed with its address, and exports through the frame too.
    const keys = await screen.findByRole('list', { name: 'Imported private keys' });
    expect(within(keys).getByText(client.privateKeys[0]!.addresses[0]!.address)).toBeTruthy();
    expect(screen.queryByTitle('Private key')).toBeNull(); // the import frame is gone
    await userEvent.click(within(keys).getByRole('button', { name: 'Export key Cold' }));
    await userEvent.click(screen.getByRole('button', { name: 'Show private key' }));
    expect((await screen.findByTitle('Private key')).tagName).toBe('IFRAME');
    await waitFor(() => expect(client.calls).toContainEqual(['exportInFrame', { privateKeyId: 'k-1' }]));
  });

  it('given the server refuses the import, when continued, then the mapped error shows', async () => {
    const client = createFakeClient();
    client.frameSecret = ABANDON;
    client.failNext('importInFrame', 'ERR_ALREADY_EXISTS');
    await backupScreen(client);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Imported wallet name' }), 'Main');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This already exists. Log in instead, or pick another name.');
  });

  it('given the enclave refuses the decrypted phrase (ERR_INVALID_PARAMETER), when imported, then the phrase message shows, not "Something went wrong"', async () => {
    const client = createFakeClient();
    client.frameSecret = ABANDON;
    client.failNext('importInFrame', 'ERR_INVALID_PARAMETER');
    const errors: unknown[] = [];
    await backupScreen(client, (e) => errors.push(e));
    await userEvent.type(await screen.findByRole('textbox', { name: 'Imported wallet name' }), 'Typo');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This recovery phrase is not valid: a word is misspelled, missing or out of order. Check each word.',
    );
    expect(screen.queryByTitle('Recovery phrase')).toBeNull();
    expect(errors).toEqual([expect.objectContaining({ code: 'ERR_MNEMONIC_INVALID', cause: expect.objectContaining({ code: 'ERR_INVALID_PARAMETER' }) })]);
  });

  it('given the import frame open, when Cancel is pressed, then the frame is gone and the form can start again', async () => {
    const client = createFakeClient();
    await backupScreen(client);
    // No secret typed: the frame stays open, waiting for the user.
    client.wallet.importInFrame = (container) => {
      const frame = document.createElement('iframe');
      frame.title = 'Recovery phrase';
      container.replaceChildren(frame);
      return new Promise(() => undefined);
    };
    await userEvent.type(await screen.findByRole('textbox', { name: 'Imported wallet name' }), 'Later');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByTitle('Recovery phrase')).toBeTruthy();
    const fields = screen.getByRole('button', { name: 'Continue' }).closest('fieldset')!;
    expect(fields.disabled).toBe(true); // one import at a time
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByTitle('Recovery phrase')).toBeNull();
    expect(fields.disabled).toBe(false);
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
