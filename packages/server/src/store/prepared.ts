/**
 * Statements prepared once per connection, on PostgreSQL and on PGlite (both driven by node-postgres,
 * db.ts). drizzle sends every statement unnamed, so the database parsed and planned each one at
 * every execution (on PGlite, on the event loop). On PostgreSQL during an OTP login planning was
 * most of the database's time (pg_stat_statements: the credential lookup, six joins, 0.65 ms of
 * planning for 0.05 ms of execution; about 1.8 of the 3 ms a login's 24 statements took). A
 * {@link preparingClient} names a statement with parameters after its text from that text's
 * {@link PREPARE_AFTER}th execution in the process on: node-postgres parses it once per
 * connection and then only binds and executes it, and PostgreSQL keeps its plan (a generic plan
 * once that is no worse than the custom ones, `plan_cache_mode`). A text that is built with its
 * values (an IN list of n items) is rarely repeated; at most {@link MAX_NAMED} texts are named, so
 * a connection never holds more prepared statements than that.
 *
 * A connection that loses its statements (a transaction-mode pooler without prepared-statement
 * support hands each statement to another server connection) makes PostgreSQL refuse the next one
 * before running it (db.ts `isPreparedStatementLost`): from then on the process names nothing. The
 * refused statement runs again unnamed when no transaction was open; inside one, the error goes to
 * the transaction's owner, which starts it over (activity/plugin.ts) or fails.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';

/** A text is named from its this-many-th execution on (a one-off statement is never prepared). */
export const PREPARE_AFTER = 3;
/** Most texts named per process (each connection prepares those it runs). */
export const MAX_NAMED = 500;
/** Texts counted before being named; the counts start over when this many are tracked. */
const MAX_COUNTED = 5_000;

/** Which texts are named, and their names: one per pool, shared by its connections. */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private counts = new Map<string, number>();
  private kept = true;

  /** False once a connection showed it cannot keep named statements: nothing is named any more. */
  get enabled(): boolean {
    return this.kept;
  }

  /** Stop naming statements, for good (a connection lost one). */
  disable(): void {
    this.kept = false;
  }

  /** The name of `text`, or undefined while it runs unnamed. */
  nameOf(text: string): string | undefined {
    if (!this.kept) return undefined;
    const known = this.names.get(text);
    if (known !== undefined) return known;
    if (this.names.size >= MAX_NAMED) return undefined;
    const seen = (this.counts.get(text) ?? 0) + 1;
    if (seen < PREPARE_AFTER) {
      if (this.counts.size >= MAX_COUNTED) this.counts = new Map();
      this.counts.set(text, seen);
      return undefined;
    }
    this.counts.delete(text);
    // 32 hex digits of SHA-256: one name per text, well within PostgreSQL's 63-byte identifiers.
    const name = `wk_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    this.names.set(text, name);
    return name;
  }
}

/** What node-postgres's `query` may be given as its first argument, as far as naming goes. */
interface QueryConfigLike {
  text?: unknown;
  name?: unknown;
  values?: unknown;
  submit?: unknown;
}

type Callback = (err: Error | null, result?: unknown) => void;

/**
 * A node-postgres `Client` class (the pool's `Client` option) that names hot statements with
 * parameters (see the module comment); a statement without parameters (BEGIN, COMMIT, LISTEN)
 * runs as before. A statement named by its caller (`Store.query`) keeps its name while naming is
 * on, and loses it once it is off. `lost` tells a refusal of a statement its connection no longer
 * holds (db.ts `isPreparedStatementLost`).
 */
export function preparingClient(names: StatementNames, lost: (err: unknown) => boolean): typeof pg.Client {
  const query = pg.Client.prototype.query as (this: pg.Client, config: unknown, values?: unknown, callback?: unknown) => unknown;
  return class PreparingClient extends pg.Client {
    // biome-ignore lint/suspicious/noExplicitAny: node-postgres's overloads of query, passed through
    override query(config: any, values?: any, callback?: any): any {
      const c = config as QueryConfigLike | string | null | undefined;
      if (c === null || typeof c !== 'object' || typeof c.submit === 'function' || typeof c.text !== 'string')
        return query.call(this, config, values, callback);
      const params = Array.isArray(values) ? values : c.values;
      const name = typeof c.name === 'string' ? c.name : Array.isArray(params) && params.length > 0 ? names.nameOf(c.text) : undefined;
      if (name === undefined) return query.call(this, config, values, callback);
      // Copies of the caller's config only where the name changes (the hot path sends it as is).
      const unnamed = () => {
        const { name: _given, ...rest } = c;
        return rest;
      };
      if (!names.enabled) return query.call(this, unnamed(), values, callback);
      const named = c.name === name ? c : { ...c, name };
      // The statement again, unnamed, when it was refused outside any transaction (nothing ran).
      const again = (err: unknown): boolean => {
        if (!lost(err)) return false;
        names.disable();
        return this.getTransactionStatus() === 'I';
      };
      const done: Callback | undefined = typeof values === 'function' ? values : typeof callback === 'function' ? callback : undefined;
      const args = typeof values === 'function' ? [] : [values];
      if (done) {
        return query.call(this, named, ...args, (err: Error | null, result?: unknown) => {
          if (err && again(err)) query.call(this, unnamed(), ...args, done);
          else done(err, result);
        });
      }
      return (query.call(this, named, ...args) as Promise<unknown>).catch((err: unknown) => {
        if (again(err)) return query.call(this, unnamed(), ...args);
        throw err;
      });
    }
  } as typeof pg.Client;
}
