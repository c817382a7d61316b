/**
 * The chains one kit knows and the one selected, shared by `kit.wallet`, every EIP-1193
 * provider of the kit and the React wallet panel: one selected network per page, as a browser
 * wallet has one per site (decision 0015).
 */
import type { ChainConfig } from '../confirm.js';
import { WalletKitError } from '../errors.js';
import type { FetchLike } from '../transport.js';
import { createRpcClient, type RpcClient } from './rpc.js';

/** A change of the registry: a chain was added or another one selected. */
export type ChainEvent = { type: 'added'; chain: ChainConfig } | { type: 'selected'; chainId: number };

/**
 * The kit's chains: the configured ones plus those a page added (`wallet_addEthereumChain`),
 * and the selected chain id.
 *
 * @example
 * ```ts
 * kit.chains.select(8453);
 * const balance = await kit.wallet.getBalance({ address }); // on Base
 * kit.chains.subscribe((e) => e.type === 'selected' && render(e.chainId));
 * ```
 */
export interface ChainRegistry {
  list(): ChainConfig[];
  get(chainId: number): ChainConfig | undefined;
  /** Adds a chain for this page; a chain id already known keeps its configuration (a page cannot redirect a configured RPC). Returns the chain in force. */
  add(chain: ChainConfig): ChainConfig;
  /** The selected chain id: the last `select`, else `defaultChainId`, else the first chain; undefined with no chain at all. */
  selectedId(): number | undefined;
  /** Selects a known chain; an unknown one is `ERR_CHAIN_NOT_CONFIGURED`. */
  select(chainId: number): void;
  /** The chain's JSON-RPC client; `ERR_CHAIN_NOT_CONFIGURED` when the kit has no RPC for it. */
  rpc(chainId: number): RpcClient;
  subscribe(listener: (event: ChainEvent) => void): () => void;
}

/**
 * Creates the registry of a kit from its config.
 *
 * @example
 * ```ts
 * const chains = createChainRegistry({ chains: [{ id: 31337, name: 'Hardhat', rpcUrl, nativeCurrency }], fetch });
 * ```
 */
export function createChainRegistry(opts: { chains?: ChainConfig[]; defaultChainId?: number; fetch: FetchLike }): ChainRegistry {
  const chains = new Map<number, ChainConfig>();
  for (const chain of opts.chains ?? []) chains.set(chain.id, chain);
  const clients = new Map<number, RpcClient>();
  const listeners = new Set<(event: ChainEvent) => void>();
  let selected = opts.defaultChainId ?? opts.chains?.[0]?.id;
  const emit = (event: ChainEvent) => {
    for (const listener of listeners) listener(event);
  };

  return {
    list: () => [...chains.values()],
    get: (chainId) => chains.get(chainId),
    add(chain) {
      const known = chains.get(chain.id);
      if (known) return known;
      chains.set(chain.id, chain);
      selected ??= chain.id;
      emit({ type: 'added', chain });
      return chain;
    },
    selectedId: () => selected,
    select(chainId) {
      if (!chains.has(chainId)) throw new WalletKitError('ERR_CHAIN_NOT_CONFIGURED', `The kit has no configuration for chain ${chainId}.`);
      if (selected === chainId) return;
      selected = chainId;
      emit({ type: 'selected', chainId });
    },
    rpc(chainId) {
      const chain = chains.get(chainId);
      if (!chain?.rpcUrl) throw new WalletKitError('ERR_CHAIN_NOT_CONFIGURED', `The kit has no RPC endpoint for chain ${chainId}.`);
      let client = clients.get(chainId);
      if (client?.url !== chain.rpcUrl) {
        client = createRpcClient(chain.rpcUrl, opts.fetch);
        clients.set(chainId, client);
      }
      return client;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
