/**
 * The activity API, prefix /public/v1: `POST /submit/<op>` for every operation descriptor
 * with a handler, `POST /query/<name>` for the reads. Each request: raw body kept and parsed
 * strictly (request-body.ts, the same parser as the proxy's), envelope
 * and parameters checked against the protocol schemas, liveness window, stamp verified over
 * the raw bytes, then the runner (idempotency + one transaction).
 */
import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { activityFingerprint } from '@walletkit/crypto';
import { operations, queries, SubmitEnvelope, type OperationDescriptor, type QueryDescriptor, type QueryName } from '@walletkit/protocol';
import { ApiError } from '../errors.js';
import { useStrictJson } from '../request-body.js';
import { isPreparedStatementLost, type Store } from '../store/db.js';
import { StaleFacts } from './activity-insert.js';
import { authenticate } from './authenticate.js';
import { authorizeQuery } from './authorize.js';
import type { ComputeTable, Handlers, PrefetchTable, Services } from './context.js';
import { ActivityRunner } from './execute.js';
import type { Queries } from './queries/context.js';
import { cachedQueries } from './queries/index.js';
import { assertSchema } from './validate.js';

export interface ActivityPluginOptions {
  store: Store;
  services: Services;
  handlers: Handlers;
  /** Pre-transaction provider calls (operations/index.ts `prefetchers`). */
  prefetchers?: PrefetchTable;
  /** Operations run outside any transaction (operations/index.ts `computeHandlers`). */
  compute?: ComputeTable;
  queries: Queries;
}

/**
 * Runs of one request whose facts another process keeps changing, before it is refused (503).
 * Each round of racing writers to one organization lets one of them through, so N writers in
 * lockstep need N runs; between runs a request waits a random few milliseconds (growing), which
 * spreads such a herd out.
 */
const STALE_ATTEMPTS = 8;
const staleBackoff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** attempt)));

/** The body useStrictJson parsed; a request without one (no content type) is malformed. */
function parsedBody(req: FastifyRequest): unknown {
  if (!req.rawBody) throw new ApiError('ERR_MALFORMED_JSON', 'the request body is empty');
  return req.body;
}

/**
 * Headers a browser may send: the body's type, the three stamp headers, and the SDK version
 * `@turnkey/core` adds to every request (X-Client-Version).
 */
const ACTIVITY_CORS_HEADERS = 'content-type, x-stamp, x-stamp-webauthn, x-stamp-attested, x-client-version';

/**
 * CORS for the embedded wallet (docs/decisions/0010-activity-api-cors.md): the kit calls the
 * activity API from the integrator's page with requests stamped by the user's session key or
 * passkey. The stamp is the only authority (no cookies, no ambient credentials), so every
 * origin may call, exactly as a server-side client may; nothing is readable without a valid stamp.
 */
async function allowBrowsers(app: FastifyInstance): Promise<void> {
  // Not strict: @fastify/cors answers an OPTIONS without Origin or request method with a
  // text/plain 400 outside the error table; granting `*` to it reveals nothing.
  await app.register(cors, { origin: '*', methods: ['GET', 'POST'], allowedHeaders: ACTIVITY_CORS_HEADERS, maxAge: 600, strictPreflight: false });
}

export async function activityPlugin(app: FastifyInstance, opts: ActivityPluginOptions): Promise<void> {
  const { store, services } = opts;
  const runner = new ActivityRunner(store, services, opts.handlers, opts.prefetchers, opts.compute);

  // Only strict JSON is accepted (others get 415), and the exact bytes are kept: stamps are
  // verified over them, never over a re-serialization.
  useStrictJson(app);

  await allowBrowsers(app);

  for (const descriptor of Object.values(operations) as OperationDescriptor[]) {
    const deferrable = opts.compute?.[descriptor.name as keyof ComputeTable] !== undefined;
    app.post(`/submit/${descriptor.name}`, async (req) => {
      const body = parsedBody(req);
      const envelope = assertSchema<SubmitEnvelope>(SubmitEnvelope, body, '');
      if (envelope.type !== descriptor.type) {
        throw new ApiError('ERR_ACTIVITY_TYPE_MISMATCH', `type must be ${descriptor.type} on ${descriptor.path}`, 'type');
      }
      const parameters = assertSchema<Record<string, unknown>>(descriptor.parameters, envelope.parameters, 'parameters');
      checkLiveness(services, envelope.timestampMs);
      const rawBody = req.rawBody!;
      const fingerprint = activityFingerprint(rawBody);
      for (let attempt = 1; ; attempt++) {
        // X-Stamp-Attested opens a session and nothing else (decision 0020). A signature's stamp
        // may be checked by its own job on a signer thread (execute.ts `computeNow`).
        const caller = await authenticate(store, services, req.headers, rawBody, envelope.organizationId, {
          attested: descriptor.name === 'stamp_login',
          deferStamp: deferrable,
        });
        try {
          const reply = await runner.submit({
            descriptor,
            organizationId: envelope.organizationId,
            timestampMs: envelope.timestampMs,
            parameters,
            generateAppProofs: envelope.generateAppProofs === true,
            fingerprint,
            caller,
          });
          await caller.stamp?.settle(); // checked by then; no answer leaves on an unchecked stamp
          return reply;
        } catch (err) {
          await caller.stamp?.settle();
          // A connection lost its prepared statements inside the activity's transaction (a pooler
          // without them: store/prepared.ts): nothing was stored and nothing is named any more.
          if (isPreparedStatementLost(err) && attempt < STALE_ATTEMPTS) continue;
          if (!(err instanceof StaleFacts)) throw err;
          // Another process changed the caller's organization since its facts were cached: nothing
          // was stored; read them again and run again (a second change in the same moments too).
          if (attempt >= STALE_ATTEMPTS)
            throw new ApiError('ERR_UNAVAILABLE', 'the organization changed while the request ran; try again', undefined, { cause: err });
          for (const organizationId of err.organizations) store.changes.changed(organizationId);
          await staleBackoff(attempt);
        }
      }
    });
  }

  for (const query of Object.values(queries) as QueryDescriptor[]) {
    const handler = opts.queries[query.name as keyof Queries] as (request: Record<string, unknown>, ctx: unknown) => Promise<unknown>;
    app.post(`/query/${query.name}`, async (req) => {
      const request = assertSchema<{ organizationId: string } & Record<string, unknown>>(query.request, parsedBody(req), '');
      const caller = await authenticate(store, services, req.headers, req.rawBody!, request.organizationId);
      await authorizeQuery(store.db, caller, query.name);
      const read = () => handler(request, { ...services, db: store.db, organizationId: request.organizationId, caller });
      if (!cachedQueries.has(query.name as QueryName)) return read();
      return services.facts.cache.get(`query|${query.name}|${JSON.stringify(request)}`, async () => ({
        value: await read(),
        organizations: [request.organizationId],
      }));
    });
  }
}

/** DESIGN section 2: no older than 1 h, no more than 5 min ahead of the server clock. */
function checkLiveness(services: Services, timestampMs: string): void {
  const ts = Number(timestampMs);
  const now = services.now().getTime();
  const { maxAgeMs, maxSkewMs } = services.config.liveness;
  if (!Number.isSafeInteger(ts) || ts < now - maxAgeMs || ts > now + maxSkewMs) {
    throw new ApiError('ERR_TIMESTAMP_OUT_OF_WINDOW', undefined, 'timestampMs');
  }
}
