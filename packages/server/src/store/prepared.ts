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
import { answered, Batch, encodeValues, isBegin, type PgQuery } from './round-trips.js';

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
 * parameters (see the module comment); a statement without parameters (LISTEN, a script) runs as
 * before. A statement named by its caller (`Store.query`) keeps its name while naming is on, and
 * loses it once it is off. `lost` tells a refusal of a statement its connection no longer holds
 * (db.ts `isPreparedStatementLost`).
 *
 * It also saves a transaction two round trips (round-trips.ts): a BEGIN asked for with a promise
 * (drizzle's) waits for the transaction's next statement and goes with it; a statement marked
 * with `commitWithNext` carries the COMMIT, and the COMMIT asked for after it is answered at once.
 */
export function preparingClient(names: StatementNames, lost: (err: unknown) => boolean): typeof pg.Client {
  const query = pg.Client.prototype.query as (this: pg.Client, config: unknown, values?: unknown, callback?: unknown) => unknown;
  return class PreparingClient extends pg.Client {
    /** A BEGIN not sent yet: it goes with the transaction's next statement. */
    private heldBegin: string | undefined;
    /** The next statement carries the transaction's COMMIT. */
    private commitNext = false;
    /** The COMMIT went with the last statement: the one asked for next is answered at once. */
    private committedEarly = false;

    /** round-trips.ts `commitWithNext`: the next statement is the transaction's last. */
    commitWithNext(): void {
      this.commitNext = true;
    }

    // biome-ignore lint/suspicious/noExplicitAny: node-postgres's overloads of query, passed through
    override query(config: any, values?: any, callback?: any): any {
      const c = config as QueryConfigLike | string | null | undefined;
      const done: Callback | undefined = typeof values === 'function' ? values : typeof callback === 'function' ? callback : undefined;
      const custom = c === null || c === undefined || (typeof c === 'object' && (typeof c.submit === 'function' || typeof c.text !== 'string'));
      const text = custom ? undefined : typeof c === 'string' ? c : (c as { text: string }).text;
      const params = Array.isArray(values) ? values : typeof c === 'object' && c !== null ? c.values : undefined;
      // A statement the batch cannot carry: no parameters (maybe several statements), or custom.
      const plain =
        text === undefined || (!(Array.isArray(params) && params.length > 0) && !(typeof c === 'object' && c !== null && typeof c.name === 'string'));
      const command = plain && text !== undefined ? text.trim() : undefined;

      if (this.committedEarly) {
        this.committedEarly = false;
        if (command !== undefined && /^commit$/i.test(command)) return answer(answered('COMMIT'), done);
        // Anything else would run after the commit, outside the transaction its owner believes open.
        return fail(new Error('the transaction was committed with its last statement; nothing may run after it'), done);
      }
      if (this.heldBegin !== undefined) {
        const begin = this.heldBegin;
        if (command !== undefined && /^(commit|rollback)$/i.test(command)) {
          // Nothing of the transaction was sent: nothing to end.
          this.heldBegin = undefined;
          this.commitNext = false;
          return answer(answered(/^commit$/i.test(command) ? 'COMMIT' : 'ROLLBACK'), done);
        }
        if (plain) {
          // Not batchable: the BEGIN alone first, then this statement (never without the BEGIN).
          this.heldBegin = undefined;
          if (done) {
            query.call(this, begin, (err: Error | null) => (err ? done(err) : this.query(config, values, callback)));
            return undefined;
          }
          return (query.call(this, begin) as Promise<unknown>).then(() => this.query(config, values));
        }
      } else if (command !== undefined && !done && isBegin(command) && this.getTransactionStatus() === 'I') {
        this.heldBegin = command;
        return Promise.resolve(answered('BEGIN'));
      }
      if (plain) {
        this.commitNext = false;
        return query.call(this, config, values, callback);
      }
      // A text given as a string runs unnamed, as node-postgres would run it.
      if (typeof c === 'string') return this.send(config, values, callback);
      const cfg = c as QueryConfigLike & { text: string };
      const name = typeof cfg.name === 'string' ? cfg.name : Array.isArray(params) && params.length > 0 ? names.nameOf(cfg.text) : undefined;
      if (name === undefined) return this.send(config, values, callback);
      // Copies of the caller's config only where the name changes (the hot path sends it as is).
      const unnamed = () => {
        const { name: _given, ...rest } = cfg;
        return rest;
      };
      if (!names.enabled) return this.send(unnamed(), values, callback);
      const named = cfg.name === name ? cfg : { ...cfg, name };
      // The statement again, unnamed, when it was refused outside any transaction (nothing ran).
      // Decided now: a held BEGIN goes with it, and its error arrives before the status changes.
      const outside = this.heldBegin === undefined && this.getTransactionStatus() === 'I';
      const again = (err: unknown): boolean => {
        if (!lost(err)) return false;
        names.disable();
        return outside;
      };
      const args = typeof values === 'function' ? [] : [values];
      if (done) {
        return this.send(named, ...args, (err: Error | null, result?: unknown) => {
          if (err && again(err)) query.call(this, unnamed(), ...args, done);
          else done(err, result);
        });
      }
      return (this.send(named, ...args) as Promise<unknown>).catch((err: unknown) => {
        if (again(err)) return query.call(this, unnamed(), ...args);
        throw err;
      });
    }

    /** A statement with parameters: alone, or in one round trip with the held BEGIN and/or the COMMIT. */
    private send(config: unknown, values?: unknown, callback?: unknown): unknown {
      const begin = this.heldBegin;
      const commit = this.commitNext;
      if (begin === undefined && !commit) return query.call(this, config, values, callback);
      this.heldBegin = undefined;
      this.commitNext = false;
      const done: Callback | undefined =
        typeof values === 'function' ? (values as Callback) : typeof callback === 'function' ? (callback as Callback) : undefined;
      let settle: Callback = () => {};
      const result = done ? undefined : new Promise((resolve, reject) => (settle = (err, res) => (err ? reject(err) : resolve(res))));
      let batch: Batch | undefined;
      const settled = (err: Error | null | undefined, res?: unknown) => {
        if (!err && batch?.committed) this.committedEarly = true;
        (done ?? settle)(err ?? null, res);
      };
      const statement = new pg.Query(config as pg.QueryConfig, typeof values === 'function' ? undefined : (values as unknown[]), settled) as unknown as PgQuery;
      const encoded = statement.rows ? undefined : encodeValues(statement.values);
      if (!encoded) {
        // Not batchable (a value node-postgres refuses, or rows in pages): the BEGIN alone, then the statement as usual.
        if (begin === undefined) query.call(this, statement);
        else query.call(this, begin, (err: Error | null) => (err ? (done ?? settle)(err) : query.call(this, statement)));
        return result;
      }
      batch = new Batch(statement, encoded, begin, commit);
      statement._result._types ??= (this as unknown as { _types: unknown })._types;
      query.call(this, batch);
      return result;
    }
  } as typeof pg.Client;
}

function answer(result: unknown, done: Callback | undefined): unknown {
  if (!done) return Promise.resolve(result);
  process.nextTick(done, null, result);
  return undefined;
}

function fail(err: Error, done: Callback | undefined): unknown {
  if (!done) return Promise.reject(err);
  process.nextTick(done, err);
  return undefined;
}
