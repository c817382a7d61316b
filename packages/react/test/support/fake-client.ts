/**
 * An in-memory client with the shape the components call (`WalletKitClientLike`), injected
 * through `WalletKitClientProvider` (no module mocking). Signing is real: accounts are derived
 * from a BIP39 mnemonic with viem, so tests verify signatures and exports independently.
 */
import { bytesToHex } from 'viem';
import { english, generateMnemonic, mnemonicToAccount } from 'viem/accounts';
import type { SessionState, WalletAccountSummary, WalletKitClientLike, WalletKitConfig, WalletSummary } from '../../src/client-contract';

export const baseConfig: WalletKitConfig = {
  organizationId: 'org-parent',
  enabledProviders: ['email', 'sms', 'passkey', 'google', 'apple', 'x', 'discord', 'wallet'],
  oauthClientIds: { google: 'g-client' },
  sessionExpirationSeconds: '900',
  otpLength: '6',
  otpAlphanumeric: false,
  appName: 'Demo',
  requireVerificationTokenForAccountLookup: false,
};

interface FakeWallet extends WalletSummary {
  mnemonic: string;
  accounts: WalletAccountSummary[];
}

export interface FakeClient extends WalletKitClientLike {
  calls: Array<[string, ...unknown[]]>;
  wallets: FakeWallet[];
  /** The code completeOtp accepts. */
  otpCode: string;
  /** Make the next call of `name` reject with this code. */
  failNext(name: string, code: string): void;
  login(): void;
}

function account(mnemonic: string, index: number, walletId: string): WalletAccountSummary {
  return { walletId, address: mnemonicToAccount(mnemonic, { addressIndex: index }).address, path: `m/44'/60'/0'/0/${index}` };
}

/** A fake client; `config` overrides fields of {@link baseConfig}. */
export function createFakeClient(opts: { config?: Partial<WalletKitConfig>; now?: () => number } = {}): FakeClient {
  const now = opts.now ?? Date.now;
  let state: SessionState = { status: 'anonymous' };
  const listeners = new Set<() => void>();
  const failures = new Map<string, string>();
  const set = (next: SessionState) => {
    state = next;
    for (const l of listeners) l();
  };
  const call = async <T>(name: string, args: unknown[], run: () => T): Promise<Awaited<T>> => {
    client.calls.push([name, ...args]);
    const code = failures.get(name);
    if (code) {
      failures.delete(name);
      throw Object.assign(new Error(code), { code });
    }
    return await run();
  };
  const login = () =>
    set({ status: 'authenticated', session: { organizationId: 'sub-org-1', userId: 'user-1', publicKey: '02ab', expiresAt: now() + 900_000, jwt: 'jwt' } });
  const findAccount = (address: string) => {
    for (const w of client.wallets) {
      const i = w.accounts.findIndex((a) => a.address.toLowerCase() === address.toLowerCase());
      if (i >= 0) return mnemonicToAccount(w.mnemonic, { addressIndex: Number(w.accounts[i]!.path.split('/').pop()) });
    }
    throw Object.assign(new Error('no account'), { code: 'ERR_WALLET_ACCOUNT_NOT_FOUND' });
  };
  const mnemonic = generateMnemonic(english);
  const client: FakeClient = {
    calls: [],
    otpCode: '123456',
    wallets: [{ walletId: 'w-1', walletName: 'Main', mnemonic, accounts: [account(mnemonic, 0, 'w-1')] }],
    failNext: (name, code) => failures.set(name, code),
    login,
    proxy: { walletKitConfig: () => call('walletKitConfig', [], () => ({ ...baseConfig, ...opts.config })) },
    session: {
      getState: () => state,
      subscribe: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      restore: () => call('restore', [], () => state.status === 'loading' && set({ status: 'anonymous' })),
      logout: () => call('logout', [], () => set({ status: 'anonymous' })),
      refresh: () => call('refresh', [], () => undefined),
    },
    auth: {
      startEmailOtp: (email) => call('startEmailOtp', [email], () => ({ otpId: `otp-${client.calls.length}` })),
      startSmsOtp: (phone) => call('startSmsOtp', [phone], () => ({ otpId: `otp-${client.calls.length}` })),
      completeOtp: (input) =>
        call('completeOtp', [input], () => {
          if (input.code !== client.otpCode) throw Object.assign(new Error('bad code'), { code: 'ERR_OTP_INVALID' });
          login();
        }),
      signUpWithPasskey: (o) => call('signUpWithPasskey', [o], login),
      logInWithPasskey: () => call('logInWithPasskey', [], login),
      // Synchronous part recorded before any await, as the real client opens its popup.
      logInWithOAuth: (provider) => {
        client.calls.push(['logInWithOAuth:sync', provider]);
        return call('logInWithOAuth', [provider], login);
      },
      connectWallet: (provider) => call('connectWallet', [provider], login),
      completeOAuthRedirect: () => call('completeOAuthRedirect', [], login),
    },
    wallet: {
      listWallets: () => call('listWallets', [], () => client.wallets.map(({ walletId, walletName }) => ({ walletId, walletName }))),
      listAccounts: (walletId) => call('listAccounts', [walletId], () => [...(client.wallets.find((w) => w.walletId === walletId)?.accounts ?? [])]),
      createWallet: (name) =>
        call('createWallet', [name], () => {
          const m = generateMnemonic(english);
          const walletId = `w-${client.wallets.length + 1}`;
          client.wallets.push({ walletId, walletName: name, mnemonic: m, accounts: [account(m, 0, walletId)] });
          return { walletId };
        }),
      createAccounts: (walletId, accounts) =>
        call('createAccounts', [walletId, accounts], () => {
          const w = client.wallets.find((x) => x.walletId === walletId)!;
          for (const a of accounts) w.accounts.push(account(w.mnemonic, Number(a.path.split('/').pop()), walletId));
        }),
      signMessage: (address, message) => call('signMessage', [address, message], () => findAccount(address).signMessage({ message })),
      signTypedData: (address, typedData) => call('signTypedData', [address, typedData], () => findAccount(address).signTypedData(typedData as never)),
      exportWallet: (walletId) => call('exportWallet', [walletId], () => client.wallets.find((w) => w.walletId === walletId)!.mnemonic),
      // Like the real client: the key as hex without 0x.
      exportAccount: (address) => call('exportAccount', [address], () => bytesToHex(findAccount(address).getHdKey().privateKey!).slice(2)),
      importWallet: (input) =>
        call('importWallet', [input], () => {
          const walletId = `w-${client.wallets.length + 1}`;
          const imported = account(input.mnemonic, 0, walletId);
          client.wallets.push({ walletId, walletName: input.walletName, mnemonic: input.mnemonic, accounts: [imported] });
          return { walletId, addresses: [imported.address] };
        }),
      addPasskey: (name) => call('addPasskey', [name], () => ({ authenticatorIds: ['a-1'] })),
    },
  };
  return client;
}
