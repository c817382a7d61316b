/**
 * `walletkit-server` command line.
 *   walletkit-server start [--port 8080] [--data-dir DIR] [--dev-outbox]
 *   walletkit-server org create --name NAME [--data-dir DIR] [--json]
 *   walletkit-server proxy enable --org ID [--origin URL ...] [--data-dir DIR] [--json]
 * Environment: DATABASE_URL, PORT, WALLETKIT_MASTER_KEY, WALLETKIT_DATA_DIR, SMTP_URL, SMS_WEBHOOK_URL.
 * `start` is production whatever NODE_ENV says; `demo` and `start --dev-outbox` turn the dev outbox on.
 */
import { parseArgs } from 'node:util';
import { startDemo } from './admin/demo.js';
import { createOrganization } from './admin/organizations.js';
import { enableProxy } from './admin/proxy.js';
import { ApiError } from './errors.js';
import { loadConfig, startupWarnings, type ServerConfig } from './config.js';
import { openServices, startServer } from './main.js';

const USAGE = `usage:
  walletkit-server start [--port 8080] [--data-dir DIR] [--dev-outbox]   (production; --dev-outbox: codes readable by loopback clients)
  walletkit-server org create --name NAME [--data-dir DIR] [--json]
  walletkit-server proxy enable --org ID [--origin URL ...] [--data-dir DIR] [--json]
  walletkit-server demo [--port 8080] [--data-dir DIR]   (server + the demo organization and its proxy)
environment: DATABASE_URL (PostgreSQL instead of the embedded database), PORT, WALLETKIT_MASTER_KEY,
  SMTP_URL and WALLETKIT_EMAIL_FROM (email codes), SMS_WEBHOOK_URL (SMS codes)`;

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

  if (command === 'start') {
    // Production whatever NODE_ENV says: the dev outbox only when asked for by flag.
    const config = loadConfig(process.env, { ...overrides, devOutbox: values['dev-outbox'] });
    const server = await startServer(config);
    printWarnings(config);
    process.stdout.write(
      `walletkit-server listening\n  activity API  ${server.url}/public/v1\n  auth proxy    ${server.url}/v1\n  discovery     ${server.url}/.well-known/walletkit.json\n  database      ${server.store.kind}\n`,
    );
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
