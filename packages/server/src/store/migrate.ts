/**
 * Schema migrations: `migrations/NNNN_name.sql`, applied in order, each in its own
 * transaction, recorded in `schema_migrations`. Safe when several server processes start
 * at once against one PostgreSQL database: every migration transaction first takes a
 * transaction-scoped advisory lock, then re-reads what is applied, so exactly one process
 * applies each file and the others wait and then see it done.
 *
 * The same code runs on PGlite (single connection; the lock is then uncontended).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite, type Transaction as PgliteTransaction } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';

/** Key of the advisory lock serializing migrations (any constant unique to walletkit). */
export const MIGRATION_LOCK_KEY = 0x77_6b_6d_69_67_72n; // "wkmigr"

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

export interface Migration {
  /** The numeric prefix, e.g. "0001". */
  version: string;
  /** The rest of the file name without `.sql`, e.g. "init". */
  name: string;
  sql: string;
  /** Lowercase hex SHA-256 of the file's bytes. */
  checksum: string;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** Reads `migrations/*.sql` from disk (next to this module), sorted by version. */
export function loadMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  const seen = new Set<string>();
  return files.map((file) => {
    const m = /^(\d{4,})_([A-Za-z0-9_-]+)\.sql$/.exec(file);
    if (!m) throw new MigrationError(`migration file name ${file} does not match NNNN_name.sql (in ${dir})`);
    const version = m[1]!;
    if (seen.has(version)) throw new MigrationError(`two migration files share version ${version} (in ${dir})`);
    seen.add(version);
    const bytes = readFileSync(`${dir}/${file}`);
    return {
      version,
      name: m[2]!,
      sql: bytes.toString('utf8'),
      checksum: createHash('sha256').update(bytes).digest('hex'),
    };
  });
}

/** What one migration transaction needs from a connection. */
interface MigrationTx {
  query<R>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Runs a script of several statements (simple query protocol, no parameters). */
  exec(sql: string): Promise<void>;
}

type RunInTransaction = <T>(fn: (tx: MigrationTx) => Promise<T>) => Promise<T>;

function pgliteRunner(db: PGlite): RunInTransaction {
  return (fn) =>
    db.transaction(async (tx: PgliteTransaction) =>
      fn({
        query: async <R>(sql: string, params?: unknown[]) => (await tx.query<R>(sql, params)).rows,
        exec: async (sql) => {
          await tx.exec(sql);
        },
      }),
    );
}

function poolRunner(pool: Pool): RunInTransaction {
  return async (fn) => {
    const client: PoolClient = await pool.connect();
    let broken: Error | undefined;
    try {
      // Explicitly READ COMMITTED: after waiting for the lock, the next statements must see
      // what the previous holder committed, whatever the database's default isolation.
      await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
      try {
        const result = await fn({
          query: async <R>(sql: string, params?: unknown[]) => (await client.query(sql, params as unknown[] | undefined)).rows as R[],
          exec: async (sql) => {
            await client.query(sql);
          },
        });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch((rollbackErr: Error) => {
          broken = rollbackErr;
        });
        throw err;
      }
    } finally {
      client.release(broken);
    }
  };
}

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE schema_migrations (
  version text PRIMARY KEY NOT NULL,
  name text NOT NULL,
  checksum text NOT NULL,
  applied_at timestamp with time zone DEFAULT now() NOT NULL
)`;

/**
 * Applies every pending migration to `target` (a PGlite instance or a node-postgres Pool).
 * Returns the versions applied by this call (empty when the schema was already current).
 * Throws MigrationError when an applied migration's file has changed since it was applied.
 * @internal
 */
export async function migrate(target: PGlite | Pool, migrations: Migration[] = loadMigrations()): Promise<string[]> {
  const run = target instanceof PGlite ? pgliteRunner(target) : poolRunner(target);
  const applied: string[] = [];
  for (;;) {
    const next = await run(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
      const [exists] = await tx.query<{ reg: string | null }>("SELECT to_regclass('schema_migrations')::text AS reg");
      if (!exists?.reg) await tx.exec(CREATE_MIGRATIONS_TABLE);
      const rows = await tx.query<{ version: string; checksum: string }>('SELECT version, checksum FROM schema_migrations');
      const done = new Map(rows.map((r) => [r.version, r.checksum]));
      for (const m of migrations) {
        const checksum = done.get(m.version);
        if (checksum !== undefined && checksum !== m.checksum) {
          throw new MigrationError(
            `migration ${m.version}_${m.name}.sql was changed after it was applied to this database ` +
              `(checksum ${checksum.slice(0, 12)}... in schema_migrations, ${m.checksum.slice(0, 12)}... on disk); ` +
              'never edit an applied migration: add a new one (for a throwaway dev database, delete it and start again)',
          );
        }
      }
      const pending = migrations.find((m) => !done.has(m.version));
      if (!pending) return null;
      await tx.exec(pending.sql);
      await tx.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [pending.version, pending.name, pending.checksum]);
      return pending;
    });
    if (!next) return applied;
    applied.push(next.version);
  }
}
