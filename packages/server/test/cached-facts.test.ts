/**
 * Facts served from memory (src/activity/facts.ts, src/store/fact-cache.ts, change-feed.ts,
 * migration 0009) never outlive the change that voids them. On both databases, within one server:
 * a deleted key stops at its very next request, a raised quorum threshold holds the very next
 * signature for consensus, a new or exported wallet shows in the very next read, a disabled proxy
 * refuses at once. On PostgreSQL, across two servers (two pools and listeners on one database, as
 * two processes): a key deleted on one is refused by the other at its next activity even before
 * the notification arrives (the activity's INSERT checks the versions its facts were read at), a
 * wallet made on one shows in the other's reads within moments, and with the listener gone
 * nothing is served from memory.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { generateP256KeyPair } from '@walletkit/crypto';
import { build } from '../src/app';
import { Enclave } from '../src/enclave';
import { LISTENER_NAME, openStore, type Store } from '../src/store/db';
import { ActivityClient, startTestServer, type StampKey, type TestServer } from './support/harness';
import { expectError } from './support/members';
import { storeKinds, type TestStore } from './support/stores';

const ETH = { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' } as const;

function signBody(client: ActivityClient, signWith: string) {
  return client.submit('sign_raw_payloads', {
    signWith,
    payloads: [`payload ${randomBytes(8).toString('hex')}`],
    encoding: 'PAYLOAD_ENCODING_TEXT_UTF8',
    hashFunction: 'HASH_FUNCTION_KECCAK256',
  });
}

/** A second API key of the root user, and a client stamping with it. */
async function secondKey(server: TestServer, client: ActivityClient): Promise<{ key: StampKey; id: string; client: ActivityClient }> {
  const key = generateP256KeyPair();
  const { apiKeyIds } = await client.run('create_api_keys', {
    userId: server.org.userId,
    apiKeys: [{ apiKeyName: `k-${randomBytes(3).toString('hex')}`, publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }],
  });
  return { key, id: apiKeyIds[0]!, client: client.with({ key }) };
}

describe.each(storeKinds)('cached facts on %s, one server', (kind) => {
  let server: TestServer;
  let address: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    address = (await server.client.run('create_wallet', { walletName: 'main', accounts: [ETH] })).addresses[0]!;
  });
  afterAll(() => server?.dispose());

  it('given a key whose facts are cached by several signatures and reads, when it is deleted, then its very next signature and read are 401 ERR_STAMP_KEY_UNKNOWN', async () => {
    const second = await secondKey(server, server.client);
    for (let i = 0; i < 3; i++) expect((await signBody(second.client, address)).status).toBe(200);
    expect((await second.client.query('list_wallets', {})).status).toBe(200);
    await server.client.run('delete_api_keys', { userId: server.org.userId, apiKeyIds: [second.id] });
    expectError(await signBody(second.client, address), 401, 'ERR_STAMP_KEY_UNKNOWN');
    expectError(await second.client.query('list_wallets', {}), 401, 'ERR_STAMP_KEY_UNKNOWN');
    expect((await signBody(server.client, address)).status).toBe(200);
  });

  it('given a root member whose standing is cached, when the quorum threshold becomes 2, then its very next signature waits for consensus', async () => {
    const keyA = generateP256KeyPair();
    const rootUser = (name: string, publicKey: string) => ({
      userName: name,
      apiKeys: [{ apiKeyName: name, publicKey, curveType: 'API_KEY_CURVE_P256' as const }],
      authenticators: [],
      oauthProviders: [],
    });
    const org = await server.client.run('create_sub_organization', {
      subOrganizationName: `quorum-${randomBytes(3).toString('hex')}`,
      rootUsers: [rootUser('a', keyA.publicKey), rootUser('b', generateP256KeyPair().publicKey)],
      rootQuorumThreshold: 1,
    });
    const sub = server.client.with({ organizationId: org.subOrganizationId, key: keyA });
    const wallet = await sub.run('create_wallet', { walletName: 'w', accounts: [ETH] });
    expect((await signBody(sub, wallet.addresses[0]!)).body.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect((await signBody(sub, wallet.addresses[0]!)).body.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    await sub.run('update_root_quorum', { threshold: 2, userIds: org.rootUserIds });
    expect((await signBody(sub, wallet.addresses[0]!)).body.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
  });

  it('given cached wallet reads, when a wallet is created and another exported, then the very next reads show both', async () => {
    const before = (await server.client.query('list_wallets', {})).body.wallets as Array<{ walletId: string; exported: boolean }>;
    const again = (await server.client.query('list_wallets', {})).body.wallets;
    expect(again).toEqual(before);
    const made = await server.client.run('create_wallet', { walletName: `w-${randomBytes(3).toString('hex')}`, accounts: [ETH] });
    const after = (await server.client.query('list_wallets', {})).body.wallets as Array<{ walletId: string; exported: boolean }>;
    expect(after.map((w) => w.walletId)).toEqual([...before.map((w) => w.walletId), made.walletId]);
    const accounts = (await server.client.query('list_wallet_accounts', { walletId: made.walletId })).body.accounts;
    expect(accounts.map((a: { address: string }) => a.address)).toEqual(made.addresses);

    await server.client.run('export_wallet', { walletId: made.walletId, targetPublicKey: generateP256KeyPair().publicKeyUncompressed });
    const exported = (await server.client.query('get_wallet', { walletId: made.walletId })).body.wallet;
    expect(exported.exported).toBe(true);
  });
});

describe('cached facts on postgres, two servers on one database', () => {
  let a: TestServer;
  let storeB: Store;
  let appB: Awaited<ReturnType<typeof build>>;
  let b: ActivityClient;
  let address: string;
  let admin: pg.Client;

  beforeAll(async () => {
    a = await startTestServer('postgres');
    storeB = await openStore({ databaseUrl: (a.store as TestStore).location });
    const enclaveB = await Enclave.open(storeB, a.config);
    appB = await build(a.config, { store: storeB, enclave: enclaveB });
    b = new ActivityClient(appB, a.org.apiKey, a.org.organizationId);
    admin = new pg.Client({ connectionString: (a.store as TestStore).location });
    await admin.connect();
    address = (await a.client.run('create_wallet', { walletName: 'main', accounts: [ETH] })).addresses[0]!;
  });
  afterAll(async () => {
    await admin?.end();
    await appB?.close();
    await storeB?.close();
    await a?.dispose();
  });

  /** Until `check` passes or a second goes by. */
  async function eventually(check: () => Promise<void>): Promise<void> {
    const deadline = Date.now() + 1000;
    for (;;) {
      try {
        return await check();
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 10));
      }
    }
  }

  it('given a key cached by server B, when it is deleted behind B`s back (no notification reaches B), then B refuses its next signature: the INSERT finds the organization changed, B reads again, the key is gone', async () => {
    const second = await secondKey(a, b);
    const viaB = b.with({ key: second.key });
    for (let i = 0; i < 3; i++) expect((await signBody(viaB, address)).status).toBe(200);
    // What another process's commit looks like before its notification arrives: the row gone and
    // the version moved, nothing announced.
    await admin.query('BEGIN');
    await admin.query('SET LOCAL session_replication_role = replica');
    await admin.query('DELETE FROM api_keys WHERE id = $1', [second.id]);
    await admin.query('UPDATE organizations SET auth_version = auth_version + 1 WHERE id = $1', [a.org.organizationId]);
    await admin.query('COMMIT');
    expectError(await signBody(viaB, address), 401, 'ERR_STAMP_KEY_UNKNOWN');
    const stored = await admin.query('SELECT count(*)::int AS n FROM activities WHERE organization_id = $1 AND user_id = $2', [
      a.org.organizationId,
      a.org.userId,
    ]);
    expect(stored.rows[0].n).toBeGreaterThan(0);
  });

  it('given facts cached by B, when the organization`s version moves behind B`s back and nothing else changed, then B`s next signature succeeds once (run again on fresh facts) and is stored once', async () => {
    expect((await signBody(b, address)).status).toBe(200);
    await admin.query('UPDATE organizations SET auth_version = auth_version + 1 WHERE id = $1', [a.org.organizationId]);
    const reply = await signBody(b, address);
    expect(reply.status).toBe(200);
    const rows = await admin.query('SELECT count(*)::int AS n FROM activities WHERE fingerprint = $1', [reply.body.activity.fingerprint]);
    expect(rows.rows[0].n).toBe(1);
  });

  const tagsNamed = async (name: string) => (await admin.query('SELECT count(*)::int AS n FROM user_tags WHERE name = $1', [name])).rows[0].n as number;

  it('given facts cached by B, when the version moves behind B`s back, then B`s next activity run in a transaction (create_user_tag) completes once: its effect and its row exist once', async () => {
    await b.run('create_user_tag', { userTagName: `warm-${randomBytes(3).toString('hex')}`, userIds: [] });
    await admin.query('UPDATE organizations SET auth_version = auth_version + 1 WHERE id = $1', [a.org.organizationId]);
    const name = `moved-${randomBytes(3).toString('hex')}`;
    const reply = await b.submit('create_user_tag', { userTagName: name, userIds: [] });
    expect(reply.status).toBe(200);
    expect(reply.body.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(await tagsNamed(name)).toBe(1);
    const rows = await admin.query('SELECT status FROM activities WHERE fingerprint = $1', [reply.body.activity.fingerprint]);
    expect(rows.rows).toEqual([{ status: 'ACTIVITY_STATUS_COMPLETED' }]);
  });

  it('given a key cached by B, when it is deleted behind B`s back (no notification), then B refuses its next activity run in a transaction: 401, no effect and no row', async () => {
    const second = await secondKey(a, b);
    const viaB = b.with({ key: second.key });
    await viaB.run('create_user_tag', { userTagName: `warm-${randomBytes(3).toString('hex')}`, userIds: [] });
    await admin.query('BEGIN');
    await admin.query('SET LOCAL session_replication_role = replica');
    await admin.query('DELETE FROM api_keys WHERE id = $1', [second.id]);
    await admin.query('UPDATE organizations SET auth_version = auth_version + 1 WHERE id = $1', [a.org.organizationId]);
    await admin.query('COMMIT');
    const name = `refused-${randomBytes(3).toString('hex')}`;
    const reply = await viaB.submit('create_user_tag', { userTagName: name, userIds: [] });
    expectError(reply, 401, 'ERR_STAMP_KEY_UNKNOWN');
    expect(await tagsNamed(name)).toBe(0);
    const rows = await admin.query("SELECT count(*)::int AS n FROM activities WHERE intent::text LIKE '%' || $1 || '%'", [name]);
    expect(rows.rows[0].n).toBe(0);
  });

  it('given a key deleted on server A, when B uses it, then B refuses it (the notification or the INSERT`s check, whichever comes first)', async () => {
    const second = await secondKey(a, a.client);
    const viaB = b.with({ key: second.key });
    expect((await signBody(viaB, address)).status).toBe(200);
    await a.client.run('delete_api_keys', { userId: a.org.userId, apiKeyIds: [second.id] });
    expectError(await signBody(viaB, address), 401, 'ERR_STAMP_KEY_UNKNOWN');
    await eventually(async () => expectError(await viaB.query('list_wallets', {}), 401, 'ERR_STAMP_KEY_UNKNOWN'));
  });

  it('given wallet reads cached by B, when A creates a wallet, then B shows it within moments', async () => {
    const before = (await b.query('list_wallets', {})).body.wallets as unknown[];
    const made = await a.client.run('create_wallet', { walletName: `w-${randomBytes(3).toString('hex')}`, accounts: [ETH] });
    await eventually(async () => {
      const after = (await b.query('list_wallets', {})).body.wallets as Array<{ walletId: string }>;
      expect(after).toHaveLength(before.length + 1);
      expect(after.at(-1)!.walletId).toBe(made.walletId);
    });
  });

  it('given B`s listener connection is killed, when a change is made without notification, then B reads it at once (nothing is served from memory while deaf), and B listens again afterwards', async () => {
    expect((await b.query('list_wallets', {})).status).toBe(200);
    expect(storeB.changes.live).toBe(true);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()', [LISTENER_NAME]);
    await eventually(async () => expect(storeB.changes.live).toBe(false));
    await admin.query('BEGIN');
    await admin.query('SET LOCAL session_replication_role = replica');
    await admin.query("UPDATE wallets SET name = 'renamed-silently' WHERE organization_id = $1 AND name = 'main'", [a.org.organizationId]);
    await admin.query('COMMIT');
    const names = ((await b.query('list_wallets', {})).body.wallets as Array<{ walletName: string }>).map((w) => w.walletName);
    expect(names).toContain('renamed-silently');
    await new Promise((r) => setTimeout(r, 1100));
    await eventually(async () => expect(storeB.changes.live).toBe(true));
    expect((await signBody(b, address)).status).toBe(200);
  });
});
