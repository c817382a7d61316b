/**
 * Start a server: env/flags -> config -> store -> enclave -> build() -> listen(), with
 * graceful shutdown. Used by the CLI, the demo bootstrap and the benchmark. `startCluster` is
 * the primary of `walletkit-server start --workers N` (node:cluster, PostgreSQL only).
 */
import cluster from 'node:cluster';
import type { FastifyInstance } from 'fastify';
import { build, type AppDeps } from './app.js';
import type { ServerConfig } from './config.js';
import { Enclave } from './enclave/index.js';
import { openStore, type Store } from './store/db.js';

export interface RunningServer {
  app: FastifyInstance;
  store: Store;
  enclave: Enclave;
  /** Base URL, e.g. http://localhost:8080 */
  url: string;
  close(): Promise<void>;
}

export async function openServices(config: ServerConfig): Promise<{ store: Store; enclave: Enclave }> {
  const store = await openStore(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir });
  try {
    const enclave = await Enclave.open(store, config);
    return { store, enclave };
  } catch (err) {
    await store.close();
    throw err;
  }
}

export async function startServer(config: ServerConfig, extra: Partial<AppDeps> = {}): Promise<RunningServer> {
  const { store, enclave } = await openServices(config);
  let app: FastifyInstance;
  try {
    app = await build(config, { store, enclave, ...extra });
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await store.close();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://localhost:${port}`;
  if (!config.publicUrl) config.publicUrl = url;
  let closed = false;
  return {
    app,
    store,
    enclave,
    url,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await store.close();
    },
  };
}

/** What a cluster worker tells the primary once it listens. */
interface WorkerListening {
  walletkit: 'listening';
  url: string;
}

function isListening(message: unknown): message is WorkerListening {
  return typeof message === 'object' && message !== null && (message as WorkerListening).walletkit === 'listening';
}

/**
 * In a cluster worker: tell the primary this worker serves at `url` (no-op outside a cluster).
 * @internal
 */
export function reportListening(url: string): void {
  if (cluster.isWorker && process.send) process.send({ walletkit: 'listening', url } satisfies WorkerListening);
}

export interface RunningCluster {
  /** Base URL shared by every worker (they listen on one port). */
  url: string;
  /** Pids of the workers serving now. */
  pids(): number[];
  /** SIGTERM every worker and wait for them to exit (SIGKILL after `graceMs`). */
  close(graceMs?: number): Promise<void>;
}

/** A worker that dies sooner than this after it started is restarted with a growing delay. */
const CRASH_LOOP_MS = 10_000;
const MAX_RESTART_DELAY_MS = 30_000;

/**
 * The primary of `walletkit-server start --workers N` (node:cluster): runs the migrations and
 * opens the enclave once (so that workers do not race to create its keys), forks `workers`
 * processes that re-run this command line and share the listening port, and resolves once
 * each of them listens. A worker that exits afterwards is replaced (with a growing delay when
 * it keeps dying right after start); a worker that exits before it ever listened fails the
 * start. PostgreSQL only: PGlite is one process.
 * `log` gets one line per worker event (stderr in the CLI).
 * @internal
 */
export async function startCluster(config: ServerConfig, workers: number, log: (line: string) => void): Promise<RunningCluster> {
  if (!cluster.isPrimary) throw new Error('startCluster runs in the primary process only');
  if (!config.databaseUrl) throw new Error('--workers needs PostgreSQL (DATABASE_URL): the embedded database (PGlite) is one process');
  // Migrations and enclave keys once, before any worker: they would otherwise race on a fresh database.
  const { store } = await openServices(config);
  await store.close();

  const serving = new Map<number, ReturnType<typeof cluster.fork>>();
  const startedAt = new Map<number, number>();
  let restartDelay = 0;
  let stopping = false;
  let started = false;
  let url: string | undefined;
  let failStart: ((err: Error) => void) | undefined;

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
    let listened = false;
    worker.on('message', (message: unknown) => {
      if (!isListening(message) || listened) return;
      listened = true;
      url ??= message.url;
      serving.set(worker.id, worker);
      onListening();
    });
    worker.once('exit', (code, signal) => {
      serving.delete(worker.id);
      const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
      startedAt.delete(worker.id);
      if (stopping) return;
      const how = signal ? `signal ${signal}` : `code ${code}`;
      if (!started) {
        failStart?.(new Error(`worker ${worker.process.pid} exited (${how}) before it listened`));
        return;
      }
      restartDelay = lived < CRASH_LOOP_MS ? Math.min(MAX_RESTART_DELAY_MS, Math.max(1000, restartDelay * 2)) : 0;
      log(`worker ${worker.process.pid} exited (${how}); starting a new one${restartDelay ? ` in ${restartDelay / 1000} s` : ''}`);
      setTimeout(() => {
        if (!stopping) fork();
      }, restartDelay);
    });
  };

  let onListening = () => {};
  const close = async (graceMs = 15_000) => {
    stopping = true;
    const alive = Object.values(cluster.workers ?? {}).filter((w): w is NonNullable<typeof w> => w !== undefined && !w.isDead());
    await Promise.all(
      alive.map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.isDead()) return resolve();
            const kill = setTimeout(() => w.process.kill('SIGKILL'), graceMs);
            w.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            w.process.kill('SIGTERM');
          }),
      ),
    );
  };

  try {
    await new Promise<void>((resolve, reject) => {
      failStart = reject;
      onListening = () => {
        if (serving.size >= workers) resolve();
      };
      for (let i = 0; i < workers; i++) fork();
    });
  } catch (err) {
    await close(5_000);
    throw err;
  }
  started = true;
  failStart = undefined;
  onListening = () => {};
  return { url: url!, pids: () => [...serving.values()].map((w) => w.process.pid!), close };
}
