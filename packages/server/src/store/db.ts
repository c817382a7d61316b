/**
 * Opening the database (DESIGN section 3, "Storage"): PostgreSQL through node-postgres when a
 * URL is given (scale-out: any number of server processes on one database), otherwise the
 * embedded PGlite persisted under the data directory (one server process per directory,
 * enforced by a lock file), driven through node-postgres too (pglite-connection.ts).
 * Migrations run on open either way.
 *
 * Data directory layout (embedded mode):
 *   <dataDir>/walletkit.lock   pid of the server process holding the directory
 *   <dataDir>/pglite/          the PGlite (PostgreSQL) cluster
 * Other components may keep their own files in <dataDir> (e.g. the enclave's generated key).
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { ChangeFeed, CHANGES_CHANNEL, CHANGES_NOTED } from './change-feed.js';
import { isPreparedStatementLost, sqlState } from './db-errors.js';
import { lockDataDir, type DirLock } from './lock.js';
import { migrate, MigrationError } from './migrate.js';
import { PgliteConnection } from './pglite-connection.js';
import { type CommitProbe, preparingClient, StatementNames } from './prepared.js';

export { StoreLockedError } from './lock.js';
export { ChangeFeed } from './change-feed.js';
export { MigrationError } from './migrate.js';
export { isPreparedStatementLost, isSerializationFailure, isUniqueViolation, sqlState, violatedConstraint, violationDetail } from './db-errors.js';

/**
 * The drizzle database over schema.ts's tables, whichever driver is underneath. Without drizzle's
 * relational query API (`db.query.<table>`, unused): each transaction would build a query builder
 * per table at its start. @internal
 */
export type Db = PgDatabase<PgQueryResultHKT>;
/** A drizzle transaction (also usable wherever a Db is expected). @internal */
export type Tx = PgTransaction<PgQueryResultHKT, Record<string, never>, ExtractTablesWithRelations<Record<string, never>>>;
/** What repository functions should accept: the database or a transaction in progress. @internal */
export type Executor = Db | Tx;

export type StoreKind = 'pglite' | 'postgres';
export type IsolationLevel = 'read committed' | 'serializable';

export interface TransactionOptions {
  /** Default: the database default (read committed). */
  isolation?: IsolationLevel;
}

export interface OpenStoreOptions {
  /** Embedded mode: where PGlite persists. Default `./.walletkit/data`, created if missing. */
  dataDir?: string;
  /** `postgres://...`: use PostgreSQL (node-postgres Pool) instead of PGlite. Wins over dataDir. */
  databaseUrl?: string;
  /** In-memory PGlite (unit tests); nothing persisted, no lock. */
  memory?: boolean;
  /** PostgreSQL only: maximum pool connections per process. Default 10. */
  poolSize?: number;
}

export interface Store {
  kind: StoreKind;
  /** @internal The drizzle database (not part of the published types: drizzle's own declarations do not pass skipLibCheck false). */
  db: Db;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws.
   * On PGlite transactions are serialized (one connection); on PostgreSQL they run
   * concurrently, so rely on constraints (see isUniqueViolation) or 'serializable'
   * (see isSerializationFailure; retrying is the caller's decision).
   * @internal
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>, opts?: TransactionOptions): Promise<T>;
  /** Applies pending migrations (already done by openStore); returns the versions applied. */
  migrate(): Promise<string[]>;
  /** Closes connections and releases the data directory lock. Idempotent. */
  close(): Promise<void>;
  /** Absolute data directory (PGlite on disk only). */
  readonly dataDir?: string | undefined;
  /** Committed changes of cached facts, as announced by the database (change-feed.ts). @internal */
  changes: ChangeFeed;
  /**
   * Run one statement straight on the driver, outside any transaction, and return its rows as the
   * driver parses them: for the hottest statements (the group commit of signatures), where
   * drizzle's per-statement work costs as much as the database's own. @internal
   */
  query<T>(statement: RawStatement): Promise<T[]>;
}

/**
 * A statement as the driver takes it: text with `$n` placeholders, and their values. A `name`
 * makes it a prepared statement from its first execution, parsed and planned once per connection:
 * only for a text that never changes under that name (other statements are named once they are
 * hot: prepared.ts).
 */
export interface RawStatement {
  text: string;
  values: unknown[];
  name?: string;
}

export const DEFAULT_DATA_DIR = './.walletkit/data';
/** Subdirectory of the data directory holding the PGlite cluster. */
export const PGLITE_SUBDIR = 'pglite';

export async function openStore(opts: OpenStoreOptions = {}): Promise<Store> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.poolSize ?? 10);
  if (opts.memory) return openPglite(await createMemoryPglite());
  const displayDir = opts.dataDir ?? DEFAULT_DATA_DIR;
  const dataDir = resolve(displayDir);
  mkdirSync(dataDir, { recursive: true });
  const lock = lockDataDir(dataDir, displayDir);
  let client: PGlite | undefined;
  try {
    client = await PGlite.create(join(dataDir, PGLITE_SUBDIR));
    return await openPglite(client, { lock, dataDir });
  } catch (err) {
    await client?.close().catch(() => {});
    lock.release();
    throw err;
  }
}

/**
 * The embedded store once migrated: every statement goes through one node-postgres connection to
 * PGlite (pglite-connection.ts), as on PostgreSQL, so hot statements are prepared once
 * (prepared.ts) instead of parsed and planned on the event loop at every execution (decision
 * 0022). Nothing else may talk to `client` while the store is open: a statement of PGlite's own
 * `query` could land between another's protocol messages. One connection serializes
 * transactions as PGlite's own lock did; the pool never closes it when idle (a new connection
 * would find the old one's statements on the same backend).
 */
async function openPglite(client: PGlite, disk?: { lock: DirLock; dataDir: string }): Promise<Store> {
  const release = async () => {
    try {
      if (!client.closed) await client.close();
    } finally {
      disk?.lock.release();
    }
  };
  try {
    await migrate(client);
  } catch (err) {
    if (!disk) await release().catch(() => {});
    throw err;
  }
  // One session: its notifications arrive before the statement that caused them resolves (the
  // connection emits PGlite's answers in order, NotificationResponse before ReadyForQuery).
  const changes = new ChangeFeed({ live: true });
  const Preparing = preparingClient(new StatementNames(), isPreparedStatementLost);
  class PgliteClient extends Preparing {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connection: new PgliteConnection(client) } as pg.ClientConfig);
    }
  }
  const pool = newPool(
    {
      max: 1,
      idleTimeoutMillis: 0,
      Client: PgliteClient as typeof pg.Client,
      onConnect: async (connection) => {
        connection.on('notification', (n) => {
          if (n.channel === CHANGES_CHANNEL && n.payload) changes.changed(n.payload);
        });
        // A connection after another (one backend): nothing of the other's may linger, neither an
        // open transaction nor its statements.
        if ((connection as pg.Client).getTransactionStatus() !== 'I') await connection.query('ROLLBACK');
        await connection.query('DEALLOCATE ALL');
        // Its own notifications arrive in order: no change needs noting for a probe (migration 0011).
        await connection.query('SET walletkit.note_changes TO off');
        await connection.query(`LISTEN ${CHANGES_CHANNEL}`);
      },
    },
    'PGlite',
  );
  try {
    await pool.query('SELECT 1');
  } catch (err) {
    await pool.end().catch(() => {});
    if (!disk) await release().catch(() => {});
    throw err;
  }
  return poolStore(
    'pglite',
    pool,
    changes,
    async () => {
      try {
        await pool.end();
      } finally {
        await release();
      }
    },
    disk?.dataDir,
  );
}

/**
 * A node-postgres pool of either database. A connection dropped while idle (a PostgreSQL restart,
 * failover) must not crash the process: the pool discards it and the next query opens a new one.
 */
function newPool(options: pg.PoolConfig, what: string): pg.Pool {
  const pool = new pg.Pool(options);
  pool.on('error', (err) => {
    console.error(`walletkit store: idle ${what} connection lost: ${err.message}`);
  });
  return pool;
}

/** The Store over a node-postgres pool (either database), closed by `close`. */
function poolStore(kind: StoreKind, pool: pg.Pool, changes: ChangeFeed, close: () => Promise<void>, dataDir?: string): Store {
  const db = drizzleNodePg({ client: pool }) as unknown as Db;
  let closing: Promise<void> | undefined;
  return {
    kind,
    db,
    changes,
    // A name is kept while the pool's connections keep named statements (prepared.ts).
    query: async <T>({ text, values, name }: RawStatement) => (await pool.query(name ? { name, text, values } : { text, values })).rows as T[],
    dataDir,
    transaction: (fn, opts) => db.transaction(fn, txConfig(opts)),
    migrate: () => migrate(pool),
    close: () => (closing ??= close()),
  };
}

/**
 * A fresh in-memory PGlite. Its initdb costs seconds, so the first one in the process is
 * dumped (before any migration) and later ones load that image instead (under a second).
 */
let memoryImage: Promise<Blob> | undefined;
async function createMemoryPglite(): Promise<PGlite> {
  if (memoryImage) {
    const image = await memoryImage.catch(() => undefined);
    if (image) return PGlite.create({ loadDataDir: image });
  }
  const client = await PGlite.create();
  if (!memoryImage) {
    const image = client.dumpDataDir('none').then((d) => (d instanceof Blob ? d : new Blob([d])));
    memoryImage = image;
    image.catch(() => {
      if (memoryImage === image) memoryImage = undefined;
    });
    await image.catch(() => {});
  }
  return client;
}

/** application_name of the connection that listens for other processes' changes. */
export const LISTENER_NAME = 'walletkit-changes';

/**
 * The change feed of a PostgreSQL database (change-feed.ts): each commit of the pool's connections
 * reads what it changed in its own round trip (`probe`, so this process knows before the COMMIT
 * returns), and one connection, opened when the feed is first needed, listens for every commit,
 * the other processes' among them; while it is down the feed is not live. The pooled connections
 * do not listen: PostgreSQL would wake each of them at every change (decision 0022). A database
 * where LISTEN is refused (a transaction-mode pooler) never goes live: nothing is cached,
 * everything is read.
 */
function postgresChanges(databaseUrl: string): { feed: ChangeFeed; probe: CommitProbe; close(): Promise<void> } {
  let usable = true;
  let closed = false;
  let listener: pg.Client | undefined;
  let lastAttempt = 0;
  const hear = (n: pg.Notification) => {
    if (n.channel === CHANGES_CHANNEL && n.payload) feed.changed(n.payload);
  };
  const connect = async () => {
    const client = new pg.Client({ connectionString: databaseUrl, application_name: LISTENER_NAME });
    listener = client;
    client.on('notification', hear);
    client.on('error', () => {});
    client.on('end', () => {
      if (listener === client) listener = undefined;
      feed.goDead();
    });
    let connected = false;
    try {
      await client.connect();
      connected = true;
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
      if (closed) await client.end();
      else if (listener === client) feed.goLive();
    } catch (err) {
      // LISTEN refused by a server that let us in: it never will listen, stop asking.
      if (connected && sqlState(err)) usable = false;
      if (listener === client) listener = undefined;
      feed.goDead();
      await client.end().catch(() => {});
    }
  };
  const feed = new ChangeFeed({
    live: false,
    // At most one connection attempt a second, and only while someone wants the feed.
    wake: () => {
      if (!usable || closed || listener || Date.now() - lastAttempt < 1000) return;
      lastAttempt = Date.now();
      void connect();
    },
  });
  return {
    feed,
    probe: { text: CHANGES_NOTED, heard: (value) => feed.noted(value) },
    async close() {
      closed = true;
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => {});
    },
  };
}

async function openPostgres(databaseUrl: string, poolSize: number): Promise<Store> {
  const changes = postgresChanges(databaseUrl);
  // Hot statements are prepared once per connection (prepared.ts).
  const pool = newPool(
    {
      connectionString: databaseUrl,
      max: poolSize,
      Client: preparingClient(new StatementNames(), isPreparedStatementLost, changes.probe),
    },
    'PostgreSQL',
  );
  try {
    await migrate(pool);
  } catch (err) {
    await pool.end().catch(() => {});
    if (err instanceof MigrationError || sqlState(err)) throw err;
    throw new Error(`cannot open the PostgreSQL database ${redactUrl(databaseUrl)}: ${(err as Error)?.message ?? err}`, {
      cause: err,
    });
  }
  return poolStore('postgres', pool, changes.feed, () => Promise.all([changes.close(), pool.end()]).then(() => {}));
}

function txConfig(opts: TransactionOptions | undefined) {
  return opts?.isolation ? { isolationLevel: opts.isolation } : undefined;
}

function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable DATABASE_URL)';
  }
}
