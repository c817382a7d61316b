/**
 * The embedded wallet as an EIP-1193 provider: what viem's `custom()`, ethers' `BrowserProvider`
 * and wagmi's connectors talk to. Accounts are the session's Ethereum accounts; signing goes
 * through `kit.wallet` (so through the Confirmer); every other read goes to the selected chain's
 * RPC. Errors are EIP-1193 `ProviderRpcError`s (provider-errors.ts).
 */
import type { TypedData } from '@walletkit/crypto';
import { hexToBytes } from '@walletkit/crypto';
import type { ChainConfig } from '../confirm.js';
import type { Session, SessionManager } from '../session.js';
import type { WalletActions } from '../wallet.js';
import type { ChainRegistry } from './chains.js';
import { invalidParams, PROVIDER_ERRORS, ProviderRpcError, toProviderRpcError } from './provider-errors.js';
import { toQuantity } from './rpc.js';
import type { EthereumTransactionRequest } from './transaction.js';

/** What the provider needs of the kit. */
export type ProviderKit = { session: SessionManager; wallet: WalletActions; chains: ChainRegistry };

/** The provider's events (EIP-1193). */
export type ProviderEvent = 'accountsChanged' | 'chainChanged' | 'connect' | 'disconnect' | 'message';

/**
 * An EIP-1193 provider backed by the kit.
 *
 * @example
 * ```ts
 * const provider: WalletKitEthereumProvider = createEthereumProvider(kit);
 * provider.on('accountsChanged', (accounts) => render(accounts));
 * ```
 */
export interface WalletKitEthereumProvider {
  request(args: { method: string; params?: readonly unknown[] | object }): Promise<unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: EIP-1193 listener type; a typed listener such as (accounts: string[]) => void must be assignable
  on(event: ProviderEvent, listener: (...args: any[]) => void): this;
  // biome-ignore lint/suspicious/noExplicitAny: EIP-1193 listener type; a typed listener such as (accounts: string[]) => void must be assignable
  removeListener(event: ProviderEvent, listener: (...args: any[]) => void): this;
  /** Marks the kit's own provider (wallet discovery for login skips it). */
  readonly isWalletKit: true;
}

/** Options of {@link createEthereumProvider}. */
export interface EthereumProviderOptions {
  /** Selects this chain of the kit when the provider is created (the kit has one selected chain). */
  chainId?: number | undefined;
  /** Called by `eth_requestAccounts` when logged out (e.g. the React kit's `login()`); without it, 4100. */
  onLoginRequired?: (() => Promise<unknown>) | undefined;
}

/** Methods that only a wallet answers: never forwarded to a node. */
const WALLET_ONLY = /^(eth_sign|personal_|wallet_|eth_decrypt|eth_getEncryptionPublicKey)/;

const unauthorized = (message = 'Log in first: there is no session.') => new ProviderRpcError(PROVIDER_ERRORS.unauthorized, message);
const identity = (s: Session | undefined) => (s ? `${s.organizationId}/${s.userId}` : undefined);

function paramsOf(params: readonly unknown[] | object | undefined): unknown[] {
  if (params === undefined) return [];
  if (!Array.isArray(params)) throw invalidParams('params must be an array');
  return params;
}

function chainIdOf(value: unknown): number {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]+$/.test(value)) throw invalidParams('chainId must be a 0x-hex string');
  const id = Number.parseInt(value, 16);
  if (!Number.isSafeInteger(id) || id <= 0) throw invalidParams('chainId is out of range');
  return id;
}

/**
 * personal_sign's message: 0x-hex is bytes, anything else UTF-8 text (as MetaMask reads it).
 * Bytes that are valid UTF-8 come back as that text (viem and ethers hex-encode text), so the
 * confirmation shows words; the signed bytes are the same either way.
 */
function messageOf(value: unknown): string | Uint8Array {
  if (typeof value !== 'string') throw invalidParams('the message must be a string');
  if (!/^0x([0-9a-fA-F]{2})*$/.test(value)) return value;
  const bytes = hexToBytes(value);
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    // Control characters other than whitespace say "binary", not text.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the class is the control characters it detects
    if (!/[\u0000-\u0008\u000e-\u001f\u007f]/.test(text)) return text;
  } catch {
    // Not UTF-8: bytes.
  }
  return bytes;
}

function addEthereumChainParams(value: unknown): ChainConfig {
  const p = value as {
    chainId?: unknown;
    chainName?: unknown;
    rpcUrls?: unknown;
    nativeCurrency?: ChainConfig['nativeCurrency'];
    blockExplorerUrls?: unknown;
  } | null;
  if (typeof p !== 'object' || p === null) throw invalidParams('wallet_addEthereumChain takes one chain object');
  const id = chainIdOf(p.chainId);
  const rpcUrl = Array.isArray(p.rpcUrls) ? p.rpcUrls.find((u): u is string => typeof u === 'string' && /^https?:\/\//.test(u)) : undefined;
  if (!rpcUrl) throw invalidParams('wallet_addEthereumChain needs rpcUrls with an http(s) URL');
  const explorer = Array.isArray(p.blockExplorerUrls) ? p.blockExplorerUrls.find((u): u is string => typeof u === 'string') : undefined;
  const currency = p.nativeCurrency;
  return {
    id,
    name: typeof p.chainName === 'string' && p.chainName ? p.chainName : `Chain ${id}`,
    rpcUrl,
    nativeCurrency:
      currency && typeof currency.symbol === 'string' && Number.isInteger(currency.decimals)
        ? { name: String(currency.name ?? currency.symbol), symbol: currency.symbol, decimals: currency.decimals }
        : { name: 'Ether', symbol: 'ETH', decimals: 18 },
    ...(explorer ? { blockExplorerUrl: explorer } : {}),
  };
}

/**
 * Creates the kit's EIP-1193 provider. `eth_requestAccounts` returns the session's Ethereum
 * accounts (4100 when logged out), `personal_sign`, `eth_signTypedData_v4`,
 * `eth_signTransaction` and `eth_sendTransaction` sign through the kit (nonce, gas and fees
 * filled from the chain's RPC), `wallet_switchEthereumChain` / `wallet_addEthereumChain` change
 * the kit's selected chain, `eth_sign` is refused (4200), other reads go to the chain's RPC.
 *
 * @example
 * ```ts
 * import { BrowserProvider } from 'ethers';
 * const signer = await new BrowserProvider(createEthereumProvider(kit)).getSigner();
 * await signer.sendTransaction({ to, value: 10n ** 16n });
 * ```
 */
export function createEthereumProvider(kit: ProviderKit, options: EthereumProviderOptions = {}): WalletKitEthereumProvider {
  if (options.chainId !== undefined) kit.chains.select(options.chainId);
  const listeners = new Map<ProviderEvent, Set<(...args: unknown[]) => void>>();
  let cached: { key: string; accounts: string[] } | undefined;
  let unsubscribe: (() => void) | undefined;
  let lastIdentity: string | undefined;

  const emit = (event: ProviderEvent, ...args: unknown[]) => {
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        listener(...args);
      } catch {
        // A listener's failure is the dApp's; the others still hear the event.
      }
    }
  };

  function currentChainId(): number {
    const id = kit.chains.selectedId();
    if (id === undefined) throw new ProviderRpcError(PROVIDER_ERRORS.chainDisconnected, 'No chain is configured.');
    return id;
  }

  /** The session's Ethereum accounts, fetched once per session (and again when asked to be fresh). */
  async function accounts(fresh = false): Promise<string[]> {
    const key = identity(kit.session.current());
    if (!key) return [];
    if (!fresh && cached?.key === key) return cached.accounts;
    const list = (await kit.wallet.listAccounts()).filter((a) => a.addressFormat === 'ADDRESS_FORMAT_ETHEREUM').map((a) => a.address);
    const changed = cached?.key === key && cached.accounts.join() !== list.join();
    cached = { key, accounts: list };
    if (changed) emit('accountsChanged', list);
    return list;
  }

  /** `address` as the session spells it, or 4100 when it is not one of the session's accounts. */
  async function account(address: unknown): Promise<string> {
    if (!kit.session.current()) throw unauthorized();
    if (typeof address !== 'string') throw invalidParams('the account address must be a string');
    const lower = address.toLowerCase();
    const find = (list: string[]) => list.find((a) => a.toLowerCase() === lower);
    const found = find(await accounts()) ?? find(await accounts(true));
    if (!found) throw unauthorized(`${address} is not an account of this session.`);
    return found;
  }

  async function transactionParams(value: unknown): Promise<{ address: string; transaction: EthereumTransactionRequest; chainId: number }> {
    if (typeof value !== 'object' || value === null) throw invalidParams('the transaction must be an object');
    const tx = value as EthereumTransactionRequest & { gasLimit?: EthereumTransactionRequest['gas'] };
    if (!kit.session.current()) throw unauthorized();
    // EIP-1474 requires `from`; without it, the first account (as MetaMask does).
    const address = await account(tx.from ?? (await accounts())[0]);
    const { gasLimit, ...rest } = tx;
    const transaction = { ...rest, ...(rest.gas === undefined && gasLimit !== undefined ? { gas: gasLimit } : {}), from: address };
    return { address, transaction, chainId: currentChainId() };
  }

  async function dispatch(method: string, params: unknown[]): Promise<unknown> {
    switch (method) {
      case 'eth_requestAccounts': {
        if (!kit.session.current() && options.onLoginRequired) await options.onLoginRequired();
        if (!kit.session.current()) throw unauthorized();
        return accounts(true);
      }
      case 'eth_accounts':
        return accounts();
      case 'eth_coinbase':
        return (await accounts())[0] ?? null;
      case 'eth_chainId':
        return toQuantity(currentChainId());
      case 'personal_sign': {
        // [message, address]; the old [address, message] order is accepted too.
        let [message, address] = params;
        if (typeof message === 'string' && /^0x[0-9a-fA-F]{40}$/.test(message) && !(typeof address === 'string' && /^0x[0-9a-fA-F]{40}$/.test(address)))
          [message, address] = [address, message];
        return kit.wallet.signMessage({ address: await account(address), message: messageOf(message) });
      }
      case 'eth_signTypedData_v4': {
        const [address, data] = params;
        let typedData: TypedData;
        try {
          typedData = (typeof data === 'string' ? JSON.parse(data) : data) as TypedData;
        } catch {
          throw invalidParams('the typed data is not JSON');
        }
        if (typeof typedData !== 'object' || typedData === null) throw invalidParams('the typed data must be an object');
        return kit.wallet.signTypedData({ address: await account(address), typedData });
      }
      case 'eth_signTransaction':
        return kit.wallet.signTransaction(await transactionParams(params[0]));
      case 'eth_sendTransaction':
        return kit.wallet.sendTransaction(await transactionParams(params[0]));
      case 'wallet_switchEthereumChain': {
        const id = chainIdOf((params[0] as { chainId?: unknown } | undefined)?.chainId);
        if (!kit.chains.get(id))
          throw new ProviderRpcError(PROVIDER_ERRORS.unrecognizedChain, `Unrecognized chain ${toQuantity(id)}: add it with wallet_addEthereumChain.`);
        kit.chains.select(id);
        return null;
      }
      case 'wallet_addEthereumChain': {
        const chain = kit.chains.add(addEthereumChainParams(params[0]));
        // As MetaMask does after adding, the page gets the chain it asked for.
        kit.chains.select(chain.id);
        return null;
      }
      default:
        if (WALLET_ONLY.test(method)) throw new ProviderRpcError(PROVIDER_ERRORS.unsupportedMethod, `The embedded wallet does not support ${method}.`);
        return kit.chains.rpc(currentChainId()).request(method, params);
    }
  }

  /** Session and chain changes become provider events while anyone listens. */
  function watch(): void {
    if (unsubscribe) return;
    lastIdentity = identity(kit.session.current());
    const offSession = kit.session.subscribe((session) => {
      const next = identity(session);
      if (next === lastIdentity) return;
      const wasConnected = lastIdentity !== undefined;
      lastIdentity = next;
      cached = undefined;
      if (!next) {
        emit('accountsChanged', []);
        emit('disconnect', new ProviderRpcError(PROVIDER_ERRORS.disconnected, 'Logged out.'));
        return;
      }
      void accounts(true).then(
        (list) => {
          if (lastIdentity !== next) return;
          const chainId = kit.chains.selectedId();
          if (!wasConnected && chainId !== undefined) emit('connect', { chainId: toQuantity(chainId) });
          emit('accountsChanged', list);
        },
        () => undefined,
      );
    });
    const offChains = kit.chains.subscribe((event) => {
      if (event.type === 'selected') emit('chainChanged', toQuantity(event.chainId));
    });
    unsubscribe = () => {
      offSession();
      offChains();
      unsubscribe = undefined;
    };
  }

  const provider: WalletKitEthereumProvider = {
    isWalletKit: true,
    async request(args) {
      try {
        if (typeof args !== 'object' || args === null || typeof args.method !== 'string') throw invalidParams('request takes { method, params }');
        return await dispatch(args.method, paramsOf(args.params));
      } catch (error) {
        throw toProviderRpcError(error);
      }
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) {
        set = new Set();
        listeners.set(event, set);
      }
      set.add(listener);
      watch();
      return provider;
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener);
      if ([...listeners.values()].every((s) => s.size === 0)) unsubscribe?.();
      return provider;
    },
  };
  return provider;
}
