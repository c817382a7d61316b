/**
 * The demo organization `npm start` serves: created once, reused on every later start
 * (found by its name among top-level organizations), with its authentication proxy enabled.
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Enclave } from '../enclave';
import type { Store } from '../store/db';
import { organizations } from '../store/schema';
import { createOrganization } from './organizations';
import { enableProxy } from './proxy';

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
