/**
 * The proxy's one way to the activity API (spec A, "What the service does" 2 and 4: the proxy
 * "communicates with the core backend only through the public API"). Every submit and every
 * read the proxy makes goes through {@link ActivityApi}: the body is built here, stamped by the
 * enclave with the configuration's sealed proxy key (the private key never leaves the enclave),
 * and posted over a {@link ActivityTransport}: Fastify's `inject()` when the proxy and the
 * activity API are one server (the default), HTTP to the server's public URL otherwise. Error replies come back to the caller unchanged (same code,
 * message and field).
 */
import type { AppProof } from '@walletkit/crypto';
import {
  isErrorCode,
  operations,
  queries,
  type OperationName,
  type ParamsOf,
  type QueryName,
  type QueryRequestOf,
  type QueryResponseOf,
  type ResultOf,
} from '@walletkit/protocol';
import { ApiError } from '../errors.js';

/** An activity call should never hang a proxy request. */
export const ACTIVITY_TIMEOUT_MS = 15_000;

/** A reply of the activity API: status and parsed JSON body (undefined when not JSON). */
export interface TransportReply {
  status: number;
  body: unknown;
}

/** How a stamped request reaches the activity API. `path` is absolute (`/public/v1/...`). */
export interface ActivityTransport {
  post(path: string, body: string, headers: Record<string, string>): Promise<TransportReply>;
  /** True when the request never leaves this process (`inject()`): its stamp may be the enclave's pass (decision 0027). */
  readonly inProcess?: boolean;
}

/**
 * Over HTTP: `POST <base><path>`. `base` is read per call (the server learns its own URL when it
 * starts listening).
 * @example httpTransport(() => 'http://localhost:8080')
 */
export function httpTransport(base: () => string, fetchFn: typeof fetch = globalThis.fetch): ActivityTransport {
  return {
    async post(path, body, headers) {
      let res: Response;
      try {
        res = await fetchFn(`${base()}${path}`, { method: 'POST', headers, body, signal: AbortSignal.timeout(ACTIVITY_TIMEOUT_MS) });
      } catch (cause) {
        throw new ApiError('ERR_UNAVAILABLE', 'the activity API cannot be reached', undefined, { cause });
      }
      const text = await res.text().catch(() => '');
      return { status: res.status, body: parseJson(text) };
    },
  };
}

/** What {@link injectTransport} needs of a Fastify instance. */
export interface Injectable {
  inject(opts: { method: 'POST'; url: string; headers: Record<string, string>; payload: string }): PromiseLike<{ statusCode: number; body: string }>;
}

/**
 * In-process, through Fastify's `inject()` (the default, app.ts): the same routes, parser, authentication and
 * error handler as over the network, without a socket.
 */
export function injectTransport(app: Injectable): ActivityTransport {
  return {
    inProcess: true,
    async post(path, body, headers) {
      const res = await app.inject({ method: 'POST', url: path, headers, payload: body });
      return { status: res.statusCode, body: parseJson(res.body) };
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/**
 * The X-Stamp header value of the exact body bytes by the proxy key, and for a stamp good only
 * while its call lasts (the enclave's in-process pass), `release`, called once the call returned.
 */
export interface ProxyStamp {
  header: string;
  release?(): void;
}

/** Stamps the exact body bytes with the proxy key. */
export type ProxyStamper = (body: string) => Promise<ProxyStamp>;

/** The activity API as the proxy uses it: submits and reads of one organization's proxy key. */
export interface ActivityApi {
  /**
   * Submit `op` on `organizationId` and return its result (and App Proofs when asked for).
   * @throws ApiError the activity API's error as is; ERR_UNAVAILABLE when it cannot be reached
   */
  submit<N extends OperationName>(
    op: N,
    organizationId: string,
    parameters: ParamsOf<N>,
    opts?: { appProofs?: boolean },
  ): Promise<{ result: ResultOf<N>; appProofs: AppProof[] }>;
  /** Run the read `name`. @throws ApiError the activity API's error as is */
  query<N extends QueryName>(name: N, request: QueryRequestOf<N>): Promise<QueryResponseOf<N>>;
}

/** Rebuild the activity API's error as ours, so the caller sees the same body. */
function errorFromReply(status: number, body: unknown): ApiError {
  const detail = (body as { details?: Array<{ errorCode?: unknown; field?: unknown }> } | null)?.details?.[0];
  const message = (body as { message?: unknown } | null)?.message;
  if (detail && isErrorCode(detail.errorCode)) {
    return new ApiError(detail.errorCode, typeof message === 'string' ? message : undefined, typeof detail.field === 'string' ? detail.field : undefined);
  }
  return new ApiError('ERR_UNAVAILABLE', `the activity API replied ${status} without an error code`);
}

/**
 * The activity API of one proxy configuration.
 * @example const api = activityApi(transport, async (body) => ({ header: await enclave.stamps.stampWith(config.proxyApiPrivateKeyEncrypted, config.proxyApiPublicKey, body) }), () => new Date());
 */
export function activityApi(transport: ActivityTransport, stamp: ProxyStamper, now: () => Date): ActivityApi {
  async function post(path: string, body: string): Promise<unknown> {
    const stamped = await stamp(body);
    let reply: TransportReply;
    try {
      reply = await transport.post(path, body, { 'content-type': 'application/json', 'x-stamp': stamped.header });
    } finally {
      stamped.release?.();
    }
    if (reply.status !== 200) throw errorFromReply(reply.status, reply.body);
    if (typeof reply.body !== 'object' || reply.body === null) throw new ApiError('ERR_UNAVAILABLE', `the activity API replied ${reply.status} without JSON`);
    return reply.body;
  }
  return {
    async submit(op, organizationId, parameters, opts = {}) {
      const descriptor = operations[op];
      const body = JSON.stringify({
        type: descriptor.type,
        timestampMs: String(now().getTime()),
        organizationId,
        parameters,
        ...(opts.appProofs ? { generateAppProofs: true } : {}),
      });
      const { activity } = (await post(descriptor.path, body)) as {
        activity?: { status?: string; result?: Record<string, unknown>; appProofs?: AppProof[] };
      };
      if (activity?.status !== 'ACTIVITY_STATUS_COMPLETED') {
        // The proxy user acts alone; anything but completion means a misconfigured quorum or policy.
        throw new ApiError('ERR_PERMISSION_DENIED', `the proxy's ${op} activity did not complete (${activity?.status ?? 'no status'})`);
      }
      const result = activity.result?.[descriptor.resultKey];
      if (typeof result !== 'object' || result === null) throw new ApiError('ERR_UNAVAILABLE', `the ${op} reply has no ${descriptor.resultKey}`);
      return { result: result as ResultOf<typeof op>, appProofs: activity.appProofs ?? [] };
    },
    async query(name, request) {
      return (await post(queries[name].path, JSON.stringify(request))) as QueryResponseOf<typeof name>;
    },
  };
}
