/**
 * What the proxy keeps of its own: its configurations (config id, organization, settings and
 * the sealed proxy key), behind this small interface. Everything else it reads or changes goes
 * through the activity API (activity-api.ts). The store's implementation is
 * store/proxy-configs.ts.
 */
import type { Sealed } from '../enclave/index.js';
import type { ProxySettings } from './settings.js';

/** One proxy configuration as stored (`proxy_configs`). */
export interface ProxyConfigRow {
  /** The value clients send in X-Auth-Proxy-Config-Id. */
  id: string;
  organizationId: string;
  enabled: boolean;
  settings: ProxySettings;
  proxyUserId: string;
  proxyApiPublicKey: string;
  /** HPKE ciphertext (to the enclave at-rest key) of the proxy API private key. */
  proxyApiPrivateKeyEncrypted: Sealed;
  createdAt: Date;
  updatedAt: Date;
}

/** The proxy's reads of its configurations. */
export interface ProxyConfigStore {
  /** The configuration with this id (the X-Auth-Proxy-Config-Id value), if any. */
  byId(configId: string): Promise<ProxyConfigRow | undefined>;
  /** Whether some enabled configuration allows `origin` (or `*`): CORS preflights carry no config id. */
  anyEnabledAllows(origin: string): Promise<boolean>;
}
