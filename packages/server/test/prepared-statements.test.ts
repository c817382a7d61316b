/**
 * Hot statements prepared once per connection, on PostgreSQL and on PGlite (store/prepared.ts; on
 * PGlite through node-postgres over its protocol adapter, db.ts): which texts get
 * a name and when, that a named statement answers what an unnamed one does, and what happens when
 * a connection loses its statements (a transaction-mode pooler without them): outside a
 * transaction the statement runs again unnamed; inside one the transaction's owner sees the error
 * and, for an activity, the request runs again; afterwards nothing is named.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { isPreparedStatementLost, type Store } from '../src/store/db';
import { MAX_NAMED, PREPARE_AFTER, StatementNames } from '../src/store/prepared';
import { commitWithNext, sendWithNext } from '../src/store/round-trips';
import { activities, organizations } from '../src/store/schema';
import { startTestServer } from './support/harness';
import { openTestStore, storeKinds } from './support/stores';

describe('StatementNames', () => {
  it('given a text, when it runs, then it is named from its PREPARE_AFTER-th execution on, always with the same name, and other texts get other names', () => {
    const names = new StatementNames();
    const text = 'select 1 where $1::int = 1';
    for (let i = 1; i < PREPARE_AFTER; i++) expect(names.nameOf(text)).toBeUndefined();
    const name = names.nameOf(text);
    expect(name).toMatch(/^wk_[0-9a-f]{32}$/);
    expect(names.nameOf(text)).toBe(name);
    const other = 'select 2 where $1::int = 1';
    for (let i = 1; i < PREPARE_AFTER; i++) names.nameOf(other);
    expect(names.nameOf(other)).not.toBe(name);
  });

  it('given MAX_NAMED texts named, when another text gets hot, then it stays unnamed and the named ones keep their names', () => {
    const names = new StatementNames();
    const hot = (text: string) => {
      let name: string | undefined;
      for (let i = 0; i < PREPARE_AFTER; i++) name = names.nameOf(text);
      return name;
    };
    const first = hot('text 0');
    for (let i = 1; i < MAX_NAMED; i++) expect(hot(`text ${i}`)).toBeDefined();
    expect(hot('one too many')).toBeUndefined();
    expect(names.nameOf('text 0')).toBe(first);
  });

  it('given naming was disabled, when any text runs, then none is named', () => {
    const names = new StatementNames();
    for (let i = 0; i < PREPARE_AFTER; i++) names.nameOf('select $1');
    names.disable();
    expect(names.enabled).toBe(false);
    expect(names.nameOf('select $1')).toBeUndefined();
  });
});

/** The statements prepared on the store's one connection (pg_prepared_statements is per session). */
async function preparedOn(store: Store): Promise<string[]> {
  const rows = await store.query<{ statement: string }>({ text: 'SELECT statement FROM pg_prepared_statements', values: [] });
  return rows.map((r) => r.statement);
}

describe.each(storeKinds)('statements prepared on %s', (kind) => {
  async function withOneConnection(fn: (store: Store, org: string) => Promise<void>): Promise<void> {
    // One connection (PGlite has only one): what it prepared is what pg_prepared_statements shows.
    const store = await openTestStore(kind, { poolSize: 1 });
    try {
      const org = randomUUID();
      await store.db.insert(organizations).values({ id: org, name: `prepared ${org}` });
      await fn(store, org);
    } finally {
      await store.dispose();
    }
  }
  const nameOf = (store: Store, org: string) => store.db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, org));
  const isLookup = (statement: string) => statement.includes('from "organizations"') && statement.includes('"organizations"."id" = $1');

  it('given a drizzle statement, when it runs PREPARE_AFTER times, then the connection holds it prepared from then on and every run answers the same', async () => {
    await withOneConnection(async (store, org) => {
      for (let i = 1; i < PREPARE_AFTER; i++) {
        expect(await nameOf(store, org)).toEqual([{ name: `prepared ${org}` }]);
        expect((await preparedOn(store)).filter(isLookup)).toHaveLength(0);
      }
      for (let i = 0; i < 3; i++) expect(await nameOf(store, org)).toEqual([{ name: `prepared ${org}` }]);
      expect((await preparedOn(store)).filter(isLookup)).toHaveLength(1);
      // Another value through the same prepared statement.
      expect(await nameOf(store, randomUUID())).toEqual([]);
    });
  });

  it('given the connection lost its statements behind the driver, when the statement runs outside a transaction, then it answers (run again unnamed) and nothing is prepared any more', async () => {
    await withOneConnection(async (store, org) => {
      for (let i = 0; i < PREPARE_AFTER; i++) await nameOf(store, org);
      expect((await preparedOn(store)).filter(isLookup)).toHaveLength(1);
      await store.query({ text: 'DEALLOCATE ALL', values: [] });
      expect(await nameOf(store, org)).toEqual([{ name: `prepared ${org}` }]);
      for (let i = 0; i < PREPARE_AFTER + 1; i++) await nameOf(store, org);
      expect(await preparedOn(store)).toEqual([]);
    });
  });

  it('given the connection lost its statements, when one runs inside a transaction, then that transaction fails as lost with nothing stored, and the next one runs unnamed and commits', async () => {
    await withOneConnection(async (store, org) => {
      for (let i = 0; i < PREPARE_AFTER; i++) await nameOf(store, org);
      await store.query({ text: 'DEALLOCATE ALL', values: [] });
      const rename = (name: string) =>
        store.transaction(async (tx) => {
          // A text not run before (unnamed) writes; then the prepared lookup.
          await tx.update(organizations).set({ name }).where(eq(organizations.id, org));
          return tx.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, org));
        });
      const failed = await rename('first').then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(isPreparedStatementLost(failed)).toBe(true);
      expect(await nameOf(store, org)).toEqual([{ name: `prepared ${org}` }]);
      expect(await rename('second')).toEqual([{ name: 'second' }]);
      expect(await nameOf(store, org)).toEqual([{ name: 'second' }]);
      expect(await preparedOn(store)).toEqual([]);
    });
  });

  it('given the connection lost a statement held for the next round trip (sendWithNext), when the transaction runs, then it fails as lost with nothing stored, and the next one runs unnamed and commits', async () => {
    await withOneConnection(async (store, org) => {
      const rename = (name: string) =>
        store.transaction(async (tx) => {
          await sendWithNext(tx, tx.update(organizations).set({ name }).where(eq(organizations.id, org)));
          commitWithNext(tx);
          // A text of its own each time (never named): only the held statement is prepared.
          const rows = await tx.execute(sql`SELECT id FROM organizations WHERE id = ${org} AND ${sql.raw(`'${randomUUID()}'`)} <> ''`);
          return (rows as unknown as { rows: unknown[] }).rows;
        });
      for (let i = 0; i < PREPARE_AFTER; i++) await rename(`run ${i}`);
      expect((await preparedOn(store)).filter((text) => text.startsWith('update "organizations"'))).toHaveLength(1);
      await store.query({ text: 'DEALLOCATE ALL', values: [] });
      const failed = await rename('lost').then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(isPreparedStatementLost(failed)).toBe(true);
      // The very next transaction, the same statements: nothing is named any more, so it commits.
      expect(await rename('after')).toEqual([{ id: org }]);
      expect(await nameOf(store, org)).toEqual([{ name: 'after' }]);
      expect(await preparedOn(store)).toEqual([]);
    });
  });

  it('given activities run in their transactions, when a dozen have run, then their INSERT is prepared and planned once for any values (no longer at every execution), and every activity is stored once', async () => {
    const server = await startTestServer(kind, { poolSize: 1 });
    try {
      const runs = 12;
      const ids: string[] = [];
      for (let i = 0; i < runs; i++) {
        const reply = await server.client.submit('create_user_tag', { userTagName: `plan-${i}`, userIds: [] });
        expect(reply.body.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
        ids.push(reply.body.activity.id);
      }
      const plans = await server.store.query<{ statement: string; generic_plans: string; custom_plans: string }>({
        text: `SELECT statement, generic_plans::text, custom_plans::text FROM pg_prepared_statements WHERE statement LIKE '%INSERT INTO activities%'`,
        values: [],
      });
      // One text for an activity of a transaction; prepared from its PREPARE_AFTER-th execution,
      // then planned for its values five times at most (plan_cache_mode auto) and for any values after.
      expect(plans).toHaveLength(1);
      const executions = runs - PREPARE_AFTER + 1;
      expect(Number(plans[0]!.custom_plans)).toBeLessThanOrEqual(5);
      expect(Number(plans[0]!.generic_plans) + Number(plans[0]!.custom_plans)).toBeGreaterThanOrEqual(executions);
      expect(Number(plans[0]!.generic_plans)).toBeGreaterThanOrEqual(executions - 5);
      const stored = await server.store.db.select({ id: activities.id }).from(activities).where(eq(activities.organizationId, server.org.organizationId));
      for (const id of ids) expect(stored.filter((row) => row.id === id)).toHaveLength(1);
    } finally {
      await server.dispose();
    }
  });

  it('given the server`s one connection lost its statements, when an activity is submitted, then it completes once (run again if its transaction was refused) and later ones too', async () => {
    const server = await startTestServer(kind, { poolSize: 1 });
    try {
      const tag = (i: number) => ({ userTagName: `tag-${i}`, userIds: [] });
      for (let i = 0; i < PREPARE_AFTER + 1; i++) await server.client.run('create_user_tag', tag(i));
      expect((await preparedOn(server.store)).length).toBeGreaterThan(0);
      await server.store.query({ text: 'DEALLOCATE ALL', values: [] });
      const reply = await server.client.submit('create_user_tag', tag(100));
      expect(reply.status).toBe(200);
      expect(reply.body.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
      await server.client.run('create_user_tag', tag(101));
      const stored = await server.store.db.select({ id: activities.id }).from(activities).where(eq(activities.organizationId, server.org.organizationId));
      expect(stored.filter((row) => row.id === reply.body.activity.id)).toHaveLength(1);
      expect(await preparedOn(server.store)).toEqual([]);
    } finally {
      await server.dispose();
    }
  });
});
