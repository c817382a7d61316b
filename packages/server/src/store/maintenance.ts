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
 *
 * A pass also does the checkpointer's work, which single-user mode leaves undone as well: its
 * backend never requests a checkpoint for WAL written (PostgreSQL asks for one only under a
 * postmaster) and has no timer, so until the server stopped every WAL segment since it started
 * stayed in pg_wal and a crash replayed all of them. {@link checkpointDue} applies the
 * checkpointer's two rules with the database's own settings (`max_wal_size` and
 * `checkpoint_completion_target`, `checkpoint_timeout`); the CHECKPOINT is immediate (a lone
 * backend cannot spread its writes), so it holds the event loop while it writes the dirty buffers.
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
  /** Why the pass ran a CHECKPOINT (checkpointDue), or null when it ran none. */
  checkpoint: CheckpointReason | null;
  /** The pass's time, the connection held and waited for. */
  ms: number;
}

const setting = (name: string) => `current_setting('${name}')::float8`;
const tuples = 'greatest(c.reltuples, 0)';

/**
 * Autovacuum's analyze limit of a table, as SQL over its `pg_class` row `c`: threshold + scale
 * factor x rows. A table whose changes since its last ANALYZE (`n_mod_since_analyze`) pass it is due one.
 */
export const ANALYZE_LIMIT = `${setting('autovacuum_analyze_threshold')} + ${setting('autovacuum_analyze_scale_factor')} * ${tuples}`;

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
    (c.relkind <> 't' AND s.n_mod_since_analyze > ${ANALYZE_LIMIT}) AS analyze
  FROM pg_stat_all_tables s JOIN pg_class c ON c.oid = s.relid
  WHERE c.relkind IN ('r', 'm', 't') AND c.relpersistence = 'p'
  ORDER BY s.n_dead_tup DESC, s.relid`;

/** The tables due now (nothing on PostgreSQL, whose autovacuum decides). */
export async function tablesDue(store: Pick<Store, 'kind' | 'query'>): Promise<DueTable[]> {
  if (store.kind !== 'pglite') return [];
  const rows = await store.query<DueTable>({ text: DUE, values: [] });
  return rows.filter((r) => r.vacuum || r.analyze);
}

/** `wal`: the WAL since the last checkpoint's redo point reached the limit; `time`: `checkpoint_timeout` passed with WAL to replay. */
export type CheckpointReason = 'wal' | 'time';

/** When a checkpoint is due; by default the database's settings (checkpointDue). */
export interface CheckpointLimits {
  /** WAL bytes since the last checkpoint's redo point. */
  walBytes: number;
  /** Seconds since the last checkpoint, once it has WAL to replay. */
  timeoutSeconds: number;
}

/**
 * WAL a timed checkpoint needs to be worth it: the checkpointer skips one when nothing was written
 * since the last; here less than one WAL page since the checkpoint record (the record itself, a
 * commit or two) leaves nothing a crash would take long to replay.
 */
const TIMED_MIN_WAL_BYTES = 8192;

const CHECKPOINT_STATE = `
  SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), c.redo_lsn)::float8 AS since_redo,
    pg_wal_lsn_diff(pg_current_wal_insert_lsn(), c.checkpoint_lsn)::float8 AS since_checkpoint,
    extract(epoch FROM clock_timestamp() - c.checkpoint_time)::float8 AS age_seconds,
    pg_size_bytes(current_setting('max_wal_size')) / (1 + current_setting('checkpoint_completion_target')::float8) AS wal_bytes,
    extract(epoch FROM current_setting('checkpoint_timeout')::interval)::float8 AS timeout_seconds
  FROM pg_control_checkpoint() c`;

/**
 * Whether the checkpointer would run now, by its two rules (PostgreSQL documentation, "WAL
 * Configuration"): the WAL since the last checkpoint's redo point reached `max_wal_size / (1 +
 * checkpoint_completion_target)` (where the checkpointer starts a spread checkpoint so that it ends
 * by max_wal_size), or `checkpoint_timeout` passed and there is WAL to replay. `limits` replaces
 * the settings (tests). Null on PostgreSQL, whose checkpointer decides.
 */
export async function checkpointDue(store: Pick<Store, 'kind' | 'query'>, limits: Partial<CheckpointLimits> = {}): Promise<CheckpointReason | null> {
  if (store.kind !== 'pglite') return null;
  const [row] = await store.query<{ since_redo: number; since_checkpoint: number; age_seconds: number; wal_bytes: number; timeout_seconds: number }>({
    text: CHECKPOINT_STATE,
    values: [],
  });
  if (!row) return null;
  if (Number(row.since_redo) >= (limits.walBytes ?? Number(row.wal_bytes))) return 'wal';
  const timedOut = Number(row.age_seconds) >= (limits.timeoutSeconds ?? Number(row.timeout_seconds));
  return timedOut && Number(row.since_checkpoint) >= TIMED_MIN_WAL_BYTES ? 'time' : null;
}

/**
 * One pass: each table due gets its VACUUM and then its ANALYZE, each a statement of its own, so
 * requests' statements queued on the connection run between them; then a CHECKPOINT if one is due
 * (after the vacuums, whose writes it then includes).
 * @example const { vacuumed, analyzed, checkpoint } = await maintain(store);
 */
export async function maintain(store: Pick<Store, 'kind' | 'query'>, limits: Partial<CheckpointLimits> = {}): Promise<MaintenancePass> {
  const started = performance.now();
  const pass: MaintenancePass = { vacuumed: [], analyzed: [], checkpoint: null, ms: 0 };
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
  pass.checkpoint = await checkpointDue(store, limits);
  if (pass.checkpoint) await run('CHECKPOINT');
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
