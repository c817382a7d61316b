import { eq } from 'drizzle-orm';
import type { Db } from '../store/db.js';
import { proxyConfigs } from '../store/schema.js';

export type ProxyConfigRow = typeof proxyConfigs.$inferSelect;

/** The proxy configuration with this id (the X-Auth-Proxy-Config-Id value), if any. */
export async function loadProxyConfig(db: Db, configId: string): Promise<ProxyConfigRow | undefined> {
  const [row] = await db.select().from(proxyConfigs).where(eq(proxyConfigs.id, configId));
  return row;
}

/** The proxy configuration of an organization, if enabled once. */
export async function proxyConfigOfOrganization(db: Db, organizationId: string): Promise<ProxyConfigRow | undefined> {
  const [row] = await db.select().from(proxyConfigs).where(eq(proxyConfigs.organizationId, organizationId));
  return row;
}
