/**
 * `eth.tx` for policies: the fields of the Ethereum transaction a sign_transaction carries, in
 * Turnkey's policy names (`eth.tx.to`, `eth.tx.value`, `eth.tx.chain_id`, ...). Integers are
 * bigints (exact wei), addresses and data 0x-hex. A field a transaction type lacks is absent
 * (UNKNOWN), and so is `to` for a contract creation: a policy about it cannot surely hold.
 */
import { operations } from '@walletkit/protocol';
import { parseUnsignedEthereumTransaction, type EthereumTransaction } from '@walletkit/crypto';
import type { Value } from './policy-language.js';

const SIGN_TRANSACTION = operations.sign_transaction.type;

/**
 * The `eth.tx` record of an Ethereum sign_transaction, or undefined for any other activity and
 * for a transaction that does not parse (the handler refuses it; a policy sees UNKNOWN).
 * @example ethereumTransactionFields('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_ETHEREUM', unsignedTransaction: '02…' }) // { to: '0x…', value: 1n, … }
 */
export function ethereumTransactionFields(
  type: string,
  parameters: { readonly type?: unknown; readonly unsignedTransaction?: unknown; readonly [name: string]: unknown } | undefined,
): Record<string, Value> | undefined {
  if (type !== SIGN_TRANSACTION || parameters?.type !== 'TRANSACTION_TYPE_ETHEREUM' || typeof parameters.unsignedTransaction !== 'string') return undefined;
  let tx: EthereumTransaction;
  try {
    tx = parseUnsignedEthereumTransaction(parameters.unsignedTransaction);
  } catch {
    return undefined;
  }
  return {
    value: tx.value,
    chain_id: tx.chainId,
    nonce: tx.nonce,
    gas: tx.gas,
    data: tx.data,
    ...(tx.to !== null ? { to: tx.to } : {}),
    ...(tx.gasPrice !== undefined ? { gas_price: tx.gasPrice } : {}),
    ...(tx.maxFeePerGas !== undefined ? { max_fee_per_gas: tx.maxFeePerGas } : {}),
    ...(tx.maxPriorityFeePerGas !== undefined ? { max_priority_fee_per_gas: tx.maxPriorityFeePerGas } : {}),
  };
}
