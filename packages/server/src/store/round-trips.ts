/**
 * A transaction's BEGIN sent with its first statement, and its COMMIT with its last (decision
 * 0022, "BEGIN and COMMIT in their neighbours' round trips"). drizzle's transaction sends BEGIN,
 * each statement and COMMIT as round trips of their own: for an activity (BEGIN, INSERT, its
 * statements, UPDATE, COMMIT) two of five or more. Each costs the event loop a write and a read
 * on PostgreSQL (about 100 µs of system calls each on the 2-core VM) and a trip into the
 * WebAssembly on PGlite.
 *
 * {@link Batch} writes up to three statements with one Sync, the extended protocol's pipelining
 * (PostgreSQL protocol, "Extended Query"): an optional BEGIN, one statement, an optional COMMIT.
 * After an error the server skips everything up to the Sync, so a failed BEGIN never lets the
 * statement run outside a transaction, and a failed statement never lets the COMMIT run (the
 * transaction is then aborted, and its owner's ROLLBACK ends it as before). The statement's
 * answer (rows, or the first error of the three) is the caller's, as for any query; the BEGIN's
 * and COMMIT's answers are consumed here.
 *
 * The client (prepared.ts) decides when: a BEGIN is held back until the transaction's next
 * statement (a transaction that runs none sends nothing at all), and a statement its owner marks
 * as the transaction's last ({@link commitWithNext}) carries the COMMIT; drizzle's COMMIT after it
 * is then answered without a round trip.
 *
 * A batch may also carry a probe after its statement (before the COMMIT, if any): a statement
 * whose one value is read here (`probed`), on PostgreSQL the organizations whose facts the
 * transaction changed (change-feed.ts), known before the caller hears that it committed.
 */
import { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { RawStatement, Tx } from './db.js';
import { BoundStatement, clientOf as executorClient, runRaw } from './statements.js';

/** node-postgres's value encoding (Date, arrays, JSON and Buffers as the server takes them). */
const { prepareValue } = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils;

/** The part of node-postgres's `Connection` a {@link Batch} writes to (also PgliteConnection's). */
interface Wire {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  stream: { cork?: () => void; uncork?: () => void };
  parse(msg: { text: string; name?: string; types?: unknown[] }): void;
  bind(msg: { statement?: string; values?: unknown[]; binary?: boolean }): void;
  describe(msg: { type: 'P'; name: string }): void;
  execute(msg: Record<string, never>): void;
  sync(): void;
}

/** node-postgres's `Query` as far as a {@link Batch} drives it (its answers' handlers). */
export interface PgQuery {
  text: string;
  name?: string;
  values?: unknown[];
  types?: unknown;
  binary?: boolean;
  rows?: number;
  callback?: (err: Error | null, result?: unknown) => void;
  _result: { _types?: unknown };
  handleRowDescription(msg: unknown): void;
  handleDataRow(msg: unknown): void;
  handleCommandComplete(msg: unknown, connection: unknown): void;
  handleEmptyQuery(connection: unknown): void;
  handleError(err: unknown, connection: unknown): void;
  handleReadyForQuery(connection: unknown): void;
  handlePortalSuspended(connection: unknown): void;
  handleCopyInResponse(connection: unknown): void;
  handleCopyData(msg: unknown, connection: unknown): void;
}

/** A BEGIN drizzle sends (`begin`, with an isolation level or not): it may wait for the next statement. */
const BEGIN = /^begin(?: isolation level (?:read committed|repeatable read|serializable))?$/i;

export function isBegin(text: string): boolean {
  return BEGIN.test(text);
}

/** What the client answers for a BEGIN or COMMIT it did not (yet, or any more) send: what the server would. */
export function answered(command: 'BEGIN' | 'COMMIT' | 'ROLLBACK'): pg.QueryResult {
  return { command, rowCount: null, oid: 0, rows: [], fields: [] } as unknown as pg.QueryResult;
}

/**
 * A statement written ahead of another in its round trip: a held BEGIN, or one held by
 * {@link sendWithNext}. Its values are encoded already; with a `name` it is prepared on the
 * connection once and then only bound, as a statement run alone would be (prepared.ts).
 */
export interface Ahead {
  text: string;
  values: unknown[];
  name?: string | undefined;
}

/**
 * One round trip of the statements held `ahead` (a BEGIN, statements whose answer nobody reads),
 * `query`, and an optional COMMIT, as node-postgres's client takes a custom query
 * (`client.query(batch)`): it writes the messages and hands the statement's answers to `query`, a
 * node-postgres `Query` built for it (its callback settles the caller's promise). `values` are
 * already encoded (`encodeValues`), so nothing can fail between the first message and the Sync.
 */
export class Batch {
  /** Answers still to come for the statements ahead (each ends with its CommandComplete). */
  private ahead: number;
  /** Set once the statement's own CommandComplete arrived (what follows is the COMMIT's). */
  private done = false;
  /** Set once the probe's CommandComplete arrived (what follows is the COMMIT's). */
  private probeDone = false;
  /** Set when the COMMIT's own answer arrived: the transaction is committed. */
  committed = false;
  /** The probe's value (its first row's first column, as text), once its row arrived. */
  probed: string | null | undefined;

  constructor(
    private readonly query: PgQuery,
    private readonly values: unknown[],
    private readonly before: readonly Ahead[],
    private readonly commit: boolean,
    private readonly probe?: Ahead,
  ) {
    this.ahead = before.length;
  }

  /** The statement whose answers arrive now: one ahead, the batch's own, the probe, or none (the COMMIT's). */
  private get answeringNow(): { name?: string | undefined; text: string } | undefined {
    if (this.ahead > 0) return this.before[this.before.length - this.ahead];
    if (!this.done) return this.query;
    return this.probe && !this.probeDone ? this.probe : undefined;
  }

  /**
   * The name of the statement whose answers arrive now (node-postgres records a named statement
   * as parsed on its ParseComplete, and forgets it on an error).
   */
  get name(): string | undefined {
    return this.answeringNow?.name;
  }

  get text(): string {
    return this.answeringNow?.text ?? this.query.text;
  }

  /** Writes the batch (corked into one write on a socket); an Error, with nothing written, when node-postgres's own checks refuse the statement. */
  submit(connection: Wire): Error | null {
    const q = this.query;
    const parsed = q.name ? (connection.parsedStatements[q.name] ?? connection.submittedNamedStatements[q.name]) : undefined;
    if (parsed !== undefined && parsed !== q.text) return new Error(`Prepared statements must be unique - '${q.name}' was used for a different statement`);
    connection.stream.cork?.();
    try {
      for (const statement of this.before) send(connection, statement);
      if (parsed === undefined) {
        connection.parse({ text: q.text, name: q.name, types: (q.types as unknown[] | undefined) ?? [] });
        if (q.name) connection.submittedNamedStatements[q.name] = q.text;
      }
      connection.bind({ statement: q.name, values: this.values, binary: q.binary });
      connection.describe({ type: 'P', name: '' });
      connection.execute({});
      if (this.probe) send(connection, this.probe);
      if (this.commit) send(connection, { text: 'COMMIT', values: [] });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleCommandComplete(msg: unknown, connection: unknown): void {
    if (this.ahead > 0) {
      this.ahead--;
    } else if (!this.done) {
      this.done = true;
      this.query.handleCommandComplete(msg, connection);
    } else if (this.probe && !this.probeDone) {
      this.probeDone = true;
    } else {
      this.committed = true;
    }
  }

  private get answering(): boolean {
    return this.ahead === 0 && !this.done;
  }

  handleRowDescription(msg: unknown): void {
    if (this.answering) this.query.handleRowDescription(msg);
  }

  /** Rows of a statement ahead (an advisory lock's) are nobody's; the probe's first is read here. */
  handleDataRow(msg: unknown): void {
    if (this.answering) this.query.handleDataRow(msg);
    else if (this.done && this.probe && !this.probeDone && this.probed === undefined) {
      const value = (msg as { fields?: unknown[] }).fields?.[0];
      this.probed = typeof value === 'string' ? value : null;
    }
  }

  handleEmptyQuery(connection: unknown): void {
    if (this.answering) this.query.handleEmptyQuery(connection);
  }

  /** The first error of the batch is the statement's (the server skipped the rest). */
  handleError(err: unknown, connection: Wire): void {
    // The Parses after the failed statement were skipped: their names are not on the connection.
    const skipped = [
      ...this.before.slice(this.before.length - this.ahead + 1),
      ...(this.ahead > 0 ? [this.query] : []),
      ...(this.probe && (this.ahead > 0 || !this.done) ? [this.probe] : []),
    ];
    for (const { name } of skipped) {
      if (name && connection.parsedStatements?.[name] === undefined) delete connection.submittedNamedStatements[name];
    }
    this.query.handleError(err, connection);
  }
  handleReadyForQuery(connection: unknown): void {
    this.query.handleReadyForQuery(connection);
  }

  handlePortalSuspended(connection: unknown): void {
    this.query.handlePortalSuspended(connection);
  }

  handleCopyInResponse(connection: unknown): void {
    this.query.handleCopyInResponse(connection);
  }

  handleCopyData(msg: unknown, connection: unknown): void {
    this.query.handleCopyData(msg, connection);
  }
}

/** A statement whose answer nobody reads, in the extended protocol, without a Sync of its own (a COMMIT's, or one ahead). */
function send(connection: Wire, { text, values, name }: Ahead): void {
  if (name === undefined) connection.parse({ text, types: [] });
  else if ((connection.parsedStatements[name] ?? connection.submittedNamedStatements[name]) === undefined) {
    connection.parse({ text, name, types: [] });
    connection.submittedNamedStatements[name] = text;
  }
  connection.bind({ statement: name, values });
  connection.execute({});
}

/** The values as node-postgres would write them; undefined when one cannot be (the statement then runs alone and fails as usual). */
export function encodeValues(values: unknown[] | undefined): unknown[] | undefined {
  try {
    return (values ?? []).map((v) => prepareValue(v));
  } catch {
    return undefined;
  }
}

/** What the store's client offers a transaction (prepared.ts). */
export interface TransactionClient {
  commitWithNext(): void;
  /** Hold `statement` for the next one's round trip; false when it cannot be (then it was not held). */
  holdForNext(statement: { text: string; values: unknown[] }): boolean;
}

function clientOf(tx: Tx): Partial<TransactionClient> | undefined {
  return executorClient(tx) as Partial<TransactionClient> | undefined;
}

/**
 * Mark the next statement of `tx` as its last: the COMMIT goes with it in one round trip. Call
 * it right before that statement and run nothing after it in the transaction (drizzle's COMMIT is
 * then answered at once); when the statement fails, the transaction rolls back as usual. On a
 * client that cannot (another driver), nothing changes.
 * @example commitWithNext(tx); await tx.update(activities).set(outcome).where(eq(activities.id, id));
 */
export function commitWithNext(tx: Tx): void {
  clientOf(tx)?.commitWithNext?.();
}

/** A drizzle statement: a query builder (its `toSQL`), an `sql` template, a statement built once (statements.ts), or a text written out by hand (statements.ts runRaw). */
type Statement = { toSQL(): { sql: string; params: unknown[] } } | SQL | BoundStatement | RawStatement;

function isRaw(statement: Statement): statement is RawStatement {
  return typeof (statement as RawStatement).text === 'string' && Array.isArray((statement as RawStatement).values);
}

const dialect = new PgDialect();

/**
 * Run `statement` in `tx` in the round trip of the transaction's next statement (or its COMMIT),
 * for a statement whose answer nobody reads: an advisory lock, an UPDATE or INSERT whose only
 * outcome is success. The server runs it first, in order; when it fails, the next statement
 * fails with its error and the transaction rolls back, as if it had failed here. On a client that
 * cannot hold it, it runs now.
 * @example await sendWithNext(ctx.tx, ctx.tx.update(otps).set({ usedAt: now }).where(eq(otps.id, id)));
 */
export async function sendWithNext(tx: Tx, statement: Statement): Promise<void> {
  const client = clientOf(tx);
  if (client?.holdForNext) {
    const { sql: text, params } = isRaw(statement)
      ? { sql: statement.text, params: statement.values }
      : statement instanceof SQL
        ? dialect.sqlToQuery(statement)
        : statement.toSQL();
    if (client.holdForNext({ text, values: params })) return;
  }
  if (isRaw(statement)) await runRaw(tx, statement);
  else if (statement instanceof SQL) await tx.execute(statement);
  else if (statement instanceof BoundStatement) await statement.run(tx);
  else await (statement as unknown as PromiseLike<unknown>);
}
