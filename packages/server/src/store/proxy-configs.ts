/**
 * proxy_configs, as the proxy (proxy/config-store.ts), its administration (admin/proxy.ts) and
 * get_auth_proxy_config read it.
 */
import { eq, sql } from 'drizzle-orm';
import type { ProxyConfigRow, ProxyConfigStore } from '../proxy/config-store.js';
import { withEveryProvider } from '../proxy/settings.js';
import type { FactCache } from './fact-cache.js';
import type { Db } from './db.js';
import { proxyConfigs } from './schema.js';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
/**
 * ProxyConfigRow is written out rather than inferred from the drizzle table so the published
 * declarations do not reach drizzle's (decision 0017); this fails to compile when they drift.
 * @internal
 */
export type ProxyConfigRowMatchesTable = Assert<Same<ProxyConfigRow, typeof proxyConfigs.$inferSelect>>;

/** A row as read, its settings holding every provider of the table (proxy/settings.ts withEveryProvider). @internal */
export function readProxyConfig(row: ProxyConfigRow | undefined): ProxyConfigRow | undefined {
  return row && { ...row, settings: withEveryProvider(row.settings) };
}

/** The proxy configuration with this id, if any. @internal */
export async function loadProxyConfig(db: Db, configId: string): Promise<ProxyConfigRow | undefined> {
  const [row] = await db.select().from(proxyConfigs).where(eq(proxyConfigs.id, configId));
  return readProxyConfig(row);
}

/** The proxy configuration of an organization, if enabled once. @internal */
export async function proxyConfigOfOrganization(db: Db, organizationId: string): Promise<ProxyConfigRow | undefined> {
  const [row] = await db.select().from(proxyConfigs).where(eq(proxyConfigs.organizationId, organizationId));
  return readProxyConfig(row);
}

/** True when an enabled configuration lists `origin` (or its variant with a trailing slash) or `*`. */
async function anyEnabledAllows(db: Db, origin: string): Promise<boolean> {
  const any = JSON.stringify(['*']);
  const exact = JSON.stringify([origin]);
  const slashed = JSON.stringify([`${origin}/`]);
  const rows = await db
    .select({ id: proxyConfigs.id })
    .from(proxyConfigs)
    .where(
      sql`${proxyConfigs.enabled} and (${proxyConfigs.settings}->'allowedOrigins' @> ${any}::jsonb
        or ${proxyConfigs.settings}->'allowedOrigins' @> ${exact}::jsonb
        or ${proxyConfigs.settings}->'allowedOrigins' @> ${slashed}::jsonb)`,
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * The proxy's configuration store on this database. With `cache`, a configuration is read once
 * and kept until its organization changes (a change of the row announces it: migration 0009).
 * @internal
 */
export function proxyConfigStore(db: Db, cache?: FactCache): ProxyConfigStore {
  const byId = (id: string) => loadProxyConfig(db, id);
  return {
    byId: cache
      ? (id) =>
          cache.get(`proxy-config|${id}`, async () => {
            const row = await byId(id);
            return { value: row, organizations: row ? [row.organizationId] : [], keep: row !== undefined };
          })
      : byId,
    anyEnabledAllows: (origin) => anyEnabledAllows(db, origin),
  };
}
