/**
 * On the embedded database the caller's facts are checked against the change feed in memory
 * instead of by `walletkit_facts_current` (facts.ts `knownCurrent`, decision 0032): its one
 * process makes every change and hears of it before the commit resolves, and its transactions run
 * one at a time. What the statement caught must still be caught: a change between the facts'
 * read and the activity's transaction (here made right before the transaction begins) refuses a
 * deleted key with no effect and no row, and runs a request whose organization merely moved again,
 * once. With nothing changed, PGlite's transaction sends no guard statement; PostgreSQL's does.
 */
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateP256KeyPair } from '@walletkit/crypto';
import { apiKeys, organizations, userTags } from '../src/store/schema';
import { type ActivityClient, startTestServer, type StampKey, type TestServer } from './support/harness';
import { expectError } from './support/members';
import { storeKinds } from './support/stores';
import { watchTransactions, type TransactionWatch } from './support/transaction-watch';

describe.each(storeKinds)('the facts guard on %s', (kind) => {
  let server: TestServer;
  let watch: TransactionWatch;
  beforeAll(async () => {
    server = await startTestServer(kind);
    watch = watchTransactions(server, []);
  });
  afterAll(() => server?.dispose());

  /** A second API key of the root user, and a client stamping with it. */
  async function secondKey(): Promise<{ key: StampKey; id: string; client: ActivityClient }> {
    const key = generateP256KeyPair();
    const { apiKeyIds } = await server.client.run('create_api_keys', {
      userId: server.org.userId,
      apiKeys: [{ apiKeyName: `k-${randomBytes(3).toString('hex')}`, publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }],
    });
    return { key, id: apiKeyIds[0]!, client: server.client.with({ key }) };
  }
  const tagsNamed = async (name: string) => (await server.store.db.select().from(userTags).where(eq(userTags.name, name))).length;
  const rowsNaming = async (name: string) =>
    Number(
      (
        (await server.store.db.execute(sql`SELECT count(*)::int AS n FROM activities WHERE intent::text LIKE ${`%${name}%`}`)) as unknown as {
          rows: Array<{ n: number }>;
        }
      ).rows[0]!.n,
    );
  /** Calls of walletkit_facts_current so far (the function's statistics; flushed first). */
  async function guardCalls(): Promise<number> {
    await server.store.query({ text: 'SELECT pg_stat_force_next_flush()', values: [] });
    const [row] = await server.store.query<{ calls: number }>({
      text: `SELECT coalesce((SELECT calls::int FROM pg_stat_user_functions WHERE funcname = 'walletkit_facts_current'), 0) AS calls`,
      values: [],
    });
    return Number(row!.calls);
  }

  it('given facts read for a key, when the key is deleted before the activity`s transaction begins, then the activity is 401 ERR_STAMP_KEY_UNKNOWN with no effect and no row', async () => {
    const second = await secondKey();
    await second.client.run('create_user_tag', { userTagName: `warm-${randomBytes(3).toString('hex')}`, userIds: [] });
    watch.beforeNextTransaction(async () => {
      await server.store.db.delete(apiKeys).where(eq(apiKeys.id, second.id));
    });
    const name = `refused-${randomBytes(3).toString('hex')}`;
    expectError(await second.client.submit('create_user_tag', { userTagName: name, userIds: [] }), 401, 'ERR_STAMP_KEY_UNKNOWN');
    expect(await tagsNamed(name)).toBe(0);
    expect(await rowsNaming(name)).toBe(0);
  });

  it('given facts read for a key, when its organization`s version moves before the transaction begins and nothing else changed, then the activity runs again on fresh facts and completes once', async () => {
    const second = await secondKey();
    await second.client.run('create_user_tag', { userTagName: `warm-${randomBytes(3).toString('hex')}`, userIds: [] });
    watch.beforeNextTransaction(async () => {
      await server.store.db
        .update(organizations)
        .set({ authVersion: sql`${organizations.authVersion} + 1` } as never)
        .where(eq(organizations.id, server.org.organizationId));
    });
    const name = `moved-${randomBytes(3).toString('hex')}`;
    const reply = await second.client.submit('create_user_tag', { userTagName: name, userIds: [] });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(await tagsNamed(name)).toBe(1);
    expect(await rowsNaming(name)).toBe(1);
  });

  it.runIf(kind === 'pglite')(
    'given facts unchanged since they were read, when activities run in transactions, then no guard statement is sent; after an announced change, it is',
    async () => {
      // PGlite is one session: the setting holds for every statement the server sends.
      await server.store.query({ text: 'SET track_functions = pl', values: [] });
      const second = await secondKey();
      await second.client.run('create_user_tag', { userTagName: `warm-${randomBytes(3).toString('hex')}`, userIds: [] });
      const before = await guardCalls();
      for (let i = 0; i < 3; i++) await second.client.run('create_user_tag', { userTagName: `quiet-${i}-${randomBytes(3).toString('hex')}`, userIds: [] });
      expect((await guardCalls()) - before).toBe(0);
      // An announced change since the read (here one that moved no version, as another organization
      // sharing the epoch slot would): the statement decides, and passes.
      watch.beforeNextTransaction(async () => {
        await server.store.query({ text: `SELECT pg_notify('walletkit_changes', $1)`, values: [server.org.organizationId] });
      });
      const moved = await guardCalls();
      await second.client.run('create_user_tag', { userTagName: `after-change-${randomBytes(3).toString('hex')}`, userIds: [] });
      expect((await guardCalls()) - moved).toBe(1);
    },
  );
});
