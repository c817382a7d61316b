/**
 * Start a server: env/flags -> config -> store -> enclave -> build() -> listen(), with
 * graceful shutdown. Used by the CLI, the demo bootstrap and the benchmark.
 */
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
