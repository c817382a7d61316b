/**
 * The demo organization `npm start` serves: created once, reused on every later start
 * (found by its name among top-level organizations), with its authentication proxy enabled.
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { ServerConfig } from '../config.js';
import type { Enclave } from '../enclave/index.js';
import { startServer, type RunningServer } from '../main.js';
import type { Store } from '../store/db.js';
import { organizations } from '../store/schema.js';
import { createOrganization } from './organizations.js';
import { enableProxy } from './proxy.js';

export const DEMO_ORGANIZATION_NAME = 'walletkit demo';

export interface DemoBootstrap {
  organizationId: string;
  configId: string;
  enclavePublicKey: string;
  /** True when this call created the organization (first start). */
  created: boolean;
}

/**
 * Create or reuse the demo organization and its proxy configuration.
 * @example const demo = await bootstrapDemo(store, enclave, { origins: ['http://localhost:5173'] });
 */
export async function bootstrapDemo(store: Store, enclave: Enclave, opts: { origins?: string[] } = {}): Promise<DemoBootstrap> {
  const [existing] = await store.db
    .select({ id: organizations.id })
    .from(organizations)
    .where(and(eq(organizations.name, DEMO_ORGANIZATION_NAME), isNull(organizations.parentOrganizationId)))
    .orderBy(asc(organizations.createdAt))
    .limit(1);
  const organizationId = existing?.id ?? (await createOrganization(store, { name: DEMO_ORGANIZATION_NAME })).organizationId;
  const proxy = await enableProxy(store, enclave, { organizationId, ...(opts.origins ? { origins: opts.origins } : {}) });
  return { organizationId, configId: proxy.id, enclavePublicKey: enclave.signingPublicKey, created: !existing };
}

/** What the kit needs to talk to a server (`WalletKitProvider`'s `config`). */
export interface DemoKitConfig {
  proxyUrl: string;
  apiUrl: string;
  configId: string;
  organizationId: string;
  enclavePublicKey: string;
}

/**
 * `walletkit-server demo` and `npm start`: start the server, then create or reuse the demo
 * organization with `origins` allowed; returns the running server and the kit config.
 * @example const { server, kitConfig } = await startDemo(loadConfig(process.env), ['http://localhost:5173']);
 */
export async function startDemo(config: ServerConfig, origins?: string[]): Promise<{ server: RunningServer; kitConfig: DemoKitConfig; created: boolean }> {
  const server = await startServer(config);
  try {
    const demo = await bootstrapDemo(server.store, server.enclave, { origins: origins ?? ['http://localhost:5173', server.url] });
    const kitConfig = {
      proxyUrl: server.url,
      apiUrl: server.url,
      configId: demo.configId,
      organizationId: demo.organizationId,
      enclavePublicKey: demo.enclavePublicKey,
    };
    return { server, kitConfig, created: demo.created };
  } catch (err) {
    await server.close();
    throw err;
  }
}
