/**
 * Worker threads for CPU-bound work that would otherwise stop the event loop (and every request
 * with it): the enclave's signatures and new wallets, and the stamp checks of requests, all on the
 * enclave's pool (enclave/signer-pool.ts). A pool of `threads` workers shares the jobs (the least
 * busy one takes the next); with 0 threads, or once every worker has died, jobs run in-process.
 * Workers start at the first job (a one-shot command or a server that never needs them starts
 * none) and are unref'd: they never keep the process alive.
 *
 * A worker's script is `<name>.js` beside the module that names it (the published server's
 * dist/). Running from source (the monorepo, the tests), its TypeScript is bundled once per
 * process with esbuild (a development dependency) and evaluated.
 *
 * The worker side (`serveJobs` of threads/serve.ts) answers `{ id, job }` with `{ id, result }` or, on failure,
 * `{ id, error }` holding an error name only: an error text never leaves a worker.
 *
 * A pool may also have light workers ({@link LightWorkers}): started with workerData of their own,
 * they take only the jobs run as light, beside the other workers, which take every job.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildOnce } from '../esbuild-once.js';

/** Default worker count: the cores beside the one the event loop uses, at least one. */
export function defaultThreads(): number {
  return Math.max(1, availableParallelism() - 1);
}

/**
 * Default worker count in each process of `--workers N` (N > 1): the process's share of the
 * cores beside its event loop's, which is none when there are as many processes as cores (each
 * then signs and checks stamps on its event loop). One process's default (a thread per spare
 * core, then in each of two pools) in every process put three threads per core on a 2-core
 * machine, and two processes served less than one (decision 0022).
 */
export function threadsPerWorker(workers: number, cores = availableParallelism()): number {
  return Math.max(0, Math.floor(cores / workers) - 1);
}

const bundles = new Map<string, Promise<string>>();

/** Packages a worker's bundle requires at run time instead of inlining them. */
const UNBUNDLED = ['tiny-secp256k1'] as const;

/** A worker's code when running from source: bundled once per process and entry (esbuild-once.ts). */
function bundled(entry: URL): Promise<string> {
  const path = fileURLToPath(entry);
  let code = bundles.get(path);
  if (!code) {
    code = buildOnce({
      entryPoints: [path],
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      conditions: ['@walletkit/source'],
      // Loaded from node_modules at run time, not inlined: it reads its WebAssembly file from its
      // own directory. An evaluated worker's `require` resolves from the working directory, so
      // the bundle resolves from this package's instead.
      external: [...UNBUNDLED],
      banner: { js: `require = require('node:module').createRequire(${JSON.stringify(fileURLToPath(import.meta.url))});` },
      logLevel: 'silent',
    });
    bundles.set(path, code);
  }
  return code;
}

/**
 * Workers beside a pool's `threads` that take only light jobs (`run(job, { light: true })`): short
 * jobs that many requests wait on at once, which a few threads more than cores answer sooner
 * without taking the cores from the heavy jobs, which never go to them (decision 0038).
 */
export interface LightWorkers {
  threads: number;
  /** Their workerData (the signer pool's hold no key). */
  workerData: unknown;
}

interface Slot {
  worker: Worker;
  /** Ids of the jobs this worker has not answered yet. */
  jobs: Set<number>;
  /** Takes light jobs only. */
  lightOnly: boolean;
}

export class ThreadPool<Job, Result> {
  private readonly slots: Slot[] = [];
  private readonly pending = new Map<number, { resolve(v: Result): void; reject(e: Error): void }>();
  private nextId = 1;
  private started: Promise<void> | undefined;
  private closed = false;

  /**
   * @param script the worker's module, as `new URL('./name.js', import.meta.url)` of its neighbour
   * @param inProcess how a job runs without a worker
   * @param light workers for light jobs only, none by default (none either when `threads` is 0)
   * @example new ThreadPool(new URL('./signer-worker.js', import.meta.url), { atRestPrivateKey }, 1, (job) => runSignerJob(atRest, job))
   */
  constructor(
    private readonly script: URL,
    private readonly workerData: unknown,
    private readonly threads: number,
    private readonly inProcess: (job: Job) => Promise<Result> | Result,
    private readonly light: LightWorkers = { threads: 0, workerData: undefined },
  ) {}

  private start(): Promise<void> {
    this.started ??= (async () => {
      const fromSource = import.meta.url.endsWith('.ts');
      const code = fromSource ? await bundled(new URL(this.script.href.replace(/\.js$/, '.ts'))) : undefined;
      if (this.closed) return;
      for (let i = 0; i < this.threads + this.light.threads; i += 1) {
        const lightOnly = i >= this.threads;
        const workerData = lightOnly ? this.light.workerData : this.workerData;
        const worker = code ? new Worker(code, { eval: true, workerData }) : new Worker(fileURLToPath(this.script), { workerData });
        worker.unref();
        const slot: Slot = { worker, jobs: new Set(), lightOnly };
        worker.on('message', (m: { id: number; result?: Result; error?: string }) => {
          slot.jobs.delete(m.id);
          const waiter = this.pending.get(m.id);
          this.pending.delete(m.id);
          if (!waiter) return;
          if (m.error === undefined) waiter.resolve(m.result as Result);
          else waiter.reject(new Error(`the worker thread failed (${m.error ?? 'unknown'})`));
        });
        worker.on('error', (err) => this.fail(slot, err));
        worker.on('exit', (code) => this.fail(slot, new Error(`the worker thread exited with ${code}`)));
        this.slots.push(slot);
      }
    })();
    return this.started;
  }

  /** A worker died: its unanswered jobs fail (those requests are 500s); the others carry on without it. */
  private fail(slot: Slot, err: Error): void {
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    for (const id of slot.jobs) {
      this.pending.get(id)?.reject(err);
      this.pending.delete(id);
    }
    slot.jobs.clear();
  }

  /**
   * Run `job` on the least busy worker that takes it (a light job: any; another: one of the
   * `threads`), or in-process when there is none.
   */
  async run(job: Job, opts: { light?: boolean } = {}): Promise<Result> {
    if (this.threads > 0 && !this.closed) await this.start();
    let slot: Slot | undefined;
    for (const s of this.slots) if ((opts.light || !s.lightOnly) && (slot === undefined || s.jobs.size < slot.jobs.size)) slot = s;
    if (!slot) return this.inProcess(job);
    const id = this.nextId++;
    slot.jobs.add(id);
    return new Promise<Result>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      slot.worker.postMessage({ id, job });
    });
  }

  /** Stop the workers (the server is closing). */
  async close(): Promise<void> {
    this.closed = true;
    await this.started;
    const workers = this.slots.splice(0).map((s) => s.worker);
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
