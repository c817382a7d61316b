/**
 * Turnkey's own viem adapter against this server, unchanged: @turnkey/http's TurnkeyClient with
 * @turnkey/api-key-stamper's ApiKeyStamper (the organization's root API key) over real HTTP,
 * @turnkey/viem's createAccount, and a viem wallet client on a local Hardhat chain. What the
 * adapter sends (SIGN_RAW_PAYLOAD_V2 with HASH_FUNCTION_NO_OP for messages, typed data and
 * authorizations; SIGN_TRANSACTION_V2 without 0x) must come back in the shapes it parses.
 * Then the same adapter given @turnkey/sdk-server's `apiClient()` (a TurnkeyServerClient, whose
 * replies are flattened results) and only `signWith`: an address (used as is), or a private key
 * id, which makes the adapter look its address up with getPrivateKey.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, createPublicClient, http, parseEther, recoverMessageAddress, recoverTypedDataAddress, type Hex, type LocalAccount } from 'viem';
import { hardhat } from 'viem/chains';
import { recoverAuthorizationAddress } from 'viem/utils';
import { TurnkeyClient } from '@turnkey/http';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { Turnkey, type TurnkeyApiClient } from '@turnkey/sdk-server';
import { createAccount } from '@turnkey/viem';
import { startProxyServer, type ProxyTestServer } from '../support/proxy';
import { ETHER_MAIL_TYPED_DATA } from '../../../crypto/test/fixtures';
import { DEV_ACCOUNTS, fund, startLocalChain, type LocalChain } from '../support/chain';

const ETH = { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' } as const;
const RECIPIENT = DEV_ACCOUNTS[1].address;

/** The EIP-712 specification's Ether Mail example, on the local chain. */
const TYPED_DATA = { ...ETHER_MAIL_TYPED_DATA, domain: { ...ETHER_MAIL_TYPED_DATA.domain, chainId: 31337 } } as const;

describe('@turnkey/viem against this server (pglite, real HTTP, local chain)', () => {
  let server: ProxyTestServer;
  let chain: LocalChain;
  let address: Hex;
  let account: LocalAccount;

  beforeAll(async () => {
    [server, chain] = await Promise.all([startProxyServer('pglite'), startLocalChain()]);
    [address] = (await server.client.run('create_wallet', { walletName: 'Turnkey viem', accounts: [ETH] })).addresses as [Hex];
    await fund(chain, address, 10n ** 19n);
    // As Turnkey's docs build it: a TurnkeyClient stamping with an API key, pointed at our URL.
    const client = new TurnkeyClient(
      { baseUrl: server.url },
      new ApiKeyStamper({ apiPublicKey: server.org.apiKey.publicKey, apiPrivateKey: server.org.apiKey.privateKey }),
    );
    account = await createAccount({ client, organizationId: server.org.organizationId, signWith: address, ethereumAddress: address });
  }, 120_000);
  afterAll(async () => {
    await server?.dispose();
    await chain?.close();
  });

  const wallet = () => createWalletClient({ account, chain: hardhat, transport: http(chain.rpcUrl) });
  const rpc = () => createPublicClient({ chain: hardhat, transport: http(chain.rpcUrl) });

  it('given a personal message, when signed through @turnkey/viem, then it recovers to the account', async () => {
    const signature = await wallet().signMessage({ message: 'hello from turnkey viem' });
    expect(await recoverMessageAddress({ message: 'hello from turnkey viem', signature })).toBe(address);
  });

  it('given EIP-712 typed data, when signed through @turnkey/viem (EIP712 encoding, NO_OP), then it recovers to the account', async () => {
    const signature = await wallet().signTypedData(TYPED_DATA);
    expect(await recoverTypedDataAddress({ ...TYPED_DATA, signature })).toBe(address);
  });

  it('given an EIP-7702 authorization, when signed through @turnkey/viem (EIP7702 encoding, NO_OP), then its authority is the account', async () => {
    const authorization = await wallet().signAuthorization({ contractAddress: '0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B', chainId: 31337, nonce: 0 });
    expect(await recoverAuthorizationAddress({ authorization })).toBe(address);
  });

  it('given an EIP-1559 transfer, when sent through a viem wallet client with the @turnkey/viem account, then it is mined with status success and the recipient is paid', async () => {
    const before = await rpc().getBalance({ address: RECIPIENT });
    const hash = await wallet().sendTransaction({ to: RECIPIENT, value: parseEther('0.01') });
    const receipt = await rpc().waitForTransactionReceipt({ hash });
    expect(receipt).toMatchObject({ status: 'success', type: 'eip1559', from: address.toLowerCase() });
    expect(await rpc().getBalance({ address: RECIPIENT })).toBe(before + parseEther('0.01'));
  });

  it('given a legacy transaction, when signed by the @turnkey/viem account, then it is mined with status success', async () => {
    const request = await wallet().prepareTransactionRequest({ to: RECIPIENT, value: 1n, type: 'legacy' });
    const signed = await account.signTransaction!(request as never);
    const receipt = await rpc().waitForTransactionReceipt({ hash: await rpc().sendRawTransaction({ serializedTransaction: signed }) });
    expect(receipt).toMatchObject({ status: 'success', type: 'legacy' });
  });

  describe("given @turnkey/sdk-server's apiClient() and only signWith", () => {
    let api: TurnkeyApiClient;
    let sdkAddress: Hex;
    let sdkAccount: LocalAccount;
    const sdkWallet = () => createWalletClient({ account: sdkAccount, chain: hardhat, transport: http(chain.rpcUrl) });

    beforeAll(async () => {
      api = new Turnkey({
        apiBaseUrl: server.url,
        apiPublicKey: server.org.apiKey.publicKey,
        apiPrivateKey: server.org.apiKey.privateKey,
        defaultOrganizationId: server.org.organizationId,
      }).apiClient();
      [sdkAddress] = (await api.createWallet({ walletName: 'Turnkey viem (sdk-server)', accounts: [ETH] })).addresses as [Hex];
      await fund(chain, sdkAddress, 10n ** 19n);
      sdkAccount = await createAccount({ client: api, organizationId: server.org.organizationId, signWith: sdkAddress });
    });

    it('given signWith an address and no ethereumAddress, when the account is created, then its address is that one', () => {
      expect(sdkAccount.address).toBe(sdkAddress);
    });

    it('given a personal message, when signed through the TurnkeyServerClient, then it recovers to the account', async () => {
      const signature = await sdkWallet().signMessage({ message: 'hello from sdk-server' });
      expect(await recoverMessageAddress({ message: 'hello from sdk-server', signature })).toBe(sdkAddress);
    });

    it('given EIP-712 typed data, when signed through the TurnkeyServerClient, then it recovers to the account', async () => {
      const signature = await sdkWallet().signTypedData(TYPED_DATA);
      expect(await recoverTypedDataAddress({ ...TYPED_DATA, signature })).toBe(sdkAddress);
    });

    it('given an EIP-1559 transfer, when sent with the TurnkeyServerClient account, then it is mined with status success and the recipient is paid', async () => {
      const before = await rpc().getBalance({ address: RECIPIENT });
      const hash = await sdkWallet().sendTransaction({ to: RECIPIENT, value: parseEther('0.02') });
      const receipt = await rpc().waitForTransactionReceipt({ hash });
      expect(receipt).toMatchObject({ status: 'success', type: 'eip1559', from: sdkAddress.toLowerCase() });
      expect(await rpc().getBalance({ address: RECIPIENT })).toBe(before + parseEther('0.02'));
    });

    it('given signWith a private key id and no ethereumAddress, when the account is created, then the adapter looks the address up (get_private_key) and a transfer from it is mined', async () => {
      const { privateKeys } = await api.createPrivateKeys({
        privateKeys: [{ privateKeyName: 'Turnkey viem key', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] }],
      });
      const [{ privateKeyId, addresses }] = privateKeys as [{ privateKeyId: string; addresses: Array<{ format: string; address: string }> }];
      const keyAccount = await createAccount({ client: api, organizationId: server.org.organizationId, signWith: privateKeyId });
      expect(keyAccount.address).toBe(addresses[0]?.address);
      await fund(chain, keyAccount.address, 10n ** 18n);
      const hash = await createWalletClient({ account: keyAccount, chain: hardhat, transport: http(chain.rpcUrl) }).sendTransaction({
        to: RECIPIENT,
        value: 1n,
      });
      expect(await rpc().waitForTransactionReceipt({ hash })).toMatchObject({ status: 'success', from: keyAccount.address.toLowerCase() });
    });
  });
});
