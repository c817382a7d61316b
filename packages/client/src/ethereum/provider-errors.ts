/**
 * EIP-1193 errors: what a dApp library (viem, ethers, wagmi) switches on. The kit's codes map
 * to the provider codes of EIP-1193 and EIP-1474 (decision 0015, "error mapping"); the kit's
 * own code stays in `data.walletKitCode` for callers that want it.
 */
import { isWalletKitError, type WalletKitErrorCode } from '../errors.js';
import type { JsonRpcErrorObject } from './rpc.js';

/** EIP-1193 / EIP-1474 provider error codes the kit raises. */
export const PROVIDER_ERRORS = {
  userRejected: 4001,
  unauthorized: 4100,
  unsupportedMethod: 4200,
  disconnected: 4900,
  chainDisconnected: 4901,
  unrecognizedChain: 4902,
  invalidParams: -32602,
  internal: -32603,
} as const;

/**
 * An EIP-1193 `ProviderRpcError`: `{ code, message, data? }`.
 *
 * @example
 * ```ts
 * try { await provider.request({ method: 'eth_sign', params }) } catch (e) { (e as ProviderRpcError).code; } // 4200
 * ```
 */
export class ProviderRpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProviderRpcError';
    this.code = code;
    this.data = data;
  }
}

const BY_CODE: Partial<Record<WalletKitErrorCode, number>> = {
  ERR_USER_REJECTED: PROVIDER_ERRORS.userRejected,
  ERR_NO_SESSION: PROVIDER_ERRORS.unauthorized,
  ERR_SESSION_EXPIRED: PROVIDER_ERRORS.unauthorized,
  ERR_UNSUPPORTED_ACCOUNT: PROVIDER_ERRORS.unauthorized,
  ERR_WALLET_ACCOUNT_NOT_FOUND: PROVIDER_ERRORS.unauthorized,
  ERR_CHAIN_NOT_CONFIGURED: PROVIDER_ERRORS.unrecognizedChain,
  ERR_CHAIN_MISMATCH: PROVIDER_ERRORS.invalidParams,
  ERR_INVALID_TRANSACTION: PROVIDER_ERRORS.invalidParams,
  ERR_INVALID_PAYLOAD: PROVIDER_ERRORS.invalidParams,
  ERR_INVALID_PARAMETER: PROVIDER_ERRORS.invalidParams,
};

/**
 * The provider error for anything a request threw. `ERR_RPC` keeps the node's own code,
 * message and data (a revert reason reaches the dApp as the node sent it).
 * @internal
 */
export function toProviderRpcError(error: unknown): ProviderRpcError {
  if (error instanceof ProviderRpcError) return error;
  if (isWalletKitError(error)) {
    if (error.code === 'ERR_RPC') {
      const node = error.cause as Partial<JsonRpcErrorObject> | undefined;
      if (typeof node?.code === 'number') return new ProviderRpcError(node.code, error.message, node.data, { cause: error });
      return new ProviderRpcError(PROVIDER_ERRORS.chainDisconnected, error.message, { walletKitCode: error.code }, { cause: error });
    }
    return new ProviderRpcError(BY_CODE[error.code] ?? PROVIDER_ERRORS.internal, error.message, { walletKitCode: error.code }, { cause: error });
  }
  return new ProviderRpcError(PROVIDER_ERRORS.internal, error instanceof Error ? error.message : 'Internal error', undefined, { cause: error });
}

/** A -32602 for a malformed request. @internal */
export function invalidParams(message: string): ProviderRpcError {
  return new ProviderRpcError(PROVIDER_ERRORS.invalidParams, message);
}
