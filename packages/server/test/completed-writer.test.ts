/**
 * Group commit of activities completed outside a transaction (src/activity/completed-writer.ts),
 * on both databases: rows arriving together are stored by shared INSERTs, each caller learns
 * whether its own row was stored, a copy with a stored fingerprint is not, and a row that breaks
 * a constraint fails alone. The group commit's INSERT and the one in a transaction store the same
 * columns the same way; on PostgreSQL a prepared INSERT the connection lost runs unnamed.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { GROUP_COMMIT_INSERT, groupCommitInsert, groupCommitName, insertActivities, VALUES_ROWS } from '../src/activity/activity-insert';
import { CompletedWriter } from '../src/activity/completed-writer';
import { openStore } from '../src/store/db';
import { activities, organizations } from '../src/store/schema';
import { createTestDatabase, openTestStore, storeKinds, type TestStore } from './support/stores';

function row(organizationId: string, fingerprint: string) {
  const now = new Date();
  return {
    id: randomUUID(),
    organizationId,
    type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS',
    status: 'ACTIVITY_STATUS_COMPLETED',
    fingerprint,
    timestampMs: String(now.getTime()),
    userId: 'u',
    intent: {},
    result: { ok: fingerprint },
    createdAt: now,
    updatedAt: now,
  };
}

describe.each(storeKinds)('CompletedWriter on %s', (kind) => {
  let store: TestStore | undefined;
  afterEach(async () => {
    await store?.dispose();
    store = undefined;
  });

  it('given 60 rows at once, 10 of them copies of stored fingerprints and one of an unknown organization, when written, then the 49 new rows are stored, the copies answer undefined and only the bad row fails', async () => {
    store = await openTestStore(kind);
    const org = randomUUID();
    await store.db.insert(organizations).values({ id: org, name: 'writer' });
    const writer = new CompletedWriter(store);
    await writer.write(row(org, 'sha256:stored-0'));
    const rows = Array.from({ length: 60 }, (_, i) => (i < 10 ? row(org, `sha256:stored-${i % 1}`) : row(org, `sha256:fresh-${i}`)));
    rows[59] = row(randomUUID(), 'sha256:orphan');

    const outcomes = await Promise.allSettled(rows.map((r) => writer.write(r)));

    const stored = outcomes.map((o, i) => (o.status === 'fulfilled' ? o.value?.id === rows[i]!.id : o.status));
    expect(stored.slice(0, 10)).toEqual(Array(10).fill(false));
    expect(stored.slice(10, 59)).toEqual(Array(49).fill(true));
    expect(outcomes[59]!.status).toBe('rejected');
    const inDb = await store.db.select({ fingerprint: activities.fingerprint }).from(activities).where(eq(activities.organizationId, org));
    expect(inDb).toHaveLength(50);
  });

  it('given ten rows in one turn of the event loop and ten more while their INSERT runs, when written, then two INSERTs of ten store all twenty, with no clock between them', async () => {
    store = await openTestStore(kind);
    const org = randomUUID();
    await store.db.insert(organizations).values({ id: org, name: 'writer' });
    const inserts: number[] = [];
    const sizes: number[] = [];
    let second: Promise<unknown>[] = [];
    const counting = {
      query: async <T>(statement: Parameters<TestStore['query']>[0]) => {
        inserts.push(inserts.length);
        // the next ten arrive while the first INSERT is on its way
        if (inserts.length === 1) second = Array.from({ length: 10 }, (_, i) => writer.write(row(org, `sha256:late-${i}`)));
        const stored = await store!.query<T>(statement);
        sizes.push(stored.length);
        return stored;
      },
    };
    const writer = new CompletedWriter(counting);
    const first = await Promise.all(Array.from({ length: 10 }, (_, i) => writer.write(row(org, `sha256:early-${i}`))));
    const late = await Promise.all(second);
    expect([...first, ...late].every((r) => r !== undefined)).toBe(true);
    expect(inserts).toHaveLength(2);
    // the first ten went together, none alone ahead of the others
    expect(sizes).toEqual([10, 10]);
    const inDb = await store.db.select({ id: activities.id }).from(activities).where(eq(activities.organizationId, org));
    expect(inDb).toHaveLength(20);
  });
});

describe.each(storeKinds)('the two texts of the activity INSERT on %s', (kind) => {
  let store: TestStore | undefined;
  afterEach(async () => {
    await store?.dispose();
    store = undefined;
  });

  it('given the same rows and guards, when stored by the group commit`s INSERT (its VALUES text and, for a larger batch, its unnest text) and by the one in a transaction, then the stored rows are equal column for column, and all hold back the same stale-guarded and duplicate rows', async () => {
    store = await openTestStore(kind);
    const org = randomUUID();
    const parent = randomUUID();
    await store.db.insert(organizations).values([
      { id: parent, name: 'parent' },
      { id: org, name: 'insert', parentOrganizationId: parent },
    ]);
    const now = new Date('2026-11-26T10:00:00.123Z');
    // Every column that either text writes, with values that need escaping inside an array literal.
    const full = (fingerprint: string) => ({
      ...row(org, fingerprint),
      timestampMs: String(now.getTime()),
      userId: 'user "quoted" \\ back',
      intent: { text: 'a "b" \\ c, {d}', list: [1, null, 'é'] },
      result: { signatures: [{ r: 'ab', s: 'cd', v: '00' }] },
      appProofs: [{ scheme: 'p256', proof: '{"x":1}' }],
      generateAppProofs: true,
      failure: { code: 'ERR_X', message: 'why, "quoted"' },
      createdAt: now,
      updatedAt: new Date(now.getTime() + 5),
    });
    const guard = [
      [org, 0],
      [parent, 0],
    ] as Array<[string, number]>;
    const stale = [[org, 7]] as Array<[string, number]>;
    const batch = (prefix: string) => [
      { row: full(`sha256:${prefix}-guarded`), guard },
      { row: full(`sha256:${prefix}-unguarded`), guard: [] },
      { row: { ...full(`sha256:${prefix}-nulls`), appProofs: null, failure: null, generateAppProofs: false }, guard },
      { row: full(`sha256:${prefix}-stale`), guard: stale },
      { row: full('sha256:stored-before'), guard: [] },
    ];
    await store.query(groupCommitInsert([{ row: full('sha256:stored-before'), guard: [] }]));

    const byGroupCommit = await store.query<{ id: string }>(groupCommitInsert(batch('g')));
    // The same five rows in a batch too large for a VALUES text: the unnest text.
    const filler = Array.from({ length: VALUES_ROWS }, (_, i) => ({ row: full(`sha256:filler-${i}`), guard: [] }));
    const large = groupCommitInsert([...batch('u'), ...filler]);
    expect([groupCommitInsert(batch('g')).name, large.name]).toEqual([groupCommitName(5), GROUP_COMMIT_INSERT]);
    expect(await store.query(large)).toHaveLength(3 + VALUES_ROWS);
    const inTransaction = batch('t');
    const written = await store.transaction(async (tx) => insertActivities(tx, inTransaction.slice(0, 4), { skipConflicts: true }));
    // The transaction's text raises on a duplicate fingerprint instead of skipping it.
    await expect(store.transaction(async (tx) => insertActivities(tx, inTransaction.slice(4), { skipConflicts: false }))).rejects.toThrow();

    expect(byGroupCommit).toHaveLength(3);
    expect(written.size).toBe(3);
    const stored = await store.db.select().from(activities).where(eq(activities.organizationId, org));
    const strip = ({ id: _id, fingerprint, ...rest }: (typeof stored)[number]) => ({ ...rest, kind: fingerprint.replace(/^sha256:[gtu]-/, '') });
    const g = stored.filter((r) => r.fingerprint.startsWith('sha256:g-')).map(strip);
    const u = stored.filter((r) => r.fingerprint.startsWith('sha256:u-')).map(strip);
    const t = stored.filter((r) => r.fingerprint.startsWith('sha256:t-')).map(strip);
    const order = (rows: ReturnType<typeof strip>[]) => [...rows].sort((a, b) => a.kind.localeCompare(b.kind));
    expect(order(g).map((r) => r.kind)).toEqual(['guarded', 'nulls', 'unguarded']);
    expect(order(g)).toEqual(order(t));
    expect(order(u)).toEqual(order(t));
    expect(order(g)[0]).toMatchObject({ userId: 'user "quoted" \\ back', intent: { text: 'a "b" \\ c, {d}', list: [1, null, 'é'] }, generateAppProofs: true });
    expect(order(g)[1]).toMatchObject({ appProofs: null, failure: null, generateAppProofs: false });
  });
});

describe('the group commit`s prepared statement on postgres', () => {
  it('given a connection that lost the prepared INSERT (as behind a transaction-mode pooler), when the next batch comes, then it runs unnamed and is stored, later batches too, and a real error still fails', async () => {
    const database = await createTestDatabase();
    // One connection, so the statement is dropped where the driver prepared it.
    const store = await openStore({ databaseUrl: database.url, poolSize: 1 });
    try {
      const org = randomUUID();
      await store.db.insert(organizations).values({ id: org, name: 'prepared' });
      const one = (fingerprint: string) =>
        groupCommitInsert([{ row: { ...row(org, fingerprint), appProofs: null, failure: null, generateAppProofs: false }, guard: [] }]);
      expect(await store.query(one('sha256:first'))).toHaveLength(1);
      // The driver believes the statement is prepared; the server connection no longer has it.
      await store.query({ text: `DEALLOCATE ${groupCommitName(1)}`, values: [] });
      expect(await store.query(one('sha256:second'))).toHaveLength(1);
      expect(await store.query(one('sha256:third'))).toHaveLength(1);
      const unknownOrganization = groupCommitInsert([
        { row: { ...row(randomUUID(), 'sha256:x'), appProofs: null, failure: null, generateAppProofs: false }, guard: [] },
      ]);
      await expect(store.query(unknownOrganization)).rejects.toMatchObject({ code: '23503' });
      const stored = await store.db.select({ fingerprint: activities.fingerprint }).from(activities).where(eq(activities.organizationId, org));
      expect(stored.map((r) => r.fingerprint).sort()).toEqual(['sha256:first', 'sha256:second', 'sha256:third']);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});
