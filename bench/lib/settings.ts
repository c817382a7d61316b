/**
 * The settings of `npm run bench` (bench/README.md): what to measure, where, and for how long,
 * read once from the environment. A bad value ends the run with its name and exit code 2.
 */
import { execSync } from 'node:child_process';
import { statfsSync } from 'node:fs';
import { cpus, freemem, tmpdir, totalmem } from 'node:os';
import type { DbKind } from './world.js';

// ---------------------------------------------------------------------------------------------
// Settings

export const PARTS = ['sign', 'signup', 'otp', 'reads', 'workers', 'soak'] as const;
export type Part = (typeof PARTS)[number];
export const DBS: DbKind[] = ['pglite', 'postgres'];

function listOf<T extends string>(name: string, allowed: readonly T[], fallback: readonly T[]): T[] {
  const raw = process.env[name]?.trim();
  if (!raw) return [...fallback];
  const values = raw.split(',').map((v) => v.trim().toLowerCase());
  const bad = values.filter((v) => !allowed.includes(v as T));
  if (bad.length > 0) usage(`${name}: unknown ${bad.join(', ')} (one or more of ${allowed.join(', ')})`);
  return allowed.filter((a) => values.includes(a));
}

function numberOf(name: string, fallback: number, min = 1): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw.replaceAll('_', ''));
  if (!Number.isFinite(value) || value < min) usage(`${name}: ${raw} is not a number >= ${min}`);
  return value;
}

function usage(message: string): never {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}

export const parts = new Set(listOf('BENCH_ONLY', PARTS, PARTS));
export const dbs = listOf('BENCH_DB', DBS, DBS);
export const scales = (process.env.BENCH_SCALE?.trim() || '1000,100000')
  .split(',')
  .map((s) => Number(s.trim().replaceAll('_', '')))
  .filter((n, i, all) => all.indexOf(n) === i);
if (scales.some((n) => !Number.isInteger(n) || n < 1)) usage(`BENCH_SCALE: ${process.env.BENCH_SCALE} is not a comma list of counts`);
scales.sort((a, b) => a - b);
export const SECONDS = numberOf('BENCH_SECONDS', 20);
export const WARMUP = numberOf('BENCH_WARMUP_SECONDS', Math.min(5, Math.max(2, Math.round(SECONDS / 4))));
export const CONNECTIONS = numberOf('BENCH_CONNECTIONS', 10);
/**
 * Slices a figure is taken in at each scale when more than one is measured: 1,000 then 100,000,
 * then 100,000 then 1,000, and so on (no scale always first), each slice SECONDS / SLICES long,
 * pooled by scale. The machine's
 * speed drifts over minutes (the AMD host's ceilings moved 24% within one figure), and a figure
 * taken at one scale after the other read that drift as growth; in alternating slices both scales
 * see the same machine. 1: one window a scale, one after the other.
 */
export const SLICES = Math.round(numberOf('BENCH_SLICES', 4));
/** Warm-up before each slice after a scale's first (which has WARMUP): its server sat idle while the other scale's slice ran. */
export const SLICE_WARMUP = Math.min(WARMUP, numberOf('BENCH_SLICE_WARMUP_SECONDS', 1));
export const SOAK_SECONDS = numberOf('BENCH_SOAK_SECONDS', 600, 10);
/**
 * Load before the soak's clock starts: a fresh server's heap, pools and caches grow to their
 * working size in its first minute, which is not what the memory figure is about (growth that
 * goes on under steady load is).
 */
export const SOAK_WARMUP = numberOf('BENCH_SOAK_WARMUP_SECONDS', Math.min(60, SOAK_SECONDS / 5), 1);
/** The longest the soak's warm-up waits for PGlite's first ANALYZE of `activities` (soak.ts `soakFigure`). */
export const SOAK_WARMUP_MAX = Math.max(SOAK_WARMUP, numberOf('BENCH_SOAK_WARMUP_MAX_SECONDS', 600, 1));
export const PG_URL = process.env.BENCH_PG_URL?.trim() || undefined;

const TMPFS_MAGIC = 0x01021994;
/** Room a full run's data directories need in memory (PGlite's 1k and 100k worlds, about 4 GB; later the cluster, about 3 GB). */
const DATA_IN_MEMORY_BYTES = 8 * 2 ** 30;

/**
 * Where the worlds' data directories and the throwaway cluster live: `BENCH_DATA_DIR`, else
 * /dev/shm when it is a tmpfs with room (memory and tmpfs space) for a run, else the OS temp
 * directory. In memory, a database's files are never read from the disk: this machine kind pages
 * out file cache untouched for a minute (a DAMON pageout scheme), so on disk the 100k figures that
 * come back to rows other figures left alone (logins, signups) waited for reads at a few hundred a
 * second (decision 0022, "The stalled 100k figures"). The bench measures the server's work, as
 * its fsync-off cluster already says; a production database keeps its working set in memory.
 */
export const DATA_ROOT: { dir: string; note: string } = (() => {
  const chosen = process.env.BENCH_DATA_DIR?.trim();
  if (chosen) return { dir: chosen, note: `${chosen} (BENCH_DATA_DIR)` };
  try {
    const fs = statfsSync('/dev/shm');
    const room = Math.min(fs.bavail * fs.bsize, freemem());
    if (fs.type === TMPFS_MAGIC && room >= DATA_IN_MEMORY_BYTES) return { dir: '/dev/shm', note: '/dev/shm (tmpfs: database files in memory)' };
  } catch {
    // no /dev/shm: the temp directory below
  }
  return { dir: tmpdir(), note: `${tmpdir()} (no tmpfs with ${DATA_IN_MEMORY_BYTES / 2 ** 30} GiB free: database files on disk)` };
})();

/** The settings of this run as its results record them, with the commit and the machine. */
export function runSettings(): Record<string, unknown> {
  const git = (cmd: string) => {
    try {
      return execSync(`git ${cmd}`, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return '';
    }
  };
  const dirty = git('status --porcelain -- packages').split('\n').filter(Boolean).length;
  return {
    date: new Date().toISOString(),
    commit: `${git('rev-parse --short HEAD')}${dirty ? ` + ${dirty} uncommitted files in packages/` : ''}`,
    machine: `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GB, node ${process.version}`,
    only: [...parts].join(','),
    db: dbs.join(','),
    scale: scales.join(','),
    seconds: SECONDS,
    warmupSeconds: WARMUP,
    connections: CONNECTIONS,
    slices: scales.length > 1 ? SLICES : undefined,
    soakSeconds: parts.has('soak') ? SOAK_SECONDS : undefined,
    postgres: dbs.includes('postgres') ? (PG_URL ? 'BENCH_PG_URL' : 'throwaway PostgreSQL 15 cluster (fsync off, synchronous_commit off)') : undefined,
    data: DATA_ROOT.note,
  };
}
