/**
 * A transaction's BEGIN sent with its first statement and its COMMIT with its last
 * (store/round-trips.ts, through the store's node-postgres client, prepared.ts), on PostgreSQL and
 * on PGlite: the round trips a transaction takes, that what it wrote commits or rolls back exactly
 * as before when any of the three fails (the BEGIN, the statement, the COMMIT itself), that
 * nothing runs outside the transaction, and that prepared statements stay consistent.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlState, type Tx } from '../src/store/db';
import { PREPARE_AFTER } from '../src/store/prepared';
import { Batch, commitWithNext, encodeValues, sendWithNext } from '../src/store/round-trips';
import { openTestStore, storeKinds, type TestStore } from './support/stores';

/** The node-postgres client under a drizzle transaction. */
const clientOf = (tx: Tx) => (tx as unknown as { _: { session: { client: pg.Client & { connection: NodeJS.EventEmitter } } } })._.session.client;

describe.each(storeKinds)('round trips of a transaction on %s', (kind) => {
  let store: TestStore;
  const table = `rt_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  beforeAll(async () => {
    store = await openTestStore(kind, { poolSize: 1 });
    await store.db.execute(sql.raw(`CREATE TABLE ${table} (id int PRIMARY KEY, v text, d int)`));
    // A unique constraint checked at COMMIT, not at the statement: the COMMIT itself fails.
    await store.db.execute(sql.raw(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_d UNIQUE (d) DEFERRABLE INITIALLY DEFERRED`));
  });
  afterAll(async () => {
    await store?.dispose();
  });

  const insert = (tx: Tx, id: number, v: string, d = id) => tx.execute(sql`INSERT INTO ${sql.raw(table)} (id, v, d) VALUES (${id}, ${v}, ${d})`);
  const ids = async () => (await store.query<{ id: number }>({ text: `SELECT id FROM ${table} ORDER BY id`, values: [] })).map((r) => r.id);
  const clear = () => store.query({ text: `DELETE FROM ${table}`, values: [] });

  /** Runs `fn` in a transaction and counts the round trips (ReadyForQuery answers) from its first statement on. */
  async function counted<T>(fn: (tx: Tx) => Promise<T>): Promise<{ value?: T; error?: unknown; roundTrips: number }> {
    let roundTrips = 0;
    let connection: NodeJS.EventEmitter | undefined;
    const count = () => roundTrips++;
    try {
      const value = await store.transaction(async (tx) => {
        connection = clientOf(tx).connection;
        connection.on('readyForQuery', count);
        return fn(tx);
      });
      return { value, roundTrips };
    } catch (error) {
      return { error, roundTrips };
    } finally {
      connection?.off('readyForQuery', count);
    }
  }

  it('given three statements, the last marked with commitWithNext, when the transaction runs, then it takes three round trips and all three rows are committed', async () => {
    await clear();
    const run = await counted(async (tx) => {
      await insert(tx, 1, 'a');
      await insert(tx, 2, 'b');
      commitWithNext(tx);
      await insert(tx, 3, 'c');
      return 'done';
    });
    expect(run).toEqual({ value: 'done', roundTrips: 3 });
    expect(await ids()).toEqual([1, 2, 3]);
  });

  it('given no statement marked, when the transaction runs, then the BEGIN still goes with the first statement and the COMMIT takes one more round trip', async () => {
    await clear();
    const run = await counted(async (tx) => {
      await insert(tx, 1, 'a');
      await insert(tx, 2, 'b');
    });
    expect(run.roundTrips).toBe(3);
    expect(await ids()).toEqual([1, 2]);
  });

  it('given a transaction that runs no statement, when it commits or rolls back, then nothing is sent and the connection serves the next one', async () => {
    expect(await counted(async () => 'nothing')).toEqual({ value: 'nothing', roundTrips: 0 });
    const failed = await counted(async () => {
      throw new Error('before any statement');
    });
    expect(failed.roundTrips).toBe(0);
    expect((failed.error as Error).message).toBe('before any statement');
    await clear();
    await store.transaction(async (tx) => {
      await insert(tx, 7, 'after');
    });
    expect(await ids()).toEqual([7]);
  });

  it('given the first statement fails, when it carried the BEGIN, then its SQLSTATE reaches the caller, nothing stays and the next transaction runs', async () => {
    await clear();
    await store.transaction((tx) => insert(tx, 1, 'kept'));
    const run = await counted(async (tx) => {
      await insert(tx, 1, 'duplicate');
      await insert(tx, 2, 'never');
    });
    expect(sqlState(run.error)).toBe('23505');
    expect(await ids()).toEqual([1]);
    await store.transaction((tx) => insert(tx, 3, 'next'));
    expect(await ids()).toEqual([1, 3]);
  });

  it('given the last statement fails, when it carried the COMMIT, then the COMMIT never runs and the earlier statements roll back too', async () => {
    await clear();
    await store.transaction((tx) => insert(tx, 1, 'kept'));
    const run = await counted(async (tx) => {
      await insert(tx, 2, 'rolled back');
      commitWithNext(tx);
      await insert(tx, 1, 'duplicate');
    });
    expect(sqlState(run.error)).toBe('23505');
    expect(await ids()).toEqual([1]);
    await store.transaction(async (tx) => {
      commitWithNext(tx);
      await insert(tx, 4, 'next');
    });
    expect(await ids()).toEqual([1, 4]);
  });

  it('given the COMMIT itself fails (a deferred unique constraint), when it went with the last statement, then the caller gets its error and nothing stays', async () => {
    await clear();
    const run = await counted(async (tx) => {
      await insert(tx, 1, 'one', 10);
      commitWithNext(tx);
      await insert(tx, 2, 'two', 10);
    });
    expect(sqlState(run.error)).toBe('23505');
    expect(await ids()).toEqual([]);
    await store.transaction((tx) => insert(tx, 5, 'next'));
    expect(await ids()).toEqual([5]);
  });

  it('given a statement after the one that carried the COMMIT, then it is refused without running', async () => {
    await clear();
    const run = await counted(async (tx) => {
      commitWithNext(tx);
      await insert(tx, 1, 'committed with the COMMIT');
      await insert(tx, 2, 'after the commit');
    });
    expect(String((run.error as Error).cause)).toMatch(/committed with its last statement/);
    // The row of the statement that carried the COMMIT is committed; the one after it never ran.
    expect(await ids()).toEqual([1]);
    await store.transaction((tx) => insert(tx, 3, 'next'));
    expect(await ids()).toEqual([1, 3]);
  });

  it('given statements held with sendWithNext, when the next statement runs, then they run first in its round trip and commit with it', async () => {
    await clear();
    const run = await counted(async (tx) => {
      await insert(tx, 1, 'first');
      await sendWithNext(tx, sql`INSERT INTO ${sql.raw(table)} (id, v, d) VALUES (${2}, ${'held'}, ${2})`);
      await sendWithNext(tx, sql`UPDATE ${sql.raw(table)} SET v = ${'held too'} WHERE id = ${1}`);
      const seen = await tx.execute(sql`SELECT id, v FROM ${sql.raw(table)} WHERE id <= ${2} ORDER BY id`);
      commitWithNext(tx);
      await insert(tx, 3, 'last');
      return (seen as unknown as { rows: unknown[] }).rows;
    });
    expect(run.value).toEqual([
      { id: 1, v: 'held too' },
      { id: 2, v: 'held' },
    ]);
    expect(run.roundTrips).toBe(3);
    expect(await ids()).toEqual([1, 2, 3]);
  });

  it("given a hand-written text held with sendWithNext (a CTE with positional parameters), when the next statement runs, then it runs first in that round trip, and its failure is that statement's", async () => {
    await clear();
    const raw = (id: number, d: number) => ({
      name: 'wk_rt_raw_test',
      text: `WITH old AS (DELETE FROM ${table} WHERE id = $1 RETURNING id) INSERT INTO ${table} (id, v, d) SELECT $1, $2, $3 WHERE (SELECT count(*) FROM old) >= 0`,
      values: [id, 'raw', d],
    });
    const run = await counted(async (tx) => {
      await insert(tx, 1, 'first');
      await sendWithNext(tx, raw(2, 2));
      commitWithNext(tx);
      await insert(tx, 3, 'last');
    });
    expect(run.error).toBeUndefined();
    expect(run.roundTrips).toBe(2);
    expect(await ids()).toEqual([1, 2, 3]);
    // its failure (d = 1 is taken, checked at COMMIT: the deferred constraint) is the transaction's
    const failed = await counted(async (tx) => {
      await insert(tx, 4, 'rolled back');
      await sendWithNext(tx, raw(5, 1));
      commitWithNext(tx);
      await insert(tx, 6, 'never');
    });
    expect(sqlState(failed.error)).toBe('23505');
    expect(await ids()).toEqual([1, 2, 3]);
  });

  it('given a held statement that fails, when the next statement carries it, then that statement fails with its SQLSTATE, never runs, and nothing stays', async () => {
    await clear();
    await store.transaction((tx) => insert(tx, 1, 'kept'));
    const run = await counted(async (tx) => {
      await insert(tx, 2, 'rolled back');
      await sendWithNext(tx, sql`INSERT INTO ${sql.raw(table)} (id, v, d) VALUES (${1}, ${'duplicate'}, ${9})`);
      commitWithNext(tx);
      await insert(tx, 3, 'never');
    });
    expect(sqlState(run.error)).toBe('23505');
    // The first statement with the BEGIN, the failed batch, the owner's ROLLBACK.
    expect(run.roundTrips).toBe(3);
    expect(await ids()).toEqual([1]);
    await store.transaction((tx) => insert(tx, 4, 'next'));
    expect(await ids()).toEqual([1, 4]);
  });

  it('given a held statement, when the transaction rolls back before any other statement, then it never runs', async () => {
    await clear();
    const run = await counted(async (tx) => {
      await insert(tx, 1, 'rolled back');
      await sendWithNext(tx, sql`INSERT INTO ${sql.raw(table)} (id, v, d) VALUES (${2}, ${'never'}, ${2})`);
      throw new Error('refused');
    });
    expect((run.error as Error).message).toBe('refused');
    expect(await ids()).toEqual([]);
    const alone = await counted(async (tx) => {
      await sendWithNext(tx, sql`INSERT INTO ${sql.raw(table)} (id, v, d) VALUES (${5}, ${'never either'}, ${5})`);
      throw new Error('refused');
    });
    expect(alone.roundTrips).toBe(0);
    expect(await ids()).toEqual([]);
  });

  it("given a held statement and nothing after it, when the transaction commits, then it runs in the COMMIT's round trip", async () => {
    await clear();
    const run = await counted(async (tx) => {
      await sendWithNext(tx, sql`INSERT INTO ${sql.raw(table)} (id, v, d) VALUES (${6}, ${'with the commit'}, ${6})`);
    });
    expect(run.roundTrips).toBe(1);
    expect(await ids()).toEqual([6]);
  });

  it('given a held advisory lock, when the next statement runs, then the lock is held by the transaction until it ends', async () => {
    const locks = sql`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted AND objid = ${4242}`;
    const held = await store.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1 WHERE ${1} = 1`);
      await sendWithNext(tx, sql`SELECT pg_advisory_xact_lock(${4242})`);
      return (await tx.execute(locks)) as unknown as { rows: Array<{ n: number }> };
    });
    expect(held.rows[0]?.n).toBe(1);
    const after = (await store.db.execute(locks)) as unknown as { rows: Array<{ n: number }> };
    expect(after.rows[0]?.n).toBe(0);
  });

  it('given a held statement, when the next one has no parameters, then the held one runs first on its own and the next sees its effect', async () => {
    await clear();
    const run = await counted(async (tx) => {
      await insert(tx, 1, 'first');
      await sendWithNext(tx, sql`UPDATE ${sql.raw(table)} SET v = ${'updated'} WHERE id = ${1}`);
      return tx.execute(sql.raw(`SELECT v FROM ${table} WHERE id = 1`));
    });
    expect((run.value as unknown as { rows: unknown[] }).rows).toEqual([{ v: 'updated' }]);
    expect(run.roundTrips).toBe(4);
  });

  it('given an isolation level, when the BEGIN goes with the first statement, then the statement runs at that level', async () => {
    const levels = await store.transaction((tx) => tx.execute(sql`SELECT current_setting(${'transaction_isolation'}) AS level`), { isolation: 'serializable' });
    expect((levels as unknown as { rows: Array<{ level: string }> }).rows[0]?.level).toBe('serializable');
  });

  it('given a first statement without parameters, when the transaction runs, then the BEGIN goes alone before it and it runs inside the transaction', async () => {
    const run = await counted(async (tx) => {
      await tx.execute(sql.raw(`SET LOCAL statement_timeout = 12345`));
      return tx.execute(sql`SELECT current_setting(${'statement_timeout'}) AS t`);
    });
    expect((run.value as unknown as { rows: Array<{ t: string }> }).rows[0]?.t).toBe('12345ms');
    expect(run.roundTrips).toBe(4);
    const after = await store.query<{ t: string }>({ text: 'SELECT current_setting($1) AS t', values: ['statement_timeout'] });
    expect(after[0]?.t).not.toBe('12345ms');
  });

  it('given a hot statement first in each transaction, when it becomes named, then it is parsed once on the connection and answers the same every time', async () => {
    await clear();
    await store.transaction((tx) => insert(tx, 1, 'hot'));
    const text = `SELECT v FROM ${table} WHERE id = $1 AND v <> $2`;
    for (let i = 0; i < PREPARE_AFTER + 3; i++) {
      const rows = await store.transaction(async (tx) => {
        commitWithNext(tx);
        return (await clientOf(tx).query({ text, values: [1, 'x'] })).rows;
      });
      expect(rows).toEqual([{ v: 'hot' }]);
    }
    const prepared = await store.query<{ statement: string }>({ text: 'SELECT statement FROM pg_prepared_statements', values: [] });
    expect(prepared.filter((p) => p.statement === text)).toHaveLength(1);
  });
  const preparedCount = async (text: string) =>
    (await store.query<{ statement: string }>({ text: 'SELECT statement FROM pg_prepared_statements', values: [] })).filter((p) => p.statement === text).length;

  it('given a held statement run in many transactions, when it becomes named, then it is parsed once on the connection and every run wrote its row', async () => {
    await clear();
    const held = (id: number) => sql`INSERT INTO ${sql.raw(table)} (d, v, id) VALUES (${id}, ${'held named'}, ${id})`;
    for (let id = 1; id <= PREPARE_AFTER + 3; id++) {
      const run = await counted(async (tx) => {
        await sendWithNext(tx, held(id));
        commitWithNext(tx);
        await insert(tx, 100 + id, 'carrier');
      });
      expect(run.roundTrips).toBe(1);
    }
    const runs = Array.from({ length: PREPARE_AFTER + 3 }, (_, i) => i + 1);
    expect(await ids()).toEqual([...runs, ...runs.map((id) => 100 + id)]);
    expect(await preparedCount(`INSERT INTO ${table} (d, v, id) VALUES ($1, $2, $3)`)).toBe(1);
  });

  it('given a named held statement that fails, when the next statement carries it, then that one fails with its SQLSTATE, nothing stays, and the held statement runs again prepared', async () => {
    await clear();
    const text = `UPDATE ${table} SET d = $1 WHERE id = $2`;
    const held = (d: number, id: number) => sql`UPDATE ${sql.raw(table)} SET d = ${d} WHERE id = ${id}`;
    await store.transaction(async (tx) => {
      await insert(tx, 1, 'one');
      await insert(tx, 2, 'two');
    });
    for (let i = 0; i < PREPARE_AFTER; i++) await store.transaction(async (tx) => sendWithNext(tx, held(1, 1)));
    expect(await preparedCount(text)).toBe(1);
    // d of row 2 set to row 1's: the deferred unique constraint fails at COMMIT; an immediate one: a duplicate id.
    const run = await counted(async (tx) => {
      await sendWithNext(tx, sql`UPDATE ${sql.raw(table)} SET id = ${1} WHERE id = ${2}`);
      await sendWithNext(tx, held(7, 1));
      commitWithNext(tx);
      await insert(tx, 3, 'never');
    });
    expect(sqlState(run.error)).toBe('23505');
    expect(await ids()).toEqual([1, 2]);
    await store.transaction(async (tx) => {
      await sendWithNext(tx, held(8, 2));
      commitWithNext(tx);
      await insert(tx, 3, 'three');
    });
    expect(await store.query<{ id: number; d: number }>({ text: `SELECT id, d FROM ${table} ORDER BY id`, values: [] })).toEqual([
      { id: 1, d: 1 },
      { id: 2, d: 8 },
      { id: 3, d: 3 },
    ]);
    expect(await preparedCount(text)).toBe(1);
  });

  it('given a held statement whose text does not parse, when it runs past PREPARE_AFTER times, then every transaction fails with the syntax error and the connection serves the next one', async () => {
    await clear();
    for (let i = 0; i < PREPARE_AFTER + 2; i++) {
      const run = await counted(async (tx) => {
        await sendWithNext(tx, sql`UPDATE ${sql.raw(table)} SET v = ${'x'} WHERE WHERE id = ${i}`);
        await insert(tx, 1, 'never');
      });
      expect(sqlState(run.error)).toBe('42601');
    }
    await store.transaction((tx) => insert(tx, 2, 'next'));
    expect(await ids()).toEqual([2]);
  });
});

describe('Batch', () => {
  /** A connection that records what is written. */
  function wire() {
    const written: string[] = [];
    return {
      written,
      parsedStatements: {} as Record<string, string>,
      submittedNamedStatements: {} as Record<string, string>,
      stream: { cork: () => written.push('cork'), uncork: () => written.push('uncork') },
      parse: (m: { text: string; name?: string }) => written.push(`parse ${m.name ?? ''}:${m.text}`),
      bind: (m: { statement?: string; values?: unknown[] }) => written.push(`bind ${m.statement ?? ''}(${(m.values ?? []).join(',')})`),
      describe: () => written.push('describe'),
      execute: () => written.push('execute'),
      sync: () => written.push('sync'),
    };
  }
  function statement(name?: string) {
    const seen: Array<[string, unknown]> = [];
    const q = {
      text: 'UPDATE t SET v = $1',
      name,
      _result: {},
      handleRowDescription: (m: unknown) => seen.push(['rows', m]),
      handleDataRow: (m: unknown) => seen.push(['row', m]),
      handleCommandComplete: (m: unknown) => seen.push(['complete', m]),
      handleEmptyQuery: () => seen.push(['empty', null]),
      handleError: (e: unknown) => seen.push(['error', e]),
      handleReadyForQuery: () => seen.push(['ready', null]),
      handlePortalSuspended: () => {},
      handleCopyInResponse: () => {},
      handleCopyData: () => {},
    };
    return { q, seen };
  }

  it('given a BEGIN, a statement and a COMMIT, when submitted, then it writes them in order with one Sync, corked into one write', () => {
    const w = wire();
    const { q } = statement('wk_x');
    expect(new Batch(q, encodeValues([new Date(0)]) ?? [], [{ text: 'begin', values: [] }], true).submit(w)).toBeNull();
    expect(w.written).toEqual([
      'cork',
      'parse :begin',
      'bind ()',
      'execute',
      'parse wk_x:UPDATE t SET v = $1',
      `bind wk_x(${encodeValues([new Date(0)])?.[0]})`,
      'describe',
      'execute',
      'parse :COMMIT',
      'bind ()',
      'execute',
      'sync',
      'uncork',
    ]);
    expect(w.submittedNamedStatements).toEqual({ wk_x: 'UPDATE t SET v = $1' });
  });

  it("given the answers, when they arrive, then the statement sees only its own, its name only while they arrive, and the COMMIT's answer marks it committed", () => {
    const { q, seen } = statement('wk_x');
    const batch = new Batch(q, [], [{ text: 'begin', values: [] }], true);
    expect(batch.name).toBeUndefined();
    batch.handleCommandComplete({ text: 'BEGIN' }, null);
    expect(batch.name).toBe('wk_x');
    batch.handleRowDescription('fields');
    batch.handleCommandComplete({ text: 'UPDATE 1' }, null);
    expect(batch.name).toBeUndefined();
    expect(batch.committed).toBe(false);
    batch.handleCommandComplete({ text: 'COMMIT' }, null);
    expect(batch.committed).toBe(true);
    batch.handleReadyForQuery(null);
    expect(seen).toEqual([
      ['rows', 'fields'],
      ['complete', { text: 'UPDATE 1' }],
      ['ready', null],
    ]);
  });

  it('given the BEGIN fails, when its error arrives, then the statement gets it and its never-parsed name is forgotten', () => {
    const w = wire();
    const { q, seen } = statement('wk_y');
    const batch = new Batch(q, [], [{ text: 'begin', values: [] }], false);
    batch.submit(w);
    expect(w.submittedNamedStatements.wk_y).toBeDefined();
    const failure = new Error('begin failed');
    batch.handleError(failure, w);
    expect(w.submittedNamedStatements.wk_y).toBeUndefined();
    expect(seen).toEqual([['error', failure]]);
  });

  it('given named statements ahead, when submitted, then each is parsed once on the connection (then only bound), and its name is the batch`s while its answers arrive', () => {
    const w = wire();
    w.parsedStatements.wk_a = 'UPDATE a SET v = $1';
    const { q } = statement();
    const ahead = [
      { text: 'begin', values: [] },
      { text: 'UPDATE a SET v = $1', values: ['1'], name: 'wk_a' },
      { text: 'UPDATE b SET v = $1', values: ['2'], name: 'wk_b' },
    ];
    const batch = new Batch(q, ['3'], ahead, false);
    expect(batch.submit(w)).toBeNull();
    expect(w.written).toEqual([
      'cork',
      'parse :begin',
      'bind ()',
      'execute',
      'bind wk_a(1)',
      'execute',
      'parse wk_b:UPDATE b SET v = $1',
      'bind wk_b(2)',
      'execute',
      'parse :UPDATE t SET v = $1',
      'bind (3)',
      'describe',
      'execute',
      'sync',
      'uncork',
    ]);
    expect(w.submittedNamedStatements).toEqual({ wk_b: 'UPDATE b SET v = $1' });
    expect(batch.name).toBeUndefined();
    batch.handleCommandComplete({ text: 'BEGIN' }, null);
    expect([batch.name, batch.text]).toEqual(['wk_a', 'UPDATE a SET v = $1']);
    batch.handleCommandComplete({ text: 'UPDATE 1' }, null);
    expect([batch.name, batch.text]).toEqual(['wk_b', 'UPDATE b SET v = $1']);
    batch.handleCommandComplete({ text: 'UPDATE 1' }, null);
    expect([batch.name, batch.text]).toEqual([undefined, 'UPDATE t SET v = $1']);
  });

  it('given a statement ahead fails, when its error arrives, then the names whose Parse the server skipped after it are forgotten', () => {
    const w = wire();
    const { q, seen } = statement('wk_main');
    const ahead = [
      { text: 'UPDATE a SET v = $1', values: ['1'], name: 'wk_a' },
      { text: 'UPDATE b SET v = $1', values: ['2'], name: 'wk_b' },
    ];
    const batch = new Batch(q, [], ahead, false);
    batch.submit(w);
    expect(Object.keys(w.submittedNamedStatements).sort()).toEqual(['wk_a', 'wk_b', 'wk_main']);
    // wk_a parsed, then failed when it ran (node-postgres records the parse and forgets the failing one's submission).
    w.parsedStatements.wk_a = 'UPDATE a SET v = $1';
    const failure = new Error('a failed');
    batch.handleError(failure, w);
    expect(Object.keys(w.submittedNamedStatements).sort()).toEqual(['wk_a']);
    expect(seen).toEqual([['error', failure]]);
  });

  it('given a name already used for another text on the connection, when submitted, then it refuses without writing anything', () => {
    const w = wire();
    w.parsedStatements.wk_z = 'SELECT 1';
    const { q } = statement('wk_z');
    expect(new Batch(q, [], [{ text: 'begin', values: [] }], true).submit(w)).toBeInstanceOf(Error);
    expect(w.written).toEqual([]);
  });

  const probe = { text: 'SELECT noted() AS probed', values: [], name: 'wk_probe' };

  it('given a probe, when submitted and answered, then it runs between the statement and the COMMIT, its value comes from its own row, its name is the batch`s while its answers arrive, and only the COMMIT`s answer marks it committed', () => {
    const w = wire();
    const { q, seen } = statement('wk_x');
    const batch = new Batch(q, ['1'], [], true, probe);
    expect(batch.submit(w)).toBeNull();
    expect(w.written).toEqual([
      'cork',
      'parse wk_x:UPDATE t SET v = $1',
      'bind wk_x(1)',
      'describe',
      'execute',
      'parse wk_probe:SELECT noted() AS probed',
      'bind wk_probe()',
      'execute',
      'parse :COMMIT',
      'bind ()',
      'execute',
      'sync',
      'uncork',
    ]);
    batch.handleDataRow({ fields: ['statement row'] });
    batch.handleCommandComplete({ text: 'UPDATE 1' }, null);
    expect(batch.name).toBe('wk_probe');
    expect(batch.probed).toBeUndefined();
    batch.handleDataRow({ fields: [',org-a,org-b,'] });
    batch.handleCommandComplete({ text: 'SELECT 1' }, null);
    expect(batch.name).toBeUndefined();
    expect([batch.probed, batch.committed]).toEqual([',org-a,org-b,', false]);
    batch.handleCommandComplete({ text: 'COMMIT' }, null);
    expect(batch.committed).toBe(true);
    batch.handleReadyForQuery(null);
    expect(seen).toEqual([
      ['row', { fields: ['statement row'] }],
      ['complete', { text: 'UPDATE 1' }],
      ['ready', null],
    ]);
  });

  it('given a probe whose value is NULL, when its row arrives, then the value read is null', () => {
    const { q } = statement();
    const batch = new Batch(q, [], [], false, probe);
    batch.handleCommandComplete({ text: 'UPDATE 1' }, null);
    batch.handleDataRow({ fields: [null] });
    batch.handleCommandComplete({ text: 'SELECT 1' }, null);
    expect([batch.probed, batch.committed]).toEqual([null, false]);
  });

  it('given the statement fails, when its error arrives, then the probe never ran, nothing was read, and its never-parsed name is forgotten', () => {
    const w = wire();
    const { q, seen } = statement('wk_x');
    const batch = new Batch(q, [], [{ text: 'begin', values: [] }], true, probe);
    batch.submit(w);
    expect(Object.keys(w.submittedNamedStatements).sort()).toEqual(['wk_probe', 'wk_x']);
    batch.handleCommandComplete({ text: 'BEGIN' }, null);
    w.parsedStatements.wk_x = 'UPDATE t SET v = $1';
    const failure = new Error('statement failed');
    batch.handleError(failure, w);
    expect(w.submittedNamedStatements.wk_probe).toBeUndefined();
    expect([batch.probed, batch.committed]).toEqual([undefined, false]);
    expect(seen).toEqual([['error', failure]]);
  });
});
