/**
 * The table, derived from the raw measurements alone: a run measures and keeps (`RunData`), this
 * turns what it kept into rows. So a saved run (bench/results/latest.json) can be shown again
 * with `BENCH_REPORT=<file>`, without measuring anything.
 */
import type { CpuShare } from './cpu.js';
import type { Figures } from './load.js';
import { percentile } from './load.js';
import { num, pct, type Row, type Status } from './report.js';

export const TARGET = {
  /** Figure 1: signing req/s over the ceiling's /sign, and p99. */
  signRatio: 0.6,
  signP99Ms: 50,
  /** Figure 2. */
  signupPerSecond: 100,
  /** Figure 3. */
  loginsPerSecond: 200,
  /** Figure 4: reads req/s over the ceiling's /read. */
  readRatio: 0.8,
  /** Figure 5: at most this much slower at the largest scale. */
  growth: 0.2,
  /** Figure 6: 2 workers over 1. */
  workers: 1.5,
  /** Figure 7: the last minute's RSS floor within this of the first minute's. */
  memory: 0.1,
};

export interface Measured {
  figures: Figures;
  cpu: CpuShare | undefined;
}

/**
 * Measurements of one thing as one (a ceiling taken before and after the figures read against it;
 * a figure taken in alternating slices): the requests of every window over all their time,
 * latencies and CPU averaged window by window.
 */
export function pooled(...ms: Measured[]): Measured {
  const first = ms[0];
  if (!first) throw new Error('nothing to pool');
  if (ms.length === 1) return first;
  const all = ms.map((m) => m.figures);
  const sum = (f: (x: Figures) => number) => all.reduce((total, x) => total + f(x), 0);
  const mean = (f: (x: Figures) => number) => Math.round(sum(f) / all.length);
  const seconds = sum((x) => x.seconds);
  const cpus = ms.map((m) => m.cpu).filter((c): c is CpuShare => c !== undefined);
  const cpuMean = (f: (c: CpuShare) => number) => cpus.reduce((total, c) => total + f(c), 0) / cpus.length;
  const stalled = cpus.every((c) => c.ioStalled !== undefined) ? { ioStalled: cpuMean((c) => c.ioStalled!) } : {};
  return {
    figures: {
      rate: seconds > 0 ? sum((x) => x.ok) / seconds : 0,
      p50: mean((x) => x.p50),
      p99: mean((x) => x.p99),
      ok: sum((x) => x.ok),
      failed: sum((x) => x.failed),
      failures: all.flatMap((x) => x.failures).slice(0, 5),
      seconds,
      builtLate: sum((x) => x.builtLate),
    },
    cpu:
      cpus.length === ms.length
        ? {
            server: cpuMean((c) => c.server),
            bench: cpuMean((c) => c.bench),
            machine: cpuMean((c) => c.machine),
            steal: cpuMean((c) => c.steal),
            iowait: cpuMean((c) => c.iowait),
            ...stalled,
            cores: cpus[0]!.cores,
          }
        : cpus[0],
  };
}

export interface RssSample {
  /** Seconds since the soak started. */
  t: number;
  /** Bytes. */
  rss: number;
}

/** What a run keeps. `figures[db][scale][key]`; scale is the count, or `workers@<n>` / `soak@<n>`. */
export interface RunData {
  settings: { db: string; scale: string; soakSeconds?: number } & Record<string, unknown>;
  figures: Record<string, Record<string, Record<string, Measured>>>;
  /** `rss_<db>`: the soak's samples; `seeding_seconds_<db>_<n>`; `signups_<db>_<n>`. */
  extra: Record<string, unknown>;
  /** Figures that could not be taken. */
  errors: Array<{ order: number; db: string; scale?: number; figure: string; message: string }>;
}

export const scaleLabel = (n: number) => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));

const failedNote = (f: Figures) => (f.failed > 0 ? ` (${num(f.failed)} failed)` : '');
const judge = (ok: boolean, f?: Figures): Status => (f && f.ok === 0 ? 'ERROR' : ok ? 'ok' : 'MISS');
export const mb = (b: number) => `${(b / 2 ** 20).toFixed(1)} MB`;

/** `status*` when the server source noted under `a` and `b` differ (both known). */
function starred(data: RunData, a: string, b: string, status: Status): Status {
  const x = data.extra[a];
  const y = data.extra[b];
  return x !== undefined && y !== undefined && x !== y && (status === 'ok' || status === 'MISS') ? `${status}*` : status;
}

/**
 * Which ceiling a figure's growth is read against when the two scales were measured at different
 * moments, each next to its own ceiling measurement (the machine's speed at that moment).
 */
const CONTROL: Record<string, string> = {
  sign_raw_payloads: 'ceiling_sign_sign_raw_payloads',
  sign_transaction: 'ceiling_sign_sign_transaction',
  create_sub_organization: 'ceiling_sign_sign_raw_payloads',
  otp_login: 'ceiling_otp',
  list_wallets: 'ceiling_read',
  list_wallet_accounts: 'ceiling_read',
};

/** The soak's window: a minute, or a third of a shorter soak. */
export const soakWindow = (soakSeconds: number) => Math.min(60, soakSeconds / 3);

/**
 * RSS of the first and of the last `window` seconds: each window's floor (its lowest sample: what
 * the process holds right after the collector has run, the figure) and its median (logged). A
 * server's RSS under load is a sawtooth of the garbage collector (on PostgreSQL about 210 to 300 MB,
 * climbing for 20–30 s), so a minute's median depends on where the collector is in the minute; the
 * floors show growth, the garbage between two collections is not.
 */
export function rssWindows(samples: RssSample[], window: number): { floor: { first: number; last: number }; median: { first: number; last: number } } {
  const median = (xs: number[]) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      50,
    );
  const end = samples.at(-1)?.t ?? 0;
  const first = samples.filter((s) => s.t <= window).map((s) => s.rss);
  const last = samples.filter((s) => s.t >= end - window).map((s) => s.rss);
  return {
    floor: { first: Math.min(...first), last: Math.min(...last) },
    median: { first: median(first), last: median(last) },
  };
}

/**
 * A ceiling for the target column: its pooled rate, and when it was measured before and after the
 * figures read against it, both (how far the machine's speed moved meanwhile).
 */
function ceilingText(at: Record<string, Measured>, key: string, unit: string, digits = 0): string {
  const before = at[`${key}_before`]?.figures;
  const after = at[`${key}_after`]?.figures;
  const drift = before && after ? ` (before ${num(before.rate, digits)}, after ${num(after.rate, digits)})` : '';
  return `ceiling ${num(at[key]?.figures.rate ?? 0, digits)}${unit}${drift}`;
}

interface Placed extends Row {
  order: number;
  dbIndex: number;
  scaleIndex: number;
}

export function deriveRows(data: RunData): Row[] {
  const dbs = data.settings.db.split(',');
  const scales = data.settings.scale.split(',').map(Number);
  const rows: Placed[] = [];
  const add = (order: number, db: string, scale: number | undefined, row: Omit<Row, 'db'>) =>
    rows.push({ ...row, db, order, dbIndex: dbs.indexOf(db), scaleIndex: scale === undefined ? -1 : scales.indexOf(scale) });

  for (const db of dbs) {
    for (const scale of scales) {
      const at = data.figures[db]?.[String(scale)] ?? {};
      const s = `@${scaleLabel(scale)}`;
      // Figure 1
      for (const [i, key] of ['sign_raw_payloads', 'sign_transaction'].entries()) {
        const m = at[key]?.figures;
        const top = at[`ceiling_sign_${key}`]?.figures;
        if (!m || !top) continue;
        const ratio = m.rate / top.rate;
        add(10 + i, db, scale, {
          figure: `${key} ${s}`,
          value: `${num(m.rate)} req/s${failedNote(m)}`,
          target: `≥ ${TARGET.signRatio} × ${ceilingText(at, `ceiling_sign_${key}`, ' req/s')}`,
          ratio,
          status: judge(ratio >= TARGET.signRatio, m),
        });
        add(10 + i + 0.5, db, scale, {
          figure: `${key} p99 ${s}`,
          value: `${m.p99} ms (p50 ${m.p50} ms)`,
          target: `< ${TARGET.signP99Ms} ms (ceiling p99 ${top.p99} ms)`,
          ratio: m.p99 / TARGET.signP99Ms,
          status: judge(m.p99 < TARGET.signP99Ms, m),
        });
      }
      // Figure 2
      const signup = at.create_sub_organization?.figures;
      if (signup)
        add(20, db, scale, {
          figure: `signup with a wallet ${s}`,
          value: `${num(signup.rate, 1)}/s, p99 ${signup.p99} ms${failedNote(signup)}`,
          target: `≥ ${TARGET.signupPerSecond}/s`,
          ratio: signup.rate / TARGET.signupPerSecond,
          status: judge(signup.rate >= TARGET.signupPerSecond, signup),
        });
      // Figure 3
      const otp = at.otp_login?.figures;
      const otpTop = at.ceiling_otp?.figures;
      if (otp)
        add(30, db, scale, {
          figure: `email OTP login ${s}`,
          value: `${num(otp.rate, 1)}/s, p99 ${otp.p99} ms${failedNote(otp)}`,
          target: `≥ ${TARGET.loginsPerSecond}/s${otpTop ? ` (${ceilingText(at, 'ceiling_otp', '/s', 1)}, p99 ${otpTop.p99} ms)` : ''}`,
          ratio: otp.rate / TARGET.loginsPerSecond,
          status: judge(otp.rate >= TARGET.loginsPerSecond, otp),
        });
      // Figure 4
      const top = at.ceiling_read?.figures;
      for (const [i, key] of ['list_wallets', 'list_wallet_accounts'].entries()) {
        const m = at[key]?.figures;
        if (!m || !top) continue;
        const ratio = m.rate / top.rate;
        add(40 + i, db, scale, {
          figure: `${key} ${s}`,
          value: `${num(m.rate)} req/s, p99 ${m.p99} ms${failedNote(m)}`,
          target: `≥ ${TARGET.readRatio} × ${ceilingText(at, 'ceiling_read', ' req/s')}`,
          ratio,
          status: judge(ratio >= TARGET.readRatio, m),
        });
      }
    }

    // Figure 5: the largest scale against the smallest, read against the ceiling measured beside each.
    if (scales.length >= 2) {
      const small = scales[0]!;
      const large = scales.at(-1)!;
      for (const [i, key] of Object.keys(CONTROL).entries()) {
        const a = data.figures[db]?.[String(small)]?.[key]?.figures;
        const b = data.figures[db]?.[String(large)]?.[key]?.figures;
        if (!a || !b || a.ok === 0 || b.ok === 0) continue;
        const ca = data.figures[db]?.[String(small)]?.[CONTROL[key]!]?.figures;
        const cb = data.figures[db]?.[String(large)]?.[CONTROL[key]!]?.figures;
        const rawRatio = b.rate / a.rate;
        // One ceiling measurement serves both scales when they are measured side by side (no
        // correction); a run that measured the scales one after the other had one each.
        const same = ca && cb && ca.rate === cb.rate && ca.ok === cb.ok && ca.p99 === cb.p99;
        const machine = ca && cb && !same ? cb.rate / ca.rate : undefined;
        const ratio = machine ? rawRatio / machine : rawRatio;
        add(50 + i, db, undefined, {
          figure: `${key} ${scaleLabel(small)} → ${scaleLabel(large)} sub-orgs`,
          value:
            `${num(a.rate, 1)} → ${num(b.rate, 1)}/s (${pct(rawRatio - 1)}` +
            `${machine ? `; ceiling ${pct(machine - 1)}, so ${pct(ratio - 1)} against it` : ''}), p99 ${a.p99} → ${b.p99} ms`,
          target: `< ${TARGET.growth * 100}% slower${machine ? ' (against the ceiling)' : ''}`,
          ratio,
          status: starred(data, `source_${db}_${small}`, `source_${db}_${large}`, ratio >= 1 - TARGET.growth ? 'ok' : 'MISS'),
        });
      }
    }

    // Figure 6
    for (const [label, w] of Object.entries(data.figures[db] ?? {})) {
      const n = /^workers@(\d+)$/.exec(label)?.[1];
      if (!n || !w.workers_1 || !w.workers_2) continue;
      const one = w.workers_1.figures;
      const two = w.workers_2.figures;
      const ceil = w.ceiling_1 && w.ceiling_2 ? ` (ceiling 1 → 2 processes: ${(w.ceiling_2.figures.rate / w.ceiling_1.figures.rate).toFixed(2)}x)` : '';
      const ratio = two.rate / one.rate;
      add(60, db, Number(n), {
        figure: `2 workers / 1, sign_raw_payloads @${scaleLabel(Number(n))}`,
        value: `${num(one.rate)} → ${num(two.rate)} req/s${failedNote(two)}`,
        target: `≥ ${TARGET.workers}x${ceil}`,
        ratio,
        status: starred(data, `source_${db}_workers_1`, `source_${db}_workers_2`, judge(ratio >= TARGET.workers, two)),
      });
      if (w.workers_1_bare) {
        // Process for process: the one process without its worker threads (two processes on 2 cores have none).
        const bare = w.workers_1_bare.figures;
        const ratioBare = two.rate / bare.rate;
        add(61, db, Number(n), {
          figure: `2 workers / 1 (no threads), sign_raw_payloads @${scaleLabel(Number(n))}`,
          value: `${num(bare.rate)} → ${num(two.rate)} req/s${failedNote(two)}`,
          target: `≥ ${TARGET.workers}x${ceil}`,
          ratio: ratioBare,
          status: starred(data, `source_${db}_workers_1_bare`, `source_${db}_workers_2`, judge(ratioBare >= TARGET.workers, two)),
        });
      }
    }

    // Figure 7
    const samples = data.extra[`rss_${db}`] as RssSample[] | undefined;
    const soak = Object.entries(data.figures[db] ?? {}).find(([label]) => label.startsWith('soak@'));
    if (samples && samples.length > 0 && soak && data.settings.soakSeconds) {
      const soakSeconds = data.settings.soakSeconds;
      const window = soakWindow(soakSeconds);
      const { first, last } = rssWindows(samples, window).floor;
      const f = soak[1].mixed?.figures;
      const ratio = last / first;
      const label = window === 60 ? 'minute' : `${Math.round(window)} s`;
      const length = soakSeconds % 60 === 0 ? `${soakSeconds / 60} min` : `${soakSeconds} s`;
      add(70, db, Number(soak[0].slice(5)), {
        figure: `RSS floor, first ${label} → last ${label} of ${length} mixed load`,
        value: `${mb(first)} → ${mb(last)} (${pct(ratio - 1)})${f ? failedNote(f) : ''}`,
        target: `within ±${TARGET.memory * 100}%`,
        ratio,
        status: judge(Math.abs(ratio - 1) <= TARGET.memory, f),
      });
    }
  }

  for (const e of data.errors ?? [])
    add(e.order, e.db, e.scale, {
      figure: e.scale === undefined ? e.figure : `${e.figure} @${scaleLabel(e.scale)}`,
      value: e.message,
      target: '',
      ratio: null,
      status: 'ERROR',
    });

  // By figure (the order's integer part), then database, then scale, then the figure's own rows.
  rows.sort((a, b) => Math.floor(a.order) - Math.floor(b.order) || a.dbIndex - b.dbIndex || a.scaleIndex - b.scaleIndex || a.order - b.order);
  return rows.map(({ order: _o, dbIndex: _d, scaleIndex: _s, ...row }) => row);
}

const RATIO_LEGEND =
  'ratio: the figure over its ceiling or target (p99: p99 / 50 ms, lower is better; growth: large / small scale, measured in alternating slices; memory: last / first).';

/** The lines under the table: the ratio column, and the `*` when a row has one. */
export function legend(rows: Row[]): string {
  const star = rows.some((r) => r.status.endsWith('*'))
    ? "\n*: the server's source changed between the two measurements compared (it runs from the working tree, and was edited during the run)."
    : '';
  return RATIO_LEGEND + star;
}
