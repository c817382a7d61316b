/**
 * Issue 14's constraint: no CPU-bound crypto while a database transaction is open. A signature
 * (sign_raw_payloads, sign_transaction) opens no transaction at all; a new wallet's mnemonic,
 * derivation and sealing (create_wallet, create_sub_organization with a wallet) happen before
 * the activity's transaction begins. Observed on the real runner: the store's transaction and
 * the enclave's wallet and signing work are wrapped to record whether one ran inside the other
 * (support/transaction-watch.ts). The one-time codes' part: otp-crypto-before-transaction.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateP256KeyPair, generateSecp256k1KeyPair, hexToBytes, hpkeSeal, utf8ToBytes, verifyBundle } from '@walletkit/crypto';
import { privateKeyToAccount } from 'viem/accounts';
import { startTestServer, type TestServer } from './support/harness';
import { type TransactionWatch, watchTransactions } from './support/transaction-watch';
import { storeKinds } from './support/stores';

const ETH = { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' } as const;

describe.each(storeKinds)('crypto outside transactions on %s', (kind) => {
  let server: TestServer;
  let watch: TransactionWatch;

  beforeAll(async () => {
    server = await startTestServer(kind);
    watch = watchTransactions(server, ['createWallet', 'signMessages', 'deriveWalletAccounts', 'importWallet', 'createPrivateKey', 'importPrivateKey']);
  });
  afterAll(() => server?.dispose());

  it('given create_wallet, a sub-organization with a wallet and signatures, when run, then every wallet generation ran before its transaction and no signature opened a transaction', async () => {
    const { addresses } = await server.client.run('create_wallet', { walletName: 'outside', accounts: [ETH] });
    await server.client.run('create_sub_organization', {
      subOrganizationName: 'with wallet',
      rootUsers: [
        {
          userName: 'root',
          apiKeys: [{ apiKeyName: 'k', publicKey: generateP256KeyPair().publicKey, curveType: 'API_KEY_CURVE_P256' }],
          authenticators: [],
          oauthProviders: [],
        },
      ],
      rootQuorumThreshold: 1,
      wallet: { walletName: 'main', accounts: [ETH] },
    } as never);
    const before = watch.begun;
    for (let i = 0; i < 3; i += 1) {
      await server.client.run('sign_raw_payloads', {
        signWith: addresses[0],
        payloads: [`outside ${i}`],
        encoding: 'PAYLOAD_ENCODING_TEXT_UTF8',
        hashFunction: 'HASH_FUNCTION_KECCAK256',
      } as never);
    }

    expect(watch.begun).toBe(before);
    expect(watch.calls.filter((c) => c.what === 'createWallet')).toEqual([
      { what: 'createWallet', inTransaction: false },
      { what: 'createWallet', inTransaction: false },
    ]);
    expect(watch.calls.filter((c) => c.what === 'signMessages')).toEqual(Array(3).fill({ what: 'signMessages', inTransaction: false }));
  });

  /** `plaintext` encrypted to the user's import target, as a client does after checking the bundle. */
  async function encryptToImportTarget(op: 'init_import_wallet' | 'init_import_private_key', plaintext: Uint8Array): Promise<string> {
    const { importBundle } = await server.client.run(op, { userId: server.org.userId });
    const { targetPublic } = verifyBundle<{ targetPublic: string }>(importBundle, server.enclave.signingPublicKey);
    return JSON.stringify(await hpkeSeal({ plaintext, receiverPublicKey: targetPublic }));
  }

  it('given an imported wallet, more accounts of it, new keys and an imported key, when run, then each enclave call ran before its transaction and gave the expected addresses', async () => {
    const mnemonic = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
    const walletBundle = await encryptToImportTarget('init_import_wallet', utf8ToBytes(mnemonic));
    const secp = generateSecp256k1KeyPair();
    const keyBundle = await encryptToImportTarget('init_import_private_key', hexToBytes(secp.privateKey));
    watch.calls.length = 0;

    const { walletId, addresses } = await server.client.run('import_wallet', {
      userId: server.org.userId,
      walletName: 'imported',
      encryptedBundle: walletBundle,
      accounts: [ETH],
    });
    expect(addresses).toEqual(['0x9858EfFD232B4033E47d90003D41EC34EcaEda94']);
    const more = await server.client.run('create_wallet_accounts', { walletId, accounts: [{ ...ETH, path: "m/44'/60'/0'/0/1" }, ETH] });
    expect(more.addresses).toEqual(['0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0', '0x9858EfFD232B4033E47d90003D41EC34EcaEda94']);
    const created = await server.client.run('create_private_keys', {
      privateKeys: [
        { privateKeyName: 'new 1', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] },
        { privateKeyName: 'new 2', curve: 'CURVE_ED25519', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_SOLANA'] },
      ],
    });
    expect(created.privateKeys.map((k) => k.addresses[0]!.format)).toEqual(['ADDRESS_FORMAT_ETHEREUM', 'ADDRESS_FORMAT_SOLANA']);
    expect(new Set(created.privateKeys.map((k) => k.addresses[0]!.address)).size).toBe(2);
    const imported = await server.client.run('import_private_key', {
      userId: server.org.userId,
      privateKeyName: 'imported key',
      encryptedBundle: keyBundle,
      curve: 'CURVE_SECP256K1',
      addressFormats: ['ADDRESS_FORMAT_ETHEREUM'],
    });
    expect(imported.addresses).toEqual([{ format: 'ADDRESS_FORMAT_ETHEREUM', address: privateKeyToAccount(`0x${secp.privateKey}`).address }]);

    expect(watch.calls).toEqual([
      { what: 'importWallet', inTransaction: false },
      // The import derives its accounts from the mnemonic it sealed, as for a stored wallet.
      { what: 'deriveWalletAccounts', inTransaction: false },
      { what: 'deriveWalletAccounts', inTransaction: false },
      { what: 'createPrivateKey', inTransaction: false },
      { what: 'createPrivateKey', inTransaction: false },
      { what: 'importPrivateKey', inTransaction: false },
    ]);
  });
});
