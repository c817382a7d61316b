/**
 * Fills what a transaction request leaves out from the chain's RPC, as wallets do for
 * `eth_sendTransaction` (decision 0015, "filling rules"):
 * - nonce: `eth_getTransactionCount(from, 'pending')`, so queued transactions count;
 * - type: EIP-1559 when the latest block has a base fee, else legacy;
 * - EIP-1559 fees: tip = `eth_maxPriorityFeePerGas` (else the median tip of `eth_feeHistory`),
 *   max fee = 2 x base fee + tip (survives six full blocks of base-fee growth, as ethers does);
 *   a given max fee caps the suggested tip;
 * - legacy / EIP-2930: `eth_gasPrice`;
 * - gas: `eth_estimateGas` of the call (from, to, value, data, access and authorization lists).
 * A complete request needs no RPC at all.
 */
import type { EthereumTransaction } from '@walletkit/crypto';
import { isWalletKitError } from '../errors.js';
import type { NormalizedRequest } from './transaction.js';
import { toQuantity, type RpcClient } from './rpc.js';

interface Block {
  baseFeePerGas?: string | null;
}

async function suggestedTip(rpc: RpcClient): Promise<bigint> {
  try {
    return BigInt(await rpc.request<string>('eth_maxPriorityFeePerGas'));
  } catch (error) {
    if (!isWalletKitError(error, 'ERR_RPC')) throw error;
    // Not every node has eth_maxPriorityFeePerGas; the median tip of the latest block is the
    // same suggestion computed by hand.
    const history = await rpc.request<{ reward?: string[][] }>('eth_feeHistory', ['0x1', 'latest', [50]]);
    return BigInt(history.reward?.[0]?.[0] ?? '0x0');
  }
}

function estimateCall(request: NormalizedRequest, from: string): Record<string, unknown> {
  return {
    from,
    ...(request.to ? { to: request.to } : {}),
    value: toQuantity(request.value),
    data: request.data,
    ...(request.accessList?.length ? { accessList: request.accessList } : {}),
    ...(request.authorizationList?.length
      ? {
          authorizationList: request.authorizationList.map((a) => ({
            chainId: toQuantity(a.chainId),
            address: a.address,
            nonce: toQuantity(a.nonce),
            yParity: toQuantity(a.yParity),
            r: toQuantity(a.r),
            s: toQuantity(a.s),
          })),
        }
      : {}),
  };
}

/**
 * The complete transaction: the request's fields, and from `rpc()` (called only when
 * something is missing) the rest. `chainId` is the chain already checked by the caller.
 *
 * @example
 * ```ts
 * const tx = await prepareTransaction(normalizeTransactionRequest({ to, value: 1n }), { from, chainId: 1n, rpc: () => chains.rpc(1) });
 * ```
 */
export async function prepareTransaction(
  request: NormalizedRequest,
  ctx: { from: string; chainId: bigint; rpc: () => RpcClient },
): Promise<EthereumTransaction> {
  let type = request.type;
  const feeMarket = type === undefined || type === 'eip1559' || type === 'eip7702';
  const needsFees =
    type === undefined || (feeMarket ? request.maxFeePerGas === undefined || request.maxPriorityFeePerGas === undefined : request.gasPrice === undefined);
  const needsRpc = needsFees || request.nonce === undefined || request.gas === undefined;
  const rpc = needsRpc ? ctx.rpc() : undefined;

  const [nonce, gas, fees] = await Promise.all([
    request.nonce ?? rpc!.request<string>('eth_getTransactionCount', [ctx.from, 'pending']).then(BigInt),
    request.gas ?? rpc!.request<string>('eth_estimateGas', [estimateCall(request, ctx.from)]).then(BigInt),
    (async () => {
      if (!needsFees) return {};
      let baseFee: bigint | undefined;
      if (feeMarket) {
        const block = await rpc!.request<Block | null>('eth_getBlockByNumber', ['latest', false]);
        baseFee = block?.baseFeePerGas ? BigInt(block.baseFeePerGas) : undefined;
        if (baseFee === undefined && type === undefined) type = request.accessList?.length ? 'eip2930' : 'legacy';
      }
      if (type === 'legacy' || type === 'eip2930') return { gasPrice: BigInt(await rpc!.request<string>('eth_gasPrice')) };
      type ??= 'eip1559';
      const tip = request.maxPriorityFeePerGas ?? (await suggestedTip(rpc!));
      if (request.maxFeePerGas !== undefined)
        // biome-ignore lint/complexity/useMathMinMax: bigints, Math.min throws a TypeError on them
        return { maxFeePerGas: request.maxFeePerGas, maxPriorityFeePerGas: tip > request.maxFeePerGas ? request.maxFeePerGas : tip };
      return { maxFeePerGas: (baseFee ?? 0n) * 2n + tip, maxPriorityFeePerGas: tip };
    })(),
  ]);

  const resolved = type ?? 'eip1559';
  const tx: EthereumTransaction = {
    type: resolved,
    chainId: ctx.chainId,
    nonce,
    gas,
    to: request.to,
    value: request.value,
    data: request.data,
  };
  if (resolved === 'legacy' || resolved === 'eip2930') tx.gasPrice = request.gasPrice ?? (fees as { gasPrice?: bigint }).gasPrice!;
  else {
    const f = fees as { maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint };
    tx.maxFeePerGas = f.maxFeePerGas ?? request.maxFeePerGas!;
    tx.maxPriorityFeePerGas = f.maxPriorityFeePerGas ?? request.maxPriorityFeePerGas!;
  }
  if (resolved !== 'legacy') tx.accessList = request.accessList ?? [];
  if (resolved === 'eip7702') tx.authorizationList = request.authorizationList ?? [];
  return tx;
}
