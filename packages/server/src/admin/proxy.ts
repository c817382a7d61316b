/**
 * Authentication proxy administration (spec A, "Proxy configuration"; the dashboard surface):
 * enabling creates the proxy user (users.is_proxy, never in the root quorum) and its P-256 API
 * key, whose private half is sealed by the enclave and stored only as ciphertext in
 * proxy_configs; settings are merged patches validated as a whole. Used by the stamped
 * activities (activity/operations/auth-proxy.ts) and the CLI (`walletkit-server proxy enable`).
 */
import { and, eq } from 'drizzle-orm';
import { Value } from '@sinclair/typebox/value';
import { byProvider } from '@walletkit/protocol';
import type { Enclave } from '../enclave/index.js';
import { ApiError } from '../errors.js';
import { defaultProxySettings, ProxySettings } from '../proxy/settings.js';
import type { ProxyConfigRow } from '../proxy/config-store.js';
import { readProxyConfig } from '../store/proxy-configs.js';
import type { Store, Tx } from '../store/db.js';
import { newId } from '../store/ids.js';
import { apiKeys, organizations, proxyConfigs, users } from '../store/schema.js';

/** A partial settings document: every field optional, `methods` and each `social` entry merged key by key. */
export type ProxySettingsPatch = Omit<Partial<ProxySettings>, 'methods' | 'social'> & {
  methods?: Partial<ProxySettings['methods']>;
  social?: { [P in keyof ProxySettings['social']]?: Partial<ProxySettings['social'][P]> };
};

/** Name of the proxy user and of its API key, as shown by get_user / list_users. */
export const PROXY_USER_NAME = 'auth-proxy';

/**
 * Normalize allowed origins: each must be an exact `http(s)://host[:port]` (no path, query,
 * credentials or wildcard), or the list is the single `*` (spec: "partial wildcards such as a
 * subdomain pattern are not supported"). Returns the serialized origins browsers send.
 * @example normalizeAllowedOrigins(['https://App.example.com:443']) // ['https://app.example.com']
 * @throws ApiError ERR_INVALID_PARAMETER
 */
export function normalizeAllowedOrigins(origins: string[], field = 'settings.allowedOrigins'): string[] {
  if (origins.length === 0) throw new ApiError('ERR_INVALID_PARAMETER', 'allowedOrigins needs at least one origin, or "*"', field);
  if (origins.includes('*')) {
    if (origins.length > 1) throw new ApiError('ERR_INVALID_PARAMETER', '"*" must be the only allowed origin', field);
    return ['*'];
  }
  const out = origins.map((origin, i) => {
    const bad = (why: string) => new ApiError('ERR_INVALID_PARAMETER', `allowed origin ${JSON.stringify(origin)} ${why}`, `${field}.${i}`);
    // '*' is a legal domain character to the URL parser, so patterns must be refused by hand.
    if (origin.includes('*')) throw bad('uses a wildcard; only exact origins or the single "*" are supported');
    const m = /^(https?):\/\/([^/?#@\s]+)$/i.exec(origin);
    if (!m) throw bad('must be exactly scheme://host[:port], without path, query or credentials');
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      throw bad('is not a valid URL');
    }
    if (url.hostname === '') throw bad('has no host');
    return url.origin;
  });
  return [...new Set(out)];
}

function assertHttpUrl(value: string | undefined, field: string): void {
  if (value === undefined) return;
  let ok = false;
  try {
    const url = new URL(value);
    ok = url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    ok = false;
  }
  if (!ok) throw new ApiError('ERR_INVALID_PARAMETER', `${field} must be an absolute http(s) URL`, `settings.${field}`);
}

/**
 * Merge a patch into settings and validate the result against ProxySettings.
 * @example mergeProxySettings(defaultProxySettings(), { otpLength: 8, methods: { smsOtp: false } })
 * @throws ApiError ERR_INVALID_PARAMETER
 */
export function mergeProxySettings(current: ProxySettings, patch: ProxySettingsPatch = {}): ProxySettings {
  const { methods, social, ...flat } = patch;
  const merged: ProxySettings = {
    ...current,
    ...flat,
    methods: { ...current.methods, ...methods },
    social: byProvider((id) => ({ ...current.social[id], ...social?.[id] })),
  };
  merged.allowedOrigins = normalizeAllowedOrigins(merged.allowedOrigins);
  assertHttpUrl(merged.emailLogoUrl, 'emailLogoUrl');
  assertHttpUrl(merged.oauthRedirectUrl, 'oauthRedirectUrl');
  if (!Value.Check(ProxySettings, merged)) {
    const [first] = [...Value.Errors(ProxySettings, merged)];
    const path = first?.path.replace(/^\//, '').replaceAll('/', '.') ?? '';
    throw new ApiError('ERR_INVALID_PARAMETER', `settings.${path}: ${first?.message ?? 'invalid'}`, `settings.${path}`);
  }
  return merged;
}

/** The organization, locked for the rest of the transaction so that concurrent enables serialize. */
async function lockTopLevelOrganization(tx: Tx, organizationId: string): Promise<void> {
  const [org] = await tx
    .select({ parent: organizations.parentOrganizationId })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for('no key update');
  if (!org) throw new ApiError('ERR_ORGANIZATION_NOT_FOUND', `organization ${organizationId} not found`, 'organizationId');
  // Sub-organizations are end users; the proxy serves the integrator's organization.
  if (org.parent !== null)
    throw new ApiError('ERR_PERMISSION_DENIED', 'the authentication proxy is configured on a top-level organization, not a sub-organization');
}

async function configOf(tx: Tx, organizationId: string): Promise<ProxyConfigRow | undefined> {
  const [row] = await tx.select().from(proxyConfigs).where(eq(proxyConfigs.organizationId, organizationId));
  return readProxyConfig(row);
}

/** Input of enableProxy: `origins` is a shorthand for `settings.allowedOrigins`. */
export interface EnableProxyInput {
  organizationId: string;
  origins?: string[];
  settings?: ProxySettingsPatch;
}

/**
 * Enable the proxy inside a transaction: the first time, create the proxy user, its API key
 * (sealed private half) and the configuration; afterwards re-enable and apply the settings.
 * Idempotent: the config id never changes.
 * @throws ApiError ERR_ORGANIZATION_NOT_FOUND | ERR_PERMISSION_DENIED | ERR_INVALID_PARAMETER
 * @internal
 */
export async function enableProxyInTx(tx: Tx, enclave: Enclave, now: Date, input: EnableProxyInput): Promise<ProxyConfigRow> {
  await lockTopLevelOrganization(tx, input.organizationId);
  const patch: ProxySettingsPatch = { ...input.settings, ...(input.origins !== undefined ? { allowedOrigins: input.origins } : {}) };
  const existing = await configOf(tx, input.organizationId);
  if (existing) {
    const settings = mergeProxySettings(existing.settings, patch);
    const [row] = await tx.update(proxyConfigs).set({ enabled: true, settings, updatedAt: now }).where(eq(proxyConfigs.id, existing.id)).returning();
    return row!;
  }
  const settings = mergeProxySettings(defaultProxySettings(), patch);
  // Generated inside the enclave: only the public key and the sealed private key come out.
  const key = await enclave.stamps.createSealedApiKey();
  const userId = newId();
  await tx.insert(users).values({ id: userId, organizationId: input.organizationId, userName: PROXY_USER_NAME, isProxy: true, createdAt: now, updatedAt: now });
  await tx.insert(apiKeys).values({
    id: newId(),
    organizationId: input.organizationId,
    userId,
    name: PROXY_USER_NAME,
    publicKey: key.publicKey,
    curve: 'API_KEY_CURVE_P256',
    createdAt: now,
  });
  const [row] = await tx
    .insert(proxyConfigs)
    .values({
      id: newId(),
      organizationId: input.organizationId,
      enabled: true,
      settings,
      proxyUserId: userId,
      proxyApiPublicKey: key.publicKey,
      proxyApiPrivateKeyEncrypted: key.sealedPrivateKey,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

/** The existing configuration of an organization. @throws ApiError ERR_CONFIG_NOT_FOUND */
async function requireConfig(tx: Tx, organizationId: string): Promise<ProxyConfigRow> {
  const row = await configOf(tx, organizationId);
  if (!row) throw new ApiError('ERR_CONFIG_NOT_FOUND', 'the organization has no proxy configuration; enable the proxy first');
  return row;
}

/**
 * Apply a settings patch to an organization's configuration (enabled or not).
 * @throws ApiError ERR_CONFIG_NOT_FOUND | ERR_INVALID_PARAMETER
 * @internal
 */
export async function updateProxySettingsInTx(tx: Tx, now: Date, organizationId: string, patch: ProxySettingsPatch): Promise<ProxyConfigRow> {
  const existing = await requireConfig(tx, organizationId);
  const settings = mergeProxySettings(existing.settings, patch);
  const [row] = await tx.update(proxyConfigs).set({ settings, updatedAt: now }).where(eq(proxyConfigs.id, existing.id)).returning();
  return row!;
}

/** Turn the proxy off (configuration and key kept). @throws ApiError ERR_CONFIG_NOT_FOUND @internal */
export async function disableProxyInTx(tx: Tx, now: Date, organizationId: string): Promise<ProxyConfigRow> {
  const existing = await requireConfig(tx, organizationId);
  const [row] = await tx
    .update(proxyConfigs)
    .set({ enabled: false, updatedAt: now })
    .where(and(eq(proxyConfigs.id, existing.id), eq(proxyConfigs.organizationId, organizationId)))
    .returning();
  return row!;
}

/**
 * Enable the proxy of an organization in its own transaction (CLI, demo bootstrap).
 * @example const { id: configId } = await enableProxy(store, enclave, { organizationId, origins: ['http://localhost:5173'] });
 */
export function enableProxy(store: Store, enclave: Enclave, input: EnableProxyInput): Promise<ProxyConfigRow> {
  return store.transaction((tx) => enableProxyInTx(tx, enclave, new Date(), input));
}

/** Patch the settings of an organization's proxy in its own transaction. */
export function updateProxySettings(store: Store, organizationId: string, patch: ProxySettingsPatch): Promise<ProxyConfigRow> {
  return store.transaction((tx) => updateProxySettingsInTx(tx, new Date(), organizationId, patch));
}

/** Disable an organization's proxy in its own transaction. */
export function disableProxy(store: Store, organizationId: string): Promise<ProxyConfigRow> {
  return store.transaction((tx) => disableProxyInTx(tx, new Date(), organizationId));
}
