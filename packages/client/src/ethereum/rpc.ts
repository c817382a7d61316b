/**
 * A minimal Ethereum JSON-RPC 2.0 client over the kit's `fetch`: what filling a transaction,
 * broadcasting it and reading balances need, nothing else (no viem in the main entry: the kit's
 * bundle budget, decision 0015).
 */
import { WalletKitError } from '../errors.js';
import type { FetchLike } from '../transport.js';

/** A JSON-RPC error object as the node sent it (kept as the `cause` of `ERR_RPC`). */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * A client of one chain's JSON-RPC endpoint.
 *
 * @example
 * ```ts
 * const rpc = createRpcClient('http://127.0.0.1:8545', fetch);
 * const nonce = await rpc.request<string>('eth_getTransactionCount', [address, 'pending']);
 * ```
 */
export interface RpcClient {
  readonly url: string;
  /** Sends one call; a JSON-RPC error or a failed request is `ERR_RPC` (the node's message; its error object as `cause`). */
  request<T = unknown>(method: string, params?: readonly unknown[]): Promise<T>;
}

let nextId = 1;

/**
 * Creates an {@link RpcClient} for `url`.
 *
 * @example
 * ```ts
 * const balance = BigInt(await createRpcClient(chain.rpcUrl, fetch).request<string>('eth_getBalance', [address, 'latest']));
 * ```
 */
export function createRpcClient(url: string, fetchFn: FetchLike): RpcClient {
  return {
    url,
    async request<T>(method: string, params: readonly unknown[] = []): Promise<T> {
      const body = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params });
      let text: string;
      let status: number;
      try {
        const res = await fetchFn(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
        status = res.status;
        text = await res.text();
      } catch (cause) {
        throw new WalletKitError('ERR_RPC', `${method}: the chain's RPC endpoint could not be reached`, { cause });
      }
      let reply: { result?: unknown; error?: Partial<JsonRpcErrorObject> } | undefined;
      try {
        reply = JSON.parse(text) as typeof reply;
      } catch (cause) {
        throw new WalletKitError('ERR_RPC', `${method}: HTTP ${status}, the reply is not JSON`, { status, cause });
      }
      if (reply?.error) {
        const error: JsonRpcErrorObject = {
          code: typeof reply.error.code === 'number' ? reply.error.code : -32603,
          message: typeof reply.error.message === 'string' ? reply.error.message : `${method} failed`,
          ...(reply.error.data !== undefined ? { data: reply.error.data } : {}),
        };
        throw new WalletKitError('ERR_RPC', error.message, { status, cause: error });
      }
      if (!reply || !('result' in reply)) throw new WalletKitError('ERR_RPC', `${method}: HTTP ${status}, no result in the reply`, { status });
      return reply.result as T;
    },
  };
}

/** `0x`-hex quantity of an integer (JSON-RPC's QUANTITY encoding). */
export function toQuantity(value: bigint | number): string {
  return `0x${BigInt(value).toString(16)}`;
}
