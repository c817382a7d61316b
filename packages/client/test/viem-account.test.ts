/**
 * `@walletkit/client/viem`: a session account as a viem LocalAccount, against the real server
 * and a local Hardhat chain (Prague). Every signature is checked by viem itself (recovery,
 * verification) and every transaction is mined.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  http,
  parseEther,
  parseTransaction,
  recoverTransactionAddress,
  verifyMessage,
  verifyTypedData,
  type Address,
  type LocalAccount,
} from 'viem';
import { recoverAuthorizationAddress } from 'viem/utils';
import type { ProxyTestServer } from '../../server/test/support/proxy';
import { ETHER_MAIL_TYPED_DATA } from '../../crypto/test/fixtures';
import type { SignatureRequest, WalletKitClient } from '../src/index';
import { toViemAccount } from '../src/viem';
import { startServer } from './support/kit';
import {
  DEV_ACCOUNTS,
  fund,
  hardhatChain,
  loggedInKit,
  recordingConfirmer,
  startLocalChain,
  type LocalChain,
  type RecordingConfirmer,
} from './support/ethereum';

/** The contract an EIP-7702 authorization delegates to (any address: the test reads the delegation back). */
const DELEGATE = '0x63c0c19a282a1b52b07dd5a65b58948a07dae32b';
const RECIPIENT = DEV_ACCOUNTS[1].address;

describe('viem LocalAccount of a session account', () => {
  let server: ProxyTestServer;
  let chain: LocalChain;
  let kit: WalletKitClient;
  let address: Address;
  let confirmer: RecordingConfirmer;
  let account: LocalAccount;

  const clients = () => {
    const viemChain = defineChain({
      id: chain.chainId,
      name: 'Hardhat',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [chain.rpcUrl] } },
    });
    return {
      wallet: createWalletClient({ account, chain: viemChain, transport: http(chain.rpcUrl) }),
      public: createPublicClient({ chain: viemChain, transport: http(chain.rpcUrl) }),
    };
  };
  const lastRequest = (): SignatureRequest => confirmer.requests.at(-1)!;

  beforeAll(async () => {
    [server, chain] = await Promise.all([startServer(), startLocalChain()]);
    confirmer = recordingConfirmer();
    ({ kit, address } = await loggedInKit(server, { chains: [hardhatChain(chain)], confirm: confirmer.confirm }));
    account = toViemAccount(kit, address);
    await fund(chain, address, parseEther('10'));
  });
  afterAll(async () => {
    kit?.session.close();
    await Promise.all([server?.dispose(), chain?.close()]);
  });

  it('given a text and a raw message, when the account signs them, then viem verifies both against the address and each was confirmed once as an Ethereum message', async () => {
    const before = confirmer.requests.length;
    const text = await account.signMessage({ message: 'hello walletkit' });
    const raw = await account.signMessage({ message: { raw: '0xdeadbeef' } });

    expect(await verifyMessage({ address, message: 'hello walletkit', signature: text })).toBe(true);
    expect(await verifyMessage({ address, message: { raw: '0xdeadbeef' }, signature: raw })).toBe(true);
    expect(confirmer.requests.slice(before)).toMatchObject([
      { kind: 'message', family: 'ethereum', address, message: 'hello walletkit' },
      { kind: 'message', family: 'ethereum', address, message: Uint8Array.from([0xde, 0xad, 0xbe, 0xef]) },
    ]);
  });

  it('given EIP-712 typed data, when the account signs it, then viem verifies it and the confirmation carried the typed data', async () => {
    const signature = await account.signTypedData(ETHER_MAIL_TYPED_DATA);

    expect(await verifyTypedData({ ...ETHER_MAIL_TYPED_DATA, address, signature })).toBe(true);
    expect(lastRequest()).toMatchObject({ kind: 'typedData', address, typedData: { primaryType: 'Mail' } });
  });

  it('given a legacy transaction prepared by viem, when the account signs it, then it recovers to the account, carries EIP-155 replay protection and is mined with the value delivered', async () => {
    const { wallet, public: reader } = clients();
    const request = await wallet.prepareTransactionRequest({ to: RECIPIENT, value: 12345n, type: 'legacy' });
    const balanceBefore = await reader.getBalance({ address: RECIPIENT });

    const signed = await account.signTransaction(request);

    expect(parseTransaction(signed)).toMatchObject({ type: 'legacy', chainId: 31337, to: RECIPIENT.toLowerCase(), value: 12345n });
    expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(getAddress(address));
    expect(lastRequest()).toMatchObject({
      kind: 'transaction',
      address,
      send: false,
      chain: { id: 31337, name: 'Hardhat' },
      transaction: { type: 'legacy', to: RECIPIENT.toLowerCase(), value: 12345n },
    });
    const receipt = await reader.waitForTransactionReceipt({ hash: await wallet.sendRawTransaction({ serializedTransaction: signed }) });
    expect(receipt.status).toBe('success');
    expect(await reader.getBalance({ address: RECIPIENT })).toBe(balanceBefore + 12345n);
  });

  it('given an EIP-1559 payment, when viem sends it through the account, then the signed transaction recovers to the account and the receipt is a success', async () => {
    const { wallet, public: reader } = clients();
    const before = confirmer.requests.length;

    const hash = await wallet.sendTransaction({ to: RECIPIENT, value: parseEther('0.01') });

    const receipt = await reader.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const mined = await reader.getTransaction({ hash });
    expect(mined.type).toBe('eip1559');
    expect(getAddress(mined.from)).toBe(getAddress(address));
    const requests = confirmer.requests.slice(before);
    expect(requests).toHaveLength(1);
    const request = requests[0]!;
    if (request.kind !== 'transaction') throw new Error('not a transaction');
    expect(request.transaction).toMatchObject({ type: 'eip1559', chainId: 31337, value: parseEther('0.01'), to: RECIPIENT.toLowerCase() });
    expect(request.maxFee).toBe(request.transaction.gas * request.transaction.maxFeePerGas!);
    expect(request.maxFee).toBeGreaterThan(0n);
  });

  it('given an EIP-7702 authorization signed by the account, when a transaction carrying it is mined, then the authorization recovers to the account and the account now delegates to the contract', async () => {
    const { wallet, public: reader } = clients();

    const authorization = await wallet.signAuthorization({ account, contractAddress: DELEGATE, executor: 'self' });
    expect(lastRequest()).toMatchObject({ kind: 'authorization', address, authorization: { chainId: 31337, address: DELEGATE } });
    expect(await recoverAuthorizationAddress({ authorization })).toBe(getAddress(address));

    const hash = await wallet.sendTransaction({ authorizationList: [authorization], to: address, data: '0x' });
    const receipt = await reader.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect((await reader.getTransaction({ hash })).type).toBe('eip7702');
    expect(await reader.getCode({ address })).toBe(`0xef0100${DELEGATE.slice(2)}`);
  });

  it('given an account created with { confirm: false }, when it signs, then no confirmation is asked and the signature still verifies', async () => {
    const headless = toViemAccount(kit, address, { confirm: false });
    const before = confirmer.requests.length;

    const signature = await headless.signMessage({ message: 'headless' });

    expect(await verifyMessage({ address, message: 'headless', signature })).toBe(true);
    expect(confirmer.requests.length).toBe(before);
  });
});
