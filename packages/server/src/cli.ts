/**
 * `walletkit-server` command line.
 *   walletkit-server start [--port 8080] [--data-dir DIR] [--dev-outbox] [--workers N]
 *   walletkit-server org create --name NAME [--data-dir DIR] [--json]
 *   walletkit-server proxy enable --org ID [--origin URL ...] [--data-dir DIR] [--json]
 * Environment: DATABASE_URL, PORT, WALLETKIT_MASTER_KEY, WALLETKIT_DATA_DIR, SMTP_URL, EMAIL_WEBHOOK_URL, SMS_WEBHOOK_URL.
 * `start` is production whatever NODE_ENV says; `demo` and `start --dev-outbox` turn the dev outbox on.
 */
import cluster from 'node:cluster';
import { parseArgs } from 'node:util';
import { startDemo } from './admin/demo.js';
import { createOrganization } from './admin/organizations.js';
import { enableProxy } from './admin/proxy.js';
import { ApiError } from './errors.js';
import { loadConfig, startupWarnings, type ServerConfig } from './config.js';
import { openServices, reportListening, startCluster, startServer } from './main.js';
import { threadsPerWorker } from './threads/pool.js';

const USAGE = `usage:
  walletkit-server start [--port 8080] [--data-dir DIR] [--dev-outbox] [--workers N]
      (production; --dev-outbox: codes readable by loopback clients; --workers N: N processes on one port, PostgreSQL only)
  walletkit-server org create --name NAME [--data-dir DIR] [--json]
  walletkit-server proxy enable --org ID [--origin URL ...] [--data-dir DIR] [--json]
  walletkit-server demo [--port 8080] [--data-dir DIR]   (server + the demo organization and its proxy)
environment: DATABASE_URL (PostgreSQL instead of the embedded database), PORT, WALLETKIT_MASTER_KEY,
  SMTP_URL and WALLETKIT_EMAIL_FROM or EMAIL_WEBHOOK_URL (email codes), SMS_WEBHOOK_URL (SMS codes)`;

/** Largest --workers: more processes than this on one machine is a configuration mistake. */
const MAX_WORKERS = 256;

/** The startup summary of `start` (one block on stdout; tools read the activity API line). */
function summary(url: string, database: string, workers: number): string {
  return `walletkit-server listening\n  activity API  ${url}/public/v1\n  auth proxy    ${url}/v1\n  discovery     ${url}/.well-known/walletkit.json\n  database      ${database}\n  workers       ${workers}\n`;
}

/** The operator's warnings (dev outbox on, a code channel without transport), one line each on stderr. */
function printWarnings(config: ServerConfig): void {
  for (const line of startupWarnings(config)) process.stderr.write(`${line}\n`);
}

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      name: { type: 'string' },
      org: { type: 'string' },
      origin: { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
      'dev-outbox': { type: 'boolean', default: false },
      workers: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, sub] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const overrides = {
    ...(values.port !== undefined ? { port: Number(values.port) } : {}),
    ...(values['data-dir'] !== undefined ? { dataDir: values['data-dir'] } : {}),
  };

  if (values.workers !== undefined && command !== 'start') {
    process.stderr.write('--workers applies to start only\n');
    return 2;
  }

  if (command === 'start') {
    const workers = values.workers === undefined ? 1 : /^[1-9][0-9]*$/.test(values.workers) ? Number(values.workers) : Number.NaN;
    if (!(workers >= 1 && workers <= MAX_WORKERS)) {
      process.stderr.write(`--workers takes a whole number of processes from 1 to ${MAX_WORKERS}, not ${JSON.stringify(values.workers)}\n`);
      return 2;
    }
    // Production whatever NODE_ENV says: the dev outbox only when asked for by flag.
    // Each process of --workers N takes its share of the cores for its threads (unless set).
    const threads = workers > 1 && !process.env.WALLETKIT_SIGNER_THREADS ? { signerThreads: threadsPerWorker(workers) } : {};
    const config = loadConfig(process.env, { ...overrides, ...threads, devOutbox: values['dev-outbox'] });
    if (workers > 1 && !config.databaseUrl) {
      process.stderr.write(
        `--workers ${workers} needs PostgreSQL (DATABASE_URL): the embedded database (PGlite) belongs to one process. ` +
          'Run one process, or set DATABASE_URL (and WALLETKIT_MASTER_KEY) to share one PostgreSQL database between workers.\n',
      );
      return 2;
    }
    if (workers > 1 && cluster.isPrimary) {
      // The primary serves nothing: it forks the workers (each re-runs this command as a cluster worker), restarts them, forwards SIGTERM.
      const running = await startCluster(config, workers, (line) => process.stderr.write(`${line}\n`));
      printWarnings(config);
      process.stdout.write(summary(running.url, 'postgres', workers));
      const stop = async () => {
        await running.close();
        process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return -1; // keep running
    }
    const server = await startServer(config);
    if (cluster.isWorker) {
      // A worker of --workers N: the primary prints the summary and the warnings once.
      reportListening(server.url);
    } else {
      printWarnings(config);
      process.stdout.write(summary(server.url, server.store.kind, 1));
    }
    const stop = async () => {
      await server.close();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return -1; // keep running
  }

  if (command === 'org' && sub === 'create') {
    if (!values.name) {
      process.stderr.write('org create needs --name NAME\n');
      return 2;
    }
    const config = loadConfig(process.env, { ...overrides, logLevel: 'silent' });
    const { store } = await openServices(config);
    try {
      const created = await createOrganization(store, { name: values.name });
      if (values.json) process.stdout.write(`${JSON.stringify(created)}\n`);
      else
        process.stdout.write(
          `organization ${created.organizationId}\nroot user    ${created.userId}\nAPI public   ${created.apiKey.publicKey}\nAPI private  ${created.apiKey.privateKey}\n`,
        );
    } finally {
      await store.close();
    }
    return 0;
  }

  if (command === 'proxy' && sub === 'enable') {
    if (!values.org) {
      process.stderr.write('proxy enable needs --org ID\n');
      return 2;
    }
    const config = loadConfig(process.env, { ...overrides, logLevel: 'silent' });
    const { store, enclave } = await openServices(config);
    try {
      const row = await enableProxy(store, enclave, { organizationId: values.org, ...(values.origin ? { origins: values.origin } : {}) });
      // Public data only: the proxy key's private half stays sealed in the store.
      const out = {
        configId: row.id,
        organizationId: row.organizationId,
        enabled: row.enabled,
        proxyUserId: row.proxyUserId,
        proxyApiPublicKey: row.proxyApiPublicKey,
        allowedOrigins: row.settings.allowedOrigins,
      };
      if (values.json) process.stdout.write(`${JSON.stringify(out)}\n`);
      else process.stdout.write(`proxy config ${out.configId}\norganization ${out.organizationId}\norigins      ${out.allowedOrigins.join(' ')}\n`);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      process.stderr.write(`${err.code}: ${err.message}\n`);
      return 1;
    } finally {
      await store.close();
    }
    return 0;
  }

  if (command === 'demo') {
    // The server on the embedded database plus the demo organization and its proxy
    // (`npm start` runs the same through scripts/start.ts, with the demo app beside it).
    const origins = process.env['WALLETKIT_DEMO_ORIGINS']?.split(',').filter(Boolean);
    // The demo needs no mail server: its codes go to the dev outbox (loopback clients only).
    const config = loadConfig(process.env, { ...overrides, devOutbox: true });
    const { server, kitConfig, created } = await startDemo(config, origins);
    printWarnings(config);
    process.stdout.write(
      `walletkit demo ${created ? 'created' : 'reused'}\n  activity API  ${server.url}/public/v1\n  auth proxy    ${server.url}/v1\n  dev outbox    ${server.url}/v1/dev/outbox\n  discovery     ${server.url}/.well-known/walletkit.json\n  kit config    ${JSON.stringify(kitConfig)}\n`,
    );
    const stop = async () => {
      await server.close();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return -1;
  }

  process.stderr.write(`unknown command: ${positionals.join(' ')}\n${USAGE}\n`);
  return 2;
}
