import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, count, eq, is, SQL, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, describe, expect, it } from 'vitest';
import { isSerializationFailure, isUniqueViolation, openStore, StoreLockedError, violatedConstraint, type Executor, type Store } from '../src/store/db';
import { newId, newSortableId } from '../src/store/ids';
import { commitWithNext, sendWithNext } from '../src/store/round-trips';
import { LOCK_FILE, lockDataDir } from '../src/store/lock';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { loadMigrations, migrate, MigrationError, type Migration } from '../src/store/migrate';
import * as schema from '../src/store/schema';
import { activities, organizations, users, wallets } from '../src/store/schema';
import { createTestDatabase, createTestDataDir, openTestStore, storeKinds, type TestStore } from './support/stores';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const storeIndexUrl = new URL('../src/store/index.ts', import.meta.url).href;

async function rows<T>(db: Executor, query: SQL): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

async function insertOrg(db: Executor, name = 'Acme'): Promise<string> {
  const id = newId();
  await db.insert(organizations).values({ id, name });
  return id;
}

function activity(organizationId: string, fingerprint: string) {
  return {
    id: newSortableId(),
    organizationId,
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    status: 'ACTIVITY_STATUS_COMPLETED',
    fingerprint,
    timestampMs: String(Date.now()),
    userId: newId(),
    intent: { createWalletIntent: { walletName: 'w' } },
  };
}

describe.each(storeKinds)('store on %s', (kind) => {
  // One store for the block, opened lazily so that when it cannot be opened (e.g. no
  // PostgreSQL here) every test FAILS with the reason instead of being reported as skipped.
  let opening: Promise<TestStore> | undefined;
  const shared = () => (opening ??= openTestStore(kind));
  afterAll(async () => {
    await (await opening?.catch(() => undefined))?.dispose();
  });

  it('applies the migrations once, and re-applying is a no-op', async () => {
    const store = await shared();
    const files = loadMigrations();
    expect(files.map((m) => m.version)).toContain('0001');
    const applied = await rows<{ version: string; checksum: string }>(store.db, sql`SELECT version, checksum FROM schema_migrations ORDER BY version`);
    expect(applied).toEqual(files.map((m) => ({ version: m.version, checksum: m.checksum })));
    expect(await store.migrate()).toEqual([]);
    expect(await store.migrate()).toEqual([]);
    const [again] = await rows<{ n: number }>(store.db, sql`SELECT count(*)::int AS n FROM schema_migrations`);
    expect(again?.n).toBe(files.length);
  });

  it('has exactly the tables, columns, keys and indexes of schema.ts', async () => {
    const store = await shared();
    const expected = describeSchemaTs();
    const actual = await describeDatabase(store.db);
    expect(actual.tables).toEqual(expected.tables);
    for (const table of expected.tables) {
      expect.soft(actual.columns[table], `columns of ${table}`).toEqual(expected.columns[table]);
    }
    expect.soft(actual.primaryKeys).toEqual(expected.primaryKeys);
    expect.soft(actual.foreignKeys).toEqual(expected.foreignKeys);
    expect.soft(actual.indexes).toEqual(expected.indexes);
  });

  it('inserts an organization, a user and a wallet and reads them back', async () => {
    const store = await shared();
    const orgId = await insertOrg(store.db, 'Acme');
    const userId = newId();
    const walletId = newId();
    await store.db.insert(users).values({ id: userId, organizationId: orgId, userName: 'alice', userEmail: 'alice@example.com' });
    const mnemonicEncrypted = { encappedPublic: '04ab', ciphertext: 'cd' };
    await store.db.insert(wallets).values({ id: walletId, organizationId: orgId, name: 'Main', mnemonicEncrypted, mnemonicLength: 12 });

    const [org] = await store.db.select().from(organizations).where(eq(organizations.id, orgId));
    expect(org).toMatchObject({ id: orgId, name: 'Acme', parentOrganizationId: null, rootQuorumThreshold: 1 });
    expect(org!.createdAt).toBeInstanceOf(Date);
    expect(Math.abs(org!.createdAt.getTime() - Date.now())).toBeLessThan(60_000);

    const [user] = await store.db.select().from(users).where(eq(users.id, userId));
    expect(user).toMatchObject({ organizationId: orgId, userName: 'alice', userEmail: 'alice@example.com', userPhoneNumber: null, emailVerified: false });

    const joined = await store.db
      .select({ wallet: wallets.name, org: organizations.name, secret: wallets.mnemonicEncrypted, imported: wallets.imported })
      .from(wallets)
      .innerJoin(organizations, eq(organizations.id, wallets.organizationId))
      .where(eq(wallets.organizationId, orgId));
    expect(joined).toEqual([{ wallet: 'Main', org: 'Acme', secret: mnemonicEncrypted, imported: false }]);

    const [whole] = await store.db.select().from(wallets).where(eq(wallets.id, walletId));
    expect(whole?.mnemonicLength).toBe(12);
  });

  it('rolls back everything when the transaction throws', async () => {
    const store = await shared();
    const orgId = newId();
    await expect(
      store.transaction(async (tx) => {
        await tx.insert(organizations).values({ id: orgId, name: 'Doomed' });
        await tx.insert(users).values({ id: newId(), organizationId: orgId, userName: 'bob' });
        expect(await tx.select().from(organizations).where(eq(organizations.id, orgId))).toHaveLength(1);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await store.db.select().from(organizations).where(eq(organizations.id, orgId))).toEqual([]);
    expect(await store.db.select().from(users).where(eq(users.organizationId, orgId))).toEqual([]);

    // and commits when it resolves, returning the callback's value
    const committed = await store.transaction(async (tx) => insertOrg(tx, 'Kept'));
    expect(await store.db.select().from(organizations).where(eq(organizations.id, committed))).toHaveLength(1);
  });

  it('hears a committed change of an organization before the statement or COMMIT that made it resolves, and nothing of a rolled-back one', async () => {
    const store = await shared();
    const org = await insertOrg(store.db);
    const epoch = () => store.changes.epochOf(org);
    const atStart = epoch();
    await store.db.insert(users).values({ id: newId(), organizationId: org, userName: 'ann' });
    const afterInsert = epoch();
    expect(afterInsert).toBeGreaterThan(atStart);
    await store.transaction(async (tx) => {
      await tx.insert(users).values({ id: newId(), organizationId: org, userName: 'bob' });
    });
    const afterCommit = epoch();
    expect(afterCommit).toBeGreaterThan(afterInsert);
    await expect(
      store.transaction(async (tx) => {
        await tx.insert(users).values({ id: newId(), organizationId: org, userName: 'eve' });
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect(epoch()).toBe(afterCommit);
    // PGlite's one session hears everything from the start; PostgreSQL's feed goes live once its
    // listener for other processes is up (the pooled connections heard the above regardless).
    if (kind === 'pglite') expect(store.changes.live).toBe(true);
  });

  it('hears what a commit changed however its COMMIT went (with the last statement, with held statements, alone), not what a rolled-back savepoint changed, and everything when a commit changed too many to list', async () => {
    const store = await shared();
    const user = (organizationId: string, userName: string) => ({ id: newId(), organizationId, userName });
    // Fresh organizations at each step: a late notification of an earlier step moves none of them.
    const orgs = async (n: number) => Promise.all(Array.from({ length: n }, () => insertOrg(store.db)));
    const moved = async (ids: string[], run: () => Promise<unknown>) => {
      const before = ids.map((id) => store.changes.epochOf(id));
      await run();
      return ids.map((id, i) => store.changes.epochOf(id) !== before[i]);
    };

    const [a, b, c] = await orgs(3);
    const withLast = () =>
      store.transaction(async (tx) => {
        await tx.insert(users).values(user(a!, 'a'));
        commitWithNext(tx);
        await tx.insert(users).values(user(b!, 'b'));
      });
    expect(await moved([a!, b!, c!], withLast)).toEqual([true, true, false]);

    const [d, e] = await orgs(2);
    const withHeld = () => store.transaction(async (tx) => sendWithNext(tx, tx.insert(users).values(user(d!, 'd'))));
    expect(await moved([d!, e!], withHeld)).toEqual([true, false]);

    const [f, g] = await orgs(2);
    const savepoint = () =>
      store.transaction(async (tx) => {
        await tx.insert(users).values(user(f!, 'f'));
        await expect(
          tx.transaction(async (sp) => {
            await sp.insert(users).values(user(g!, 'g'));
            throw new Error('undone');
          }),
        ).rejects.toThrow('undone');
      });
    expect(await moved([f!, g!], savepoint)).toEqual([true, false]);

    // 120 organizations in one commit (more than the note holds), then an id the list cannot hold.
    const many = await orgs(120);
    const resets = store.changes.resets;
    const all = await moved(many, () => store.transaction(async (tx) => tx.insert(users).values(many.map((o) => user(o, 'm')))));
    // PostgreSQL: the note says "everything" (a reset); PGlite hears each notification.
    if (kind === 'postgres') expect(store.changes.resets).toBe(resets + 1);
    else expect(all.every(Boolean)).toBe(true);
    const odd = `odd,${newId()}`;
    await store.db.insert(organizations).values({ id: odd, name: 'Odd' });
    const oddResets = store.changes.resets;
    const oddMoved = await moved([odd], () => store.transaction(async (tx) => tx.insert(users).values(user(odd, 'o'))));
    if (kind === 'postgres') expect(store.changes.resets).toBe(oddResets + 1);
    else expect(oddMoved).toEqual([true]);
  });

  it('runs transactions at the requested isolation level', async () => {
    const store = await shared();
    const level = async (isolation?: 'read committed' | 'serializable') =>
      store.transaction(
        async (tx) => (await rows<{ l: string }>(tx, sql`SELECT current_setting('transaction_isolation') AS l`))[0]?.l,
        isolation ? { isolation } : undefined,
      );
    expect(await level('serializable')).toBe('serializable');
    expect(await level('read committed')).toBe('read committed');
    expect(await level()).toBe('read committed');
  });

  it('refuses a second activity with the same (organization, fingerprint)', async () => {
    const store = await shared();
    const orgId = await insertOrg(store.db);
    const otherOrg = await insertOrg(store.db);
    await store.db.insert(activities).values(activity(orgId, 'f'.repeat(64)));
    const err = await store.db
      .insert(activities)
      .values(activity(orgId, 'f'.repeat(64)))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).cause).toBeDefined(); // drizzle wraps the driver's error
    expect(isUniqueViolation(err)).toBe(true);
    expect(isUniqueViolation(err, 'activities_fingerprint_uq')).toBe(true);
    expect(isUniqueViolation(err, 'wallets_org_name_uq')).toBe(false);
    expect(violatedConstraint(err)).toBe('activities_fingerprint_uq');
    expect(isSerializationFailure(err)).toBe(false);
    // the same fingerprint in another organization is fine
    await store.db.insert(activities).values(activity(otherOrg, 'f'.repeat(64)));

    // other errors are not unique violations (foreign key: 23503)
    const fkErr = await store.db
      .insert(users)
      .values({ id: newId(), organizationId: 'no-such-org', userName: 'x' })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(fkErr).toBeInstanceOf(Error);
    expect(isUniqueViolation(fkErr)).toBe(false);
    expect(isUniqueViolation(new Error('duplicate key'))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
  });

  it('lets exactly one of 20 concurrent transactions insert a fingerprint', async () => {
    const store = await shared();
    const orgId = await insertOrg(store.db);
    const fingerprint = 'a'.repeat(64);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        store.transaction(async (tx) => {
          // read first, like the activity runner, so the transactions overlap on PostgreSQL
          const existing = await tx
            .select({ n: count() })
            .from(activities)
            .where(and(eq(activities.organizationId, orgId), eq(activities.fingerprint, fingerprint)));
          await tx.insert(activities).values(activity(orgId, fingerprint));
          return { i, sawExisting: existing[0]?.n };
        }),
      ),
    );
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(19);
    for (const l of lost) expect(isUniqueViolation(l.reason), String(l.reason)).toBe(true);
    const [n] = await store.db
      .select({ n: count() })
      .from(activities)
      .where(and(eq(activities.organizationId, orgId), eq(activities.fingerprint, fingerprint)));
    expect(n?.n).toBe(1);
  });

  it("given activities stored with bare-digest fingerprints, when 0006 runs, then each carries the sha256: prefix (Turnkey's form) and the unique index still holds", async () => {
    if (kind !== 'pglite') return;
    const dir = createTestDataDir();
    const client = await PGlite.create(join(dir.dataDir, 'pglite'));
    try {
      const all = loadMigrations();
      const before = all.filter((m) => m.version < '0006');
      await migrate(client, before);
      const digest = 'ab'.repeat(32);
      await client.query(`INSERT INTO organizations (id, name) VALUES ('org-1', 'o')`);
      await client.query(
        `INSERT INTO activities (id, organization_id, type, status, fingerprint, timestamp_ms, user_id, intent) VALUES ('a1', 'org-1', 't', 's', '${digest}', '1', 'u', '{}'), ('a2', 'org-1', 't', 's', 'sha256:${'cd'.repeat(32)}', '1', 'u', '{}')`,
      );
      expect(await migrate(client, all)).toEqual(all.filter((m) => m.version >= '0006').map((m) => m.version));
      const rows = (await client.query<{ id: string; fingerprint: string }>('SELECT id, fingerprint FROM activities ORDER BY id')).rows;
      expect(rows).toEqual([
        { id: 'a1', fingerprint: `sha256:${digest}` },
        { id: 'a2', fingerprint: `sha256:${'cd'.repeat(32)}` },
      ]);
    } finally {
      await client.close();
      dir.remove();
    }
  });

  it('given one public key held by several users of an organization, when 0013 runs, then the registered key (or else the oldest) stays, the other session keys go, and two registered keys stop it with nothing changed', async () => {
    if (kind !== 'pglite') return;
    const all = loadMigrations();
    const before = all.filter((m) => m.version < '0013');
    const seed = async (client: PGlite, keys: string) => {
      await migrate(client, before);
      await client.exec(`
        INSERT INTO organizations (id, name) VALUES ('org-1', 'o'), ('org-2', 'p');
        INSERT INTO users (id, organization_id, user_name) VALUES ('u1', 'org-1', 'a'), ('u2', 'org-1', 'b'), ('u3', 'org-1', 'c'), ('u4', 'org-2', 'd');
        INSERT INTO api_keys (id, organization_id, user_id, name, public_key, curve, is_session, created_at) VALUES ${keys};`);
    };
    const key = (id: string, org: string, user: string, pk: string, session: boolean, at: string) =>
      `('${id}', '${org}', '${user}', '${id}', '${pk}', 'API_KEY_CURVE_P256', ${session}, '2026-01-01T00:00:${at}Z')`;
    const keysOf = async (client: PGlite) => (await client.query<{ id: string }>('SELECT id FROM api_keys ORDER BY id')).rows.map((r) => r.id);
    const indexes = async (client: PGlite) =>
      (await client.query<{ n: string }>("SELECT indexname AS n FROM pg_indexes WHERE tablename = 'api_keys' ORDER BY 1")).rows.map((r) => r.n);

    const dir = createTestDataDir();
    const client = await PGlite.create(join(dir.dataDir, 'pglite'));
    try {
      await seed(
        client,
        [
          key('k1-session-older', 'org-1', 'u2', 'p1', true, '01'), // a session of another user, older than the registered key: goes
          key('k1-registered', 'org-1', 'u1', 'p1', false, '05'), // stays
          key('k2-session-oldest', 'org-1', 'u1', 'p2', true, '01'), // stays
          key('k2-session-newer', 'org-1', 'u2', 'p2', true, '02'), // goes
          key('k2-session-newest', 'org-1', 'u3', 'p2', true, '03'), // goes
          key('k3-other-org', 'org-2', 'u4', 'p1', false, '01'), // another organization: stays
          key('k4-alone', 'org-1', 'u3', 'p3', true, '09'), // stays
        ].join(', '),
      );
      expect(await migrate(client, all)).toEqual(all.filter((m) => m.version >= '0013').map((m) => m.version));
      expect(await keysOf(client)).toEqual(['k1-registered', 'k2-session-oldest', 'k3-other-org', 'k4-alone']);
      expect(await indexes(client)).toEqual(['api_keys_org_public_key_uq', 'api_keys_pkey', 'api_keys_public_key_idx']);
      // and the database refuses a second holder from now on
      const err = await client
        .query(`INSERT INTO api_keys (id, organization_id, user_id, name, public_key, curve) VALUES ('k5', 'org-1', 'u2', 'k5', 'p3', 'c')`)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(isUniqueViolation(err, 'api_keys_org_public_key_uq')).toBe(true);
    } finally {
      await client.close();
      dir.remove();
    }

    const dir2 = createTestDataDir();
    const client2 = await PGlite.create(join(dir2.dataDir, 'pglite'));
    try {
      await seed(
        client2,
        [key('r1', 'org-1', 'u1', 'p1', false, '01'), key('r2', 'org-1', 'u2', 'p1', false, '02'), key('s3', 'org-1', 'u3', 'p1', true, '03')].join(', '),
      );
      await expect(migrate(client2, all)).rejects.toThrow(/organization org-1 has the API key p1 registered by more than one user \(u1, u2\)/);
      expect(await keysOf(client2)).toEqual(['r1', 'r2', 's3']);
      expect((await client2.query<{ v: string }>('SELECT max(version) AS v FROM schema_migrations')).rows[0]!.v).toBe('0012');
      expect(await indexes(client2)).toContain('api_keys_org_idx');
    } finally {
      await client2.close();
      dir2.remove();
    }
  });

  it('applies later migrations in order, each atomically, and refuses an edited one', async () => {
    // Drive migrate() directly on a raw connection of this kind.
    let target: PGlite | pg.Pool;
    let cleanup: () => Promise<void>;
    if (kind === 'postgres') {
      const database = await createTestDatabase();
      const pool = new pg.Pool({ connectionString: database.url, max: 2 });
      // pool.end() resolves once its clients are told to end, before their sockets close; the
      // drop's FORCE can then terminate a backend still closing, whose FATAL reaches the pool as an
      // idle client's error (thrown, with no listener: an unhandled error in a passing run).
      pool.on('error', () => {});
      target = pool;
      cleanup = async () => {
        await pool.end();
        await database.drop();
      };
    } else {
      const dir = createTestDataDir();
      const client = await PGlite.create(join(dir.dataDir, 'pglite'));
      target = client;
      cleanup = async () => {
        await client.close();
        dir.remove();
      };
    }
    const q = async (text: string) => (target instanceof PGlite ? (await target.query<Record<string, unknown>>(text)).rows : (await target.query(text)).rows);
    const extra = (version: string, name: string, text: string): Migration => ({ version, name, sql: text, checksum: `c${version}` });
    try {
      const base = loadMigrations();
      expect(await migrate(target, base)).toEqual(base.map((m) => m.version));
      const later = [
        extra('9001', 'first', 'CREATE TABLE wk_test_a (id int PRIMARY KEY);'),
        extra('9002', 'second', 'INSERT INTO wk_test_a VALUES (1); INSERT INTO wk_test_a VALUES (2);'),
      ];
      expect(await migrate(target, [...base, ...later])).toEqual(['9001', '9002']);
      expect(await q('SELECT count(*)::int AS n FROM wk_test_a')).toEqual([{ n: 2 }]);

      // A failing migration leaves nothing behind and is not recorded; earlier ones stay.
      const broken = extra('9003', 'broken', 'CREATE TABLE wk_test_b (id int); INSERT INTO wk_test_a VALUES (1);');
      const err = await migrate(target, [...base, ...later, broken]).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isUniqueViolation(err)).toBe(true);
      expect(await q("SELECT to_regclass('wk_test_b')::text AS t")).toEqual([{ t: null }]);
      expect((await q('SELECT version FROM schema_migrations ORDER BY version')).map((r) => r.version)).toEqual([
        ...base.map((m) => m.version),
        '9001',
        '9002',
      ]);

      // Editing an applied migration is refused.
      const edited = [...base, { ...later[0]!, checksum: 'different' }, later[1]!];
      await expect(migrate(target, edited)).rejects.toThrow(MigrationError);
      await expect(migrate(target, edited)).rejects.toThrow(/9001_first\.sql was changed after it was applied/);
    } finally {
      await cleanup();
    }
  });

  it('keeps the data across close and reopen', async () => {
    const s = await openTestStore(kind);
    try {
      const orgId = await insertOrg(s.db, 'Durable');
      await s.close();
      await s.close(); // idempotent
      const reopened = await openStore(kind === 'postgres' ? { databaseUrl: s.location } : { dataDir: s.location });
      try {
        expect(reopened.kind).toBe(kind);
        const [org] = await reopened.db.select().from(organizations).where(eq(organizations.id, orgId));
        expect(org?.name).toBe('Durable');
        expect(await reopened.migrate()).toEqual([]);
      } finally {
        await reopened.close();
      }
    } finally {
      await s.dispose();
    }
  });
});

describe('store on postgres: several processes', () => {
  it('lets concurrent openStore calls on one fresh database race the migrations safely', async () => {
    const database = await createTestDatabase();
    const stores: Store[] = [];
    try {
      const opened = await Promise.allSettled(Array.from({ length: 4 }, () => openStore({ databaseUrl: database.url, poolSize: 3 })));
      for (const o of opened) if (o.status === 'fulfilled') stores.push(o.value);
      expect(opened.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason))).toEqual([]);
      const [n] = await rows<{ n: number }>(stores[0]!.db, sql`SELECT count(*)::int AS n FROM schema_migrations`);
      expect(n?.n).toBe(loadMigrations().length);
      // every store works against the one schema
      const orgId = await insertOrg(stores[1]!.db);
      expect(await stores[3]!.db.select().from(organizations).where(eq(organizations.id, orgId))).toHaveLength(1);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
      await database.drop();
    }
  });

  it('reports write skew under serializable as a serialization failure', async () => {
    const s = await openTestStore('postgres');
    try {
      const orgId = await insertOrg(s.db);
      // Two transactions each read the count, then insert: serializable must abort one.
      let arrived = 0;
      let release!: () => void;
      const bothRead = new Promise<void>((r) => (release = r));
      const attempt = (fp: string) =>
        s.transaction(
          async (tx) => {
            await tx.select({ n: count() }).from(activities).where(eq(activities.organizationId, orgId));
            if (++arrived === 2) release();
            await bothRead;
            await tx.insert(activities).values(activity(orgId, fp));
          },
          { isolation: 'serializable' },
        );
      const outcomes = await Promise.allSettled([attempt('1'.repeat(64)), attempt('2'.repeat(64))]);
      const failures = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(failures).toHaveLength(1);
      expect(isSerializationFailure(failures[0]!.reason), String(failures[0]!.reason)).toBe(true);
      expect(isUniqueViolation(failures[0]!.reason)).toBe(false);
    } finally {
      await s.dispose();
    }
  });
});

describe('store on pglite: the data directory', () => {
  const cleanup: Array<() => void> = [];
  afterAll(() => {
    for (const fn of cleanup) fn();
  });

  it('creates a missing data directory with its parents and initializes it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'walletkit-fresh-'));
    cleanup.push(() => rmSync(root, { recursive: true, force: true }));
    const dataDir = join(root, 'a', 'b', 'data');
    const s = await openStore({ dataDir });
    try {
      expect(s.kind).toBe('pglite');
      expect(s.dataDir).toBe(dataDir);
      expect(readFileSync(join(dataDir, LOCK_FILE), 'utf8').split('\n')[0]).toBe(String(process.pid));
      const orgId = await insertOrg(s.db);
      expect(await s.db.select().from(organizations).where(eq(organizations.id, orgId))).toHaveLength(1);
    } finally {
      await s.close();
    }
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  });

  it('refuses a second store on the same directory in this process', async () => {
    const dir = createTestDataDir();
    cleanup.push(dir.remove);
    const first = await openStore({ dataDir: dir.dataDir });
    try {
      await expect(openStore({ dataDir: dir.dataDir })).rejects.toThrow(StoreLockedError);
      await expect(openStore({ dataDir: dir.dataDir })).rejects.toThrow(`data directory ${dir.dataDir} is already open in this process (pid ${process.pid})`);
    } finally {
      await first.close();
    }
    expect(existsSync(join(dir.dataDir, LOCK_FILE))).toBe(false);
    lockDataDir(dir.dataDir).release(); // free again
  });

  it('refuses a directory held by another process, and opens it once that process exits', async () => {
    const dir = createTestDataDir();
    cleanup.push(dir.remove);

    const child = await startHolder(dir.dataDir);
    try {
      const err = await openStore({ dataDir: dir.dataDir }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(StoreLockedError);
      expect((err as StoreLockedError).pid).toBe(child.pid);
      expect((err as Error).message).toBe(
        `data directory ${dir.dataDir} is in use by another walletkit-server process (pid ${child.pid}); stop it or use --data-dir`,
      );
    } finally {
      child.stdin!.end('close\n'); // graceful: the child closes its store and exits
      await exited(child);
    }
    expect(child.exitCode).toBe(0);
    expect(existsSync(join(dir.dataDir, LOCK_FILE))).toBe(false);

    const s = await openStore({ dataDir: dir.dataDir });
    try {
      // what the child wrote is there
      expect(await s.db.select().from(organizations).where(eq(organizations.name, 'written by the child'))).toHaveLength(1);
    } finally {
      await s.close();
    }
  });

  it('takes over the lock of a process that was killed', async () => {
    const dir = createTestDataDir();
    cleanup.push(dir.remove);
    const child = await startHolder(dir.dataDir);
    await expect(openStore({ dataDir: dir.dataDir })).rejects.toThrow(`(pid ${child.pid})`);
    child.kill('SIGKILL');
    await exited(child);
    expect(readFileSync(join(dir.dataDir, LOCK_FILE), 'utf8').split('\n')[0]).toBe(String(child.pid)); // left behind

    const s = await openStore({ dataDir: dir.dataDir });
    try {
      expect(readFileSync(join(dir.dataDir, LOCK_FILE), 'utf8').split('\n')[0]).toBe(String(process.pid));
      expect(await s.db.select().from(organizations).where(eq(organizations.name, 'written by the child'))).toHaveLength(1);
    } finally {
      await s.close();
    }
  });

  it('takes over stale or unreadable lock files, and only releases its own', () => {
    const dir = mkdtempSync(join(tmpdir(), 'walletkit-lock-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const lockPath = join(dir, LOCK_FILE);
    for (const content of ['2147483646\nnowhere\n\n2020-01-01T00:00:00.000Z\nx\n', '', 'garbage', `${process.pid}\n`]) {
      writeFileSync(lockPath, content);
      const lock = lockDataDir(dir);
      expect(readFileSync(lockPath, 'utf8').split('\n')[0]).toBe(String(process.pid));
      lock.release();
      expect(existsSync(lockPath)).toBe(false);
    }
    // a lock that was replaced behind our back is not deleted by release()
    const lock = lockDataDir(dir);
    writeFileSync(lockPath, '1\n');
    lock.release();
    expect(readFileSync(lockPath, 'utf8')).toBe('1\n');
    // pid 1 is alive: held
    expect(() => lockDataDir(dir, 'somewhere')).toThrow('data directory somewhere is in use by another walletkit-server process (pid 1)');
  });

  it('opens in-memory stores, each one empty', async () => {
    const a = await openStore({ memory: true });
    const b = await openStore({ memory: true });
    try {
      expect(a.dataDir).toBeUndefined();
      const orgId = await insertOrg(a.db);
      expect(await a.db.select().from(organizations).where(eq(organizations.id, orgId))).toHaveLength(1);
      expect(await b.db.select().from(organizations)).toEqual([]);
      expect(await b.migrate()).toEqual([]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

/** A child process that opens the store on `dataDir`, writes a row and waits for "close" on stdin. */
async function startHolder(dataDir: string): Promise<ChildProcess & { pid: number }> {
  const script = `
    const [dataDir, storeUrl] = process.argv.slice(1);
    import(storeUrl).then(async ({ openStore, schema, newId }) => {
      const store = await openStore({ dataDir });
      await store.db.insert(schema.organizations).values({ id: newId(), name: 'written by the child' });
      process.stdout.write('READY ' + process.pid + '\\n');
      let closing = false;
      const close = async () => { if (closing) return; closing = true; await store.close(); process.exit(0); };
      process.stdin.on('data', close);
      process.stdin.on('end', close);
    }).catch((err) => { console.error(err); process.exit(1); });
  `;
  const child = spawn(process.execPath, ['--conditions=@walletkit/source', '--import', 'tsx', '-e', script, dataDir, storeIndexUrl], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('READY')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`holder exited early (${code}): ${stderr}`)));
  });
  return child as ChildProcess & { pid: number };
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

// ---------------------------------------------------------------------------------------
// Comparing the migrated database with schema.ts

interface SchemaDescription {
  tables: string[];
  columns: Record<string, string[]>;
  primaryKeys: string[];
  foreignKeys: string[];
  indexes: string[];
}

function describeSchemaTs(): SchemaDescription {
  const tables = (Object.values(schema) as unknown[]).filter((t): t is PgTable => is(t, PgTable));
  const out: SchemaDescription = { tables: [], columns: {}, primaryKeys: [], foreignKeys: [], indexes: [] };
  for (const table of tables) {
    const c = getTableConfig(table);
    out.tables.push(c.name);
    out.columns[c.name] = c.columns
      .map((col) => {
        let def = 'no default';
        if (col.hasDefault && col.default !== undefined) {
          const d = col.default;
          if (is(d, SQL)) def = `default ${(d as SQL).queryChunks.map((x) => (x as { value?: string[] }).value?.join('') ?? '').join('')}`;
          else if (typeof d === 'string') def = `default '${d}'`;
          else if (typeof d === 'object') def = `default '${JSON.stringify(d)}'::jsonb`;
          else def = `default ${String(d)}`;
        }
        return `${col.name} ${col.getSQLType()} ${col.notNull ? 'not null' : 'null'} ${def}`;
      })
      .sort();
    const pkCols = c.columns.filter((col) => col.primary).map((col) => col.name);
    if (pkCols.length) out.primaryKeys.push(`${c.name}(${pkCols.join(',')})`);
    for (const pk of c.primaryKeys) out.primaryKeys.push(`${c.name}(${pk.columns.map((col) => col.name).join(',')})`);
    for (const fk of c.foreignKeys) {
      const r = fk.reference();
      out.foreignKeys.push(
        `${fk.getName()}: ${c.name}(${r.columns.map((x) => x.name).join(',')}) -> ${getTableConfig(r.foreignTable).name}(${r.foreignColumns
          .map((x) => x.name)
          .join(',')}) on delete ${fk.onDelete ?? 'no action'}`,
      );
    }
    for (const idx of c.indexes) {
      const cols = idx.config.columns.map((col) => (col as { name: string }).name);
      out.indexes.push(`${idx.config.name}: ${idx.config.unique ? 'unique ' : ''}${c.name}(${cols.join(',')})`);
    }
  }
  out.tables.sort();
  out.primaryKeys.sort();
  out.foreignKeys.sort();
  out.indexes.sort();
  return out;
}

async function describeDatabase(db: Executor): Promise<SchemaDescription> {
  const out: SchemaDescription = { tables: [], columns: {}, primaryKeys: [], foreignKeys: [], indexes: [] };
  const tables = await rows<{ name: string }>(
    db,
    sql`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname <> 'schema_migrations' ORDER BY 1`,
  );
  out.tables = tables.map((t) => t.name).sort();
  const cols = await rows<{ tbl: string; col: string; type: string; notnull: boolean; def: string | null }>(
    db,
    sql`SELECT c.relname AS tbl, a.attname AS col, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS notnull,
               pg_get_expr(d.adbin, d.adrelid) AS def
        FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE n.nspname = current_schema() AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped`,
  );
  for (const c of cols) {
    if (c.tbl === 'schema_migrations') continue;
    const def = c.def === null ? 'no default' : `default ${c.def.replace(/::text$/, '')}`;
    const list = out.columns[c.tbl] ?? [];
    out.columns[c.tbl] = list;
    list.push(`${c.col} ${c.type} ${c.notnull ? 'not null' : 'null'} ${def}`);
  }
  for (const list of Object.values(out.columns)) list.sort();
  const cons = await rows<{ tbl: string; name: string; type: string; cols: string; ftbl: string | null; fcols: string | null; del: string }>(
    db,
    sql`SELECT c.relname AS tbl, k.conname AS name, k.contype AS type,
               (SELECT string_agg(a.attname, ',' ORDER BY u.ord) FROM unnest(k.conkey) WITH ORDINALITY u(attnum, ord)
                  JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.attnum) AS cols,
               f.relname AS ftbl,
               (SELECT string_agg(a.attname, ',' ORDER BY u.ord) FROM unnest(k.confkey) WITH ORDINALITY u(attnum, ord)
                  JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.attnum) AS fcols,
               k.confdeltype AS del
        FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        LEFT JOIN pg_class f ON f.oid = k.confrelid
        WHERE n.nspname = current_schema() AND k.contype IN ('p', 'f')`,
  );
  const onDelete: Record<string, string> = { a: 'no action', c: 'cascade', r: 'restrict', n: 'set null', d: 'set default' };
  for (const k of cons) {
    if (k.tbl === 'schema_migrations') continue;
    if (k.type === 'p') out.primaryKeys.push(`${k.tbl}(${k.cols})`);
    else out.foreignKeys.push(`${k.name}: ${k.tbl}(${k.cols}) -> ${k.ftbl}(${k.fcols}) on delete ${onDelete[k.del]}`);
  }
  const idx = await rows<{ tbl: string; name: string; uniq: boolean; cols: string }>(
    db,
    sql`SELECT t.relname AS tbl, i.relname AS name, x.indisunique AS uniq,
               (SELECT string_agg(a.attname, ',' ORDER BY u.ord) FROM unnest(x.indkey::int2[]) WITH ORDINALITY u(attnum, ord)
                  JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = u.attnum) AS cols
        FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
        JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE n.nspname = current_schema() AND NOT x.indisprimary`,
  );
  for (const i of idx) {
    if (i.tbl === 'schema_migrations') continue;
    out.indexes.push(`${i.name}: ${i.uniq ? 'unique ' : ''}${i.tbl}(${i.cols})`);
  }
  out.primaryKeys.sort();
  out.foreignKeys.sort();
  out.indexes.sort();
  return out;
}
