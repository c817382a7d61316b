/**
 * The embedded database's autovacuum (decision 0028). PGlite runs PostgreSQL in single-user mode,
 * which starts no autovacuum launcher: without this, the rows a running server updates and
 * deletes (a code's attempts, the session keys a login replaces, the rows retention.ts sweeps)
 * stay as dead tuples for good, the tables and their indexes only grow, the planner's statistics
 * are never gathered, and no row is ever frozen, so the cluster would stop taking writes when its
 * transaction ids wrap around (about two billion write transactions).
 *
 * {@link startMaintenance} does autovacuum's work on a timer, with autovacuum's own rules read from
 * the database's settings (`autovacuum_vacuum_threshold`, `_scale_factor`, `_insert_threshold`,
 * `autovacuum_freeze_max_age`, the analyze pair): each table due gets a VACUUM, an ANALYZE, or
 * both, one statement at a time through the store's one connection, so requests' statements run
 * between them (each statement holds the event loop while it runs: PGlite is WebAssembly on it).
 * A VACUUM skips the pages its last run left all-visible, so a pass costs about what changed since
 * the one before. On PostgreSQL the server's autovacuum does this and nothing runs.
 */
import type { Store } from './db.js';

/**
 * How often a pass runs: a quarter of autovacuum's default `autovacuum_naptime`. A pass with
 * nothing due is one lookup (3-9 ms), and a table that grew past its statistics is analyzed within
 * seconds instead of a minute: until then the plans made while it was small stay (decision 0028).
 */
export const MAINTENANCE_INTERVAL_MS = 15_000;

/** A table a pass found due: what it needs. */
export interface DueTable {
  /** Schema-qualified, quoted: ready for a statement. */
  name: string;
  vacuum: boolean;
  analyze: boolean;
}

/** What one pass did. */
export interface MaintenancePass {
  vacuumed: string[];
  analyzed: string[];
  /** The pass's time, the connection held and waited for. */
  ms: number;
}

const setting = (name: string) => `current_setting('${name}')::float8`;
const tuples = 'greatest(c.reltuples, 0)';

/**
 * The tables due, by autovacuum's rules (PostgreSQL documentation, "The Autovacuum Daemon"): dead
 * tuples past threshold + scale factor x rows, inserts since the last vacuum past theirs, or a
 * relfrozenxid older than `autovacuum_freeze_max_age`; an analyze when the rows changed since the
 * last one pass theirs (an insert threshold of -1 turns that rule off, as in PostgreSQL). Catalogs
 * and TOAST tables included (their ages hold the cluster's back too); a TOAST table is never
 * analyzed. Per-table storage parameters (`autovacuum_enabled` and the like) are not read.
 */
const DUE = `
  SELECT format('%I.%I', s.schemaname, s.relname) AS name,
    (s.n_dead_tup > ${setting('autovacuum_vacuum_threshold')} + ${setting('autovacuum_vacuum_scale_factor')} * ${tuples}
      OR (${setting('autovacuum_vacuum_insert_threshold')} >= 0
        AND s.n_ins_since_vacuum > ${setting('autovacuum_vacuum_insert_threshold')} + ${setting('autovacuum_vacuum_insert_scale_factor')} * ${tuples})
      OR age(c.relfrozenxid) > ${setting('autovacuum_freeze_max_age')}) AS vacuum,
    (c.relkind <> 't' AND s.n_mod_since_analyze > ${setting('autovacuum_analyze_threshold')} + ${setting('autovacuum_analyze_scale_factor')} * ${tuples}) AS analyze
  FROM pg_stat_all_tables s JOIN pg_class c ON c.oid = s.relid
  WHERE c.relkind IN ('r', 'm', 't') AND c.relpersistence = 'p'
  ORDER BY s.n_dead_tup DESC, s.relid`;

/** The tables due now (nothing on PostgreSQL, whose autovacuum decides). */
export async function tablesDue(store: Pick<Store, 'kind' | 'query'>): Promise<DueTable[]> {
  if (store.kind !== 'pglite') return [];
  const rows = await store.query<DueTable>({ text: DUE, values: [] });
  return rows.filter((r) => r.vacuum || r.analyze);
}

/**
 * One pass: each table due gets its VACUUM and then its ANALYZE, each a statement of its own, so
 * requests' statements queued on the connection run between them.
 * @example const { vacuumed, analyzed } = await maintain(store);
 */
export async function maintain(store: Pick<Store, 'kind' | 'query'>): Promise<MaintenancePass> {
  const started = performance.now();
  const pass: MaintenancePass = { vacuumed: [], analyzed: [], ms: 0 };
  const run = (command: string) => store.query({ text: command, values: [] });
  for (const table of await tablesDue(store)) {
    if (table.vacuum) {
      await run(`VACUUM ${table.name}`);
      pass.vacuumed.push(table.name);
    }
    if (table.analyze) {
      await run(`ANALYZE ${table.name}`);
      pass.analyzed.push(table.name);
    }
  }
  pass.ms = performance.now() - started;
  return pass;
}

/**
 * Run a pass every `intervalMs` on the embedded database (the timer does not keep the process
 * alive; a pass never overlaps the one before); returns stop(), which waits for a pass under way.
 * Nothing on PostgreSQL.
 * @example const stop = startMaintenance(store, (pass) => log.debug(pass), (err) => log.warn({ err }));
 */
export function startMaintenance(
  store: Pick<Store, 'kind' | 'query'>,
  onPass: (pass: MaintenancePass) => void,
  onError: (err: unknown) => void,
  intervalMs = MAINTENANCE_INTERVAL_MS,
): () => Promise<void> {
  if (store.kind !== 'pglite') return async () => {};
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    // A throwing onPass is reported as an error too, never left as an unhandled rejection.
    running = maintain(store)
      .then(onPass)
      .catch(onError)
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
