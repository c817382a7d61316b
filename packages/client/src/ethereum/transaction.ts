/**
 * The transaction a caller hands the kit (viem's shape, or JSON-RPC's hex quantities, as
 * `eth_sendTransaction` carries it), checked and turned into the fields of
 * `@walletkit/crypto`'s {@link EthereumTransaction}. What is missing is filled by `prepare.ts`.
 */
import type { AccessListEntry, EthereumTransaction, EthereumTransactionType, SignedAuthorization } from '@walletkit/crypto';
import type { EthereumTransactionFields } from '../confirm.js';
import { WalletKitError } from '../errors.js';

/** An integer as viem (bigint, number) or JSON-RPC (`0x` quantity) spells it; decimal strings too. */
export type Quantity = bigint | number | string;

/** A signed EIP-7702 authorization as viem (`address` or `contractAddress`, `yParity` or `v`) or JSON-RPC spells it. */
export interface AuthorizationInput {
  chainId: Quantity;
  address?: string | undefined;
  contractAddress?: string | undefined;
  nonce: Quantity;
  r: Quantity;
  s: Quantity;
  yParity?: Quantity | undefined;
  v?: Quantity | undefined;
}

/**
 * An Ethereum transaction request (viem-like; JSON-RPC spellings accepted). Missing nonce, gas
 * and fees are filled from the chain's RPC.
 *
 * @example
 * ```ts
 * const tx: EthereumTransactionRequest = { to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: 10n ** 16n };
 * ```
 */
export interface EthereumTransactionRequest {
  /** When given, must be the signing account. */
  from?: string | undefined;
  to?: string | null | undefined;
  value?: Quantity | undefined;
  data?: string | undefined;
  /** JSON-RPC's newer name of `data`. */
  input?: string | undefined;
  nonce?: Quantity | undefined;
  gas?: Quantity | undefined;
  gasPrice?: Quantity | undefined;
  maxFeePerGas?: Quantity | undefined;
  maxPriorityFeePerGas?: Quantity | undefined;
  accessList?: ReadonlyArray<{ address: string; storageKeys: readonly string[] }> | undefined;
  authorizationList?: readonly AuthorizationInput[] | undefined;
  /** 'legacy' | 'eip2930' | 'eip1559' | 'eip7702', or the type byte ('0x0', '0x1', '0x2', '0x4', 0-4). */
  type?: EthereumTransactionType | string | number | undefined;
  chainId?: Quantity | undefined;
}

/** A checked request: integers are bigints, addresses and data lowercase hex; `undefined` means "fill it". */
export interface NormalizedRequest {
  type: EthereumTransactionType | undefined;
  chainId: bigint | undefined;
  nonce: bigint | undefined;
  gas: bigint | undefined;
  gasPrice: bigint | undefined;
  maxFeePerGas: bigint | undefined;
  maxPriorityFeePerGas: bigint | undefined;
  to: string | null;
  value: bigint;
  data: string;
  accessList: AccessListEntry[] | undefined;
  authorizationList: SignedAuthorization[] | undefined;
  from: string | undefined;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const TYPE_NAMES: Record<string, EthereumTransactionType> = {
  legacy: 'legacy',
  eip2930: 'eip2930',
  eip1559: 'eip1559',
  eip7702: 'eip7702',
  '0x0': 'legacy',
  '0x00': 'legacy',
  '0x1': 'eip2930',
  '0x01': 'eip2930',
  '0x2': 'eip1559',
  '0x02': 'eip1559',
  '0x4': 'eip7702',
  '0x04': 'eip7702',
};

function invalid(message: string): WalletKitError {
  return new WalletKitError('ERR_INVALID_TRANSACTION', message);
}

/** A non-negative integer below 2^`bits` from any {@link Quantity} spelling. */
export function quantity(value: Quantity, name: string, bits = 256): bigint {
  let n: bigint | undefined;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) n = BigInt(value);
  else if (typeof value === 'string' && (/^0x[0-9a-fA-F]+$/i.test(value) || /^(0|[1-9][0-9]*)$/.test(value))) n = BigInt(value);
  if (n === undefined || n < 0n || n >= 1n << BigInt(bits))
    throw invalid(`${name} must be a non-negative integer below 2^${bits} (bigint, number, 0x-hex or decimal string)`);
  return n;
}

function optional(value: Quantity | undefined | null, name: string, bits = 256): bigint | undefined {
  return value === undefined || value === null ? undefined : quantity(value, name, bits);
}

function address(value: unknown, name: string): string {
  if (typeof value !== 'string' || !ADDRESS.test(value)) throw invalid(`${name} must be an address (0x + 40 hex characters)`);
  return value.toLowerCase();
}

function hexData(value: unknown, name: string, bytes?: number): string {
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value)) throw invalid(`${name} must be 0x-hex bytes`);
  if (bytes !== undefined && value.length !== 2 + bytes * 2) throw invalid(`${name} must be ${bytes} bytes`);
  return value.toLowerCase();
}

function typeOf(value: EthereumTransactionRequest['type']): EthereumTransactionType | undefined {
  if (value === undefined || value === null) return undefined;
  const key = typeof value === 'number' ? `0x${value.toString(16)}` : String(value).toLowerCase();
  const type = TYPE_NAMES[key];
  if (!type) throw invalid(`transaction type ${String(value)} is not supported (legacy, eip2930, eip1559, eip7702)`);
  return type;
}

function authorizationOf(auth: AuthorizationInput, i: number): SignedAuthorization {
  const name = `authorizationList.${i}`;
  let yParity: bigint;
  if (auth.yParity !== undefined && auth.yParity !== null) yParity = quantity(auth.yParity, `${name}.yParity`, 8);
  else if (auth.v !== undefined && auth.v !== null) yParity = quantity(auth.v, `${name}.v`, 8) - 27n;
  else throw invalid(`${name} is not signed (yParity)`);
  if (yParity !== 0n && yParity !== 1n) throw invalid(`${name}.yParity must be 0 or 1`);
  return {
    chainId: quantity(auth.chainId, `${name}.chainId`),
    address: address(auth.address ?? auth.contractAddress, `${name}.address`),
    nonce: quantity(auth.nonce, `${name}.nonce`, 64),
    yParity: Number(yParity) as 0 | 1,
    r: quantity(auth.r, `${name}.r`),
    s: quantity(auth.s, `${name}.s`),
  };
}

/**
 * Checks a request and reads its fields; throws `ERR_INVALID_TRANSACTION` naming the field.
 * The type is the given one, else inferred from the fields that only one type has
 * (authorizations: 7702; EIP-1559 fees: 1559; a gas price: legacy, or 2930 with an access list);
 * left undefined when only the chain can tell (prepare.ts).
 */
export function normalizeTransactionRequest(tx: EthereumTransactionRequest): NormalizedRequest {
  if (typeof tx !== 'object' || tx === null) throw invalid('the transaction must be an object');
  if (typeof tx.data === 'string' && typeof tx.input === 'string' && tx.data.toLowerCase() !== tx.input.toLowerCase()) {
    throw invalid('data and input differ');
  }
  const request: NormalizedRequest = {
    type: typeOf(tx.type),
    chainId: optional(tx.chainId, 'chainId'),
    nonce: optional(tx.nonce, 'nonce', 64),
    gas: optional(tx.gas, 'gas', 64),
    gasPrice: optional(tx.gasPrice, 'gasPrice'),
    maxFeePerGas: optional(tx.maxFeePerGas, 'maxFeePerGas'),
    maxPriorityFeePerGas: optional(tx.maxPriorityFeePerGas, 'maxPriorityFeePerGas'),
    to: tx.to === undefined || tx.to === null ? null : address(tx.to, 'to'),
    value: optional(tx.value, 'value') ?? 0n,
    data: hexData(tx.data ?? tx.input ?? '0x', 'data'),
    accessList: tx.accessList?.map((entry, i) => ({
      address: address(entry?.address, `accessList.${i}.address`),
      storageKeys: (entry.storageKeys ?? []).map((key, j) => hexData(key, `accessList.${i}.storageKeys.${j}`, 32)),
    })),
    authorizationList: tx.authorizationList?.map(authorizationOf),
    from: tx.from === undefined || tx.from === null ? undefined : address(tx.from, 'from'),
  };
  if (request.chainId === 0n) throw invalid('chainId must not be 0');
  const has1559Fees = request.maxFeePerGas !== undefined || request.maxPriorityFeePerGas !== undefined;
  if (has1559Fees && request.gasPrice !== undefined) throw invalid('gasPrice cannot be combined with maxFeePerGas / maxPriorityFeePerGas');
  if (request.maxFeePerGas !== undefined && request.maxPriorityFeePerGas !== undefined && request.maxPriorityFeePerGas > request.maxFeePerGas) {
    throw invalid('maxPriorityFeePerGas cannot exceed maxFeePerGas');
  }
  if (request.type === undefined) {
    if (request.authorizationList?.length) request.type = 'eip7702';
    else if (has1559Fees) request.type = 'eip1559';
    else if (request.gasPrice !== undefined) request.type = request.accessList ? 'eip2930' : 'legacy';
  }
  const type = request.type;
  if ((type === 'legacy' || type === 'eip2930') && has1559Fees) throw invalid(`a ${type} transaction has a gasPrice, not maxFeePerGas / maxPriorityFeePerGas`);
  if ((type === 'eip1559' || type === 'eip7702') && request.gasPrice !== undefined)
    throw invalid(`an ${type} transaction has maxFeePerGas / maxPriorityFeePerGas, not a gasPrice`);
  if (type === 'legacy' && request.accessList?.length) throw invalid('a legacy transaction has no access list (use eip2930)');
  if (type !== 'eip7702' && request.authorizationList?.length) throw invalid('only an eip7702 transaction carries an authorization list');
  if (type === 'eip7702') {
    if (!request.authorizationList?.length) throw invalid('an eip7702 transaction needs at least one signed authorization');
    if (request.to === null) throw invalid('an eip7702 transaction cannot create a contract (to is required)');
  }
  return request;
}

/**
 * What the confirmation shows of a complete transaction.
 * @internal
 */
export function transactionFields(tx: EthereumTransaction): EthereumTransactionFields {
  return {
    type: tx.type,
    chainId: Number(tx.chainId),
    nonce: tx.nonce,
    to: tx.to,
    value: tx.value,
    data: tx.data,
    gas: tx.gas,
    ...(tx.gasPrice !== undefined ? { gasPrice: tx.gasPrice } : {}),
    ...(tx.maxFeePerGas !== undefined ? { maxFeePerGas: tx.maxFeePerGas } : {}),
    ...(tx.maxPriorityFeePerGas !== undefined ? { maxPriorityFeePerGas: tx.maxPriorityFeePerGas } : {}),
    ...(tx.accessList?.length ? { accessList: tx.accessList } : {}),
    ...(tx.authorizationList
      ? { authorizationList: tx.authorizationList.map((a) => ({ chainId: Number(a.chainId), address: a.address, nonce: a.nonce })) }
      : {}),
  };
}

/**
 * The most the sender can pay in fees: gas x max fee per gas (or x gas price).
 * @internal
 */
export function maxFeeOf(tx: EthereumTransaction): bigint {
  return tx.gas * (tx.maxFeePerGas ?? tx.gasPrice ?? 0n);
}
