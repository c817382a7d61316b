/**
 * The kit in the libraries dApps already use, against the real server and a local Hardhat
 * chain: ethers v6 through `BrowserProvider` over the kit's EIP-1193 provider, and wagmi
 * through the kit's connector (`@walletkit/client/wagmi`). Signatures are verified by the
 * library itself; transactions are mined and their value arrives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BrowserProvider,
  Transaction as EthersTransaction,
  getAddress as ethersAddress,
  parseEther as ethersParseEther,
  verifyMessage as ethersVerifyMessage,
  verifyTypedData as ethersVerifyTypedData,
  verifyAuthorization as ethersVerifyAuthorization,
} from 'ethers';
import { connect, createConfig, disconnect, getAccount, sendTransaction, signMessage, waitForTransactionReceipt } from '@wagmi/core';
import { defineChain, getAddress, http, parseEther, verifyMessage, type Address } from 'viem';
import type { ProxyTestServer } from '../../server/test/support/proxy';
import { ETHER_MAIL_TYPED_DATA } from '../../crypto/test/fixtures';
import { createEthereumProvider, type WalletKitClient } from '../src/index';
import { walletKit } from '../src/wagmi';
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

const RECIPIENT = DEV_ACCOUNTS[2].address;

describe('ethers v6 and wagmi over the kit', () => {
  let server: ProxyTestServer;
  let chain: LocalChain;
  let kit: WalletKitClient;
  let address: Address;
  let confirmer: RecordingConfirmer;

  const balanceOf = async (who: string) => BigInt(await chainRpc<string>(chain, 'eth_getBalance', [who, 'latest']));
  const wagmiConfig = (connectorKit: WalletKitClient, onLoginRequired?: () => Promise<unknown>) => {
    const hardhat = defineChain({
      id: chain.chainId,
      name: 'Hardhat',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [chain.rpcUrl] } },
    });
    return createConfig({
      chains: [hardhat],
      connectors: [walletKit(connectorKit, onLoginRequired ? { onLoginRequired } : {})],
      transports: { [hardhat.id]: http(chain.rpcUrl) },
      storage: null,
    });
  };

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

  describe('ethers BrowserProvider', () => {
    const signer = () => new BrowserProvider(createEthereumProvider(kit), undefined, { pollingInterval: 100 }).getSigner();

    it('given the provider, when ethers asks for a signer, then it is the session account', async () => {
      expect(await (await signer()).getAddress()).toBe(ethersAddress(address));
    });

    it('given a text message, when the signer signs it, then ethers.verifyMessage recovers the account', async () => {
      const signature = await (await signer()).signMessage('hello from ethers');
      expect(ethersVerifyMessage('hello from ethers', signature)).toBe(ethersAddress(address));
    });

    it('given EIP-712 typed data, when the signer signs it, then ethers.verifyTypedData recovers the account', async () => {
      const { domain, types, message } = ETHER_MAIL_TYPED_DATA;
      const plainTypes = JSON.parse(JSON.stringify(types)) as Record<string, Array<{ name: string; type: string }>>;
      const signature = await (await signer()).signTypedData(domain, plainTypes, message);
      expect(ethersVerifyTypedData(domain, plainTypes, message, signature)).toBe(ethersAddress(address));
    });

    it.each([
      ['legacy', 0],
      ['EIP-1559', 2],
    ] as const)(
      "given a %s transaction, when the ethers signer signs it, then ethers recovers the account from the signed bytes and the chain id is the kit's",
      async (_name, type) => {
        const signed = await (await signer()).signTransaction({ to: RECIPIENT, value: 1n, type });
        const parsed = EthersTransaction.from(signed);
        expect(parsed.type).toBe(type);
        expect(parsed.chainId).toBe(31337n);
        expect(parsed.from).toBe(ethersAddress(address));
      },
    );

    it('given a payment, when the signer sends it, then it is mined with status 1, the recipient received it, and the one confirmation showed from, to, value, chain and fee', async () => {
      const before = await balanceOf(RECIPIENT);
      const asked = confirmer.requests.length;

      const tx = await (await signer()).sendTransaction({ to: RECIPIENT, value: ethersParseEther('0.02') });
      const receipt = await tx.wait();

      expect(receipt?.status).toBe(1);
      expect(await balanceOf(RECIPIENT)).toBe(before + parseEther('0.02'));
      const requests = confirmer.requests.slice(asked);
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatchObject({
        kind: 'transaction',
        address,
        send: true,
        chain: { id: 31337, name: 'Hardhat', nativeCurrency: { symbol: 'ETH' } },
        transaction: { chainId: 31337, to: RECIPIENT.toLowerCase(), value: parseEther('0.02') },
      });
      const request = requests[0]!;
      if (request.kind !== 'transaction') throw new Error('not a transaction');
      expect(request.maxFee).toBe(request.transaction.gas * (request.transaction.maxFeePerGas ?? request.transaction.gasPrice!));
    });
  });

  describe('ethers and EIP-7702', () => {
    it('given an authorization signed by the kit, when ethers verifies it and sends a type-4 transaction carrying it through the provider, then ethers recovers the account, the receipt is a success and the account delegates to the contract', async () => {
      const delegate = '0x63c0c19a282a1b52b07dd5a65b58948a07dae32b';
      // The account is its own sender: the authorization's nonce is the one after the transaction's.
      const nonce = BigInt(await chainRpc<string>(chain, 'eth_getTransactionCount', [address, 'pending'])) + 1n;
      const signed = await kit.wallet.signAuthorization({ address, authorization: { chainId: chain.chainId, address: delegate, nonce } });
      const authorization = { address: delegate, nonce, chainId: BigInt(chain.chainId), signature: { r: signed.r, s: signed.s, yParity: signed.yParity } };
      expect(ethersVerifyAuthorization({ address: delegate, nonce, chainId: BigInt(chain.chainId) }, authorization.signature)).toBe(ethersAddress(address));

      const signer = await new BrowserProvider(createEthereumProvider(kit), undefined, { pollingInterval: 100 }).getSigner();
      const tx = await signer.sendTransaction({ type: 4, to: address, authorizationList: [authorization] });
      const receipt = await tx.wait();

      expect(receipt?.status).toBe(1);
      expect(EthersTransaction.from((await signer.provider.getTransaction(tx.hash))!).type).toBe(4);
      expect(await chainRpc<string>(chain, 'eth_getCode', [address, 'latest'])).toBe(`0xef0100${delegate.slice(2)}`);
    });
  });

  describe('wagmi connector', () => {
    it('given a logged-in kit, when wagmi connects, sends 0.01 ETH and signs a message, then the receipt is a success, the recipient received it and the signature verifies', async () => {
      const config = wagmiConfig(kit);
      const connection = await connect(config, { connector: config.connectors[0]! });
      expect(connection.accounts.map((a) => getAddress(a))).toEqual([getAddress(address)]);
      expect(connection.chainId).toBe(31337);
      const before = await balanceOf(RECIPIENT);
      const asked = confirmer.requests.length;

      const hash = await sendTransaction(config, { to: RECIPIENT, value: parseEther('0.01') });
      const receipt = await waitForTransactionReceipt(config, { hash });
      const signature = await signMessage(config, { message: 'hello from wagmi' });

      expect(receipt.status).toBe('success');
      expect(await balanceOf(RECIPIENT)).toBe(before + parseEther('0.01'));
      expect(await verifyMessage({ address, message: 'hello from wagmi', signature })).toBe(true);
      expect(confirmer.requests.slice(asked)).toMatchObject([
        { kind: 'transaction', send: true, transaction: { to: RECIPIENT.toLowerCase(), value: parseEther('0.01') } },
        { kind: 'message', family: 'ethereum', message: 'hello from wagmi' },
      ]);
      await disconnect(config);
      expect(getAccount(config).status).toBe('disconnected');
    });

    it('given a logged-out kit and no onLoginRequired, when wagmi connects, then it rejects with ERR_NO_SESSION and stays disconnected', async () => {
      const loggedOut = kitFor(server, { chains: [hardhatChain(chain)] });
      const config = wagmiConfig(loggedOut);

      await expect(connect(config, { connector: config.connectors[0]! })).rejects.toMatchObject({ code: 'ERR_NO_SESSION' });
      expect(getAccount(config).status).toBe('disconnected');
      loggedOut.session.close();
    });

    it('given a logged-out kit with onLoginRequired, when wagmi connects, then the login runs and wagmi is connected to the new account; a logout in the kit then disconnects wagmi', async () => {
      const fresh = kitFor(server, { chains: [hardhatChain(chain)] });
      const login = async () => {
        const email = freshEmail('wagmi');
        const { otpId } = await fresh.auth.startEmailOtp(email);
        await fresh.auth.completeOtp({ otpId, code: await outboxCode(server.url, email) });
      };
      const config = wagmiConfig(fresh, login);

      const connection = await connect(config, { connector: config.connectors[0]! });
      const [account] = await fresh.wallet.listAccounts();
      expect(connection.accounts.map((a) => getAddress(a))).toEqual([getAddress(account!.address)]);
      expect(getAccount(config).status).toBe('connected');

      await fresh.session.logout();
      await expect.poll(() => getAccount(config).status).toBe('disconnected');
      fresh.session.close();
    });
  });
});
