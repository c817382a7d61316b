/**
 * The kit end to end: `WalletKitProvider` over the real `@walletkit/client`, talking over HTTP
 * to a real server (packages/server's proxy test server: PGlite, proxy enabled for any origin,
 * dev outbox). A user logs in by email code through the AuthModal, sees the wallet created at
 * signup in the WalletPanel, signs a message after confirming it (viem verifies the signature
 * against the shown address) in the kit's confirmation dialog, signs again with an integrator's
 * own Confirmer and with the dialog turned off (no dialog either time), reloads the page (the
 * session comes back from IndexedDB), and logs out (nothing left to restore).
 * The DOM is happy-dom, installed by the first import (not the `@vitest-environment` pragma:
 * its browser transform breaks the in-process server; see support/happy-dom-globals.ts).
 */
// First: happy-dom's globals must exist before @testing-library/* is imported.
import { nodeFetch, teardownHappyDom } from './support/happy-dom-globals';
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { getAddress, verifyMessage } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWalletKitClient, indexedDbSessionKeyStore, type SignatureRequest, type WalletKitConfig } from '@walletkit/client';
import { outboxCode, startProxyServer, type ProxyTestServer } from '../../server/test/support/proxy';
import { WalletKitProvider } from '../src/provider/WalletKitProvider';
import { useWalletKit } from '../src/provider/useWalletKit';
import { WalletPanel } from '../src/wallet/WalletPanel';
import { failOnConsoleError } from './support/render';

/** The host app: a status line, a login button while anonymous, the panel once logged in. */
function App() {
  const { status, login, wallets } = useWalletKit();
  return (
    <main>
      <p data-testid="status">{status}</p>
      <p data-testid="wallet-names">{wallets.map((w) => w.walletName).join(',')}</p>
      {status === 'anonymous' && (
        <button type="button" onClick={login}>
          Log in
        </button>
      )}
      {status === 'authenticated' && <WalletPanel />}
    </main>
  );
}

failOnConsoleError();

describe('WalletKitProvider against the real server', () => {
  let server: ProxyTestServer;
  let config: WalletKitConfig;
  const email = `react-${randomUUID().slice(0, 8)}@example.com`;
  const message = 'Sign in to walletkit from React';

  /** One page load (StrictMode, as apps run in development): a fresh client and QueryClient over the same IndexedDB database. */
  const loadPage = (props: { config?: WalletKitConfig; confirmations?: false } = {}) =>
    render(
      <StrictMode>
        <WalletKitProvider
          config={props.config ?? config}
          confirmations={props.confirmations}
          queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
        >
          <App />
        </WalletKitProvider>
      </StrictMode>,
    );
  const status = () => screen.getByTestId('status').textContent;

  beforeAll(async () => {
    server = await startProxyServer('pglite');
    config = {
      proxyUrl: server.url,
      apiUrl: server.url,
      configId: server.proxy.id,
      organizationId: server.org.organizationId,
      enclavePublicKey: server.enclave.signingPublicKey,
      fetch: nodeFetch,
      storage: indexedDbSessionKeyStore({ dbName: `walletkit-react-${randomUUID()}` }),
    };
  });
  afterEach(cleanup);
  afterAll(async () => {
    await server?.dispose();
    await teardownHappyDom();
  });

  it('given a new email, when the user logs in with the emailed code and signs a confirmed message, then the session is set, the panel lists the signup wallet and viem verifies the signature', async () => {
    const user = userEvent.setup();
    loadPage();
    await waitFor(() => expect(status()).toBe('anonymous'));

    // Log in: the modal, the email, the code from the outbox (the user's mailbox).
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const modal = await screen.findByRole('dialog', { name: /^Log in/ });
    await user.type(await within(modal).findByLabelText('Email'), email);
    await user.click(within(modal).getByRole('button', { name: /^Continue$/ }));
    const first = await within(modal).findByLabelText('Character 1 of 6', {}, { timeout: 10_000 });
    await user.click(first);
    await user.keyboard(await outboxCode(server.url, email));

    await waitFor(() => expect(status()).toBe('authenticated'), { timeout: 15_000 });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // The wallet created at signup, with its Ethereum account.
    const panel = screen.getByRole('region', { name: 'Wallet' });
    await waitFor(() => expect(screen.getByTestId('wallet-names').textContent).toBe('Default wallet'), { timeout: 10_000 });
    const account = await within(panel).findByRole<HTMLSelectElement>('combobox', { name: 'Account' }, { timeout: 10_000 });
    await waitFor(() => expect(account.options).toHaveLength(1), { timeout: 10_000 });
    const address = account.value as `0x${string}`;
    expect(getAddress(address)).toBe(address);
    expect(account.querySelector('optgroup')?.label).toBe('Default wallet');

    // Sign: the account is selected; on the Sign screen, type, confirm exactly this message.
    await user.click(within(panel).getByRole('tab', { name: 'Sign' }));
    await user.type(await within(panel).findByLabelText('Message'), message);
    await user.click(within(panel).getByRole('button', { name: 'Sign message' }));
    const confirm = await screen.findByRole('dialog', { name: 'Sign this message?' });
    // The kit's own confirmation (every signature of the client asks it), details loaded lazily.
    expect((await within(confirm).findByTestId('wk-confirm-content')).textContent).toBe(message);
    await user.click(within(confirm).getByRole('button', { name: 'Sign' }));
    const output = await within(panel).findByTestId('wk-signature', {}, { timeout: 10_000 });
    const signature = output.textContent as `0x${string}`;

    expect(await verifyMessage({ address, message, signature })).toBe(true);
    expect(await verifyMessage({ address, message: `${message}!`, signature })).toBe(false);
  });

  it('given an integrator Confirmer, or the dialog turned off, when a message is signed in the panel, then the kit dialog never opens and the signature verifies', async () => {
    const user = userEvent.setup();
    const signInPanel = async (text: string) => {
      await waitFor(() => expect(status()).toBe('authenticated'), { timeout: 10_000 });
      const panel = screen.getByRole('region', { name: 'Wallet' });
      await user.click(within(panel).getByRole('tab', { name: 'Accounts' })); // the panel reopens on the screen last used
      const account = await within(panel).findByRole<HTMLSelectElement>('combobox', { name: 'Account' }, { timeout: 10_000 });
      await waitFor(() => expect(account.options).toHaveLength(1), { timeout: 10_000 });
      const address = account.value as `0x${string}`;
      await user.click(within(panel).getByRole('tab', { name: 'Sign' }));
      await user.type(await within(panel).findByLabelText('Message'), text);
      await user.click(within(panel).getByRole('button', { name: 'Sign message' }));
      const signature = (await within(panel).findByTestId('wk-signature', {}, { timeout: 10_000 })).textContent as `0x${string}`;
      expect(screen.queryByRole('dialog')).toBeNull();
      return { address, signature };
    };

    const asked: SignatureRequest[] = [];
    loadPage({ config: { ...config, confirm: async (request) => void asked.push(request) } });
    const custom = await signInPanel('asked by the app');
    expect(asked).toEqual([{ kind: 'message', family: 'ethereum', address: custom.address, message: 'asked by the app', origin: location.origin }]);
    expect(await verifyMessage({ address: custom.address, message: 'asked by the app', signature: custom.signature })).toBe(true);
    cleanup();

    loadPage({ confirmations: false });
    const headless = await signInPanel('headless');
    expect(await verifyMessage({ address: headless.address, message: 'headless', signature: headless.signature })).toBe(true);
    cleanup();
  });

  it('given a client the app built (to share it with wagmi), when the provider wraps it and the app signs through the client itself, then the kit dialog confirms it, and after unmount the client no longer asks it', async () => {
    const user = userEvent.setup();
    const kit = createWalletKitClient(config);
    const view = render(
      <StrictMode>
        <WalletKitProvider kit={kit} queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <App />
        </WalletKitProvider>
      </StrictMode>,
    );
    await waitFor(() => expect(status()).toBe('authenticated'), { timeout: 10_000 });
    const [account] = await kit.wallet.listAccounts();
    const address = account!.address as `0x${string}`;
    // Other dApp code on the page finds the kit through EIP-6963 and reads the session's account.
    const announced: Array<{ info: { name: string; rdns: string }; provider: { request(a: { method: string }): Promise<unknown> } }> = [];
    const collect = (e: Event) => announced.push((e as CustomEvent).detail);
    window.addEventListener('eip6963:announceProvider', collect);
    window.dispatchEvent(new Event('eip6963:requestProvider'));
    window.removeEventListener('eip6963:announceProvider', collect);
    const walletKit = announced.find((a) => a.info.rdns === 'dev.walletkit');
    expect(walletKit?.info.name).toBe('WalletKit');
    expect(await walletKit!.provider.request({ method: 'eth_accounts' })).toEqual([address]);
    // Signed outside React (as wagmi would): the provider's dialog still asks.
    const signing = kit.wallet.signMessage({ address, message: 'from the shared client' });
    const confirm = await screen.findByRole('dialog', { name: 'Sign this message?' });
    expect((await within(confirm).findByTestId('wk-confirm-content')).textContent).toBe('from the shared client');
    await user.click(within(confirm).getByRole('button', { name: 'Sign' }));
    expect(await verifyMessage({ address, message: 'from the shared client', signature: (await signing) as `0x${string}` })).toBe(true);
    view.unmount();
    await new Promise((resolve) => setTimeout(resolve, 10));
    // The app's client outlives the provider, without a dialog nobody can answer.
    expect(await verifyMessage({ address, message: 'after', signature: (await kit.wallet.signMessage({ address, message: 'after' })) as `0x${string}` })).toBe(
      true,
    );
    kit.session.close();
  });

  it('given the logged-in session, when the page reloads and the user logs out, then the session is restored first and nothing is left to restore after', async () => {
    const user = userEvent.setup();
    loadPage();
    await waitFor(() => expect(status()).toBe('authenticated'), { timeout: 10_000 });
    await waitFor(() => expect(screen.getByTestId('wallet-names').textContent).toBe('Default wallet'), { timeout: 10_000 });

    await user.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(status()).toBe('anonymous'));
    expect(screen.queryByRole('region', { name: 'Wallet' })).toBeNull();
    expect(screen.getByTestId('wallet-names').textContent).toBe('');
    cleanup();

    loadPage();
    await waitFor(() => expect(status()).toBe('anonymous'));
  });
});
