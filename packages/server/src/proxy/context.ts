/**
 * What a proxy route sees: the request's proxy configuration (already checked by the guard),
 * its validated settings, the store (read-only lookups), the server's services, and
 * `forward`, the one way to reach the activity API.
 */
import type { AppProof } from '@walletkit/crypto';
import type { OperationName, ParamsOf, ResultOf } from '@walletkit/protocol';
import type { Services } from '../activity/context.js';
import type { Store } from '../store/db.js';
import type { ProxyConfigRow } from './repository.js';
import type { ProxySettings } from './settings.js';

export interface ProxyContext {
  services: Services;
  store: Store;
  config: ProxyConfigRow;
  settings: ProxySettings;
  /** Submit `op` on `organizationId`, stamped with the proxy key; returns the result object. */
  forward<N extends OperationName>(op: N, organizationId: string, parameters: ParamsOf<N>): Promise<ResultOf<N>>;
  /** `forward`, asking the activity for App Proofs and returning them with the result (passed through to the caller). */
  forwardWithProofs<N extends OperationName>(op: N, organizationId: string, parameters: ParamsOf<N>): Promise<{ result: ResultOf<N>; appProofs: AppProof[] }>;
}

/** One proxy route: validated body in, response body out. */
export type ProxyRoute<Q, R> = (body: Q, ctx: ProxyContext) => Promise<R>;
