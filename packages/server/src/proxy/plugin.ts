/**
 * The authentication proxy (spec A), an encapsulated plugin under /v1: one POST route per
 * descriptor of `proxyEndpoints`, each guarded by the config-id and Origin checks (guard.ts),
 * its body validated against the descriptor's closed schema, then handled by its route file,
 * which reaches the activity API only through forward.ts. CORS preflights are answered for
 * allowed origins only. With the dev outbox on, GET /v1/dev/outbox shows it to loopback clients.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { proxyEndpoints, type ProxyEndpointDescriptor, type ProxyEndpointName } from '@walletkit/protocol';
import type { Services } from '../activity/context.js';
import { assertSchema } from '../activity/validate.js';
import { ApiError } from '../errors.js';
import { useStrictJson } from '../request-body.js';
import type { Store } from '../store/db.js';
import type { ProxyContext, ProxyRoute } from './context.js';
import { registerDevOutbox } from './dev-outbox.js';
import { forwardActivity, forwardWithProofs } from './forward.js';
import { answerPreflight, guardRequest, type GuardedRequest } from './guard.js';
import { account } from './routes/account.js';
import { oauth2Authenticate } from './routes/oauth2-authenticate.js';
import { oauthLogin } from './routes/oauth-login.js';
import { otpInit } from './routes/otp-init.js';
import { otpLogin } from './routes/otp-login.js';
import { otpVerify } from './routes/otp-verify.js';
import { signup } from './routes/signup.js';
import { walletKitConfig } from './routes/wallet-kit-config.js';

export interface ProxyPluginOptions {
  store: Store;
  services: Services;
}

/** The route of each endpoint; a name missing here has no route (unfinished work stays out). */
const routes: { [N in ProxyEndpointName]?: ProxyRoute<never, unknown> } = {
  otp_init_v2: otpInit,
  otp_verify_v2: otpVerify,
  otp_login_v2: otpLogin,
  oauth_login: oauthLogin,
  oauth2_authenticate: oauth2Authenticate,
  signup_v2: signup,
  account,
  wallet_kit_config: walletKitConfig,
};

/** Check a body against the endpoint's schema; fields are named from the body's root (`filterType`). */
function validateBody(descriptor: ProxyEndpointDescriptor, body: unknown): unknown {
  try {
    return assertSchema<unknown>(descriptor.request, body, '');
  } catch (err) {
    if (!(err instanceof ApiError) || err.field === undefined) throw err;
    const field = err.field.replace(/^\./, '');
    throw new ApiError(err.code, err.message.replace(err.field, field), field);
  }
}

export async function proxyPlugin(app: FastifyInstance, opts: ProxyPluginOptions): Promise<void> {
  const { store, services } = opts;
  const guarded = new WeakMap<FastifyRequest, GuardedRequest>();

  // The same strict JSON as the activity API (request-body.ts): one meaning per body.
  useStrictJson(app);
  app.options('/*', async (req, reply) => answerPreflight(store, req, reply));
  // Outbox rows hold codes: the route exists only when the dev outbox was asked for.
  if (services.config.devOutbox) registerDevOutbox(app, store);

  for (const [name, route] of Object.entries(routes) as Array<[ProxyEndpointName, ProxyRoute<unknown, unknown>]>) {
    const descriptor: ProxyEndpointDescriptor = proxyEndpoints[name];
    app.post(`/${name}`, {
      // Serialized through the descriptor's closed schema: nothing beyond the contract leaves.
      schema: { response: { 200: descriptor.response } },
      // Before the body is read: a wrong origin or config costs one indexed read, nothing more.
      onRequest: async (req, reply) => {
        guarded.set(req, await guardRequest(store, req, reply));
      },
      handler: async (req) => {
        const { config, settings } = guarded.get(req)!;
        // wallet_kit_config carries nothing: a body-less POST is the empty object (a JSON
        // `null` body is not body-less: it is refused like any non-object, as on /public/v1).
        const body = validateBody(descriptor, req.rawBody === undefined ? {} : req.body);
        const ctx: ProxyContext = {
          services,
          store,
          config,
          settings,
          forward: (op, organizationId, parameters) => forwardActivity(services, config, op, organizationId, parameters),
          forwardWithProofs: (op, organizationId, parameters) => forwardWithProofs(services, config, op, organizationId, parameters, true),
        };
        return route(body, ctx);
      },
    });
  }
}
