/**
 * An in-memory client with the shape the components call (`WalletKitClientLike`), injected
 * through `WalletKitClientProvider` (no module mocking). Signing is real: accounts are derived
 * from a BIP39 mnemonic with viem, so tests verify signatures and exports independently. Like
 * the real client, every signature asks its Confirmer first (a confirmation queue of its own,
 * which `renderWithKit` hands to the provider's dialog) unless the call passes `confirm: false`;
 * balances live in a map that a send moves.
 */
import { currentOrigin, type ChainConfig, type Confirmer, type EthereumTransactionFields, type SignOptions } from '@walletkit/client';
import { bytesToHex, keccak256 } from 'viem';
import { english, generateMnemonic, mnemonicToAccount } from 'viem/accounts';
import type {
  ChainsState,
  Eip1193Provider,
  PrivateKeySummary,
  SessionState,
  TransactionParams,
  WalletAccountSummary,
  WalletKitClientLike,
  WalletKitConfig,
  WalletSummary,
} from '../../src/client-contract';
import { createConfirmationQueue, type ConfirmationQueue } from '../../src/confirm/queue';

/** The local chain the fake transacts on by default. */
export const hardhat: ChainConfig = {
  id: 31337,
  name: 'Hardhat',
  rpcUrl: 'http://127.0.0.1:8545',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  blockExplorerUrl: 'https://explorer.example',
};

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
  /** The queue the fake's Confirmer feeds (absent when built with `confirm: null`). */
  confirmations: ConfirmationQueue | undefined;
  /** Balances in wei by `${chainId}:${lowercase address}`. */
  balances: Map<string, bigint>;
  /** The fake's EIP-1193 provider (one object). */
  provider: Eip1193Provider;
  /** What the user "types" inside the fake secret frame on import. */
  frameSecret?: string | undefined;
  /** Imported private keys. */
  privateKeys: PrivateKeySummary[];
}

const balanceKey = (chainId: number, address: string) => `${chainId}:${address.toLowerCase()}`;

function account(mnemonic: string, index: number, walletId: string): WalletAccountSummary {
  return { walletId, address: mnemonicToAccount(mnemonic, { addressIndex: index }).address, path: `m/44'/60'/0'/0/${index}` };
}

/** A fake client; `config` overrides fields of {@link baseConfig}. */
export function createFakeClient(
  opts: { config?: Partial<WalletKitConfig>; now?: () => number; chains?: ChainConfig[]; confirm?: Confirmer | null } = {},
): FakeClient {
  const now = opts.now ?? Date.now;
  const confirmations = opts.confirm === undefined ? createConfirmationQueue() : undefined;
  const confirmer = opts.confirm === undefined ? confirmations!.confirm : (opts.confirm ?? undefined);
  const ask = async (request: Parameters<Confirmer>[0], o?: SignOptions) => {
    if (o?.confirm !== false && confirmer) await confirmer(request);
  };
  const chains: ChainsState = { chains: opts.chains ?? [hardhat], selectedId: (opts.chains ?? [hardhat])[0]?.id };
  let nonce = 0n;
  /** An EIP-1559 transaction as the real client fills it (fixed fees: 2 gwei max, 1 gwei tip). */
  const fill = ({ transaction: t, chainId }: TransactionParams): EthereumTransactionFields => {
    const data = t.data ?? '0x';
    return {
      type: 'eip1559',
      chainId: chainId ?? chains.selectedId!,
      nonce: nonce++,
      to: t.to ?? null,
      value: BigInt(t.value ?? 0n),
      data,
      gas: data === '0x' ? 21_000n : 100_000n,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
    };
  };
  const signFilled = async (params: TransactionParams, send: boolean) => {
    const tx = fill(params);
    const chain = chains.chains.find((c) => c.id === tx.chainId) ?? { id: tx.chainId };
    await ask(
      { kind: 'transaction', address: params.address, origin: currentOrigin(), chain, transaction: tx, maxFee: tx.gas * tx.maxFeePerGas!, send },
      params,
    );
    const signed = await findAccount(params.address).signTransaction({
      type: 'eip1559',
      chainId: tx.chainId,
      nonce: Number(tx.nonce),
      to: tx.to as `0x${string}`,
      value: tx.value,
      data: tx.data as `0x${string}`,
      gas: tx.gas,
      maxFeePerGas: tx.maxFeePerGas!,
      maxPriorityFeePerGas: tx.maxPriorityFeePerGas!,
    });
    return { tx, signed };
  };
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
    confirmations,
    balances: new Map(),
    privateKeys: [],
    provider: { request: async ({ method }) => (method === 'eth_chainId' ? `0x${chains.selectedId!.toString(16)}` : null) },
    chains: { getState: () => chains, subscribe: () => () => undefined },
    ethereumProvider: () => client.provider,
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
      signMessage: (address, message, o) =>
        call('signMessage', [address, message], async () => {
          await ask({ kind: 'message', family: 'ethereum', address, message, origin: currentOrigin() }, o);
          return findAccount(address).signMessage({ message });
        }),
      signTypedData: (address, typedData, o) =>
        call('signTypedData', [address, typedData], async () => {
          await ask({ kind: 'typedData', address, typedData: typedData as never, origin: currentOrigin() }, o);
          return findAccount(address).signTypedData(typedData as never);
        }),
      signTransaction: (params) => call('signTransaction', [params], async () => (await signFilled(params, false)).signed),
      sendTransaction: (params) =>
        call('sendTransaction', [params], async () => {
          const { tx, signed } = await signFilled(params, true);
          const from = balanceKey(tx.chainId, params.address);
          client.balances.set(from, (client.balances.get(from) ?? 0n) - tx.value);
          if (tx.to) client.balances.set(balanceKey(tx.chainId, tx.to), (client.balances.get(balanceKey(tx.chainId, tx.to)) ?? 0n) + tx.value);
          return keccak256(signed);
        }),
      getBalance: ({ address, chainId }) =>
        call('getBalance', [address, chainId], () => client.balances.get(balanceKey(chainId ?? chains.selectedId!, address)) ?? 0n),
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
      // The secret frame stands in as an empty iframe: like the real one (another origin), the
      // secret never enters this document. A test types into the "frame" with frameSecret.
      exportInFrame: (container, target) =>
        call('exportInFrame', [target], () => {
          const frame = document.createElement('iframe');
          frame.title = 'walletId' in target ? 'Recovery phrase' : 'Private key';
          container.replaceChildren(frame);
        }),
      listPrivateKeys: () => call('listPrivateKeys', [], () => [...client.privateKeys]),
      importInFrame: (container, input) =>
        call('importInFrame', [input], () => {
          const frame = document.createElement('iframe');
          frame.title = input.secret === 'mnemonic' ? 'Recovery phrase' : 'Private key';
          container.replaceChildren(frame);
          const typed = client.frameSecret;
          if (!typed) throw new Error('nothing typed in the frame');
          if (input.secret === 'privateKey') {
            const address = account(typed, 0, 'k').address;
            client.privateKeys.push({
              privateKeyId: `k-${client.privateKeys.length + 1}`,
              privateKeyName: input.name,
              addresses: [{ format: 'ADDRESS_FORMAT_ETHEREUM', address }],
            });
            return { addresses: [address] };
          }
          const walletId = `w-${client.wallets.length + 1}`;
          const imported = account(typed, 0, walletId);
          client.wallets.push({ walletId, walletName: input.name, mnemonic: typed, accounts: [imported] });
          return { addresses: [imported.address] };
        }),
      addPasskey: (name) => call('addPasskey', [name], () => ({ authenticatorIds: ['a-1'] })),
    },
  };
  return client;
}
