/**
 * Export and import of wallets and private keys through the HTTP layer, as a client does
 * it: pin the enclave key, verify the signed bundle, HPKE to or from the target key. Also
 * proves that no plaintext mnemonic or private key reaches a database row or a reply.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import {
  bytesToHex,
  bytesToUtf8,
  generateP256KeyPair,
  generateSecp256k1KeyPair,
  hexToBytes,
  hpkeOpen,
  hpkeSeal,
  utf8ToBytes,
  verifyBundle,
} from '@walletkit/crypto';
import { createOrganization } from '../src/admin/organizations';
import { activities, privateKeyTags, privateKeys, walletAccounts, wallets } from '../src/store/schema';
import { startTestServer, type ActivityClient, type TestServer } from './support/harness';
import { storeKinds } from './support/stores';

const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const ABANDON_ETH_0 = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';
const ETH0 = { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' } as const;
const SOL0 = { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' } as const;
/** A P-256 point encoding that is not on the curve. */
const OFF_CURVE = `04${'11'.repeat(64)}`;

describe.each(storeKinds)('export and import: %s', (kind) => {
  let server: TestServer;
  let client: ActivityClient;
  let other: ActivityClient;
  let otherUserId: string;
  /** Every reply body seen, searched for plaintext at the end. */
  const replies: string[] = [];

  /** run() that also keeps the reply text. */
  const run: ActivityClient['run'] = async (op, params) => {
    const result = await client.run(op, params);
    replies.push(JSON.stringify(result));
    return result;
  };

  /** The import bundle's target key, checked as a client does (pinned enclave key). */
  async function encryptToImportTarget(op: 'init_import_wallet' | 'init_import_private_key', plaintext: Uint8Array): Promise<string> {
    const { importBundle } = await run(op, { userId: server.org.userId });
    const data = verifyBundle<{ targetPublic: string; organizationId: string; userId: string }>(importBundle, server.enclave.signingPublicKey);
    expect(data).toMatchObject({ organizationId: client.organizationId, userId: server.org.userId });
    return JSON.stringify(await hpkeSeal({ plaintext, receiverPublicKey: data.targetPublic }));
  }

  /** Open an export bundle with a target private key after verifying the enclave's signature. */
  async function openExport(exportBundle: string, targetPrivateKey: string): Promise<Uint8Array> {
    const data = verifyBundle<{ encappedPublic: string; ciphertext: string; organizationId: string }>(exportBundle, server.enclave.signingPublicKey);
    expect(data.organizationId).toBe(client.organizationId);
    return hpkeOpen({ encappedPublic: data.encappedPublic, ciphertext: data.ciphertext, receiverPrivateKey: targetPrivateKey });
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    client = server.client;
    const org = await createOrganization(server.store, { name: 'Other Org' });
    other = client.with({ key: org.apiKey, organizationId: org.organizationId });
    otherUserId = org.userId;
  });
  afterAll(() => server?.dispose());

  it("given the BIP39 'abandon … about' mnemonic, when imported, then m/44'/60'/0'/0/0 is the known address and export returns the mnemonic", async () => {
    const encryptedBundle = await encryptToImportTarget('init_import_wallet', utf8ToBytes(`  ${ABANDON.toUpperCase()}\n`));
    const { walletId, addresses } = await run('import_wallet', { userId: server.org.userId, walletName: 'Imported', encryptedBundle, accounts: [ETH0] });
    expect(addresses).toEqual([ABANDON_ETH_0]);
    const wallet = (await client.query('get_wallet', { walletId })).body.wallet;
    expect(wallet).toMatchObject({ imported: true, exported: false });

    const target = generateP256KeyPair();
    const { exportBundle } = await run('export_wallet', { walletId, targetPublicKey: target.publicKeyUncompressed });
    expect(bytesToUtf8(await openExport(exportBundle, target.privateKey))).toBe(ABANDON);
    expect((await client.query('get_wallet', { walletId })).body.wallet.exported).toBe(true);
  });

  it('given an import bundle sealed to another key, a bad mnemonic, or malformed JSON, when imported, then it is a 400 and nothing is stored', async () => {
    const wrongKey = JSON.stringify(await hpkeSeal({ plaintext: utf8ToBytes(ABANDON), receiverPublicKey: generateP256KeyPair().publicKeyUncompressed }));
    const badWords = await encryptToImportTarget('init_import_wallet', utf8ToBytes('abandon abandon abandon'));
    const cases: Array<[string, string]> = [
      [wrongKey, 'ERR_INVALID_ENCRYPTED_BUNDLE'],
      [badWords, 'ERR_INVALID_PARAMETER'],
      ['{"encappedPublic": 1}', 'ERR_INVALID_ENCRYPTED_BUNDLE'],
    ];
    for (const [encryptedBundle, code] of cases) {
      const reply = await client.submit('import_wallet', { userId: server.org.userId, walletName: `Broken ${code}`, encryptedBundle, accounts: [ETH0] });
      expect(reply.status).toBe(400);
      expect(reply.body.details[0]).toMatchObject({ errorCode: code, field: 'encryptedBundle' });
    }
    const names = (await client.query('list_wallets', {})).body.wallets.map((w: { walletName: string }) => w.walletName);
    expect(names.filter((n: string) => n.startsWith('Broken'))).toEqual([]);
  });

  it('given a wallet account, when it is exported, then the opened key controls the account address', async () => {
    const { walletId, addresses } = await run('create_wallet', { walletName: 'Accounts', accounts: [ETH0, SOL0] });
    const target = generateP256KeyPair();
    const eth = await run('export_wallet_account', { address: addresses[0]!.toLowerCase(), targetPublicKey: target.publicKeyUncompressed });
    expect(eth.address).toBe(addresses[0]);
    const ethKey = await openExport(eth.exportBundle, target.privateKey);
    expect(privateKeyToAccount(`0x${bytesToHex(ethKey)}`).address).toBe(addresses[0]);
    // Target keys are one-time keys: the second export takes a fresh one.
    const solTarget = generateP256KeyPair();
    const sol = await run('export_wallet_account', { address: addresses[1]!, targetPublicKey: solTarget.publicKeyUncompressed });
    const solKey = await openExport(sol.exportBundle, solTarget.privateKey);
    expect(base58.encode(ed25519.getPublicKey(solKey))).toBe(addresses[1]);
    expect((await client.query('get_wallet', { walletId })).body.wallet.exported).toBe(true);
  });

  it('given a secp256k1 key, when imported and exported, then it round-trips with its Ethereum address', async () => {
    const key = generateSecp256k1KeyPair();
    const encryptedBundle = await encryptToImportTarget('init_import_private_key', hexToBytes(key.privateKey));
    const imported = await run('import_private_key', {
      userId: server.org.userId,
      privateKeyName: 'imported-secp',
      encryptedBundle,
      curve: 'CURVE_SECP256K1',
      addressFormats: ['ADDRESS_FORMAT_ETHEREUM', 'ADDRESS_FORMAT_COMPRESSED'],
    });
    expect(imported.addresses).toEqual([
      { format: 'ADDRESS_FORMAT_ETHEREUM', address: privateKeyToAccount(`0x${key.privateKey}`).address },
      { format: 'ADDRESS_FORMAT_COMPRESSED', address: key.publicKey },
    ]);
    const target = generateP256KeyPair();
    const { privateKeyId, exportBundle } = await run('export_private_key', {
      privateKeyId: imported.privateKeyId,
      targetPublicKey: target.publicKeyUncompressed,
    });
    expect(privateKeyId).toBe(imported.privateKeyId);
    expect(bytesToHex(await openExport(exportBundle, target.privateKey))).toBe(key.privateKey);
    const record = (await client.query('get_private_key', { privateKeyId })).body.privateKey;
    expect(record).toMatchObject({ privateKeyName: 'imported-secp', curve: 'CURVE_SECP256K1', imported: true, exported: true, publicKey: key.publicKey });
  });

  it('given a Solana keypair (seed || public key), when imported, then the Solana address is its public key and export returns the seed', async () => {
    const seed = globalThis.crypto.getRandomValues(new Uint8Array(32));
    const publicKey = ed25519.getPublicKey(seed);
    const encryptedBundle = await encryptToImportTarget('init_import_private_key', new Uint8Array([...seed, ...publicKey]));
    const imported = await run('import_private_key', {
      userId: server.org.userId,
      privateKeyName: 'imported-ed',
      encryptedBundle,
      curve: 'CURVE_ED25519',
      addressFormats: ['ADDRESS_FORMAT_SOLANA'],
    });
    expect(imported.addresses).toEqual([{ format: 'ADDRESS_FORMAT_SOLANA', address: base58.encode(publicKey) }]);
    const target = generateP256KeyPair();
    const { exportBundle } = await run('export_private_key', { privateKeyId: imported.privateKeyId, targetPublicKey: target.publicKeyUncompressed });
    expect(await openExport(exportBundle, target.privateKey)).toEqual(seed);
  });

  it('given create_private_keys with a tag, when read back, then the keys, addresses and tag are listed', async () => {
    const tagId = crypto.randomUUID();
    await server.store.db.insert(privateKeyTags).values({ id: tagId, organizationId: client.organizationId, name: 'hot' });
    const { privateKeys: created } = await run('create_private_keys', {
      privateKeys: [
        {
          privateKeyName: 'tagged',
          curve: 'CURVE_SECP256K1',
          privateKeyTags: [tagId],
          addressFormats: ['ADDRESS_FORMAT_ETHEREUM', 'ADDRESS_FORMAT_UNCOMPRESSED'],
        },
      ],
    });
    expect(created[0]!.addresses.map((a) => a.format)).toEqual(['ADDRESS_FORMAT_ETHEREUM', 'ADDRESS_FORMAT_UNCOMPRESSED']);
    const record = (await client.query('get_private_key', { privateKeyId: created[0]!.privateKeyId })).body.privateKey;
    expect(record).toMatchObject({ privateKeyName: 'tagged', privateKeyTags: [tagId], exported: false, imported: false });
    const listed = (await client.query('list_private_keys', {})).body.privateKeys.map((k: { privateKeyName: string }) => k.privateKeyName);
    expect(listed).toEqual(expect.arrayContaining(['imported-secp', 'imported-ed', 'tagged']));
  });

  it('given bad create_private_keys input, when submitted, then each is a 4xx with its code', async () => {
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ privateKeyName: 'x1', curve: 'CURVE_ED25519', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] }, 400, 'ERR_UNSUPPORTED_CURVE_FORMAT'],
      [{ privateKeyName: 'x2', curve: 'CURVE_SECP256K1', privateKeyTags: [crypto.randomUUID()], addressFormats: [] }, 404, 'ERR_PRIVATE_KEY_TAG_NOT_FOUND'],
      [{ privateKeyName: 'tagged', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: [] }, 409, 'ERR_ALREADY_EXISTS'],
    ];
    for (const [key, status, code] of cases) {
      const reply = await client.submit('create_private_keys', { privateKeys: [key] } as never);
      expect(reply.status).toBe(status);
      expect(reply.body.details[0].errorCode).toBe(code);
    }
  });

  it('given target public keys that are off the curve or too short, when exporting, then each is a 400 and nothing is marked exported', async () => {
    const { walletId, addresses } = await run('create_wallet', { walletName: 'Target', accounts: [ETH0] });
    const {
      privateKeys: [key],
    } = await run('create_private_keys', { privateKeys: [{ privateKeyName: 'target', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: [] }] });
    for (const targetPublicKey of [OFF_CURVE, '04abcd']) {
      const results = [
        await client.submit('export_wallet', { walletId, targetPublicKey }),
        await client.submit('export_wallet_account', { address: addresses[0]!, targetPublicKey }),
        await client.submit('export_private_key', { privateKeyId: key!.privateKeyId, targetPublicKey }),
      ];
      for (const reply of results) {
        expect(reply.status).toBe(400);
        expect(reply.body.details[0]).toMatchObject({ errorCode: 'ERR_INVALID_PUBLIC_KEY', field: 'targetPublicKey' });
      }
    }
    expect((await client.query('get_wallet', { walletId })).body.wallet.exported).toBe(false);
    expect((await client.query('get_private_key', { privateKeyId: key!.privateKeyId })).body.privateKey.exported).toBe(false);
  });

  it("given another organization's ids and users, when used, then each is a 404", async () => {
    const { walletId, addresses } = await run('create_wallet', { walletName: 'Guarded', accounts: [ETH0] });
    const {
      privateKeys: [key],
    } = await run('create_private_keys', { privateKeys: [{ privateKeyName: 'guarded', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: [] }] });
    const targetPublicKey = generateP256KeyPair().publicKeyUncompressed;
    const expectations: Array<[Promise<{ status: number; body: any }>, string]> = [
      [other.submit('export_wallet', { walletId, targetPublicKey }), 'ERR_WALLET_NOT_FOUND'],
      [other.submit('export_wallet_account', { address: addresses[0]!, targetPublicKey }), 'ERR_WALLET_ACCOUNT_NOT_FOUND'],
      [other.submit('export_private_key', { privateKeyId: key!.privateKeyId, targetPublicKey }), 'ERR_PRIVATE_KEY_NOT_FOUND'],
      [other.query('get_private_key', { privateKeyId: key!.privateKeyId }), 'ERR_PRIVATE_KEY_NOT_FOUND'],
      [other.submit('init_import_wallet', { userId: server.org.userId }), 'ERR_USER_NOT_FOUND'],
      [client.submit('init_import_private_key', { userId: otherUserId }), 'ERR_USER_NOT_FOUND'],
      [
        client.submit('import_private_key', { userId: otherUserId, privateKeyName: 'p', encryptedBundle: '{}', curve: 'CURVE_SECP256K1', addressFormats: [] }),
        'ERR_USER_NOT_FOUND',
      ],
      [client.submit('import_wallet', { userId: otherUserId, walletName: 'w', encryptedBundle: '{}', accounts: [] }), 'ERR_USER_NOT_FOUND'],
    ];
    for (const [pending, code] of expectations) {
      const reply = await pending;
      expect(reply.status, code).toBe(404);
      expect(reply.body.details[0].errorCode).toBe(code);
    }
    expect((await other.query('list_private_keys', {})).body.privateKeys).toEqual([]);
  });

  it('given everything above, when every wallet, account, key and activity row and every reply is searched, then no plaintext secret appears', async () => {
    // The imported mnemonic, then every private key and the known account's key, opened from exports.
    const secrets = [ABANDON];
    for (const key of await server.store.db.select().from(privateKeys)) {
      const target = generateP256KeyPair();
      const { exportBundle } = await run('export_private_key', { privateKeyId: key.id, targetPublicKey: target.publicKeyUncompressed });
      secrets.push(bytesToHex(await openExport(exportBundle, target.privateKey)));
    }
    const target = generateP256KeyPair();
    const account = await run('export_wallet_account', { address: ABANDON_ETH_0, targetPublicKey: target.publicKeyUncompressed });
    secrets.push(bytesToHex(await openExport(account.exportBundle, target.privateKey)));
    expect(secrets.length).toBeGreaterThan(5);

    const rows = JSON.stringify([
      await server.store.db.select().from(wallets),
      await server.store.db.select().from(walletAccounts),
      await server.store.db.select().from(privateKeys),
      await server.store.db.select().from(activities),
    ]).toLowerCase();
    const seen = replies.join('\n').toLowerCase();
    for (const secret of secrets) {
      expect(rows.includes(secret.toLowerCase()), `a row contains ${secret.slice(0, 6)}…`).toBe(false);
      expect(seen.includes(secret.toLowerCase()), `a reply contains ${secret.slice(0, 6)}…`).toBe(false);
    }
  });
});
