/**
 * build(config, deps) -> FastifyInstance, without listen(): the activity API under
 * /public/v1, discovery under /.well-known, one error table for every reply.
 */
import Fastify, { type FastifyInstance, type FastifyError } from 'fastify';
import { errorBody } from '@walletkit/protocol';
import { activityPlugin } from './activity/plugin.js';
import { computeHandlers as defaultCompute, handlers as defaultHandlers, prefetchers as defaultPrefetchers } from './activity/operations/index.js';
import { queryHandlers as defaultQueries } from './activity/queries/index.js';
import type { Handlers, PrefetchTable, Services } from './activity/context.js';
import type { Queries } from './activity/queries/context.js';
import type { ServerConfig } from './config.js';
import { createDelivery, type Delivery } from './delivery/index.js';
import { startMaintenance } from './store/maintenance.js';
import { startRetention } from './store/retention.js';
import type { Enclave } from './enclave/index.js';
import { ApiError } from './errors.js';
import { installNativeCrypto } from './native-crypto.js';
import { framesPlugin } from './frames/plugin.js';
import { httpTransport, injectTransport } from './proxy/activity-api.js';
import { proxyPlugin } from './proxy/plugin.js';
import { registerDevOutbox } from './delivery/outbox-route.js';
import { issuerOf as activityServerBase } from './oauth/issued-token.js';
import { proxyConfigStore } from './store/proxy-configs.js';
import type { Store } from './store/db.js';
import { Facts } from './activity/facts.js';
import { IssuedCodes } from './activity/operations/otp-issued.js';

export interface AppDeps {
  store: Store;
  enclave: Enclave;
  /** Injected clock (tests use fake time). */
  now?: () => Date;
  /** Injected fetch (outbound OAuth calls). */
  fetch?: typeof fetch;
  /** OTP delivery (default from config: SMTP, SMS webhook or dev outbox). */
  delivery?: Delivery;
  /** @internal */
  handlers?: Handlers;
  /** Pre-transaction provider calls per operation (default: operations/index.ts). @internal */
  prefetchers?: PrefetchTable;
  /** @internal */
  queries?: Queries;
  /**
   * How the auth proxy reaches the activity API: `'inject'` (default: in-process through Fastify's
   * inject(), the same routes, parser, stamp check and error handler as over the network, without
   * a socket or the HTTP round trip to itself) or `'http'` (over the network to the server's public
   * URL, as a separate deployment would).
   */
  proxyTransport?: 'http' | 'inject';
}

export const VERSION = '0.1.0';

/** Map framework errors (body parsing, limits, media type) onto the stable codes. */
function toApiError(err: FastifyError | ApiError): ApiError {
  if (err instanceof ApiError) return err;
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('ERR_PAYLOAD_TOO_LARGE');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('ERR_UNSUPPORTED_MEDIA_TYPE');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('ERR_MALFORMED_JSON');
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return new ApiError('ERR_INVALID_REQUEST', err.message);
  }
  return new ApiError('ERR_INTERNAL', undefined, undefined, { cause: err });
}

/** Properties of an error (and of its causes) that the log keeps: codes and names, no values. */
const LOGGED_FIELDS = ['code', 'errorCode', 'statusCode', 'severity', 'constraint', 'table', 'column', 'routine'] as const;

/**
 * The error as the log may keep it. A database error carries the statement's parameters (a
 * drizzle DrizzleQueryError puts them in its message: an activity's intent and result, with
 * verification tokens and sessions) and the driver's detail quotes values: both are dropped,
 * the SQL text and the SQLSTATE stay. Other properties (an HTTP client's request) are dropped
 * too; messages and stacks stay, along the whole cause chain.
 * @example req.log.error({ err: loggable(err) }, 'request failed')
 */
export function loggable(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error) || depth > 8) return err;
  const e = err as Error & Record<string, unknown>;
  // drizzle: "Failed query: <sql>\nparams: <values>"; the driver's own error keeps its message, not its params.
  const cut = 'params' in e ? e.message.indexOf('\nparams:') : -1;
  const message = cut >= 0 ? e.message.slice(0, cut) : e.message;
  const cause = e.cause === undefined ? undefined : loggable(e.cause, depth + 1);
  const copy = new Error(message, cause === undefined ? undefined : { cause }) as Error & Record<string, unknown>;
  copy.name = e.name;
  // The stack starts with the message (parameters included): rebuilt from its frames.
  const frames = (e.stack ?? '').indexOf('\n    at ');
  copy.stack = `${e.name}: ${message}${frames >= 0 ? (e.stack ?? '').slice(frames) : ''}`;
  for (const field of LOGGED_FIELDS) if (e[field] !== undefined) copy[field] = e[field];
  return copy;
}

export function publicUrlOf(config: ServerConfig): string {
  return config.publicUrl ?? `http://localhost:${config.port}`;
}

export async function build(config: ServerConfig, deps: AppDeps): Promise<FastifyInstance> {
  // Stamps, bundles, JWTs, App Proofs and HPKE on node:crypto instead of noble and WebCrypto (issue 14).
  installNativeCrypto();
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    bodyLimit: config.bodyLimit,
    // Fastify's request log lines carry method, url and status only: never bodies or headers.
  });
  const services: Services = {
    config,
    enclave: deps.enclave,
    now: deps.now ?? (() => new Date()),
    fetch: deps.fetch ?? globalThis.fetch,
    delivery: deps.delivery ?? createDelivery(config, deps.store),
    facts: new Facts(deps.store),
    issuedCodes: new IssuedCodes(),
  };
  // A server answers requests from the cached facts as soon as it hears the database's changes:
  // on PostgreSQL, start listening now rather than at the first request.
  void deps.store.changes.live;

  // Expired OTP rows and outbox messages are swept while the server runs (store/retention.ts).
  let stopRetention: (() => void) | undefined;
  app.addHook('onReady', async () => {
    stopRetention = startRetention(deps.store.db, config.otp, services.now, (err) => app.log.warn({ err: loggable(err) }, 'OTP retention sweep failed'));
  });
  app.addHook('onClose', async () => stopRetention?.());
  // The embedded database has no autovacuum and no checkpointer of its own: the server runs their
  // rules on it (store/maintenance.ts; nothing on PostgreSQL). A pass holds the one connection while it runs.
  let stopMaintenance: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    stopMaintenance = startMaintenance(
      deps.store,
      (pass) => {
        if (pass.vacuumed.length + pass.analyzed.length === 0 && !pass.checkpoint) return;
        const level = pass.ms >= 1000 ? 'warn' : 'debug';
        app.log[level](
          { vacuumed: pass.vacuumed, analyzed: pass.analyzed, checkpoint: pass.checkpoint, ms: Math.round(pass.ms) },
          'embedded database maintained',
        );
      },
      (err) => app.log.warn({ err: loggable(err) }, 'embedded database maintenance failed'),
    );
  });
  app.addHook('onClose', async () => stopMaintenance?.());
  // The enclave's signing threads stop with the server.
  app.addHook('onClose', async () => {
    await deps.enclave.close();
  });

  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    const apiError = toApiError(err);
    if (apiError.status >= 500) req.log.error({ err: loggable(err) }, 'request failed');
    void reply.status(apiError.status).send(apiError.toBody());
  });
  app.setNotFoundHandler((req, reply) => {
    void reply.status(404).send(errorBody('ERR_ROUTE_NOT_FOUND', `no route ${req.method} ${req.url.split('?')[0]}`));
  });

  // Discovery is public and read by browsers too (an integrator pinning the enclave key for
  // @turnkey/crypto's encryptOtpCodeToBundle, decision 0020): any origin may read it, no credentials.
  app.addHook('onRequest', async (req, reply) => {
    if (req.url.startsWith('/.well-known/')) void reply.header('access-control-allow-origin', '*');
  });
  app.get('/.well-known/walletkit.json', async () => ({
    version: VERSION,
    activityApiUrl: `${publicUrlOf(config)}/public/v1`,
    // The base the kit and the spec use: clients add /v1/<endpoint> (Turnkey's authProxyUrl).
    authProxyUrl: publicUrlOf(config),
    enclaveSigningPublicKey: deps.enclave.signingPublicKey,
    enclaveEncryptionPublicKey: deps.enclave.encryptionPublicKey,
  }));
  app.get('/.well-known/jwks.json', async () => ({ keys: [deps.enclave.signingJwk()] }));
  app.get('/health', async () => ({ ok: true }));

  await app.register(activityPlugin, {
    prefix: '/public/v1',
    store: deps.store,
    services,
    handlers: deps.handlers ?? defaultHandlers,
    prefetchers: deps.prefetchers ?? defaultPrefetchers,
    // Tests that replace the handlers run them in transactions only.
    compute: deps.handlers ? {} : defaultCompute,
    queries: deps.queries ?? defaultQueries,
  });
  const transport = deps.proxyTransport === 'http' ? httpTransport(() => activityServerBase(config), services.fetch) : injectTransport(app);
  await app.register(proxyPlugin, {
    prefix: '/v1',
    configs: proxyConfigStore(deps.store.db, services.facts.cache),
    transport,
    stamps: deps.enclave.stamps,
    now: services.now,
  });
  // Outbox rows hold codes: the route exists only when the dev outbox was asked for.
  if (config.devOutbox) await app.register(async (dev) => registerDevOutbox(dev, deps.store), { prefix: '/v1' });
  await app.register(framesPlugin, { prefix: '/frames', store: deps.store, enclave: deps.enclave });
  return app;
}
