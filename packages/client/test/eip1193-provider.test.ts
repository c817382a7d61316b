/**
 * The kit's EIP-1193 provider and transaction rules, against the real server and a local
 * Hardhat chain: the errors a dApp switches on (4001, 4100, 4200, 4902, -32602, the node's own),
 * the events, what the Confirmer is asked, how missing fields are filled, chain rules, and the
 * EIP-6963 announcement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEther, parseTransaction, recoverTransactionAddress, getAddress, type Address } from 'viem';
import type { ProxyTestServer } from '../../server/test/support/proxy';
import { announceProvider, createEthereumProvider, discoverWallets, walletKitProviderInfo, type Eip6963ProviderInfo, type WalletKitClient } from '../src/index';
import { freshEmail, kitFor, outboxCode, startServer } from './support/kit';
import {
  chainRpc,
  DEV_ACCOUNTS,
  fund,
  hardhatChain,
  loggedInKit,
  recordingConfirmer,
  startLocalChain,
  type LocalChain,
  type RecordingConfirmer,
} from './support/ethereum';

const RECIPIENT = DEV_ACCOUNTS[1].address;

describe('EIP-1193 provider and transaction rules', () => {
  let server: ProxyTestServer;
  let chain: LocalChain;
  let kit: WalletKitClient;
  let address: Address;
  let confirmer: RecordingConfirmer;

  const nonceOf = async (who: string) => BigInt(await chainRpc<string>(chain, 'eth_getTransactionCount', [who, 'latest']));
  const rejection = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.fail('expected a rejection'),
      (e: unknown) => e as { code: unknown; message: string; data?: unknown },
    );

  beforeAll(async () => {
    [server, chain] = await Promise.all([startServer(), startLocalChain()]);
    confirmer = recordingConfirmer();
    ({ kit, address } = await loggedInKit(server, { chains: [hardhatChain(chain)], confirm: confirmer.confirm }));
    await fund(chain, address, parseEther('10'));
  });
  afterAll(async () => {
    kit?.session.close();
    await Promise.all([server?.dispose(), chain?.close()]);
  });

  describe('errors', () => {
    it('given any session, when a dApp calls eth_sign, then it is refused with 4200 (raw-hash signing is never offered)', async () => {
      const provider = createEthereumProvider(kit);
      const error = await rejection(provider.request({ method: 'eth_sign', params: [address, `0x${'11'.repeat(32)}`] }));
      expect(error.code).toBe(4200);
    });

    it('given no session, when a dApp asks for accounts or a signature, then eth_accounts is empty and eth_requestAccounts and personal_sign are 4100', async () => {
      const loggedOut = kitFor(server, { chains: [hardhatChain(chain)] });
      const provider = createEthereumProvider(loggedOut);

      expect(await provider.request({ method: 'eth_accounts' })).toEqual([]);
      expect((await rejection(provider.request({ method: 'eth_requestAccounts' }))).code).toBe(4100);
      expect((await rejection(provider.request({ method: 'personal_sign', params: ['0x68690a', address] }))).code).toBe(4100);
      loggedOut.session.close();
    });

    it("given an address that is not the session's, when a dApp asks it to sign, then it is 4100 and nothing is confirmed", async () => {
      const asked = confirmer.requests.length;
      const error = await rejection(createEthereumProvider(kit).request({ method: 'personal_sign', params: ['hello', DEV_ACCOUNTS[0].address] }));
      expect(error.code).toBe(4100);
      expect(confirmer.requests.length).toBe(asked);
    });

    it('given a chain the kit does not know, when a dApp switches to it, then it is 4902 and the selected chain stays', async () => {
      const provider = createEthereumProvider(kit);
      const error = await rejection(provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] }));
      expect(error.code).toBe(4902);
      expect(await provider.request({ method: 'eth_chainId' })).toBe('0x7a69');
    });

    it('given a Confirmer that declines, when a dApp asks for a message signature or a transaction, then both are 4001 and no transaction reaches the chain', async () => {
      const provider = createEthereumProvider(kit);
      const nonce = await nonceOf(address);
      confirmer.decline = true;
      try {
        expect((await rejection(provider.request({ method: 'personal_sign', params: ['0x6869', address] }))).code).toBe(4001);
        expect((await rejection(provider.request({ method: 'eth_sendTransaction', params: [{ from: address, to: RECIPIENT, value: '0x1' }] }))).code).toBe(
          4001,
        );
      } finally {
        confirmer.decline = false;
      }
      expect(await nonceOf(address)).toBe(nonce);
    });

    it('given { confirm: false } on a call, when the kit signs, then the Confirmer is not asked (even one that declines)', async () => {
      confirmer.decline = true;
      const asked = confirmer.requests.length;
      try {
        const signature = await kit.wallet.signMessage({ address, message: 'headless', confirm: false });
        expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
      } finally {
        confirmer.decline = false;
      }
      expect(confirmer.requests.length).toBe(asked);
    });

    it('given a transaction for another chain than the selected one, when a dApp sends it, then it is -32602 (ERR_CHAIN_MISMATCH) before any confirmation', async () => {
      const asked = confirmer.requests.length;
      const error = await rejection(
        createEthereumProvider(kit).request({ method: 'eth_sendTransaction', params: [{ from: address, to: RECIPIENT, value: '0x1', chainId: '0x1' }] }),
      );
      expect(error).toMatchObject({ code: -32602, data: { walletKitCode: 'ERR_CHAIN_MISMATCH' } });
      await expect(kit.wallet.signTransaction({ address, transaction: { to: RECIPIENT, chainId: 1 } })).rejects.toMatchObject({ code: 'ERR_CHAIN_MISMATCH' });
      expect(confirmer.requests.length).toBe(asked);
    });

    it('given a chain without RPC, when the kit is asked to send on it, then it is ERR_CHAIN_NOT_CONFIGURED before any confirmation', async () => {
      const asked = confirmer.requests.length;
      await expect(
        kit.wallet.sendTransaction({
          address,
          chainId: 5,
          transaction: { to: RECIPIENT, value: 1n, gas: 21000n, nonce: 0n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n },
        }),
      ).rejects.toMatchObject({
        code: 'ERR_CHAIN_NOT_CONFIGURED',
      });
      await expect(kit.wallet.getBalance({ address, chainId: 5 })).rejects.toMatchObject({ code: 'ERR_CHAIN_NOT_CONFIGURED' });
      expect(confirmer.requests.length).toBe(asked);
    });

    it("given a payment above the balance, when it is sent, then the node's refusal comes back as ERR_RPC with its message (and as the node's code through the provider)", async () => {
      const tooMuch = parseEther('1000000');
      const kitError = await rejection(kit.wallet.sendTransaction({ address, transaction: { to: RECIPIENT, value: tooMuch }, confirm: false }));
      expect(kitError).toMatchObject({ code: 'ERR_RPC' });
      expect(kitError.message).toMatch(/enough funds|insufficient funds/i);
      const providerError = await rejection(
        createEthereumProvider(kit).request({ method: 'eth_sendTransaction', params: [{ from: address, to: RECIPIENT, value: `0x${tooMuch.toString(16)}` }] }),
      );
      expect(typeof providerError.code).toBe('number');
      expect(providerError.message).toBe(kitError.message);
    });
  });

  describe('filling and signing', () => {
    it('given only to and value, when the kit signs, then nonce, gas and EIP-1559 fees come from the chain and the transaction recovers to the account', async () => {
      const [pending, block, tip, gas] = await Promise.all([
        chainRpc<string>(chain, 'eth_getTransactionCount', [address, 'pending']),
        chainRpc<{ baseFeePerGas: string }>(chain, 'eth_getBlockByNumber', ['latest', false]),
        chainRpc<string>(chain, 'eth_maxPriorityFeePerGas'),
        chainRpc<string>(chain, 'eth_estimateGas', [{ from: address, to: RECIPIENT, value: '0x7', data: '0x' }]),
      ]);

      const signed = await kit.wallet.signTransaction({ address, transaction: { to: RECIPIENT, value: 7n }, confirm: false });

      expect(parseTransaction(signed as `0x${string}`)).toMatchObject({
        type: 'eip1559',
        chainId: 31337,
        nonce: Number(pending),
        gas: BigInt(gas),
        maxPriorityFeePerGas: BigInt(tip),
        maxFeePerGas: BigInt(block.baseFeePerGas) * 2n + BigInt(tip),
        value: 7n,
      });
      expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(getAddress(address));
    });

    it('given a legacy request, when the kit signs, then the gas price is eth_gasPrice and the signature carries EIP-155 for the chain', async () => {
      const gasPrice = BigInt(await chainRpc<string>(chain, 'eth_gasPrice'));
      const signed = await kit.wallet.signTransaction({ address, transaction: { to: RECIPIENT, value: 7n, type: 'legacy' }, confirm: false });
      const parsed = parseTransaction(signed as `0x${string}`);
      expect(parsed).toMatchObject({ type: 'legacy', chainId: 31337, gasPrice });
      expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(getAddress(address));
    });

    it('given eth_signTransaction, when the dApp asks, then the signed transaction recovers to the account and the Confirmer saw it once as not sent', async () => {
      const asked = confirmer.requests.length;
      const signed = (await createEthereumProvider(kit).request({
        method: 'eth_signTransaction',
        params: [{ from: address, to: RECIPIENT, value: '0x2a', gas: '0x5208' }],
      })) as `0x${string}`;
      expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(getAddress(address));
      expect(confirmer.requests.slice(asked)).toMatchObject([{ kind: 'transaction', send: false, transaction: { value: 42n, gas: 21000n } }]);
    });

    it('given a read method, when the dApp calls it, then the chain answers it and getBalance agrees with the chain', async () => {
      const provider = createEthereumProvider(kit);
      expect(await provider.request({ method: 'eth_blockNumber' })).toBe(await chainRpc<string>(chain, 'eth_blockNumber'));
      expect(await kit.wallet.getBalance({ address })).toBe(BigInt(await chainRpc<string>(chain, 'eth_getBalance', [address, 'latest'])));
    });
  });

  describe('events and chains', () => {
    it('given a listening dApp, when the user logs in and then out, then it hears connect and accountsChanged, then accountsChanged([]) and disconnect', async () => {
      const fresh = kitFor(server, { chains: [hardhatChain(chain)] });
      const provider = createEthereumProvider(fresh);
      const heard: Array<[string, unknown]> = [];
      for (const event of ['connect', 'accountsChanged', 'disconnect'] as const) provider.on(event, (value: unknown) => heard.push([event, value]));

      const email = freshEmail('events');
      const { otpId } = await fresh.auth.startEmailOtp(email);
      await fresh.auth.completeOtp({ otpId, code: await outboxCode(server.url, email) });
      const [account] = await fresh.wallet.listAccounts();
      await expect.poll(() => heard.length).toBe(2);
      expect(heard).toEqual([
        ['connect', { chainId: '0x7a69' }],
        ['accountsChanged', [account!.address]],
      ]);

      await fresh.session.logout();
      expect(heard.slice(2)).toMatchObject([
        ['accountsChanged', []],
        ['disconnect', { code: 4900 }],
      ]);
      fresh.session.close();
    });

    it('given a page that adds a chain, when it is added and the dApp switches back, then chainChanged follows each change and eth_chainId answers the selected chain; without rpcUrls the add is -32602', async () => {
      const provider = createEthereumProvider(kit);
      const changes: unknown[] = [];
      const onChange = (id: unknown) => changes.push(id);
      provider.on('chainChanged', onChange);

      expect((await rejection(provider.request({ method: 'wallet_addEthereumChain', params: [{ chainId: '0x539', chainName: 'Other' }] }))).code).toBe(-32602);
      await provider.request({
        method: 'wallet_addEthereumChain',
        params: [{ chainId: '0x539', chainName: 'Other', rpcUrls: [chain.rpcUrl], nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } }],
      });
      expect(await provider.request({ method: 'eth_chainId' })).toBe('0x539');
      expect(kit.chains.get(1337)).toMatchObject({ name: 'Other', rpcUrl: chain.rpcUrl });
      await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a69' }] });

      expect(changes).toEqual(['0x539', '0x7a69']);
      expect(await provider.request({ method: 'eth_chainId' })).toBe('0x7a69');
      provider.removeListener('chainChanged', onChange);
    });

    it("given the provider announced through EIP-6963, when a dApp requests providers, then it hears the info (uuid, name, data-URI icon, rdns) and the provider again, and the kit's own login discovery skips it", async () => {
      const window = new EventTarget();
      const provider = createEthereumProvider(kit);
      const heard: Array<{ info: Eip6963ProviderInfo; provider: unknown }> = [];
      window.addEventListener('eip6963:announceProvider', (event) => heard.push((event as CustomEvent).detail));

      const stop = announceProvider(provider, walletKitProviderInfo(), window);
      window.dispatchEvent(new Event('eip6963:requestProvider'));

      expect(heard).toHaveLength(2);
      expect(heard[1]!.provider).toBe(provider);
      expect(heard[0]!.info).toMatchObject({ name: 'WalletKit', rdns: 'dev.walletkit' });
      expect(heard[0]!.info.uuid).toMatch(/^[0-9a-f-]{36}$/);
      expect(heard[0]!.info.icon).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(Object.isFrozen(heard[0])).toBe(true);
      expect(await discoverWallets({ target: window, timeoutMs: 20 })).toEqual([]);
      expect(heard).toHaveLength(3);
      stop();
      window.dispatchEvent(new Event('eip6963:requestProvider'));
      expect(heard).toHaveLength(3);
    });
  });
});
