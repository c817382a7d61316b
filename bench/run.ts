/**
 * `npm run bench`: the figures of issue 14, each next to its ceiling or target, on the embedded
 * database (PGlite) and on PostgreSQL. bench/README.md explains each figure and the variables.
 *
 * It prints; it never asserts. A figure under its target is `MISS` in the table; a figure that
 * could not be taken (the server failed) is `ERROR`, and only then is the exit code non-zero.
 */
import { execSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../packages/server/test/support/pg.js';
import { newKey, selfCheck } from './lib/client-crypto.js';
import { type CpuShare, cpuMeter, formatCpu } from './lib/cpu.js';
import { type Figures, measureFlows, measureRequests, percentile, type Req, sustainRequests } from './lib/load.js';
import { killAll, type Running, rssOf, startCeiling } from './lib/processes.js';
import { num, pct, renderText, type Row, type Status, writeResults } from './lib/report.js';
import * as requests from './lib/requests.js';
import { startCodeSink } from './lib/sink.js';
import { type DbKind, World } from './lib/world.js';

// ---------------------------------------------------------------------------------------------
// Settings

const PARTS = ['sign', 'signup', 'otp', 'reads', 'workers', 'soak'] as const;
type Part = (typeof PARTS)[number];
const DBS: DbKind[] = ['pglite', 'postgres'];

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

const parts = new Set(listOf('BENCH_ONLY', PARTS, PARTS));
const dbs = listOf('BENCH_DB', DBS, DBS);
const scales = (process.env.BENCH_SCALE?.trim() || '1000,100000')
  .split(',')
  .map((s) => Number(s.trim().replaceAll('_', '')))
  .filter((n, i, all) => all.indexOf(n) === i);
if (scales.some((n) => !Number.isInteger(n) || n < 1)) usage(`BENCH_SCALE: ${process.env.BENCH_SCALE} is not a comma list of counts`);
scales.sort((a, b) => a - b);
const SECONDS = numberOf('BENCH_SECONDS', 20);
const WARMUP = numberOf('BENCH_WARMUP_SECONDS', Math.min(5, Math.max(2, Math.round(SECONDS / 4))));
const CONNECTIONS = numberOf('BENCH_CONNECTIONS', 10);
const SOAK_SECONDS = numberOf('BENCH_SOAK_SECONDS', 600, 10);
const PG_URL = process.env.BENCH_PG_URL?.trim() || undefined;

const TARGET = {
  signRatio: 0.6,
  signP99Ms: 50,
  signupPerSecond: 100,
  loginsPerSecond: 200,
  readRatio: 0.8,
  growth: 0.2,
  workers: 1.5,
  memory: 0.1,
};

// ---------------------------------------------------------------------------------------------
// Log, rows, raw figures

const logLines: string[] = [];
function log(line = ''): void {
  logLines.push(line);
  process.stdout.write(`${line}\n`);
}

interface Placed extends Row {
  order: number;
  dbIndex: number;
  scaleIndex: number;
}
const rows: Placed[] = [];
let errors = 0;

const scaleLabel = (n: number) => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));

function add(order: number, db: DbKind, scale: number | undefined, row: Omit<Row, 'db'>): void {
  if (row.status === 'ERROR') errors++;
  rows.push({ ...row, db, order, dbIndex: dbs.indexOf(db), scaleIndex: scale === undefined ? -1 : scales.indexOf(scale) });
}

interface Measured {
  figures: Figures;
  cpu: CpuShare | undefined;
}
/** raw[db][scale][figure] */
const raw: Record<string, Record<string, Record<string, Measured>>> = {};
const extra: Record<string, unknown> = {};

function keep(db: DbKind, scale: number | string, key: string, m: Measured): void {
  const byScale = raw[db] ?? {};
  raw[db] = byScale;
  const byKey = byScale[String(scale)] ?? {};
  byScale[String(scale)] = byKey;
  byKey[key] = m;
}

function logFigures(label: string, unit: string, m: Measured): void {
  const f = m.figures;
  const window = f.seconds < SECONDS - 0.5 ? ` in ${f.seconds.toFixed(1)} s (window cut short)` : '';
  log(
    `  ${label.padEnd(34)} ${num(f.rate, 1).padStart(9)} ${unit}  p50 ${String(f.p50).padStart(4)} ms  p99 ${String(f.p99).padStart(4)} ms  ` +
      `(${num(f.ok)} ok, ${f.failed} failed${window}${f.builtLate ? `, ${f.builtLate} built during the window` : ''})`,
  );
  if (m.cpu) log(`  ${''.padEnd(34)} ${formatCpu(m.cpu)}`);
  for (const failure of f.failures) log(`  ${''.padEnd(34)} failure: ${failure}`);
}

const failedNote = (f: Figures) => (f.failed > 0 ? ` (${num(f.failed)} failed)` : '');
const judge = (ok: boolean, f?: Figures): Status => (f && f.ok === 0 ? 'ERROR' : ok ? 'ok' : 'MISS');

// ---------------------------------------------------------------------------------------------
// Measuring

/** One kind of request at BENCH_CONNECTIONS, with the CPU of `pid` (the server) during the window. */
async function measure(label: string, url: string, make: (i: number) => Req, pid: number | undefined, unit = 'req/s'): Promise<Measured> {
  let cpu: CpuShare | undefined;
  const figures = await measureRequests({
    url,
    connections: CONNECTIONS,
    warmupSeconds: WARMUP,
    seconds: SECONDS,
    make,
    onMeasure: () => {
      const meter = cpuMeter(pid);
      return () => {
        cpu = meter();
      };
    },
  });
  const m = { figures, cpu };
  logFigures(label, unit, m);
  return m;
}

let ceiling: Running;

/** Figure 1: stamped signing at BENCH_CONNECTIONS against the ceiling's /sign. */
async function signFigures(world: World, scale: number): Promise<void> {
  const probe = world.probe;
  const kinds = [
    { key: 'sign_raw_payloads', make: (i: number) => requests.signRawPayloads(probe, i), order: 10 },
    { key: 'sign_transaction', make: (i: number) => requests.signTransaction(probe, i), order: 11 },
  ];
  for (const kind of kinds) {
    const top = await measure(`ceiling /sign (${kind.key})`, ceiling.url, (i) => requests.toCeiling(kind.make(i), '/sign'), ceiling.pid);
    const m = await measure(kind.key, world.url, kind.make, world.server?.pid);
    keep(world.kind, scale, `ceiling_sign_${kind.key}`, top);
    keep(world.kind, scale, kind.key, m);
    const ratio = m.figures.rate / top.figures.rate;
    add(kind.order, world.kind, scale, {
      figure: `${kind.key} @${scaleLabel(scale)}`,
      value: `${num(m.figures.rate)} req/s${failedNote(m.figures)}`,
      target: `≥ ${TARGET.signRatio} × ceiling ${num(top.figures.rate)} req/s`,
      ratio,
      status: judge(ratio >= TARGET.signRatio, m.figures),
    });
    add(kind.order + 0.5, world.kind, scale, {
      figure: `${kind.key} p99 @${scaleLabel(scale)}`,
      value: `${m.figures.p99} ms (p50 ${m.figures.p50} ms)`,
      target: `< ${TARGET.signP99Ms} ms (ceiling p99 ${top.figures.p99} ms)`,
      ratio: m.figures.p99 / TARGET.signP99Ms,
      status: judge(m.figures.p99 < TARGET.signP99Ms, m.figures),
    });
  }
}

/** Figure 4: stamped reads against the ceiling's /read. */
async function readFigures(world: World, scale: number): Promise<void> {
  const probe = world.probe;
  const top = await measure('ceiling /read', ceiling.url, () => requests.toCeiling(requests.listWallets(probe), '/read'), ceiling.pid);
  keep(world.kind, scale, 'ceiling_read', top);
  const kinds = [
    { key: 'list_wallets', make: () => requests.listWallets(probe), order: 40 },
    { key: 'list_wallet_accounts', make: () => requests.listWalletAccounts(probe), order: 41 },
  ];
  for (const kind of kinds) {
    const m = await measure(kind.key, world.url, kind.make, world.server?.pid);
    keep(world.kind, scale, kind.key, m);
    const ratio = m.figures.rate / top.figures.rate;
    add(kind.order, world.kind, scale, {
      figure: `${kind.key} @${scaleLabel(scale)}`,
      value: `${num(m.figures.rate)} req/s, p99 ${m.figures.p99} ms${failedNote(m.figures)}`,
      target: `≥ ${TARGET.readRatio} × ceiling ${num(top.figures.rate)} req/s`,
      ratio,
      status: judge(ratio >= TARGET.readRatio, m.figures),
    });
  }
}

/** Figure 2: create_sub_organization (root user with an API key, Ethereum wallet) per second. */
async function signupFigure(world: World, scale: number): Promise<void> {
  const m = await measure('create_sub_organization', world.url, (i) => requests.createSubOrganization(world, i), world.server?.pid, 'signups/s');
  keep(world.kind, scale, 'create_sub_organization', m);
  extra[`signups_${world.kind}_${scale}`] = m.figures.ok;
  add(20, world.kind, scale, {
    figure: `signup with a wallet @${scaleLabel(scale)}`,
    value: `${num(m.figures.rate, 1)}/s, p99 ${m.figures.p99} ms${failedNote(m.figures)}`,
    target: `≥ ${TARGET.signupPerSecond}/s`,
    ratio: m.figures.rate / TARGET.signupPerSecond,
    status: judge(m.figures.rate >= TARGET.signupPerSecond, m.figures),
  });
}

/** Figure 3: full email OTP logins through the proxy, each with its own seeded account. */
async function otpFigure(world: World, scale: number): Promise<void> {
  let cpu: CpuShare | undefined;
  const available = world.loginAccountsLeft();
  const figures = await measureFlows({
    concurrency: CONNECTIONS,
    warmupSeconds: WARMUP,
    seconds: SECONDS,
    maxFlows: available,
    prepare: () => {
      const email = world.takeLoginEmail();
      return email === undefined ? undefined : { email, key: newKey() };
    },
    flow: (p: { email: string; key: ReturnType<typeof newKey> }) => world.loginByCode(p.email, p.key),
    onMeasure: () => {
      const meter = cpuMeter(world.server?.pid);
      return () => {
        cpu = meter();
      };
    },
  });
  const m = { figures, cpu };
  logFigures('email OTP login (3 requests)', 'logins/s', m);
  log(`  ${''.padEnd(34)} ${num(available - world.loginAccountsLeft())} of ${num(available)} unused seeded accounts logged in`);
  keep(world.kind, scale, 'otp_login', m);
  add(30, world.kind, scale, {
    figure: `email OTP login @${scaleLabel(scale)}`,
    value: `${num(figures.rate, 1)}/s, p99 ${figures.p99} ms${failedNote(figures)}`,
    target: `≥ ${TARGET.loginsPerSecond}/s`,
    ratio: figures.rate / TARGET.loginsPerSecond,
    status: judge(figures.rate >= TARGET.loginsPerSecond, figures),
  });
}

/** Figure 6 (PostgreSQL): sign_raw_payloads with --workers 1 and --workers 2, next to the ceiling's own 1 → 2. */
async function workersFigure(world: World, scale: number): Promise<void> {
  const make = (i: number) => requests.signRawPayloads(world.probe, i);
  await world.restart(1);
  const one = await measure('sign_raw_payloads, 1 worker', world.url, make, world.server?.pid);
  await world.restart(2);
  let two: Measured;
  try {
    two = await measure('sign_raw_payloads, 2 workers', world.url, make, world.server?.pid);
  } finally {
    await world.restart(1);
  }
  const top1 = await measure('ceiling /sign, 1 process', ceiling.url, (i) => requests.toCeiling(make(i), '/sign'), ceiling.pid);
  const ceiling2 = await startCeiling(2);
  let top2: Measured;
  try {
    top2 = await measure('ceiling /sign, 2 processes', ceiling2.url, (i) => requests.toCeiling(make(i), '/sign'), ceiling2.pid);
  } finally {
    await ceiling2.stop();
  }
  for (const [k, m] of Object.entries({ workers_1: one, workers_2: two, ceiling_1: top1, ceiling_2: top2 })) keep(world.kind, `workers@${scale}`, k, m);
  const ratio = two.figures.rate / one.figures.rate;
  add(60, world.kind, scale, {
    figure: `2 workers / 1, sign_raw_payloads @${scaleLabel(scale)}`,
    value: `${num(one.figures.rate)} → ${num(two.figures.rate)} req/s${failedNote(two.figures)}`,
    target: `≥ ${TARGET.workers}x (ceiling 1 → 2 processes: ${(top2.figures.rate / top1.figures.rate).toFixed(2)}x)`,
    ratio,
    status: judge(ratio >= TARGET.workers, two.figures),
  });
}

/** Figure 7: RSS of a fresh server under mixed signing and reads, first minute against last. */
async function soakFigure(world: World, scale: number): Promise<void> {
  await world.restart(1);
  const pid = world.server!.pid;
  const probe = world.probe;
  const mix = [
    (i: number) => requests.signRawPayloads(probe, i),
    () => requests.listWallets(probe),
    (i: number) => requests.signTransaction(probe, i),
    () => requests.listWalletAccounts(probe),
  ];
  let n = 0;
  const make = () => {
    const i = n++;
    return mix[i % mix.length]!(1_000_000 + i);
  };
  const window = Math.min(60, SOAK_SECONDS / 3);
  const every = SOAK_SECONDS >= 120 ? 5 : Math.max(1, SOAK_SECONDS / 24);
  log(
    `  warm-up ${WARMUP} s, then ${SOAK_SECONDS} s of mixed load (sign_raw_payloads, list_wallets, sign_transaction, list_wallet_accounts) at ${CONNECTIONS} connections; RSS every ${every} s`,
  );
  await sustainRequests({ url: world.url, connections: CONNECTIONS, seconds: WARMUP, make });
  const samples: Array<{ t: number; rss: number }> = [];
  const t0 = performance.now();
  const sample = () => {
    const rss = rssOf(pid);
    if (rss !== undefined) samples.push({ t: (performance.now() - t0) / 1000, rss });
  };
  sample();
  const timer = setInterval(sample, every * 1000);
  let lastMinuteLog = 0;
  const minuteLog = setInterval(() => {
    const last = samples.at(-1);
    if (last && last.t - lastMinuteLog >= 59) {
      lastMinuteLog = last.t;
      log(`  ${Math.round(last.t)} s: RSS ${(last.rss / 2 ** 20).toFixed(1)} MB`);
    }
  }, 10_000);
  const meter = cpuMeter(pid);
  let figures: Figures;
  try {
    figures = await sustainRequests({ url: world.url, connections: CONNECTIONS, seconds: SOAK_SECONDS, make });
  } finally {
    clearInterval(timer);
    clearInterval(minuteLog);
  }
  sample();
  const m = { figures, cpu: meter() };
  logFigures('mixed load (soak)', 'req/s', { ...m, figures: { ...figures, builtLate: 0 } });
  const median = (xs: number[]) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      50,
    );
  const end = samples.at(-1)?.t ?? 0;
  const first = median(samples.filter((s) => s.t <= window).map((s) => s.rss));
  const last = median(samples.filter((s) => s.t >= end - window).map((s) => s.rss));
  const mb = (b: number) => `${(b / 2 ** 20).toFixed(1)} MB`;
  log(
    `  RSS median first ${window} s ${mb(first)}, last ${window} s ${mb(last)} (${samples.length} samples, max ${mb(Math.max(...samples.map((s) => s.rss)))})`,
  );
  keep(world.kind, `soak@${scale}`, 'mixed', m);
  extra[`rss_${world.kind}`] = samples;
  const ratio = last / first;
  const label = window === 60 ? 'minute' : `${Math.round(window)} s`;
  add(70, world.kind, scale, {
    figure: `RSS, first ${label} → last ${label} of ${Math.round(SOAK_SECONDS / 60) >= 1 && SOAK_SECONDS % 60 === 0 ? `${SOAK_SECONDS / 60} min` : `${SOAK_SECONDS} s`} mixed load`,
    value: `${mb(first)} → ${mb(last)} (${pct(ratio - 1)})${failedNote(figures)}`,
    target: `within ±${TARGET.memory * 100}%`,
    ratio,
    status: judge(Math.abs(ratio - 1) <= TARGET.memory, figures),
  });
}

/** Figure 5: each figure at the largest scale against the smallest. */
function growthRows(): void {
  if (scales.length < 2) return;
  const small = String(scales[0]);
  const large = String(scales.at(-1));
  const keys = ['sign_raw_payloads', 'sign_transaction', 'create_sub_organization', 'otp_login', 'list_wallets', 'list_wallet_accounts'];
  for (const db of dbs) {
    for (const [i, key] of keys.entries()) {
      const a = raw[db]?.[small]?.[key]?.figures;
      const b = raw[db]?.[large]?.[key]?.figures;
      if (!a || !b || a.ok === 0 || b.ok === 0) continue;
      const ratio = b.rate / a.rate;
      add(50 + i, db as DbKind, undefined, {
        figure: `${key} ${scaleLabel(Number(small))} → ${scaleLabel(Number(large))} sub-orgs`,
        value: `${num(a.rate, 1)} → ${num(b.rate, 1)}/s (${pct(ratio - 1)}), p99 ${a.p99} → ${b.p99} ms`,
        target: `< ${TARGET.growth * 100}% slower`,
        ratio,
        status: ratio >= 1 - TARGET.growth ? 'ok' : 'MISS',
      });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The run

const cleanups: Array<() => Promise<void>> = [];
let stopping = false;

async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    setTimeout(() => process.exit(code), 20_000).unref();
    killAll();
    for (const world of World.live) await world.dispose().catch(() => {});
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  }
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    log(`\n${signal}: stopping every child process`);
    void shutdown(130);
  });
}
process.on('exit', () => killAll());

function settings(): Record<string, unknown> {
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
    soakSeconds: parts.has('soak') ? SOAK_SECONDS : undefined,
    postgres: dbs.includes('postgres') ? (PG_URL ? 'BENCH_PG_URL' : 'throwaway PostgreSQL 15 cluster (fsync off, synchronous_commit off)') : undefined,
  };
}

/** Run `step`; on failure log it, add an ERROR row and bring the server back. */
async function attempt(world: World, what: string, order: number, scale: number | undefined, step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (err) {
    const message = (err as Error).message.split('\n')[0]!.slice(0, 300);
    log(`  ${what} failed: ${(err as Error).stack ?? message}`);
    const serverLog = world.server?.log().slice(-10) ?? [];
    if (serverLog.length) log(`  server stderr (last lines):\n    ${serverLog.join('\n    ')}`);
    add(order, world.kind, scale, {
      figure: scale === undefined ? what : `${what} @${scaleLabel(scale)}`,
      value: message,
      target: '',
      ratio: null,
      status: 'ERROR',
    });
    await world.restart().catch((e: Error) => log(`  restarting the server failed: ${e.message}`));
  }
}

async function main(): Promise<void> {
  const conf = settings();
  log('walletkit benchmark (issue 14)');
  for (const [k, v] of Object.entries(conf)) if (v !== undefined) log(`  ${k}: ${v}`);
  const started = performance.now();

  await selfCheck();
  const sink = await startCodeSink();
  cleanups.push(() => sink.close());
  ceiling = await startCeiling();
  let cluster: ThrowawayPostgres | undefined;
  const perScale = ['sign', 'signup', 'otp', 'reads'].some((p) => parts.has(p as Part));

  for (const kind of dbs) {
    log(`\n=== ${kind === 'pglite' ? 'PGlite (embedded database)' : 'PostgreSQL'} ===`);
    let pgAdminUrl: string | undefined;
    if (kind === 'postgres') {
      if (PG_URL) pgAdminUrl = PG_URL;
      else {
        if (!cluster) {
          const c = await startThrowawayPostgres();
          cluster = c;
          cleanups.unshift(() => c.stop());
        }
        pgAdminUrl = cluster.url;
      }
    }
    const t = performance.now();
    let world: World;
    try {
      world = await World.create({ kind, ...(pgAdminUrl ? { pgAdminUrl } : {}), sink, log });
    } catch (err) {
      log(`  setting up ${kind} failed: ${(err as Error).message}`);
      add(0, kind, undefined, { figure: 'setup', value: (err as Error).message.split('\n')[0]!.slice(0, 300), target: '', ratio: null, status: 'ERROR' });
      continue;
    }
    log(`  server up, parent organization, proxy, template and probe accounts in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    for (const scale of perScale ? scales : [scales.at(-1)!]) {
      log(`\n--- ${kind}, ${num(scale)} seeded sub-organizations ---`);
      const seeding = performance.now();
      await attempt(world, 'seeding', 1, scale, () => world.seedTo(scale));
      extra[`seeding_seconds_${kind}_${scale}`] = Math.round((performance.now() - seeding) / 100) / 10;
      if (!perScale) break;
      if (parts.has('sign')) await attempt(world, 'signing', 10, scale, () => signFigures(world, scale));
      if (parts.has('reads')) await attempt(world, 'reads', 40, scale, () => readFigures(world, scale));
      if (parts.has('otp')) await attempt(world, 'email OTP login', 30, scale, () => otpFigure(world, scale));
      // Last: every signup adds a sub-organization.
      if (parts.has('signup')) await attempt(world, 'signup', 20, scale, () => signupFigure(world, scale));
    }
    const last = scales.at(-1)!;
    if (parts.has('workers')) {
      if (kind === 'postgres') {
        log(`\n--- ${kind}, --workers 1 against --workers 2 ---`);
        await attempt(world, 'workers', 60, last, () => workersFigure(world, last));
      } else log('\n  (--workers is PostgreSQL only: no workers figure on PGlite)');
    }
    if (parts.has('soak')) {
      log(`\n--- ${kind}, memory under ${SOAK_SECONDS} s of mixed load ---`);
      await attempt(world, 'memory', 70, last, () => soakFigure(world, last));
    }
    await world.dispose();
  }
  growthRows();

  // By figure (the order's integer part), then database, then scale, then the figure's own rows.
  rows.sort((a, b) => Math.floor(a.order) - Math.floor(b.order) || a.dbIndex - b.dbIndex || a.scaleIndex - b.scaleIndex || a.order - b.order);
  const table = rows.map(({ order: _o, dbIndex: _d, scaleIndex: _s, ...row }) => row);
  log(`\nDone in ${((performance.now() - started) / 60_000).toFixed(1)} min.\n`);
  log(renderText(table));
  log('\nratio: the figure over its ceiling or target (p99: p99 / 50 ms, lower is better; growth: large / small scale; memory: last / first).');
  const files = writeResults(table, conf, { figures: raw, extra }, logLines);
  process.stdout.write(`\nwritten: ${files.map((f) => f.replace(`${process.cwd()}/`, '')).join(', ')}\n`);
}

try {
  await main();
  await shutdown(errors > 0 ? 1 : 0);
} catch (err) {
  log(`bench failed: ${(err as Error).stack ?? err}`);
  await shutdown(1);
}
