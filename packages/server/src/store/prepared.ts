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
import { type Ahead, answered, Batch, encodeValues, isBegin, type PgQuery } from './round-trips.js';

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
 *
 * With a `probe` (PostgreSQL's change feed, db.ts), every COMMIT it sends (with the last statement,
 * with held ones, or alone) has the probe run just before it in the same round trip, and so has a
 * write with parameters outside any transaction (committed at its Sync); the probe's value is
 * handed over once the commit succeeded, before the caller's promise settles. A write without
 * parameters outside a transaction is not probed (the listener hears it moments later).
 */
export function preparingClient(names: StatementNames, lost: (err: unknown) => boolean, probe?: CommitProbe): typeof pg.Client {
  const query = pg.Client.prototype.query as (this: pg.Client, config: unknown, values?: unknown, callback?: unknown) => unknown;
  /** The probe as a statement: prepared once per connection while names are kept. */
  const probeStatement = (): Ahead | undefined => probe && { text: probe.text, values: [], name: names.enabled ? PROBE_NAME : undefined };
  return class PreparingClient extends pg.Client {
    /** Statements not sent yet (round-trips.ts): they go with the transaction's next statement. */
    private ahead: Ahead[] = [];
    /** The first of them is the transaction's BEGIN: nothing of the transaction reached the server. */
    private beginHeld = false;
    /** The next statement carries the transaction's COMMIT. */
    private commitNext = false;
    /** The COMMIT went with the last statement: the one asked for next is answered at once. */
    private committedEarly = false;

    /** round-trips.ts `commitWithNext`: the next statement is the transaction's last. */
    commitWithNext(): void {
      this.commitNext = true;
    }

    /** round-trips.ts `sendWithNext`: hold a statement whose answer nobody reads for the next round trip. */
    holdForNext(statement: { text: string; values: unknown[] }): boolean {
      const inTransaction = this.beginHeld || this.getTransactionStatus() === 'T';
      const values = inTransaction && !this.committedEarly ? encodeValues(statement.values) : undefined;
      if (!values) return false;
      // Named as it would be if it ran alone: prepared once per connection, then only bound.
      const name = values.length > 0 ? names.nameOf(statement.text) : undefined;
      this.ahead.push({ text: statement.text, values, name });
      return true;
    }

    // biome-ignore lint/suspicious/noExplicitAny: node-postgres's overloads of query, passed through
    override query(config: any, values?: any, callback?: any): any {
      const c = config as QueryConfigLike | string | null | undefined;
      const done: Callback | undefined = typeof values === 'function' ? values : typeof callback === 'function' ? callback : undefined;
      const custom = c === null || c === undefined || (typeof c === 'object' && (typeof c.submit === 'function' || typeof c.text !== 'string'));
      const text = custom ? undefined : typeof c === 'string' ? c : (c as { text: string }).text;
      const params = Array.isArray(values) ? values : typeof c === 'object' && c !== null ? c.values : undefined;
      // A statement a batch cannot carry: no parameters (maybe several statements), or custom.
      const plain =
        text === undefined || (!(Array.isArray(params) && params.length > 0) && !(typeof c === 'object' && c !== null && typeof c.name === 'string'));
      const command = plain && text !== undefined ? text.trim() : undefined;

      if (this.committedEarly) {
        this.committedEarly = false;
        if (command !== undefined && /^commit$/i.test(command)) return answer(answered('COMMIT'), done);
        // Anything else would run after the commit, outside the transaction its owner believes open.
        return fail(new Error('the transaction was committed with its last statement; nothing may run after it'), done);
      }
      if (this.ahead.length > 0) {
        const end = command !== undefined && /^(commit|rollback)$/i.test(command) ? (/^commit$/i.test(command) ? 'COMMIT' : 'ROLLBACK') : undefined;
        if (end === 'ROLLBACK' || (end === 'COMMIT' && this.beginHeld && this.ahead.length === 1)) {
          // Nothing held needs to run: with the BEGIN held, nothing of the transaction reached the server.
          const unsent = this.beginHeld;
          this.ahead = [];
          this.beginHeld = false;
          this.commitNext = false;
          if (unsent) return answer(answered(end), done);
          return query.call(this, config, values, callback);
        }
        // The statements held run with the COMMIT, as the batch's statement.
        if (end === 'COMMIT') {
          if (probe) return this.commitProbed(done);
          this.commitNext = false;
          return this.send({ text: command, queryMode: 'extended' }, undefined, done);
        }
        if (plain) {
          // Not batchable: what is held goes alone first, then this statement (never without it).
          const flushed = this.flush();
          if (done) {
            flushed.then(() => this.query(config, values, callback), done);
            return undefined;
          }
          return flushed.then(() => this.query(config, values));
        }
      } else if (command !== undefined && !done && isBegin(command) && this.getTransactionStatus() === 'I') {
        this.ahead = [{ text: command, values: [] }];
        this.beginHeld = true;
        return Promise.resolve(answered('BEGIN'));
      }
      if (plain) {
        this.commitNext = false;
        if (probe && command !== undefined && /^commit$/i.test(command) && this.getTransactionStatus() === 'T') return this.commitProbed(done);
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
      const outside = !this.beginHeld && this.getTransactionStatus() === 'I';
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

    /**
     * The transaction's COMMIT with the probe ahead of it, in one round trip with what is held (if
     * anything): answered as a COMMIT, once the probe's value was heard.
     */
    private commitProbed(done: Callback | undefined): unknown {
      const { text, name } = probeStatement() as Ahead;
      this.commitNext = true;
      const run = (callback: Callback) =>
        this.send(
          { text, name },
          [],
          (err: Error | null, result?: unknown) => {
            if (err) return callback(err);
            // Its first row's first column, as a probe after a statement is read (round-trips.ts).
            const row = (result as pg.QueryResult | undefined)?.rows[0] as Record<string, unknown> | undefined;
            const value = row ? Object.values(row)[0] : undefined;
            probe?.heard(typeof value === 'string' ? value : null);
            callback(null, answered('COMMIT'));
          },
          true,
        );
      if (done) return run(done);
      return new Promise((resolve, reject) => run((err, result) => (err ? reject(err) : resolve(result))));
    }

    /** What is held, alone: its last statement as the batch's. */
    private flush(): Promise<unknown> {
      // The COMMIT is for the statement that follows, which cannot carry it (drizzle's goes alone).
      this.commitNext = false;
      const last = this.ahead.pop() as Ahead;
      // Sent now, with the rest held (if any) written ahead of it.
      if (this.ahead.length === 0) this.beginHeld = false;
      return this.send({ text: last.text, queryMode: 'extended' }, last.values) as Promise<unknown>;
    }

    /**
     * A statement with parameters: alone, or in one round trip with what is held and/or the COMMIT.
     * `asCommit`: it is the probe standing for the transaction's COMMIT ({@link commitProbed}).
     */
    private send(config: unknown, values?: unknown, callback?: unknown, asCommit = false): unknown {
      const before = this.ahead;
      const commit = this.commitNext;
      // A write outside any transaction commits at the batch's Sync: the probe goes with it too.
      const autocommitWrite = before.length === 0 && !commit && probe !== undefined && this.getTransactionStatus() === 'I' && isWrite(config);
      if (before.length === 0 && !commit && !autocommitWrite) return query.call(this, config, values, callback);
      this.ahead = [];
      this.beginHeld = false;
      this.commitNext = false;
      const done: Callback | undefined =
        typeof values === 'function' ? (values as Callback) : typeof callback === 'function' ? (callback as Callback) : undefined;
      let settle: Callback = () => {};
      const result = done ? undefined : new Promise((resolve, reject) => (settle = (err, res) => (err ? reject(err) : resolve(res))));
      let batch: Batch | undefined;
      const settled = (err: Error | null | undefined, res?: unknown) => {
        if (!err && batch?.committed && !asCommit) this.committedEarly = true;
        // Committed (the COMMIT's answer, or the Sync of a write outside a transaction): what it changed is heard first.
        if (!err && batch?.probed !== undefined && (batch.committed || autocommitWrite)) probe?.heard(batch.probed);
        // A statement held ahead (named) the connection no longer holds: name nothing from now on.
        if (err && lost(err)) names.disable();
        (done ?? settle)(err ?? null, res);
      };
      const statement = new pg.Query(config as pg.QueryConfig, typeof values === 'function' ? undefined : (values as unknown[]), settled) as unknown as PgQuery;
      const encoded = statement.rows ? undefined : encodeValues(statement.values);
      if (!encoded) {
        // Not batchable (a value node-postgres refuses, or rows in pages): what is held alone first, then the statement as usual.
        if (before.length === 0) query.call(this, statement);
        else {
          this.ahead = before;
          this.flush().then(() => query.call(this, statement), settled);
        }
        return result;
      }
      batch = new Batch(statement, encoded, before, commit, !asCommit && (commit || autocommitWrite) ? probeStatement() : undefined);
      statement._result._types ??= (this as unknown as { _types: unknown })._types;
      query.call(this, batch);
      return result;
    }
  } as typeof pg.Client;
}

/**
 * A statement run after each commit of this client's, in the commit's round trip (round-trips.ts
 * `Batch`): its one value is handed to `heard` before the caller learns that it committed. On
 * PostgreSQL, the organizations whose facts the transaction changed (db.ts, change-feed.ts).
 */
export interface CommitProbe {
  /** No parameters; its first row's first column (text or NULL) is the value. */
  text: string;
  heard(value: string | null): void;
}

/** The probe's statement name on each connection. */
const PROBE_NAME = 'wk_commit_probe';

/** Whether a statement may write (anything but a SELECT): one outside a transaction is probed. */
function isWrite(config: unknown): boolean {
  const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
  return typeof text === 'string' && !/^\s*select\b/i.test(text);
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
