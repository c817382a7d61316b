/**
 * The one confirmation step every signature goes through (issue 10): the EIP-1193 provider,
 * the viem account, the Solana signer and the React hooks all build a {@link SignatureRequest}
 * and call the kit's {@link Confirmer} before anything is signed. The React kit's confirmation
 * dialog is one Confirmer; a headless integrator passes their own, or skips the step for one
 * call (`{ confirm: false }`), as peers allow.
 */
import type { TypedData } from '@walletkit/crypto';
import { WalletKitError } from './errors.js';

/** A chain the kit can talk to (its JSON-RPC endpoint and native currency). */
export interface ChainConfig {
  /** EIP-155 chain id, e.g. 1, 8453, 31337. */
  id: number;
  name: string;
  rpcUrl: string;
  nativeCurrency: { name: string; symbol: string; decimals: number };
  /** Base URL of a block explorer (transactions at `${url}/tx/${hash}`), when there is one. */
  blockExplorerUrl?: string | undefined;
}

/** An Ethereum transaction as the confirmation shows it: every field the signature commits to. */
export interface EthereumTransactionFields {
  /** 'legacy' | 'eip2930' | 'eip1559' | 'eip7702' */
  type: 'legacy' | 'eip2930' | 'eip1559' | 'eip7702';
  chainId: number;
  nonce: bigint;
  to: string | null;
  value: bigint;
  data: string;
  gas: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  accessList?: Array<{ address: string; storageKeys: string[] }>;
  authorizationList?: Array<{ chainId: number; address: string; nonce: bigint }>;
}

/** What the user is asked to approve. `origin` is the app's origin (the page asking). */
export type SignatureRequest = {
  /** The account that signs. */
  address: string;
  /** The app asking, as the browser names it (`location.origin`); undefined outside a page. */
  origin: string | undefined;
} & (
  | { kind: 'message'; family: 'ethereum' | 'solana'; message: string | Uint8Array }
  | { kind: 'typedData'; typedData: TypedData }
  | {
      kind: 'transaction';
      chain: ChainConfig | { id: number; name?: undefined };
      transaction: EthereumTransactionFields;
      /** Upper bound of the fee in wei (gas x max fee per gas, or gas x gas price). */
      maxFee: bigint;
      /** True when the kit will also broadcast it (eth_sendTransaction). */
      send: boolean;
    }
  | { kind: 'authorization'; authorization: { chainId: number; address: string; nonce: bigint } }
  | { kind: 'solanaTransaction'; transaction: Uint8Array; send: boolean }
);

/**
 * Approves or declines a request: resolve to sign, reject (with `ERR_USER_REJECTED`) to decline.
 * @example const confirm: Confirmer = async (request) => { if (!window.confirm(`Sign with ${request.address}?`)) throw userRejected(); };
 */
export type Confirmer = (request: SignatureRequest) => Promise<void>;

/** Per-call options of every signing action: `confirm: false` skips the confirmation (headless flows). */
export interface SignOptions {
  confirm?: boolean | undefined;
}

/**
 * The error a declined confirmation raises (EIP-1193 maps it to 4001 "User Rejected Request").
 * @example throw userRejected();
 */
export function userRejected(): WalletKitError {
  return new WalletKitError('ERR_USER_REJECTED');
}

/** The page's origin, when there is a page. */
export function currentOrigin(): string | undefined {
  return typeof location === 'undefined' ? undefined : location.origin;
}

/**
 * Ask `confirmer` unless the call opted out; with no confirmer configured, requests pass (a
 * headless client that configured none has chosen so).
 * @example await confirmWith(deps.confirm, { kind: 'message', family: 'ethereum', address, message, origin: currentOrigin() }, opts);
 */
export async function confirmWith(confirmer: Confirmer | undefined, request: SignatureRequest, opts: SignOptions = {}): Promise<void> {
  if (opts.confirm === false || confirmer === undefined) return;
  await confirmer(request);
}
