/**
 * Issue 14's constraint: no CPU-bound crypto while a database transaction is open. A signature
 * (sign_raw_payloads, sign_transaction) opens no transaction at all; a new wallet's mnemonic,
 * derivation and sealing (create_wallet, create_sub_organization with a wallet) happen before
 * the activity's transaction begins. Observed on the real runner: the store's transaction and
 * the enclave's wallet and signing work are wrapped to record whether one ran inside the other
 * (support/transaction-watch.ts). The one-time codes' part: otp-crypto-before-transaction.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateP256KeyPair } from '@walletkit/crypto';
import { startTestServer, type TestServer } from './support/harness';
import { type TransactionWatch, watchTransactions } from './support/transaction-watch';
import { storeKinds } from './support/stores';

const ETH = { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' } as const;

describe.each(storeKinds)('crypto outside transactions on %s', (kind) => {
  let server: TestServer;
  let watch: TransactionWatch;

  beforeAll(async () => {
    server = await startTestServer(kind);
    watch = watchTransactions(server, ['createWallet', 'signMessages']);
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
});
