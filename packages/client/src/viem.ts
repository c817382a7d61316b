/**
 * `@walletkit/client/viem`: an Ethereum account of the session as a viem `LocalAccount`, for
 * `createWalletClient({ account })`, viem actions and anything built on them. Its own entry
 * point so that the kit's main bundle never pulls viem (decision 0015); `viem` is an optional
 * peer dependency.
 *
 * @example
 * ```ts
 * import { createWalletClient, http } from 'viem';
 * import { toViemAccount } from '@walletkit/client/viem';
 * const client = createWalletClient({ account: toViemAccount(kit, address), chain, transport: http() });
 * await client.sendTransaction({ to, value: parseEther('0.01') });
 * ```
 * @packageDocumentation
 */
import {
  hexToBytes,
  parseTransaction,
  serializeTransaction,
  type Address,
  type Hex,
  type LocalAccount,
  type SerializeTransactionFn,
  type TransactionSerializable,
} from 'viem';
import { toAccount } from 'viem/accounts';
import type { TypedData } from '@walletkit/crypto';
import type { SignOptions } from './confirm.js';
import { WalletKitError } from './errors.js';
import type { EthereumTransactionRequest } from './ethereum/transaction.js';
import type { WalletActions } from './wallet.js';

/**
 * The session's account `address` as a viem `LocalAccount`: `signMessage`, `signTypedData`,
 * `signTransaction` (viem's serializer, or the one viem passes for the chain; signed by the
 * kit's `sign_transaction`) and `signAuthorization` (EIP-7702). Each call goes through the kit's
 * Confirmer unless `options.confirm` is `false`.
 *
 * @example
 * ```ts
 * const account = toViemAccount(kit, '0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
 * const signature = await account.signMessage({ message: 'hello' });
 * ```
 */
export function toViemAccount(kit: { wallet: WalletActions }, address: Address, options: SignOptions = {}): LocalAccount {
  const { wallet } = kit;
  return toAccount({
    address,
    async signMessage({ message }) {
      // `{ raw }` is bytes (hex or array); a string is UTF-8 text, as viem signs them.
      const content = typeof message === 'string' ? message : typeof message.raw === 'string' ? hexToBytes(message.raw) : message.raw;
      return (await wallet.signMessage({ address, message: content, ...options })) as Hex;
    },
    async signTypedData(typedData) {
      return (await wallet.signTypedData({ address, typedData: typedData as unknown as TypedData, ...options })) as Hex;
    },
    async signTransaction(transaction, opts) {
      // viem's serializer decides the encoding (a chain may pass its own); its output, read back,
      // is the complete transaction the kit signs: nothing is filled, nothing is re-chosen.
      const serializer = (opts?.serializer ?? serializeTransaction) as SerializeTransactionFn<TransactionSerializable>;
      const complete = completeTransaction(parseTransaction(await serializer(transaction as TransactionSerializable)));
      return (await wallet.signTransaction({ address, transaction: complete, chainId: Number(complete.chainId), ...options })) as Hex;
    },
    async signAuthorization(authorization) {
      const contract = authorization.contractAddress ?? authorization.address;
      const { r, s, yParity } = await wallet.signAuthorization({
        address,
        authorization: { chainId: authorization.chainId, address: contract, nonce: authorization.nonce },
        ...options,
      });
      return { address: contract, chainId: authorization.chainId, nonce: authorization.nonce, r, s, yParity };
    },
  });
}

/**
 * A parsed viem transaction as a complete kit request: viem leaves zero fields out when it
 * parses, and an absent field would be filled from the chain, so zeros are spelled out.
 */
function completeTransaction(tx: ReturnType<typeof parseTransaction>): EthereumTransactionRequest & { chainId: number } {
  if (tx.type !== 'legacy' && tx.type !== 'eip2930' && tx.type !== 'eip1559' && tx.type !== 'eip7702') {
    throw new WalletKitError('ERR_INVALID_TRANSACTION', `${String(tx.type)} transactions are not supported (legacy, eip2930, eip1559, eip7702).`);
  }
  if (tx.chainId === undefined)
    throw new WalletKitError('ERR_INVALID_TRANSACTION', 'the transaction has no chain id (EIP-155): it could be replayed on every chain.');
  const fees =
    tx.type === 'legacy' || tx.type === 'eip2930'
      ? { gasPrice: tx.gasPrice ?? 0n }
      : { maxFeePerGas: tx.maxFeePerGas ?? 0n, maxPriorityFeePerGas: tx.maxPriorityFeePerGas ?? 0n };
  return {
    type: tx.type,
    chainId: tx.chainId,
    nonce: tx.nonce ?? 0,
    gas: tx.gas ?? 0n,
    to: tx.to ?? null,
    value: tx.value ?? 0n,
    data: tx.data ?? '0x',
    ...fees,
    ...(tx.type !== 'legacy' ? { accessList: tx.accessList ?? [] } : {}),
    ...(tx.type === 'eip7702' ? { authorizationList: tx.authorizationList } : {}),
  };
}
