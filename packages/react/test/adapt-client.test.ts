import { createChainRegistry, type WalletKitClient } from '@walletkit/client';
import { describe, expect, it } from 'vitest';
import { adaptClient } from '../src/provider/adapt-client';
import { baseConfig, hardhat } from './support/fake-client';

/** A stand-in for the parts of the real client the adapter calls, recording each call. */
function stubKit() {
  const calls: unknown[][] = [];
  let listener: ((s: unknown) => void) | undefined;
  let current: { token: string; publicKey: string; organizationId: string; userId: string; expiresAt: number } | undefined;
  const kit = {
    proxy: { walletKitConfig: async () => ({ ...baseConfig, oauthRedirectUrl: 'https://app.example/cb' }) },
    session: {
      current: () => current,
      subscribe: (l: (s: unknown) => void) => {
        listener = l;
        return () => undefined;
      },
      restore: async () => current,
      logout: async () => undefined,
      refresh: async () => undefined,
    },
    auth: {
      logInWithOAuth: (p: unknown) => {
        calls.push(['logInWithOAuth', p]);
        return new Promise(() => undefined);
      },
      connectWallet: async (p: unknown) => {
        calls.push(['connectWallet', p]);
        return current;
      },
    },
    chains: createChainRegistry({ chains: [hardhat], fetch: () => Promise.reject(new Error('no network in this test')) }),
    wallet: {
      signMessage: async (p: unknown) => {
        calls.push(['signMessage', p]);
        return '0xsig';
      },
      sendTransaction: async (p: unknown) => {
        calls.push(['sendTransaction', p]);
        return '0xhash';
      },
      getBalance: async (p: unknown) => {
        calls.push(['getBalance', p]);
        return 5n;
      },
      exportAccount: async (p: unknown) => {
        calls.push(['exportAccount', p]);
        return 'ab'.repeat(32);
      },
      importWallet: async (p: unknown) => {
        calls.push(['importWallet', p]);
        return { walletId: 'w-2', addresses: [] };
      },
    },
  };
  const login = () => {
    current = { token: 'jwt', publicKey: '02ab', organizationId: 'sub', userId: 'u', expiresAt: 1 };
    listener?.(current);
  };
  return { kit: kit as unknown as WalletKitClient, calls, login };
}

describe('adaptClient', () => {
  it('given a fresh client, when restore settles and a login happens, then the snapshot goes loading, anonymous, authenticated', async () => {
    const { kit, login } = stubKit();
    const adapted = adaptClient(kit);
    expect(adapted.session.getState()).toEqual({ status: 'loading' });
    await adapted.session.restore();
    expect(adapted.session.getState()).toEqual({ status: 'anonymous' });
    const before = adapted.session.getState();
    expect(adapted.session.getState()).toBe(before); // stable for useSyncExternalStore
    login();
    expect(adapted.session.getState()).toEqual({
      status: 'authenticated',
      session: { organizationId: 'sub', userId: 'u', publicKey: '02ab', expiresAt: 1, jwt: 'jwt' },
    });
  });

  it('given the config was fetched, when OAuth starts, then the client is called synchronously with the configured client id and redirect', async () => {
    const { kit, calls } = stubKit();
    const adapted = adaptClient(kit);
    await adapted.proxy.walletKitConfig();
    void adapted.auth.logInWithOAuth('google');
    expect(calls).toEqual([['logInWithOAuth', { provider: 'google', clientId: 'g-client', redirectUri: 'https://app.example/cb' }]]);
    // No client id for Apple: the message says it is not set up, not that the method is off.
    await expect(adapted.auth.logInWithOAuth('apple')).rejects.toMatchObject({ code: 'ERR_OAUTH_NOT_CONFIGURED' });
  });

  it('given a self-hosted authorization endpoint, when OAuth starts, then the client is sent to it', async () => {
    const { kit, calls } = stubKit();
    const adapted = adaptClient(kit, { oauthAuthorizeUrls: { google: 'http://127.0.0.1:9999/auth' } });
    await adapted.proxy.walletKitConfig();
    void adapted.auth.logInWithOAuth('google');
    expect(calls).toEqual([
      ['logInWithOAuth', { provider: 'google', clientId: 'g-client', redirectUri: 'https://app.example/cb', authorizeUrl: 'http://127.0.0.1:9999/auth' }],
    ]);
  });

  it('given positional wallet calls, when signing, then the client receives its options object', async () => {
    const { kit, calls } = stubKit();
    expect(await adaptClient(kit).wallet.signMessage('0xabc', 'hi')).toBe('0xsig');
    expect(calls).toEqual([['signMessage', { address: '0xabc', message: 'hi' }]]);
  });

  it('given per-call options and transactions, when called, then the client receives them unchanged', async () => {
    const { kit, calls } = stubKit();
    const adapted = adaptClient(kit);
    await adapted.wallet.signMessage('0xabc', 'hi', { confirm: false });
    const params = { address: '0xabc', chainId: 31337, transaction: { to: '0x0000000000000000000000000000000000000001', value: 10n ** 16n } };
    expect(await adapted.wallet.sendTransaction(params)).toBe('0xhash');
    expect(await adapted.wallet.getBalance({ address: '0xabc' })).toBe(5n);
    expect(calls).toEqual([
      ['signMessage', { address: '0xabc', message: 'hi', confirm: false }],
      ['sendTransaction', params],
      ['getBalance', { address: '0xabc' }],
    ]);
  });

  it('given the client chains, when a page adds and selects one, then the snapshot is stable between changes and follows them', () => {
    const { kit } = stubKit();
    const adapted = adaptClient(kit);
    const first = adapted.chains.getState();
    expect(first).toEqual({ chains: [hardhat], selectedId: 31337 });
    expect(adapted.chains.getState()).toBe(first); // stable for useSyncExternalStore
    let changes = 0;
    adapted.chains.subscribe(() => changes++);
    const base = { ...hardhat, id: 8453, name: 'Base' };
    kit.chains.add(base);
    kit.chains.select(8453);
    expect(changes).toBe(2);
    expect(adapted.chains.getState()).toEqual({ chains: [hardhat, base], selectedId: 8453 });
  });

  it('given the adapter, when the EIP-1193 provider is asked twice, then it is one provider of the kit', async () => {
    const { kit } = stubKit();
    const adapted = adaptClient(kit);
    const provider = adapted.ethereumProvider();
    expect(adapted.ethereumProvider()).toBe(provider);
    expect((provider as { isWalletKit?: boolean }).isWalletKit).toBe(true);
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x7a69');
  });

  it('given key export and import, when called, then the client receives its options objects', async () => {
    const { kit, calls } = stubKit();
    const adapted = adaptClient(kit);
    expect(await adapted.wallet.exportAccount('0xabc')).toBe('ab'.repeat(32));
    await adapted.wallet.importWallet({ walletName: 'Old', mnemonic: 'w '.repeat(12).trim() });
    expect(calls).toEqual([
      ['exportAccount', { address: '0xabc' }],
      ['importWallet', { walletName: 'Old', mnemonic: 'w '.repeat(12).trim() }],
    ]);
  });

  it('given an EIP-1193 provider, when the wallet method connects, then the client receives it and the modal can offer the method', async () => {
    const { kit, calls } = stubKit();
    const provider = { request: async () => undefined };
    const adapted = adaptClient(kit);
    expect(adapted.auth.connectWallet).toBeTypeOf('function');
    await adapted.auth.connectWallet!(provider);
    expect(calls).toEqual([['connectWallet', { provider }]]);
  });
});
