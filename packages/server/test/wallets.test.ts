/**
 * HD wallets through the HTTP layer: accounts derive from the wallet's own seed (proved by
 * exporting the mnemonic and re-deriving with viem), create_wallet_accounts with and without
 * persist, curve/format checks, the read endpoints (get_wallet_account by address or path), and
 * organization scoping.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mnemonicToAccount } from 'viem/accounts';
import { bytesToUtf8, checksumAddress, deriveAccount, generateP256KeyPair, hpkeOpen, mnemonicToSeed, verifyBundle } from '@walletkit/crypto';
import { createOrganization } from '../src/admin/organizations';
import { startTestServer, type ActivityClient, type TestServer } from './support/harness';
import { expectError } from './support/members';
import { storeKinds } from './support/stores';

const ETH = (index: number) => ({
  curve: 'CURVE_SECP256K1' as const,
  pathFormat: 'PATH_FORMAT_BIP32' as const,
  path: `m/44'/60'/0'/0/${index}`,
  addressFormat: 'ADDRESS_FORMAT_ETHEREUM' as const,
});
const SOLANA = (index: number) => ({
  curve: 'CURVE_ED25519' as const,
  pathFormat: 'PATH_FORMAT_BIP32' as const,
  path: `m/44'/501'/${index}'/0'`,
  addressFormat: 'ADDRESS_FORMAT_SOLANA' as const,
});

/** Export a wallet to a fresh target key and open the bundle as a client would. */
async function exportMnemonic(server: TestServer, client: ActivityClient, walletId: string): Promise<string> {
  const target = generateP256KeyPair();
  const { exportBundle } = await client.run('export_wallet', { walletId, targetPublicKey: target.publicKeyUncompressed });
  const data = verifyBundle<{ encappedPublic: string; ciphertext: string; organizationId: string }>(exportBundle, server.enclave.signingPublicKey);
  expect(data.organizationId).toBe(client.organizationId);
  return bytesToUtf8(await hpkeOpen({ ...data, receiverPrivateKey: target.privateKey }));
}

describe.each(storeKinds)('wallets: %s', (kind) => {
  let server: TestServer;
  let client: ActivityClient;
  let other: ActivityClient;

  beforeAll(async () => {
    server = await startTestServer(kind);
    client = server.client;
    const org = await createOrganization(server.store, { name: 'Other Org' });
    other = client.with({ key: org.apiKey, organizationId: org.organizationId });
  });
  afterAll(() => server?.dispose());

  it('given create_wallet with Ethereum and Solana accounts, when the mnemonic is exported, then it derives the same addresses', async () => {
    const { walletId, addresses } = await client.run('create_wallet', { walletName: 'Main', accounts: [ETH(0), ETH(1), SOLANA(0)] });
    expect(addresses).toHaveLength(3);
    const mnemonic = await exportMnemonic(server, client, walletId);
    expect(mnemonic.split(' ')).toHaveLength(12); // default mnemonicLength
    expect(addresses[0]).toBe(mnemonicToAccount(mnemonic, { addressIndex: 0 }).address);
    expect(addresses[1]).toBe(mnemonicToAccount(mnemonic, { addressIndex: 1 }).address);
    const solana = deriveAccount({ seed: mnemonicToSeed(mnemonic), curve: 'CURVE_ED25519', path: SOLANA(0).path, addressFormat: 'ADDRESS_FORMAT_SOLANA' });
    expect(addresses[2]).toBe(solana.address);

    const accounts = await client.query('list_wallet_accounts', { walletId });
    expect(accounts.status).toBe(200);
    expect(accounts.body.accounts.map((a: { address: string }) => a.address)).toEqual(addresses);
    expect(accounts.body.accounts[0]).toMatchObject({ walletId, organizationId: client.organizationId, path: "m/44'/60'/0'/0/0", curve: 'CURVE_SECP256K1' });
    const wallet = await client.query('get_wallet', { walletId });
    expect(wallet.body.wallet).toMatchObject({ walletId, walletName: 'Main', exported: true, imported: false });
  });

  it('given mnemonicLength 24, when the wallet is created, then its mnemonic has 24 words', async () => {
    const { walletId, addresses } = await client.run('create_wallet', { walletName: 'Long', accounts: [], mnemonicLength: 24 });
    expect(addresses).toEqual([]);
    expect((await exportMnemonic(server, client, walletId)).split(' ')).toHaveLength(24);
  });

  it('given persist false, when accounts are created, then addresses are derived but not stored', async () => {
    const { walletId } = await client.run('create_wallet', { walletName: 'Ephemeral', accounts: [ETH(0)] });
    const { addresses } = await client.run('create_wallet_accounts', { walletId, accounts: [ETH(5), SOLANA(5)], persist: false });
    const mnemonic = await exportMnemonic(server, client, walletId);
    expect(addresses[0]).toBe(mnemonicToAccount(mnemonic, { addressIndex: 5 }).address);
    const listed = await client.query('list_wallet_accounts', { walletId });
    expect(listed.body.accounts).toHaveLength(1);
  });

  it('given an existing account, when it is requested again, then its address is returned and no duplicate is stored', async () => {
    const { walletId, addresses } = await client.run('create_wallet', { walletName: 'Repeat', accounts: [ETH(0)] });
    const again = await client.run('create_wallet_accounts', { walletId, accounts: [ETH(0), ETH(2), ETH(2)] });
    expect(again.addresses[0]).toBe(addresses[0]);
    expect(again.addresses[1]).toBe(again.addresses[2]);
    const listed = await client.query('list_wallet_accounts', { walletId, includeWalletDetails: true });
    expect(listed.body.accounts.map((a: { path: string }) => a.path)).toEqual(["m/44'/60'/0'/0/0", "m/44'/60'/0'/0/2"]);
    expect(listed.body.accounts[0].walletDetails).toMatchObject({ walletId, walletName: 'Repeat' });
  });

  it('given more accounts than a page, when listed with limit and cursors, then pages follow creation order', async () => {
    const { walletId } = await client.run('create_wallet', { walletName: 'Paged', accounts: [0, 1, 2, 3, 4].map(ETH) });
    const all = (await client.query('list_wallet_accounts', { walletId })).body.accounts as Array<{ walletAccountId: string; path: string }>;
    expect(all.map((a) => a.path)).toEqual([0, 1, 2, 3, 4].map((i) => ETH(i).path));
    const first = (await client.query('list_wallet_accounts', { walletId, paginationOptions: { limit: '2' } })).body.accounts;
    expect(first.map((a: { path: string }) => a.path)).toEqual([ETH(0).path, ETH(1).path]);
    const next = (await client.query('list_wallet_accounts', { walletId, paginationOptions: { limit: '2', after: all[1]!.walletAccountId } })).body.accounts;
    expect(next.map((a: { path: string }) => a.path)).toEqual([ETH(2).path, ETH(3).path]);
    const previous = (await client.query('list_wallet_accounts', { walletId, paginationOptions: { limit: '2', before: all[4]!.walletAccountId } })).body
      .accounts;
    expect(previous.map((a: { path: string }) => a.path)).toEqual([ETH(2).path, ETH(3).path]);
  });

  it('given an account address, its path or both, when get_wallet_account is queried, then it returns that one account', async () => {
    const { walletId, addresses } = await client.run('create_wallet', { walletName: 'One account', accounts: [ETH(0), ETH(1), SOLANA(0)] });
    const [eth0, eth1, sol] = addresses as [string, string, string];
    const get = async (request: { address?: string; path?: string }) => {
      const reply = await client.query('get_wallet_account', { walletId, ...request });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return reply.body.account;
    };
    const listed = (await client.query('list_wallet_accounts', { walletId })).body.accounts;
    expect(await get({ address: eth1 })).toEqual(listed[1]);
    expect(await get({ address: eth1.toLowerCase() })).toEqual(listed[1]);
    expect(await get({ path: ETH(0).path })).toMatchObject({ walletId, organizationId: client.organizationId, address: eth0, curve: 'CURVE_SECP256K1' });
    expect(await get({ address: sol, path: SOLANA(0).path })).toMatchObject({ address: sol, addressFormat: 'ADDRESS_FORMAT_SOLANA' });
    expect(Object.keys(await get({ address: eth0 })).sort()).toEqual(Object.keys(listed[0]).sort());
  });

  it('given no account matching, a wallet of nobody or bad input, when get_wallet_account is queried, then it is a 4xx with a stable code', async () => {
    const { walletId, addresses } = await client.run('create_wallet', { walletName: 'Lookups', accounts: [ETH(0)] });
    const other = checksumAddress(`0x${'ab'.repeat(20)}`);
    expectError(await client.query('get_wallet_account', { walletId, address: other }), 404, 'ERR_WALLET_ACCOUNT_NOT_FOUND', 'address');
    expectError(await client.query('get_wallet_account', { walletId, path: ETH(9).path }), 404, 'ERR_WALLET_ACCOUNT_NOT_FOUND', 'path');
    expectError(await client.query('get_wallet_account', { walletId, address: addresses[0]!, path: ETH(1).path }), 404, 'ERR_WALLET_ACCOUNT_NOT_FOUND');
    expectError(await client.query('get_wallet_account', { walletId: randomUUID(), address: addresses[0]! }), 404, 'ERR_WALLET_NOT_FOUND', 'walletId');
    expectError(await client.query('get_wallet_account', { walletId }), 400, 'ERR_INVALID_PARAMETER', 'address');
    expectError(await client.query('get_wallet_account', { walletId, address: '' }), 400, 'ERR_INVALID_REQUEST');
    expectError(await client.query('get_wallet_account', { walletId, path: 'x'.repeat(257) }), 400, 'ERR_INVALID_REQUEST');
    expectError(await client.query('get_wallet_account', { address: addresses[0]! } as never), 400, 'ERR_INVALID_REQUEST');
    expectError(await client.query('get_wallet_account', { walletId, address: addresses[0]!, index: 0 } as never), 400, 'ERR_INVALID_REQUEST');
    expectError(await client.query('get_wallet_account', { walletId, address: 42 } as never), 400, 'ERR_INVALID_REQUEST');
  });

  it.each([
    ['ed25519 with an Ethereum address', { ...SOLANA(0), addressFormat: 'ADDRESS_FORMAT_ETHEREUM' as const }, 'ERR_UNSUPPORTED_CURVE_FORMAT'],
    ['secp256k1 with a Solana address', { ...ETH(0), addressFormat: 'ADDRESS_FORMAT_SOLANA' as const }, 'ERR_UNSUPPORTED_CURVE_FORMAT'],
    ['ed25519 with a non-hardened path', { ...SOLANA(0), path: "m/44'/501'/0'/0" }, 'ERR_UNSUPPORTED_CURVE_FORMAT'],
    ['a path that is not BIP32', { ...ETH(0), path: 'x/44/60' }, 'ERR_INVALID_PARAMETER'],
  ])('given %s, when create_wallet runs, then it is a 400 and no wallet is stored', async (_name, account, code) => {
    const before = (await client.query('list_wallets', {})).body.wallets.length;
    const reply = await client.submit('create_wallet', { walletName: `Bad ${code} ${account.path}`, accounts: [ETH(0), account] });
    expect(reply.status).toBe(400);
    expect(reply.body.details[0].errorCode).toBe(code);
    expect(reply.body.details[0].field).toMatch(/^accounts\.1\./);
    expect((await client.query('list_wallets', {})).body.wallets).toHaveLength(before);
  });

  it('given a wallet name in use, when create_wallet reuses it, then it is a 409', async () => {
    await client.run('create_wallet', { walletName: 'Taken', accounts: [] });
    const reply = await client.submit('create_wallet', { walletName: 'Taken', accounts: [] });
    expect(reply.status).toBe(409);
    expect(reply.body.details[0]).toMatchObject({ errorCode: 'ERR_ALREADY_EXISTS', field: 'walletName' });
  });

  it("given another organization's wallet id, when used, then every operation and query says 404", async () => {
    const { walletId } = await client.run('create_wallet', { walletName: 'Private', accounts: [ETH(0)] });
    const replies = [
      await other.submit('create_wallet_accounts', { walletId, accounts: [ETH(1)] }),
      await other.submit('export_wallet', { walletId, targetPublicKey: generateP256KeyPair().publicKeyUncompressed }),
      await other.query('get_wallet', { walletId }),
      await other.query('list_wallet_accounts', { walletId }),
      await other.query('get_wallet_account', { walletId, path: ETH(0).path }),
    ];
    for (const reply of replies) {
      expect(reply.status).toBe(404);
      expect(reply.body.details[0].errorCode).toBe('ERR_WALLET_NOT_FOUND');
    }
    expect((await other.query('list_wallets', {})).body.wallets).toEqual([]);
    expect((await other.query('list_wallet_accounts', {})).body.accounts).toEqual([]);
    expect((await client.query('get_wallet', { walletId })).body.wallet.exported).toBe(false);
  });

  it('given the wallets of the organization, when listed, then each record has the v1Wallet fields', async () => {
    const reply = await client.query('list_wallets', {});
    expect(reply.status).toBe(200);
    const main = reply.body.wallets.find((w: { walletName: string }) => w.walletName === 'Main');
    expect(Object.keys(main).sort()).toEqual(['createdAt', 'exported', 'imported', 'updatedAt', 'walletId', 'walletName']);
    expect(new Date(main.createdAt).toISOString()).toBe(main.createdAt);
  });
});
