/**
 * Hot statements built once (decision 0022, "Hot statements built once"). drizzle builds a
 * statement's text from its query builder at every execution: the builder's objects, `getSQL`,
 * `sqlToQuery` and a prepared-query object per call, about 30–60 µs of the event loop for a
 * statement of a few conditions on the 2-core VM, and about a tenth of an OTP login's event loop
 * in all. A {@link statement} is built once, with placeholders, through drizzle's own prepared
 * queries (`.prepare()`, on a database without a connection), and runs on whichever executor it
 * is given (the pool, or the connection of a transaction) with only its values filled in; its
 * rows are mapped by drizzle as before. {@link runRaw} runs a text written out by hand the same
 * way, without drizzle.
 */
import { fillPlaceholders, is, Param, Placeholder, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Executor, RawStatement } from './db.js';

/** The node-postgres client (a transaction's connection) or pool under a drizzle executor. */
export function clientOf(ex: Executor): pg.Pool | pg.PoolClient | undefined {
  return (ex as unknown as { _?: { session?: { client?: pg.Pool | pg.PoolClient } } })._?.session?.client;
}

/** A database that builds statements and runs none (its "client" is an empty object). */
const builder = drizzle.mock();
export type StatementBuilder = typeof builder;

/** What a drizzle query builder's `prepare` gives: a query that runs on its client with values. */
interface PreparedQuery {
  queryString: string;
  params: unknown[];
  client: unknown;
  execute(values?: Record<string, unknown>): Promise<unknown>;
}

type Preparable = { prepare(name: string): { execute(values?: Record<string, unknown>): Promise<unknown> } };
type ResultOf<B extends Preparable> = Awaited<ReturnType<ReturnType<B['prepare']>['execute']>>;

/**
 * A column's value as a placeholder, encoded by its column unless it is null: drizzle writes a
 * null value as NULL without its column's encoder, and `fillPlaceholders` would hand it to the
 * encoder (a timestamp's calls `toISOString` on it).
 */
function nullSafe(param: unknown): unknown {
  if (!is(param, Param) || !is(param.value, Placeholder)) return param;
  const { encoder } = param;
  return new Param(param.value, { mapToDriverValue: (value: unknown) => (value === null || value === undefined ? null : encoder.mapToDriverValue(value)) });
}

/** A placeholder for the value `name` of a statement's values. */
export type Placeholders<V> = <K extends keyof V & string>(name: K) => Placeholder<K, V[K]>;

export interface Statement<V extends Record<string, unknown>, R> {
  /** Run it on `ex` (the pool, or a transaction's connection) with `values`; drizzle's result (mapped rows). */
  run(ex: Executor, values: V): Promise<R>;
  /** It with `values`, to hand to round-trips.ts `sendWithNext`. */
  bind(values: V): BoundStatement;
}

/** A statement and its values: its text as `toSQL()` gives it, or run now. */
export class BoundStatement {
  constructor(
    private readonly query: () => PreparedQuery,
    private readonly values: Record<string, unknown>,
    readonly run: (ex: Executor) => Promise<unknown>,
  ) {}

  toSQL(): { sql: string; params: unknown[] } {
    const query = this.query();
    return { sql: query.queryString, params: fillPlaceholders(query.params, this.values) };
  }
}

/**
 * A statement built once by `build` (a drizzle query builder on `db`, its variable parts as
 * placeholders `p(name)`; the type of `p` names the values and their types), named `wk_<name>` on
 * the connection (prepared once per connection, store/prepared.ts). Define it at module level;
 * `name` must be unique in the process.
 * @example
 * const userById = statement('user_by_id', (db, p: Placeholders<{ id: string }>) => db.select({ id: users.id }).from(users).where(eq(users.id, p('id'))));
 * const [user] = await userById.run(ctx.tx, { id });
 */
export function statement<V extends Record<string, unknown>, B extends Preparable>(
  name: string,
  build: (db: StatementBuilder, p: Placeholders<V>) => B,
): Statement<V, ResultOf<B>> {
  let built: PreparedQuery | undefined;
  const prepared = (): PreparedQuery => {
    if (!built) {
      built = build(builder, ((key: string) => sql.placeholder(key)) as Placeholders<V>).prepare(`wk_${name}`) as unknown as PreparedQuery;
      built.params = built.params.map(nullSafe);
    }
    return built;
  };
  const run = async (ex: Executor, values: V): Promise<ResultOf<B>> => {
    const query = prepared();
    const client = clientOf(ex);
    if (!client) throw new Error(`statement ${name}: the executor has no node-postgres client`);
    // The built query, on this executor's client: only `client` differs from one run to the next.
    const bound = Object.create(query) as PreparedQuery;
    bound.client = client;
    return (await bound.execute(values)) as ResultOf<B>;
  };
  return { run, bind: (values) => new BoundStatement(prepared, values, (ex) => run(ex, values)) };
}

/** `statement` written out by hand: its rows as node-postgres gives them (column names as keys). */
export async function runRaw<T>(ex: Executor, statement: RawStatement): Promise<T[]> {
  const client = clientOf(ex);
  if (!client) throw new Error('runRaw: the executor has no node-postgres client');
  const { text, values, name } = statement;
  return (await client.query<T & pg.QueryResultRow>(name ? { name, text, values } : { text, values })).rows;
}
