/**
 * The authentication proxy (spec A), an encapsulated plugin under /v1: one POST route per
 * descriptor of `proxyEndpoints`, each guarded by the config-id and Origin checks (guard.ts),
 * its body validated against the descriptor's closed schema, then handled by its route file.
 * A route sees its configuration and the activity API (activity-api.ts), stamped with the
 * configuration's sealed proxy key by the enclave: the proxy is a client of the public API like
 * any other, and keeps only its configurations (config-store.ts). CORS preflights are answered
 * for allowed origins only.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { proxyEndpoints, type ProxyEndpointDescriptor, type ProxyEndpointName, type ProxyRequestOf, type ProxyResponseOf } from '@walletkit/protocol';
import { assertSchema } from '../activity/validate.js';
import type { ApiKeyStamps } from '../enclave/api-key-stamps.js';
import { ApiError } from '../errors.js';
import { useStrictJson } from '../request-body.js';
import { activityApi, type ActivityTransport, type ProxyStamper } from './activity-api.js';
import type { ProxyConfigStore } from './config-store.js';
import type { ProxyContext, ProxyRoute } from './context.js';
import { answerPreflight, guardRequest, type GuardedRequest } from './guard.js';
import { account } from './routes/account.js';
import { oauth2Authenticate } from './routes/oauth2-authenticate.js';
import { oauthLogin } from './routes/oauth-login.js';
import { otpInit } from './routes/otp-init.js';
import { otpLogin } from './routes/otp-login.js';
import { otpVerify } from './routes/otp-verify.js';
import { signup } from './routes/signup.js';
import { walletKitClientParams, walletKitConfig } from './routes/wallet-kit-config.js';

export interface ProxyPluginOptions {
  /** The proxy's configurations. */
  configs: ProxyConfigStore;
  /** How requests reach the activity API (HTTP in production, inject() in tests). */
  transport: ActivityTransport;
  /** The enclave's stamps (`Enclave.stamps`) with a sealed proxy key; the key is opened only inside the enclave. */
  stamps: Pick<ApiKeyStamps, 'stampWith' | 'stampInProcess'>;
  now: () => Date;
}

/** The route of every endpoint: a descriptor without a route here is a compile error. */
const routes: { [N in ProxyEndpointName]: ProxyRoute<ProxyRequestOf<N>, ProxyResponseOf<N>> } = {
  otp_init_v2: otpInit,
  otp_verify_v2: otpVerify,
  otp_login_v2: otpLogin,
  oauth_login: oauthLogin,
  oauth2_authenticate: oauth2Authenticate,
  signup_v2: signup,
  account,
  wallet_kit_config: walletKitConfig,
  wallet_kit_client_params: walletKitClientParams,
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
  const { configs, transport, stamps, now } = opts;
  const guarded = new WeakMap<FastifyRequest, GuardedRequest>();

  // The same strict JSON as the activity API (request-body.ts): one meaning per body.
  useStrictJson(app, { emptyIsAbsent: true });
  app.options('/*', async (req, reply) => answerPreflight(configs, req, reply));

  for (const [name, route] of Object.entries(routes) as Array<[ProxyEndpointName, ProxyRoute<unknown, unknown>]>) {
    const descriptor: ProxyEndpointDescriptor = proxyEndpoints[name];
    app.post(`/${name}`, {
      // Serialized through the descriptor's closed schema: nothing beyond the contract leaves.
      schema: { response: { 200: descriptor.response } },
      // Before the body is read: a wrong origin or config costs one indexed read, nothing more.
      onRequest: async (req, reply) => {
        guarded.set(req, await guardRequest(configs, req, reply));
      },
      handler: async (req) => {
        const { config, settings } = guarded.get(req)!;
        // A POST without a body is the empty request; so are zero bytes labelled JSON where the
        // request has no fields at all (Turnkey's clients send wallet_kit_config so), and
        // elsewhere they are malformed JSON. A JSON `null` body is a body: refused like any non-object.
        const empty = req.rawBody === undefined || req.rawBody.length === 0;
        if (req.rawBody?.length === 0 && Object.keys(descriptor.request.properties).length > 0)
          throw new ApiError('ERR_MALFORMED_JSON', 'the request body is empty');
        const body = validateBody(descriptor, empty ? {} : req.body);
        const sealed = config.proxyApiPrivateKeyEncrypted;
        // A request that stays in this process carries the enclave's pass; one over HTTP a signature (decision 0027).
        const stamp: ProxyStamper = transport.inProcess
          ? (payload) => stamps.stampInProcess(sealed, config.proxyApiPublicKey, payload)
          : async (payload) => ({ header: await stamps.stampWith(sealed, config.proxyApiPublicKey, payload) });
        const ctx: ProxyContext = { config, settings, api: activityApi(transport, stamp, now) };
        return route(body, ctx);
      },
    });
  }
}
