/**
 * Figure 7, memory: RSS of a freshly started server under mixed signing and reads for
 * BENCH_SOAK_SECONDS, the floor of its first minute against the floor of its last (figures.ts
 * `rssWindows`).
 */
import { MAINTENANCE_INTERVAL_MS } from '../../packages/server/src/store/maintenance.js';
import { cpuMeter } from './cpu.js';
import { mb, rssWindows, soakWindow } from './figures.js';
import { type Figures, sustainRequests } from './load.js';
import { rssOf } from './processes.js';
import { extra, keep, log, logFigures, noteSource } from './recorder.js';
import { num } from './report.js';
import * as requests from './requests.js';
import { CONNECTIONS, SOAK_SECONDS, SOAK_WARMUP, SOAK_WARMUP_MAX } from './settings.js';
import type { World } from './world.js';

/** Figure 7: RSS of a fresh server under mixed signing and reads, first minute against last (floors: figures.ts rssWindows). */
export async function soakFigure(world: World, scale: number): Promise<void> {
  // On PGlite the server's first ANALYZE of `activities` takes memory it keeps (its sample of whole
  // rows, in WebAssembly memory that is never given back: decision 0035); the warm-up lasts until it
  // has run, so that the figure compares the working size with itself.
  // Half the mix are signatures, each an activity row.
  const signaturesDue = world.kind === 'pglite' ? await world.changesBeforeAnalyze('activities') : 0;
  await world.restart(1);
  noteSource(`source_${world.kind}_soak`);
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
  const window = soakWindow(SOAK_SECONDS);
  const every = SOAK_SECONDS >= 120 ? 5 : Math.max(1, SOAK_SECONDS / 24);
  log(
    `  warm-up ${SOAK_WARMUP} s (the heap grows to its working size)${signaturesDue > 0 ? `, and on until the server's first ANALYZE of activities has run (${num(signaturesDue)} more rows; then ${MAINTENANCE_INTERVAL_MS / 1000} s, a maintenance pass)` : ''}, then ${SOAK_SECONDS} s of mixed load (sign_raw_payloads, list_wallets, sign_transaction, list_wallet_accounts) at ${CONNECTIONS} connections; RSS every ${every} s`,
  );
  const warmupStart = performance.now();
  await sustainRequests({ url: world.url, connections: CONNECTIONS, seconds: SOAK_WARMUP, make });
  // `n` counts requests built; every other one is a signature.
  while (signaturesDue > 0 && Math.floor(n / 2) < signaturesDue && performance.now() - warmupStart < SOAK_WARMUP_MAX * 1000) {
    await sustainRequests({ url: world.url, connections: CONNECTIONS, seconds: 15, make });
  }
  if (signaturesDue > 0) {
    await sustainRequests({ url: world.url, connections: CONNECTIONS, seconds: MAINTENANCE_INTERVAL_MS / 1000, make });
    const seconds = (performance.now() - warmupStart) / 1000;
    extra[`soak_warmup_seconds_${world.kind}`] = Math.round(seconds);
    log(`  warmed up for ${Math.round(seconds)} s (${num(n)} requests)`);
  }
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
  const { floor, median } = rssWindows(samples, window);
  log(
    `  RSS first ${Math.round(window)} s floor ${mb(floor.first)} (median ${mb(median.first)}), last ${Math.round(window)} s floor ${mb(floor.last)} (median ${mb(median.last)}); ${samples.length} samples, max ${mb(Math.max(...samples.map((s) => s.rss)))}`,
  );
  keep(world.kind, `soak@${scale}`, 'mixed', m);
  extra[`rss_${world.kind}`] = samples;
}
