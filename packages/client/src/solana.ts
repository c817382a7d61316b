/**
 * `@walletkit/client/solana`: the session's Solana accounts as a Wallet Standard wallet, so that
 * `@solana/kit` apps, the Solana wallet adapter and any Wallet Standard app find it. Its own
 * entry point: the Wallet Standard packages stay out of the kit's main bundle.
 *
 * @example
 * ```ts
 * import { registerSolanaWallet } from '@walletkit/client/solana';
 * registerSolanaWallet(kit, { onLoginRequired: login });
 * ```
 * @packageDocumentation
 */
import { base58, base64 } from '@scure/base';
import {
  SolanaSignAndSendTransaction,
  SolanaSignMessage,
  SolanaSignTransaction,
  type SolanaSignAndSendTransactionFeature,
  type SolanaSignAndSendTransactionInput,
  type SolanaSignMessageFeature,
  type SolanaSignTransactionFeature,
} from '@solana/wallet-standard-features';
import type { IdentifierString, Wallet, WalletAccount, WalletIcon } from '@wallet-standard/base';
import {
  StandardConnect,
  StandardDisconnect,
  StandardEvents,
  type StandardConnectFeature,
  type StandardDisconnectFeature,
  type StandardEventsFeature,
  type StandardEventsListeners,
} from '@wallet-standard/features';
import { registerWallet } from '@wallet-standard/wallet';
import { confirmWith, currentOrigin, type Confirmer, type SignOptions } from './confirm.js';
import { WALLETKIT_ICON } from './ethereum/announce.js';
import { createRpcClient } from './ethereum/rpc.js';
import { WalletKitError } from './errors.js';
import type { SessionManager } from './session.js';
import { defaultFetch, type FetchLike } from './transport.js';
import type { WalletActions } from './wallet.js';

/** The Solana clusters of the Wallet Standard. */
export const SOLANA_CHAINS = ['solana:mainnet', 'solana:devnet', 'solana:testnet', 'solana:localnet'] as const;
export type SolanaChain = (typeof SOLANA_CHAINS)[number];

/** What the wallet needs of the kit. */
export type SolanaWalletKit = { session: SessionManager; wallet: WalletActions; config: { confirm?: Confirmer | undefined; fetch?: FetchLike | undefined } };

/** Options of {@link createSolanaWallet}. */
export interface SolanaWalletOptions {
  name?: string | undefined;
  icon?: WalletIcon | undefined;
  /** Called by `standard:connect` when logged out (the React kit's `login()`); without it, connecting logged out fails with `ERR_NO_SESSION`. */
  onLoginRequired?: (() => Promise<unknown>) | undefined;
  /** JSON-RPC endpoints per cluster: `solana:signAndSendTransaction` is offered when at least one is set. */
  rpcUrls?: Partial<Record<SolanaChain, string>> | undefined;
  /** Applied to every signature (e.g. `{ confirm: false }` for a headless page). */
  signOptions?: SignOptions | undefined;
}

type Features = StandardConnectFeature &
  StandardDisconnectFeature &
  StandardEventsFeature &
  SolanaSignMessageFeature &
  SolanaSignTransactionFeature &
  Partial<SolanaSignAndSendTransactionFeature>;

/**
 * The kit as a Wallet Standard wallet: `standard:connect` / `disconnect` / `events`,
 * `solana:signMessage`, `solana:signTransaction` (legacy and v0) and, with `rpcUrls`,
 * `solana:signAndSendTransaction`. Its accounts are the session's Solana accounts once
 * connected; a logout empties them (a `change` event).
 *
 * @example
 * ```ts
 * const wallet = createSolanaWallet(kit);
 * const { accounts } = await wallet.features['standard:connect'].connect();
 * const [{ signedTransaction }] = await wallet.features['solana:signTransaction'].signTransaction({ account: accounts[0]!, transaction: bytes });
 * ```
 */
export function createSolanaWallet(kit: SolanaWalletKit, options: SolanaWalletOptions = {}): Wallet & { features: Features } {
  const listeners: { [E in keyof StandardEventsListeners]?: Set<StandardEventsListeners[E]> } = {};
  const known = new Map<string, WalletAccount>();
  let accounts: readonly WalletAccount[] = [];
  const signOptions = options.signOptions ?? {};
  const rpcUrls = options.rpcUrls ?? {};
  const canSend = Object.values(rpcUrls).some(Boolean);
  const accountFeatures: IdentifierString[] = [
    SolanaSignMessage,
    SolanaSignTransaction,
    ...(canSend ? [SolanaSignAndSendTransaction as IdentifierString] : []),
  ];

  /** One object per address: apps compare accounts by identity. */
  const toAccount = (address: string): WalletAccount => {
    let account = known.get(address);
    if (!account) {
      account = Object.freeze({ address, publicKey: base58.decode(address), chains: SOLANA_CHAINS, features: accountFeatures, label: 'WalletKit' });
      known.set(address, account);
    }
    return account;
  };

  const setAccounts = (next: readonly WalletAccount[]) => {
    if (next.length === accounts.length && next.every((a, i) => a === accounts[i])) return;
    accounts = next;
    for (const listener of listeners.change ?? []) listener({ accounts });
  };

  const loadAccounts = async () =>
    (await kit.wallet.listAccounts()).filter((a) => a.addressFormat === 'ADDRESS_FORMAT_SOLANA').map((a) => toAccount(a.address));

  /** The connected account the app names, or an error (apps may only sign with what connect gave them). */
  const connected = (account: WalletAccount): string => {
    if (!accounts.some((a) => a.address === account?.address))
      throw new WalletKitError('ERR_UNSUPPORTED_ACCOUNT', `${account?.address} is not a connected account of this wallet.`);
    return account.address;
  };

  let identity = kit.session.current()?.userId;
  kit.session.subscribe((session) => {
    if (session?.userId === identity) return;
    identity = session?.userId;
    // Another user, or none: what was connected is no longer theirs.
    setAccounts([]);
  });

  async function signAndSend(input: SolanaSignAndSendTransactionInput): Promise<{ signature: Uint8Array }> {
    const address = connected(input.account);
    const url = rpcUrls[input.chain as SolanaChain];
    if (!url) throw new WalletKitError('ERR_CHAIN_NOT_CONFIGURED', `No RPC endpoint for ${input.chain}.`);
    await confirmWith(
      kit.config.confirm,
      { kind: 'solanaTransaction', address, transaction: input.transaction, send: true, origin: currentOrigin() },
      signOptions,
    );
    const signed = await kit.wallet.signSolanaTransaction({ address, transaction: input.transaction, confirm: false });
    const rpc = createRpcClient(url, kit.config.fetch ?? defaultFetch());
    const { commitment, preflightCommitment, skipPreflight, maxRetries, minContextSlot } = input.options ?? {};
    const config = {
      encoding: 'base64',
      ...((preflightCommitment ?? commitment) ? { preflightCommitment: preflightCommitment ?? commitment } : {}),
      ...(skipPreflight !== undefined ? { skipPreflight } : {}),
      ...(maxRetries !== undefined ? { maxRetries } : {}),
      ...(minContextSlot !== undefined ? { minContextSlot } : {}),
    };
    const signature = await rpc.request<string>('sendTransaction', [base64.encode(signed), config]);
    return { signature: base58.decode(signature) };
  }

  const features: Features = {
    [StandardConnect]: {
      version: '1.0.0',
      async connect(input) {
        if (!kit.session.current()) {
          // A silent connect (an app restoring itself) never opens a login.
          if (input?.silent || !options.onLoginRequired) {
            if (input?.silent) return { accounts: [] };
            throw new WalletKitError('ERR_NO_SESSION', 'Log in to the wallet before connecting (or pass onLoginRequired).');
          }
          await options.onLoginRequired();
          if (!kit.session.current()) throw new WalletKitError('ERR_NO_SESSION', 'The login did not complete.');
        }
        identity = kit.session.current()?.userId;
        setAccounts(await loadAccounts());
        return { accounts };
      },
    },
    [StandardDisconnect]: {
      version: '1.0.0',
      async disconnect() {
        setAccounts([]);
      },
    },
    [StandardEvents]: {
      version: '1.0.0',
      on(event, listener) {
        let set = listeners[event];
        if (!set) {
          set = new Set();
          listeners[event] = set;
        }
        set.add(listener);
        return () => void set.delete(listener);
      },
    },
    [SolanaSignMessage]: {
      version: '1.1.0',
      async signMessage(...inputs) {
        const outputs = [];
        for (const input of inputs) {
          const signature = await kit.wallet.signSolanaMessage({ address: connected(input.account), message: input.message, ...signOptions });
          outputs.push({ signedMessage: input.message, signature, signatureType: 'ed25519' as const });
        }
        return outputs;
      },
    },
    [SolanaSignTransaction]: {
      version: '1.0.0',
      supportedTransactionVersions: ['legacy', 0],
      async signTransaction(...inputs) {
        const outputs = [];
        for (const input of inputs) {
          outputs.push({
            signedTransaction: await kit.wallet.signSolanaTransaction({ address: connected(input.account), transaction: input.transaction, ...signOptions }),
          });
        }
        return outputs;
      },
    },
    ...(canSend
      ? {
          [SolanaSignAndSendTransaction]: {
            version: '1.0.0' as const,
            supportedTransactionVersions: ['legacy', 0] as const,
            async signAndSendTransaction(...inputs: readonly SolanaSignAndSendTransactionInput[]) {
              const outputs = [];
              for (const input of inputs) outputs.push(await signAndSend(input));
              return outputs;
            },
          },
        }
      : {}),
  };

  return {
    version: '1.0.0',
    name: options.name ?? 'WalletKit',
    icon: options.icon ?? (WALLETKIT_ICON as WalletIcon),
    chains: SOLANA_CHAINS,
    features,
    get accounts() {
      return accounts;
    },
  };
}

/**
 * Creates the wallet ({@link createSolanaWallet}) and registers it with the page's Wallet
 * Standard apps (`registerWallet`: announced now, and to every app that loads later).
 *
 * @example
 * ```ts
 * const wallet = registerSolanaWallet(kit, { rpcUrls: { 'solana:devnet': 'https://api.devnet.solana.com' } });
 * ```
 */
export function registerSolanaWallet(kit: SolanaWalletKit, options: SolanaWalletOptions = {}): Wallet & { features: Features } {
  const wallet = createSolanaWallet(kit, options);
  registerWallet(wallet);
  return wallet;
}
