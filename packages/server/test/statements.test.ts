/**
 * Statements built once (store/statements.ts), on PostgreSQL and on PGlite: what a built
 * statement writes and reads is what drizzle's own builder writes and reads (timestamps, JSON,
 * booleans, NULLs), it is built once however often it runs, it runs on the connection of the
 * transaction it is given (so it commits and rolls back with it), and a bound one rides in the
 * round trip of the transaction's next statement (round-trips.ts `sendWithNext`).
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { boolean, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sqlState, type Tx } from '../src/store/db';
import { commitWithNext, sendWithNext } from '../src/store/round-trips';
import { clientOf, type Placeholders, runRaw, statement } from '../src/store/statements';
import { ts } from '../src/store/schema-columns';
import { openTestStore, storeKinds, type TestStore } from './support/stores';

const name = `st_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
const things = pgTable(name, {
  id: text('id').primaryKey(),
  owner: text('owner').notNull(),
  doc: jsonb('doc').$type<unknown>(),
  flag: boolean('flag').notNull(),
  at: ts('at').notNull(),
  gone: ts('gone'),
});
type Thing = typeof things.$inferSelect;

const built = vi.fn();
const insertThing = statement('test_insert_thing', (db, p: Placeholders<Thing>) => {
  built('insert');
  return db
    .insert(things)
    .values({ id: p('id'), owner: p('owner'), doc: p('doc'), flag: p('flag'), at: p('at'), gone: p('gone') })
    .returning({ id: things.id, at: things.at });
});
const thingsOf = statement('test_things_of', (db, p: Placeholders<{ owner: string; flag: boolean }>) => {
  built('select');
  return db
    .select()
    .from(things)
    .where(and(eq(things.owner, p('owner')), eq(things.flag, p('flag'))))
    .orderBy(things.id);
});

/** The connection of a transaction's node-postgres client. */
const connectionOf = (tx: Tx) => (clientOf(tx) as unknown as { connection: NodeJS.EventEmitter }).connection;

describe.each(storeKinds)('statements built once on %s', (kind) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore(kind, { poolSize: 2 });
    await store.db.execute(
      sql.raw(`CREATE TABLE ${name} (id text PRIMARY KEY, owner text NOT NULL, doc jsonb, flag boolean NOT NULL, at timestamptz NOT NULL, gone timestamptz)`),
    );
  });
  afterAll(async () => {
    await store?.dispose();
  });

  const sample = (owner: string, i: number): Thing => ({
    id: `${owner}-${i}`,
    owner,
    doc: i % 2 === 0 ? { nested: { list: [1, 'two', null], text: 'a "quoted" \\ value' } } : [i, { k: 'v' }],
    flag: true,
    at: new Date(Date.UTC(2026, 10, 29, 5, i, 7, 123)),
    gone: i % 2 === 0 ? null : new Date(Date.UTC(2030, 0, 1, 0, 0, i)),
  });

  it('given rows with JSON objects and arrays, timestamps and NULLs, when a built statement writes them and another reads them, then what is stored and read equals what drizzle`s own builder writes and reads', async () => {
    const viaStatement = [0, 1, 2, 3].map((i) => sample('built', i));
    const viaDrizzle = [0, 1, 2, 3].map((i) => sample('drizzle', i));
    const returned = [];
    for (const row of viaStatement) returned.push(...(await insertThing.run(store.db, row)));
    await store.db.insert(things).values(viaDrizzle);

    expect(returned).toEqual(viaStatement.map((r) => ({ id: r.id, at: r.at })));
    const read = await thingsOf.run(store.db, { owner: 'built', flag: true });
    const drizzleRead = await store.db.select().from(things).where(eq(things.owner, 'drizzle')).orderBy(things.id);
    expect(read).toEqual(viaStatement);
    expect(drizzleRead).toEqual(viaDrizzle);
    // Stored alike, column for column, as the database sees them.
    const raw = await runRaw<{ id: string; doc: string; at: string; gone: string | null }>(store.db, {
      text: `SELECT id, doc::text AS doc, at::text AS at, gone::text AS gone FROM ${name} ORDER BY id`,
      values: [],
    });
    const strip = (rows: typeof raw, owner: string) => rows.filter((r) => r.id.startsWith(owner)).map(({ id, ...rest }) => ({ ...rest, i: id.split('-')[1] }));
    expect(strip(raw, 'built')).toEqual(strip(raw, 'drizzle'));
    expect(await thingsOf.run(store.db, { owner: 'built', flag: false })).toEqual([]);
  });

  it('given a built statement run many times on the pool and in transactions, when counted, then it was built once', async () => {
    const before = built.mock.calls.length;
    for (let i = 0; i < 5; i++) {
      await thingsOf.run(store.db, { owner: 'nobody', flag: true });
      await store.transaction(async (tx) => thingsOf.run(tx, { owner: 'nobody', flag: false }));
    }
    // At most the first use of each in this process built it (the test above may have).
    expect(built.mock.calls.slice(before).filter(([what]) => what === 'select')).toEqual([]);
    expect(built.mock.calls.filter(([what]) => what === 'select')).toHaveLength(1);
  });

  it('given a built statement run in a transaction, when the transaction reads its own row and then throws, then the row was visible inside it and is gone after', async () => {
    const row = sample('tx', 1);
    const failed = store.transaction(async (tx) => {
      await insertThing.run(tx, row);
      // On the transaction's connection: its own uncommitted row is there; not on the pool's other
      // connection (PostgreSQL; PGlite's pool has one connection, which the transaction holds).
      expect(await thingsOf.run(tx, { owner: 'tx', flag: true })).toEqual([row]);
      if (kind === 'postgres') expect(await thingsOf.run(store.db, { owner: 'tx', flag: true })).toEqual([]);
      throw new Error('rolled back');
    });
    await expect(failed).rejects.toThrow('rolled back');
    expect(await thingsOf.run(store.db, { owner: 'tx', flag: true })).toEqual([]);
  });

  it('given a bound statement handed to sendWithNext, when the transaction`s last statement follows, then the BEGIN, both statements and the COMMIT take one round trip and both rows are stored', async () => {
    let roundTrips = 0;
    const count = () => roundTrips++;
    let connection: NodeJS.EventEmitter | undefined;
    try {
      await store.transaction(async (tx) => {
        connection = connectionOf(tx);
        connection.on('readyForQuery', count);
        await sendWithNext(tx, insertThing.bind(sample('held', 1)));
        commitWithNext(tx);
        await insertThing.run(tx, sample('held', 2));
      });
    } finally {
      connection?.off('readyForQuery', count);
    }
    expect(roundTrips).toBe(1);
    expect(await thingsOf.run(store.db, { owner: 'held', flag: true })).toEqual([sample('held', 1), sample('held', 2)]);
  });

  it('given a held bound statement that fails (a duplicate id), when the next statement runs, then that statement fails with the unique violation and nothing of the transaction remains', async () => {
    await insertThing.run(store.db, sample('dup', 1));
    const failed = store.transaction(async (tx) => {
      await sendWithNext(tx, insertThing.bind({ ...sample('dup', 1), owner: 'dup2' }));
      await insertThing.run(tx, sample('dup2', 2));
    });
    const error = await failed.then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(sqlState(error)).toBe('23505');
    expect(await thingsOf.run(store.db, { owner: 'dup2', flag: true })).toEqual([]);
  });

  it('given a value missing for a placeholder, when the statement runs, then it throws before anything is sent', async () => {
    await expect(thingsOf.run(store.db, { owner: 'x' } as unknown as { owner: string; flag: boolean })).rejects.toThrow(/No value for placeholder "flag"/);
  });
});
