import { eq } from 'drizzle-orm';
import type { Db } from '../store/db.js';
import { proxyConfigs } from '../store/schema.js';
import type { ProxySettings } from './settings.js';

/**
 * One proxy configuration as stored (`proxy_configs`). Written out rather than inferred from the
 * drizzle table so the published declarations do not reach drizzle's (decision 0017); the
 * checks below fail to compile when the two drift apart.
 */
export interface ProxyConfigRow {
  /** The value clients send in X-Auth-Proxy-Config-Id. */
  id: string;
  organizationId: string;
  enabled: boolean;
  settings: ProxySettings;
  proxyUserId: string;
  proxyApiPublicKey: string;
  /** HPKE ciphertext (to the enclave at-rest key) of the proxy API private key. */
  proxyApiPrivateKeyEncrypted: { encappedPublic: string; ciphertext: string };
  createdAt: Date;
  updatedAt: Date;
}
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
/** @internal */
export type ProxyConfigRowMatchesTable = Assert<Same<ProxyConfigRow, typeof proxyConfigs.$inferSelect>>;

/** The proxy configuration with this id (the X-Auth-Proxy-Config-Id value), if any. @internal */
export async function loadProxyConfig(db: Db, configId: string): Promise<ProxyConfigRow | undefined> {
  const [row] = await db.select().from(proxyConfigs).where(eq(proxyConfigs.id, configId));
  return row;
}

/** The proxy configuration of an organization, if enabled once. @internal */
export async function proxyConfigOfOrganization(db: Db, organizationId: string): Promise<ProxyConfigRow | undefined> {
  const [row] = await db.select().from(proxyConfigs).where(eq(proxyConfigs.organizationId, organizationId));
  return row;
}
