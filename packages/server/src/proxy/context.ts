/**
 * What a proxy route sees: the request's proxy configuration (already checked by the guard),
 * its validated settings, and `api`, the activity API stamped with this configuration's proxy
 * key: the one way a route reads or changes anything beyond its configuration.
 */
import type { ActivityApi } from './activity-api.js';
import type { ProxyConfigRow } from './config-store.js';
import type { ProxySettings } from './settings.js';

export interface ProxyContext {
  config: ProxyConfigRow;
  settings: ProxySettings;
  /** Submits and reads, stamped with the proxy key by the enclave. */
  api: ActivityApi;
}

/** One proxy route: validated body in, response body out. */
export type ProxyRoute<Q, R> = (body: Q, ctx: ProxyContext) => Promise<R>;
