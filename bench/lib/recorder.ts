/**
 * What a run of `npm run bench` records as it goes: the log (printed and kept for the results
 * file), the raw figures by database and scale, the server source each figure ran, and `measure`
 * and `measureFlowRate`, which take one figure and log it.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CpuShare, cpuMeter, formatCpu } from './cpu.js';
import { type Measured, type RunData, scaleLabel } from './figures.js';
import { measureFlows, measureRequests, type Req } from './load.js';
import { ROOT } from './processes.js';
import { num } from './report.js';
import { CONNECTIONS, dbs, scales, SECONDS, WARMUP } from './settings.js';
import type { DbKind, World } from './world.js';

// ---------------------------------------------------------------------------------------------
// Log, rows, raw figures

export const logLines: string[] = [];
export function log(line = ''): void {
  logLines.push(line);
  process.stdout.write(`${line}\n`);
}

export const data: RunData = { settings: { db: dbs.join(','), scale: scales.join(',') }, figures: {}, extra: {}, errors: [] };
export const extra = data.extra;

export function keep(db: DbKind, scale: number | string, key: string, m: Measured): void {
  const byScale = data.figures[db] ?? {};
  data.figures[db] = byScale;
  const byKey = byScale[String(scale)] ?? {};
  byScale[String(scale)] = byKey;
  byKey[key] = m;
}

/**
 * The server's source as it is now: HEAD, plus a hash of the uncommitted changes under packages/
 * (the server runs from source, and each start loads the files as they are at that moment).
 * Kept at each server start, so that figures taken from different code are told apart.
 */
function sourceNow(): string {
  const git = (args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 * 2 ** 20 });
    } catch {
      return '';
    }
  };
  const head = git(['rev-parse', '--short', 'HEAD']).trim() || 'unknown';
  const diff = git(['diff', 'HEAD', '--binary', '--', 'packages']);
  const untracked = git(['ls-files', '--others', '--exclude-standard', '--', 'packages']).split('\n').filter(Boolean);
  if (!diff && untracked.length === 0) return head;
  const hash = createHash('sha256').update(diff);
  for (const file of untracked) {
    hash.update(file);
    try {
      hash.update(readFileSync(join(ROOT, file)));
    } catch {}
  }
  return `${head}+${hash.digest('hex').slice(0, 8)}`;
}

/** Remember the source the server just started from, under `key` (`source_<db>_<when>`). */
export function noteSource(key: string): void {
  const source = sourceNow();
  const seen = new Set(Object.entries(extra).flatMap(([k, v]) => (k.startsWith('source_') ? [v] : [])));
  if (seen.size > 0 && !seen.has(source)) log(`  note: the server's source changed during the run (now ${source}; before ${[...seen].join(', ')})`);
  extra[key] = source;
}

/** A measured window and the warm-up before it (FULL: the run's BENCH_SECONDS and BENCH_WARMUP_SECONDS). */
export interface Window {
  seconds: number;
  warmupSeconds: number;
}
export const FULL: Window = { seconds: SECONDS, warmupSeconds: WARMUP };

/** Log one figure; `seconds` is the window it was meant to fill (shorter: cut short, the flows ran out). */
export function logFigures(label: string, unit: string, m: Measured, seconds = SECONDS): void {
  const f = m.figures;
  const window = f.seconds < seconds - 0.5 ? ` in ${f.seconds.toFixed(1)} s (window cut short)` : '';
  log(
    `  ${label.padEnd(34)} ${num(f.rate, 1).padStart(9)} ${unit}  p50 ${String(f.p50).padStart(4)} ms  p99 ${String(f.p99).padStart(4)} ms  ` +
      `(${num(f.ok)} ok, ${f.failed} failed${window}${f.builtLate ? `, ${f.builtLate} built during the window` : ''})`,
  );
  if (m.cpu) log(`  ${''.padEnd(34)} ${formatCpu(m.cpu)}`);
  for (const failure of f.failures) log(`  ${''.padEnd(34)} failure: ${failure}`);
}

// ---------------------------------------------------------------------------------------------
// Measuring

/** A load's `onMeasure` that meters the CPU of `pid` (the server) over the window, and the share it measured. */
function cpuDuring(pid: number | undefined): { onMeasure: () => () => void; share: () => CpuShare | undefined } {
  let cpu: CpuShare | undefined;
  return {
    onMeasure: () => {
      const meter = cpuMeter(pid);
      return () => {
        cpu = meter();
      };
    },
    share: () => cpu,
  };
}

/** One kind of request at BENCH_CONNECTIONS, with the CPU of `pid` (the server) during the window. */
export async function measure(
  label: string,
  url: string,
  make: (i: number) => Req,
  pid: number | undefined,
  unit = 'req/s',
  window: Window = FULL,
): Promise<Measured> {
  const cpu = cpuDuring(pid);
  const figures = await measureRequests({ url, connections: CONNECTIONS, ...window, make, onMeasure: cpu.onMeasure });
  const m = { figures, cpu: cpu.share() };
  logFigures(label, unit, m, window.seconds);
  return m;
}

/**
 * Flows per second (an OTP login: several requests) by BENCH_CONNECTIONS simulated users, with the
 * CPU of `pid` during the window. `prepare` makes the i-th flow's input, or undefined when no more
 * are left (at most `maxFlows`).
 */
export async function measureFlowRate<P>(
  label: string,
  pid: number | undefined,
  maxFlows: number,
  prepare: (i: number) => P | undefined,
  flow: (p: P) => Promise<void>,
  unit = 'logins/s',
  window: Window = FULL,
  unused?: (left: P[]) => void,
): Promise<Measured> {
  const cpu = cpuDuring(pid);
  const figures = await measureFlows({ concurrency: CONNECTIONS, ...window, maxFlows, prepare, flow, onMeasure: cpu.onMeasure, ...(unused ? { unused } : {}) });
  const m = { figures, cpu: cpu.share() };
  logFigures(label, unit, m, window.seconds);
  return m;
}

/** Run `step`; on failure log it, keep an ERROR row, bring `world`'s server back and answer undefined. */
export async function attempt<T>(
  world: World | undefined,
  db: DbKind,
  what: string,
  order: number,
  scale: number | undefined,
  step: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await step();
  } catch (err) {
    const message = (err as Error).message.split('\n')[0]!.slice(0, 300);
    log(`  ${what}${scale === undefined ? '' : ` @${scaleLabel(scale)}`} failed: ${(err as Error).stack ?? message}`);
    const serverLog = world?.server?.log().slice(-10) ?? [];
    if (serverLog.length) log(`  server stderr (last lines):\n    ${serverLog.join('\n    ')}`);
    data.errors.push({ order, db, ...(scale === undefined ? {} : { scale }), figure: what, message });
    await world?.restart().catch((e: Error) => log(`  restarting the server failed: ${e.message}`));
    return undefined;
  }
}
