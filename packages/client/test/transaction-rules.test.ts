/**
 * The transaction rules that need no chain to prove: what a request may say (one stable code,
 * ERR_INVALID_TRANSACTION, naming the field), which type it is, how missing fields are filled
 * (against an injected RPC that answers like a node with or without a fee market), and how the
 * JSON-RPC client reports failures (ERR_RPC with the node's error).
 */
import { describe, expect, it } from 'vitest';
import { createRpcClient, normalizeTransactionRequest, prepareTransaction, WalletKitError, type RpcClient } from '../src/index';

const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const FROM = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

/** A node that answers from `answers`; a function answer may throw like the node would. */
function node(answers: Record<string, unknown | (() => unknown)>): RpcClient & { calls: string[] } {
  const calls: string[] = [];
  return {
    url: 'http://node.invalid',
    calls,
    async request<T>(method: string): Promise<T> {
      calls.push(method);
      if (!(method in answers)) throw new Error(`unexpected ${method}`);
      const answer = answers[method];
      return (typeof answer === 'function' ? (answer as () => unknown)() : answer) as T;
    },
  };
}

describe('transaction requests', () => {
  it.each([
    [{ to: '0x1234' }, 'to'],
    [{ to: TO, value: -1n }, 'value'],
    [{ to: TO, data: '0xabc' }, 'data'],
    [{ to: TO, gasPrice: 1n, maxFeePerGas: 2n }, 'gasPrice'],
    [{ to: TO, maxFeePerGas: 1n, maxPriorityFeePerGas: 2n }, 'maxPriorityFeePerGas'],
    [{ to: TO, type: 'legacy', maxFeePerGas: 1n }, 'legacy'],
    [{ to: TO, type: 'eip4844' }, 'type'],
    [{ to: TO, type: 'eip7702' }, 'authorization'],
    [{ to: null, authorizationList: [{ chainId: 1, address: TO, nonce: 0, r: 1n, s: 1n, yParity: 0 }] }, 'to'],
    [{ to: TO, chainId: 0 }, 'chainId'],
    [{ to: TO, nonce: 2n ** 64n }, 'nonce'],
  ] as const)('given %o, when it is read, then ERR_INVALID_TRANSACTION names %s', (tx, field) => {
    let error: unknown;
    try {
      normalizeTransactionRequest(tx as never);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'ERR_INVALID_TRANSACTION' });
    expect((error as Error).message).toContain(field);
  });

  it.each([
    [{ to: TO }, undefined],
    [{ to: TO, gasPrice: '0x1' }, 'legacy'],
    [{ to: TO, gasPrice: 1n, accessList: [] }, 'eip2930'],
    [{ to: TO, maxFeePerGas: 1n }, 'eip1559'],
    [{ to: TO, type: '0x2' }, 'eip1559'],
    [{ to: TO, authorizationList: [{ chainId: '0x1', contractAddress: TO, nonce: '0x0', r: '0x1', s: '0x1', v: 28 }] }, 'eip7702'],
  ] as const)('given %o, when it is read, then its type is %s (undefined: the chain decides)', (tx, type) => {
    expect(normalizeTransactionRequest(tx as never).type).toBe(type);
  });
});

describe('filling from the chain', () => {
  const base = (overrides = {}) => normalizeTransactionRequest({ to: TO, value: 5n, ...overrides });

  it("given a fee-market chain, when to and value are given, then the nonce is the pending count, gas the estimate, the tip the node's and the max fee 2 x base fee + tip", async () => {
    const rpc = node({
      eth_getTransactionCount: '0x7',
      eth_estimateGas: '0x5208',
      eth_getBlockByNumber: { baseFeePerGas: '0x64' },
      eth_maxPriorityFeePerGas: '0xa',
    });
    const tx = await prepareTransaction(base(), { from: FROM, chainId: 1n, rpc: () => rpc });
    expect(tx).toMatchObject({
      type: 'eip1559',
      chainId: 1n,
      nonce: 7n,
      gas: 21000n,
      maxPriorityFeePerGas: 10n,
      maxFeePerGas: 210n,
      value: 5n,
      accessList: [],
    });
  });

  it('given a node without eth_maxPriorityFeePerGas, when fees are filled, then the tip is the median reward of eth_feeHistory', async () => {
    const rpc = node({
      eth_getTransactionCount: '0x0',
      eth_estimateGas: '0x5208',
      eth_getBlockByNumber: { baseFeePerGas: '0x64' },
      eth_maxPriorityFeePerGas: () => {
        throw new WalletKitError('ERR_RPC', 'the method eth_maxPriorityFeePerGas does not exist');
      },
      eth_feeHistory: { reward: [['0x3']] },
    });
    const tx = await prepareTransaction(base(), { from: FROM, chainId: 1n, rpc: () => rpc });
    expect(tx).toMatchObject({ type: 'eip1559', maxPriorityFeePerGas: 3n, maxFeePerGas: 203n });
  });

  it('given a chain without a base fee, when the type is left open, then it is legacy at eth_gasPrice', async () => {
    const rpc = node({ eth_getTransactionCount: '0x1', eth_estimateGas: '0x5208', eth_getBlockByNumber: { baseFeePerGas: null }, eth_gasPrice: '0x3b9aca00' });
    const tx = await prepareTransaction(base(), { from: FROM, chainId: 56n, rpc: () => rpc });
    expect(tx).toMatchObject({ type: 'legacy', gasPrice: 1_000_000_000n, nonce: 1n });
    expect(tx.maxFeePerGas).toBeUndefined();
  });

  it('given a max fee below the suggested tip, when the tip is filled, then it is capped at the max fee', async () => {
    const rpc = node({
      eth_getTransactionCount: '0x0',
      eth_estimateGas: '0x5208',
      eth_getBlockByNumber: { baseFeePerGas: '0x1' },
      eth_maxPriorityFeePerGas: '0x64',
    });
    const tx = await prepareTransaction(base({ maxFeePerGas: 50n }), { from: FROM, chainId: 1n, rpc: () => rpc });
    expect(tx).toMatchObject({ maxFeePerGas: 50n, maxPriorityFeePerGas: 50n });
  });

  it('given a complete request, when it is prepared, then the chain is never asked', async () => {
    const tx = await prepareTransaction(base({ nonce: 3n, gas: 21000n, maxFeePerGas: 9n, maxPriorityFeePerGas: 1n }), {
      from: FROM,
      chainId: 10n,
      rpc: () => {
        throw new Error('no RPC expected');
      },
    });
    expect(tx).toMatchObject({ type: 'eip1559', chainId: 10n, nonce: 3n, gas: 21000n, maxFeePerGas: 9n, maxPriorityFeePerGas: 1n });
  });
});

describe('JSON-RPC client', () => {
  it("given a node error, when called, then ERR_RPC carries the node's message and its error object as cause", async () => {
    const rpc = createRpcClient(
      'http://node.invalid',
      async () => new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'nonce too low', data: '0x01' } })),
    );
    await expect(rpc.request('eth_sendRawTransaction', ['0x00'])).rejects.toMatchObject({
      code: 'ERR_RPC',
      message: 'nonce too low',
      cause: { code: -32000, message: 'nonce too low', data: '0x01' },
    });
  });

  it('given an unreachable node or a reply that is not JSON, when called, then ERR_RPC', async () => {
    const down = createRpcClient('http://node.invalid', async () => {
      throw new TypeError('fetch failed');
    });
    const html = createRpcClient('http://node.invalid', async () => new Response('<html>502</html>', { status: 502 }));
    await expect(down.request('eth_chainId')).rejects.toMatchObject({ code: 'ERR_RPC' });
    await expect(html.request('eth_chainId')).rejects.toMatchObject({ code: 'ERR_RPC', status: 502 });
  });
});
