/**
 * Worker threads that sign for the enclave (signer-worker.ts): ECDSA and unsealing are CPU work
 * that would otherwise stop the event loop (and every request with it) for about a millisecond per
 * signature. `threads` workers share the jobs (the least busy one takes the next); with 0 threads
 * the enclave signs in-process. Workers are unref'd: they never keep the process alive.
 *
 * Running from source (the monorepo, the tests), the worker's TypeScript is bundled once with
 * esbuild (a development dependency) and evaluated; the published server starts the compiled
 * dist/enclave/signer-worker.js.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { HpkeRecipient } from '@walletkit/crypto';
import type { RawSignature } from './key-material.js';
import { type MadeWallet, makeWallet, signSealed, type SignJob, type WalletJob } from './signer-core.js';

/** Default worker count: the cores beside the one the event loop uses, at least one. */
export function defaultSignerThreads(): number {
  return Math.max(1, availableParallelism() - 1);
}

let bundled: Promise<string> | undefined;

/** The worker's code when running from source: bundled once per process. */
function bundledWorker(): Promise<string> {
  bundled ??= (async () => {
    const { build, stop } = await import('esbuild');
    const out = await build({
      entryPoints: [fileURLToPath(new URL('./signer-worker.ts', import.meta.url))],
      bundle: true,
      write: false,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      conditions: ['@walletkit/source'],
      logLevel: 'silent',
    });
    // esbuild's service process would keep this one alive.
    await stop();
    return out.outputFiles[0]!.text;
  })();
  return bundled;
}

interface Slot {
  worker: Worker;
  /** Ids of the jobs this worker has not answered yet. */
  jobs: Set<number>;
}

export class SignerPool {
  private readonly slots: Slot[] = [];
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private nextId = 1;

  /**
   * A pool of `threads` workers holding the at-rest key (0: sign in-process). The workers start
   * at the first signature, so a one-shot command (`org create`) or a server that never signs
   * starts none.
   * @example const pool = new SignerPool(atRestPrivateKey, recipient, defaultSignerThreads());
   */
  constructor(
    private readonly atRestPrivateKey: string,
    private readonly atRest: HpkeRecipient,
    private readonly threads: number,
  ) {}

  private started: Promise<void> | undefined;
  private closed = false;

  private start(): Promise<void> {
    this.started ??= (async () => {
      const fromSource = import.meta.url.endsWith('.ts');
      const code = fromSource ? await bundledWorker() : undefined;
      if (this.closed) return;
      for (let i = 0; i < this.threads; i += 1) {
        const workerData = { atRestPrivateKey: this.atRestPrivateKey };
        const worker = code
          ? new Worker(code, { eval: true, workerData })
          : new Worker(fileURLToPath(new URL('./signer-worker.js', import.meta.url)), { workerData });
        worker.unref();
        const slot: Slot = { worker, jobs: new Set() };
        worker.on('message', (m: { id: number; result?: unknown; error?: string }) => {
          slot.jobs.delete(m.id);
          const waiter = this.pending.get(m.id);
          this.pending.delete(m.id);
          if (!waiter) return;
          if (m.error === undefined) waiter.resolve(m.result);
          else waiter.reject(new Error(`the signer thread failed (${m.error ?? 'unknown'})`));
        });
        worker.on('error', (err) => this.fail(slot, err));
        worker.on('exit', (code) => this.fail(slot, new Error(`the signer thread exited with ${code}`)));
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

  /** Sign on the least busy worker, or in-process when there is none. */
  sign(job: SignJob): Promise<RawSignature[]> {
    return this.run({ job }, () => signSealed(this.atRest, job)) as Promise<RawSignature[]>;
  }

  /** Make a new wallet on the least busy worker, or in-process when there is none. */
  makeWallet(wallet: WalletJob): Promise<MadeWallet> {
    return this.run({ wallet }, () => makeWallet(this.atRest, wallet)) as Promise<MadeWallet>;
  }

  private async run(message: { job: SignJob } | { wallet: WalletJob }, inProcess: () => Promise<unknown>): Promise<unknown> {
    if (this.threads > 0 && !this.closed) await this.start();
    const slot = this.slots.reduce<Slot | undefined>((best, s) => (best === undefined || s.jobs.size < best.jobs.size ? s : best), undefined);
    if (!slot) return inProcess();
    const id = this.nextId++;
    slot.jobs.add(id);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      slot.worker.postMessage({ id, ...message });
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
