/**
 * `npm run bench`: the figures of issue 14, each next to its ceiling or target, on the embedded
 * database (PGlite) and on PostgreSQL. bench/README.md explains each figure and the variables.
 *
 * It prints; it never asserts. A figure under its target is `MISS` in the table; a figure that
 * could not be taken (the server failed) is `ERROR`, and only then is the exit code non-zero.
 */
import { readFileSync } from 'node:fs';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../packages/server/test/support/pg.js';
import { CeilingOtp } from './lib/ceiling-otp.js';
import { newKey, selfCheck } from './lib/client-crypto.js';
import { deriveRows, legend, type Measured, pooled, type RunData, scaleLabel } from './lib/figures.js';
import type { Req } from './lib/load.js';
import { killAll, type Running, startCeiling } from './lib/processes.js';
import { num, renderMarkdown, renderText, writeResults } from './lib/report.js';
import * as requests from './lib/requests.js';
import { startCodeSink } from './lib/sink.js';
import { soakFigure } from './lib/soak.js';
import { LOGINS_PER_ACCOUNT, World } from './lib/world.js';
import { attempt, data, extra, keep, log, logFigures, logLines, measure, measureFlowRate, noteSource, type Window } from './lib/recorder.js';
import { DATA_ROOT, dbs, type Part, parts, PG_URL, runSettings, scales, SECONDS, SLICE_WARMUP, SLICES, SOAK_SECONDS, WARMUP } from './lib/settings.js';

let ceiling: Running;

/** A world seeded to `scale` sub-organizations. */
interface Scaled {
  world: World;
  scale: number;
}

const at = (scale: number) => `@${scaleLabel(scale)}`;

/**
 * A figure's ceiling (`ceilingOnce`), measured before and after the servers' figures read against
 * it (`between`), kept at every scale pooled and each measurement beside it: the machine's speed
 * drifts over minutes, and a ceiling taken at one end only would read the other end's figures
 * against a faster or slower machine.
 */
async function bracketed(
  worlds: Scaled[],
  key: string,
  label: string,
  order: number,
  ceilingOnce: (label: string) => Promise<Measured>,
  between: () => Promise<void>,
): Promise<void> {
  const db = worlds[0]!.world.kind;
  const once = (when: string) => attempt(undefined, db, `${label}, ${when}`, order, undefined, () => ceilingOnce(`${label}, ${when}`));
  const before = await once('before');
  await between();
  const after = await once('after');
  const both = before && after ? pooled(before, after) : (before ?? after);
  for (const { world, scale } of worlds) {
    if (both) keep(world.kind, scale, key, both);
    if (before) keep(world.kind, scale, `${key}_before`, before);
    if (after) keep(world.kind, scale, `${key}_after`, after);
  }
}

/**
 * One figure at every scale in alternating slices (settings.ts SLICES: 1,000, 100,000, then
 * 100,000, 1,000, ...),
 * each slice logged, each scale's slices pooled and kept under `key`. With one scale, one window.
 * `one` takes a slice: `label` to log it under, `window` its length and warm-up.
 */
async function sideBySide(
  worlds: Scaled[],
  key: string,
  name: string,
  order: number,
  unit: string,
  one: (scaled: Scaled, label: string, window: Window) => Promise<Measured>,
): Promise<void> {
  const slices = worlds.length > 1 ? SLICES : 1;
  const taken = new Map<Scaled, Measured[]>(worlds.map((w) => [w, []]));
  /**
   * Flows run out (the seeded accounts' logins at the smaller scale): a slice cut short ends the
   * slices with its round. A slice with nothing in it drops its whole round, the other scales'
   * slices of it too, so that every scale is pooled over the same rounds.
   */
  let last = slices;
  for (let slice = 0; slice < last; slice++) {
    const round: Array<[Scaled, Measured]> = [];
    // ABBA: every other round the other way round, so that no scale always goes first.
    for (const scaled of slice % 2 === 0 ? worlds : [...worlds].reverse()) {
      const label = `${name} ${at(scaled.scale)}${slices > 1 ? ` (${slice + 1}/${slices})` : ''}`;
      const window = { seconds: SECONDS / slices, warmupSeconds: slice === 0 ? WARMUP : SLICE_WARMUP };
      const m = await attempt(scaled.world, scaled.world.kind, name, order, scaled.scale, () => one(scaled, label, window));
      if (!m) continue;
      round.push([scaled, m]);
      if (m.figures.seconds >= window.seconds - 0.5) continue;
      last = slice + 1;
      if (m.figures.seconds > 0 || slices === 1) {
        if (slice < slices - 1) log(`  ${''.padEnd(34)} nothing more to run at ${scaleLabel(scaled.scale)}: the slices end with this round`);
        continue;
      }
      log(`  ${''.padEnd(34)} nothing left to run at ${scaleLabel(scaled.scale)}: round ${slice + 1} is dropped at every scale`);
      round.length = 0;
      break;
    }
    for (const [scaled, m] of round) taken.get(scaled)!.push(m);
  }
  for (const [scaled, ms] of taken) {
    if (ms.length === 0) continue;
    const m = pooled(...ms);
    if (slices > 1) logFigures(`${name} ${at(scaled.scale)}, ${ms.length} pooled`, unit, m);
    keep(scaled.world.kind, scaled.scale, key, m);
  }
}

/** One kind of request against each scale's server, in alternating slices (`sideBySide`). */
async function eachScale(worlds: Scaled[], key: string, order: number, make: (probe: World['probe']) => (i: number) => Req): Promise<void> {
  await sideBySide(worlds, key, key, order, 'req/s', ({ world }, label, window) =>
    measure(label, world.url, make(world.probe), world.server?.pid, 'req/s', window),
  );
}

/**
 * Figure 1: stamped signing at BENCH_CONNECTIONS. For each request kind the ceiling's /sign, each
 * scale's server, and the ceiling again (`bracketed`).
 */
async function signFigures(worlds: Scaled[]): Promise<void> {
  const first = worlds[0]!.world;
  const kinds = [
    { key: 'sign_raw_payloads', make: (probe: World['probe']) => (i: number) => requests.signRawPayloads(probe, i) },
    { key: 'sign_transaction', make: (probe: World['probe']) => (i: number) => requests.signTransaction(probe, i) },
  ];
  for (const kind of kinds) {
    await bracketed(
      worlds,
      `ceiling_sign_${kind.key}`,
      `ceiling /sign (${kind.key})`,
      10,
      (label) => measure(label, ceiling.url, (i) => requests.toCeiling(kind.make(first.probe)(i), '/sign'), ceiling.pid),
      () => eachScale(worlds, kind.key, 10, kind.make),
    );
  }
}

/** Figure 4: stamped reads, between two measurements of the ceiling's /read (`bracketed`). */
async function readFigures(worlds: Scaled[]): Promise<void> {
  const first = worlds[0]!.world;
  const kinds = [
    { key: 'list_wallets', make: (probe: World['probe']) => () => requests.listWallets(probe) },
    { key: 'list_wallet_accounts', make: (probe: World['probe']) => () => requests.listWalletAccounts(probe) },
  ];
  await bracketed(
    worlds,
    'ceiling_read',
    'ceiling /read',
    40,
    (label) => measure(label, ceiling.url, () => requests.toCeiling(requests.listWallets(first.probe), '/read'), ceiling.pid),
    async () => {
      for (const kind of kinds) await eachScale(worlds, kind.key, 40, kind.make);
    },
  );
}

/** Figure 2: create_sub_organization (root user with an API key, Ethereum wallet) per second, in alternating slices. */
async function signupFigures(worlds: Scaled[]): Promise<void> {
  await sideBySide(worlds, 'create_sub_organization', 'create_sub_organization', 20, 'signups/s', ({ world }, label, window) =>
    measure(label, world.url, (i) => requests.createSubOrganization(world, i), world.server?.pid, 'signups/s', window),
  );
  for (const { world, scale } of worlds) {
    const m = data.figures[world.kind]?.[String(scale)]?.create_sub_organization;
    if (m) extra[`signups_${world.kind}_${scale}`] = m.figures.ok;
  }
}

/**
 * Figure 3: full email OTP logins through the proxy of seeded accounts (each account's first
 * login before any account's second; World.takeLoginEmail), between two measurements of the
 * ceiling's `/otp/*` flow (the same three requests with the server's crypto and nothing else;
 * `bracketed`).
 */
async function otpFigures(worlds: Scaled[]): Promise<void> {
  let round = 0;
  const ceilingOnce = async (label: string) => {
    const client = await CeilingOtp.connect(ceiling.url);
    const r = round++;
    try {
      return await measureFlowRate(
        label,
        ceiling.pid,
        Number.POSITIVE_INFINITY,
        (i) => ({ email: `ceiling-${r}-${i}@bench.invalid`, key: newKey() }),
        (p) => client.login(p.email, p.key),
      );
    } finally {
      client.close();
    }
  };
  await bracketed(worlds, 'ceiling_otp', 'ceiling /otp', 30, ceilingOnce, async () => {
    const available = new Map(worlds.map(({ world }) => [world, world.loginAccountsLeft()]));
    await sideBySide(worlds, 'otp_login', 'email OTP login', 30, 'logins/s', ({ world }, label, window) =>
      measureFlowRate(
        label,
        world.server?.pid,
        world.loginAccountsLeft(),
        () => {
          const email = world.takeLoginEmail();
          return email === undefined ? undefined : { email, key: newKey() };
        },
        (p) => world.loginByCode(p.email, p.key),
        'logins/s',
        window,
        (left) => world.giveBackLoginEmails(left.map((p) => p.email)),
      ),
    );
    for (const [world, before] of available) {
      log(
        `  ${''.padEnd(34)} ${num(before - world.loginAccountsLeft())} of ${num(before)} logins the seeded accounts had left taken at ${scaleLabel(world.seeded)} (logins run, warm-ups included; ${LOGINS_PER_ACCOUNT} an account)`,
      );
    }
  });
}

/**
 * Figure 6 (PostgreSQL): sign_raw_payloads with --workers 1 and --workers 2, next to the ceiling's
 * own 1 → 2. One process signs on its worker threads too (a thread per spare core), two processes
 * on 2 cores have none (threadsPerWorker), so one process is also measured without threads
 * (WALLETKIT_SIGNER_THREADS=0): what a second process adds to the first, process for process.
 */
async function workersFigure(world: World, scale: number): Promise<void> {
  const make = (i: number) => requests.signRawPayloads(world.probe, i);
  await world.restart(1);
  noteSource(`source_${world.kind}_workers_1`);
  const one = await measure('sign_raw_payloads, 1 worker', world.url, make, world.server?.pid);
  await world.restart(1, { WALLETKIT_SIGNER_THREADS: '0' });
  noteSource(`source_${world.kind}_workers_1_bare`);
  let two: Measured;
  let oneBare: Measured;
  try {
    oneBare = await measure('sign_raw_payloads, 1, no threads', world.url, make, world.server?.pid);
    await world.restart(2);
    noteSource(`source_${world.kind}_workers_2`);
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
  for (const [k, m] of Object.entries({ workers_1: one, workers_1_bare: oneBare, workers_2: two, ceiling_1: top1, ceiling_2: top2 })) {
    keep(world.kind, `workers@${scale}`, k, m);
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

async function main(): Promise<void> {
  const conf = runSettings();
  data.settings = { ...conf, db: dbs.join(','), scale: scales.join(',') };
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
          const c = await startThrowawayPostgres({ parentDir: DATA_ROOT.dir });
          cluster = c;
          cleanups.unshift(() => c.stop());
        }
        pgAdminUrl = cluster.url;
      }
    }

    // One world per scale, side by side: each figure is then taken at every scale within a minute,
    // on the same server source and the same machine state.
    const worlds: Scaled[] = [];
    for (const scale of perScale ? scales : [scales.at(-1)!]) {
      log(`\n--- ${kind}, ${num(scale)} seeded sub-organizations ---`);
      const t = performance.now();
      const world = await attempt(undefined, kind, 'setup', 0, scale, () =>
        World.create({ kind, ...(pgAdminUrl ? { pgAdminUrl } : {}), sink, log, parentDir: DATA_ROOT.dir }),
      );
      if (!world) continue;
      log(`  server up, parent organization, proxy, template and probe accounts in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      const seeding = performance.now();
      await attempt(world, kind, 'seeding', 1, scale, () => world.seedTo(scale));
      extra[`seeding_seconds_${kind}_${scale}`] = Math.round((performance.now() - seeding) / 100) / 10;
      worlds.push({ world, scale });
    }
    if (worlds.length === 0) continue;
    // Started again together, so that every scale runs the same source (it may be edited meanwhile).
    for (const { world, scale } of worlds) {
      await attempt(world, kind, 'restart', 1, scale, () => world.restart());
      noteSource(`source_${kind}_${scale}`);
    }

    if (perScale) log(`\n--- ${kind}: ${worlds.map((w) => num(w.scale)).join(' and ')} sub-organizations, figure by figure ---`);
    if (parts.has('sign')) await signFigures(worlds);
    if (parts.has('reads')) await readFigures(worlds);
    if (parts.has('otp')) await otpFigures(worlds);
    // Last: every signup adds a sub-organization.
    if (parts.has('signup')) await signupFigures(worlds);

    // Figures 6 and 7 on the largest scale alone.
    const { world, scale: last } = worlds.at(-1)!;
    for (const other of worlds.slice(0, -1)) await other.world.dispose();
    if (parts.has('workers')) {
      if (kind === 'postgres') {
        log(`\n--- ${kind}, --workers 1 against --workers 2, ${num(last)} sub-organizations ---`);
        await attempt(world, kind, 'workers', 60, last, () => workersFigure(world, last));
      } else log('\n  (--workers is PostgreSQL only: no workers figure on PGlite)');
    }
    if (parts.has('soak')) {
      log(`\n--- ${kind}, memory under ${SOAK_SECONDS} s of mixed load, ${num(last)} sub-organizations ---`);
      await attempt(world, kind, 'memory', 70, last, () => soakFigure(world, last));
    }
    await world.dispose();
  }
  const table = deriveRows(data);
  log(`\nDone in ${((performance.now() - started) / 60_000).toFixed(1)} min.\n`);
  log(renderText(table));
  log(`\n${legend(table)}`);
  const files = writeResults(table, conf, { figures: data.figures, extra: data.extra, errors: data.errors }, logLines);
  process.stdout.write(`\nwritten: ${files.map((f) => f.replace(`${process.cwd()}/`, '')).join(', ')}\n`);
}

/** BENCH_REPORT=<latest.json>: the table of a saved run, derived again from its raw figures; nothing is measured. */
function reportOnly(file: string): void {
  const saved = JSON.parse(readFileSync(file, 'utf8')) as {
    settings: RunData['settings'];
    rows: Array<{ figure: string; db: string; value: string; status: string }>;
    raw: { figures: RunData['figures']; extra: RunData['extra']; errors?: RunData['errors'] };
  };
  const errors = saved.raw.errors ?? saved.rows.filter((r) => r.status === 'ERROR').map((r) => ({ order: 0, db: r.db, figure: r.figure, message: r.value }));
  const table = deriveRows({ settings: saved.settings, figures: saved.raw.figures, extra: saved.raw.extra, errors });
  process.stdout.write(
    `${Object.entries(saved.settings)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n')}\n\n${renderText(table)}\n\n${legend(table)}\n\n${renderMarkdown(table)}\n`,
  );
}

if (process.env.BENCH_REPORT) {
  reportOnly(process.env.BENCH_REPORT);
  process.exit(0);
}

try {
  await main();
  await shutdown(data.errors.length > 0 ? 1 : 0);
} catch (err) {
  log(`bench failed: ${(err as Error).stack ?? err}`);
  await shutdown(1);
}
