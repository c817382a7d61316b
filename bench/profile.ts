/**
 * `npm run bench:profile`: where one figure's time goes. Sets up one world (bench/lib/world.ts)
 * with the server under `--cpu-prof`, runs one kind of load for PROFILE_SECONDS, stops the server
 * (which writes the profile) and prints the main thread's self time by function and by package or
 * file. Not a figure: a tool for finding what to make cheaper next.
 *
 *   PROFILE=sign|tx|read|accounts|otp|signup  (default sign)
 *   BENCH_DB=pglite|postgres                  (default pglite)
 *   PROFILE_SECONDS=10  BENCH_CONNECTIONS=10  PROFILE_SEED=0 (seeded sub-organizations, for otp)
 *
 * The profile file stays in the printed directory for Chrome DevTools or speedscope.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../packages/server/test/support/pg.js';
import { newKey } from './lib/client-crypto.js';
import { cpuMeter, formatCpu } from './lib/cpu.js';
import { measureFlows, measureRequests, type Req } from './lib/load.js';
import { DATA_ROOT } from './lib/settings.js';
import { killAll, ROOT } from './lib/processes.js';
import * as requests from './lib/requests.js';
import { startCodeSink } from './lib/sink.js';
import { type DbKind, World } from './lib/world.js';

const kind = (process.env.PROFILE ?? 'sign').trim();
const db = (process.env.BENCH_DB ?? 'pglite').trim() as DbKind;
const seconds = Number(process.env.PROFILE_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const seed = Number(process.env.PROFILE_SEED ?? (kind === 'otp' ? 400 : 0));

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: CpuProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: a package under node_modules, a file of the repo, or node's own. */
function ownerOf(url: string): string {
  if (!url) return '(native)';
  if (url.startsWith('node:')) return url;
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = path.slice(nm + 14).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  return relative(ROOT, path);
}

function summarize(profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map<string, number>();
  const byOwner = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = byId.get(id)!.callFrame;
    const owner = ownerOf(frame.url);
    const name = `${frame.functionName || '(anonymous)'}  ${owner}:${frame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + us);
  }
  const print = (title: string, map: Map<string, number>, n: number) => {
    console.log(`\n${title}`);
    for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n)) {
      console.log(`  ${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`);
    }
  };
  console.log(`${(total / 1e6).toFixed(1)} s sampled`);
  print('self time by package or file', byOwner, 30);
  print('self time by function', byFunction, 40);
}

async function main(): Promise<void> {
  const profDir = mkdtempSync(join(tmpdir(), 'walletkit-profile-'));
  const sink = await startCodeSink();
  let cluster: ThrowawayPostgres | undefined;
  if (db === 'postgres') cluster = await startThrowawayPostgres({ parentDir: DATA_ROOT.dir });
  const world = await World.create({
    kind: db,
    ...(cluster ? { pgAdminUrl: cluster.url } : {}),
    sink,
    nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profDir],
    log: (line) => console.log(line),
    parentDir: DATA_ROOT.dir,
  });
  try {
    if (seed > 0) await world.seedTo(seed);
    const pid = world.server?.pid;
    let cpu = '';
    const onMeasure = () => {
      const meter = cpuMeter(pid);
      return () => {
        cpu = formatCpu(meter());
      };
    };
    const makers: Record<string, (i: number) => Req> = {
      sign: (i) => requests.signRawPayloads(world.probe, i),
      tx: (i) => requests.signTransaction(world.probe, i),
      read: () => requests.listWallets(world.probe),
      accounts: () => requests.listWalletAccounts(world.probe),
      signup: (i) => requests.createSubOrganization(world, i),
    };
    let figures: Awaited<ReturnType<typeof measureRequests>>;
    if (kind === 'otp') {
      figures = await measureFlows({
        concurrency: connections,
        warmupSeconds: 2,
        seconds,
        maxFlows: world.loginAccountsLeft(),
        prepare: () => {
          const email = world.takeLoginEmail();
          return email === undefined ? undefined : { email, key: newKey() };
        },
        flow: (p: { email: string; key: ReturnType<typeof newKey> }) => world.loginByCode(p.email, p.key),
        onMeasure,
      });
    } else {
      const make = makers[kind];
      if (!make) throw new Error(`PROFILE: unknown ${kind} (sign, tx, read, accounts, otp, signup)`);
      figures = await measureRequests({ url: world.url, connections, warmupSeconds: 2, seconds, make, onMeasure });
    }
    console.log(`${kind} on ${db}: ${figures.rate.toFixed(1)}/s p50 ${figures.p50} ms p99 ${figures.p99} ms (${figures.ok} ok, ${figures.failed} failed)`);
    if (figures.failures.length > 0) console.log(`  failures: ${figures.failures.join(' | ')}`);
    console.log(`  ${cpu}`);
    await world.stop();
  } finally {
    await world.dispose();
    await sink.close();
    await cluster?.stop();
    killAll();
  }
  // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: the server is the last pid started (the CLI
  // one-shots wrote theirs first); one file per thread (0: the event loop, others: signer threads).
  const files = readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile'));
  const pidOf = (f: string) => Number(f.split('.')[3]);
  const server = Math.max(...files.map(pidOf));
  const threads = files.filter((f) => pidOf(f) === server).sort((a, b) => Number(a.split('.')[4]) - Number(b.split('.')[4]));
  if (threads.length === 0) throw new Error(`no profile in ${profDir}`);
  for (const file of threads) {
    console.log(`\n=== thread ${file.split('.')[4]} (${join(profDir, file)})`);
    summarize(JSON.parse(readFileSync(join(profDir, file), 'utf8')) as CpuProfile);
  }
}

await main();
