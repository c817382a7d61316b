/**
 * Every proxy request (spec A, "Authentication proxy" 1-2): the X-Auth-Proxy-Config-Id
 * header names an enabled configuration, and the Origin is one of its allowed origins by
 * exact string match (`*` allows any; no partial wildcards, so `https://example.com.evil.com`
 * never matches `https://example.com`). CORS replies echo only an allowed origin.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { assertSchema } from '../activity/validate.js';
import { ApiError } from '../errors.js';
import type { ProxyConfigRow, ProxyConfigStore } from './config-store.js';
import { ProxySettings } from './settings.js';

/**
 * Headers a browser may send on proxy requests (answered in preflights): the body's type, the
 * configuration id, and Turnkey's captcha token (@turnkey/core sends it when the app passes one;
 * this server has no captcha and ignores it).
 */
const ALLOWED_HEADERS = 'content-type, x-auth-proxy-config-id, x-captcha-token';
/** Browsers may cache a preflight this long (seconds). */
const PREFLIGHT_MAX_AGE = '600';

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * True when `origin` is allowed by `allowedOrigins`: `*`, or an entry equal to it. Entries
 * may carry one trailing slash (as pasted from an address bar); nothing else is normalized.
 * @example originAllowed(['https://app.example'], 'https://app.example.evil.com') // false
 */
export function originAllowed(allowedOrigins: readonly string[], origin: string | undefined): boolean {
  if (allowedOrigins.includes('*')) return true;
  if (origin === undefined) return false;
  return allowedOrigins.some((entry) => (entry.endsWith('/') ? entry.slice(0, -1) : entry) === origin);
}

/** The configuration and its settings, once the guard accepted the request. */
export interface GuardedRequest {
  config: ProxyConfigRow;
  settings: ProxySettings;
}

/** Reflect an allowed origin so the browser lets the page read the reply (errors included). */
function allowOrigin(reply: FastifyReply, origin: string | undefined): void {
  void reply.header('vary', 'Origin');
  if (origin !== undefined) void reply.header('access-control-allow-origin', origin);
}

/**
 * Check config id, enablement and Origin of a non-preflight request.
 * @throws ApiError ERR_CONFIG_ID_MISSING | ERR_CONFIG_NOT_FOUND | ERR_PROXY_DISABLED | ERR_ORIGIN_NOT_ALLOWED
 */
export async function guardRequest(configs: ProxyConfigStore, req: FastifyRequest, reply: FastifyReply): Promise<GuardedRequest> {
  const configId = header(req, 'x-auth-proxy-config-id')?.trim();
  if (!configId) throw new ApiError('ERR_CONFIG_ID_MISSING');
  if (configId.length > 128) throw new ApiError('ERR_CONFIG_NOT_FOUND');
  const config = await configs.byId(configId);
  if (!config) throw new ApiError('ERR_CONFIG_NOT_FOUND');
  if (!config.enabled) throw new ApiError('ERR_PROXY_DISABLED');
  let settings: ProxySettings;
  try {
    settings = assertSchema<ProxySettings>(ProxySettings, config.settings, 'settings');
  } catch (cause) {
    // Stored settings are written through validation; a mismatch is corrupt storage, not the caller's fault.
    throw new ApiError('ERR_INTERNAL', 'the stored proxy settings are invalid', undefined, { cause });
  }
  const origin = header(req, 'origin');
  if (!originAllowed(settings.allowedOrigins, origin)) throw new ApiError('ERR_ORIGIN_NOT_ALLOWED');
  allowOrigin(reply, origin);
  return { config, settings };
}

/**
 * Answer a CORS preflight. Browsers send no custom header values in a preflight, so the
 * configuration is usually unknown: the origin must then be allowed by some enabled
 * configuration, and the real request is checked against its own one. A preflight that does
 * carry the header (non-browser clients) is checked against that configuration.
 */
export async function answerPreflight(configs: ProxyConfigStore, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const origin = header(req, 'origin');
  const configId = header(req, 'x-auth-proxy-config-id')?.trim();
  let allowed = false;
  if (origin !== undefined) {
    if (configId) {
      const config = configId.length <= 128 ? await configs.byId(configId) : undefined;
      allowed = config?.enabled === true && originAllowed(config.settings.allowedOrigins, origin);
    } else {
      allowed = await configs.anyEnabledAllows(origin);
    }
  }
  if (!allowed) {
    void reply.header('vary', 'Origin');
    throw new ApiError('ERR_ORIGIN_NOT_ALLOWED');
  }
  allowOrigin(reply, origin);
  void reply
    .header('access-control-allow-methods', 'POST')
    .header('access-control-allow-headers', ALLOWED_HEADERS)
    .header('access-control-max-age', PREFLIGHT_MAX_AGE)
    .status(204)
    .send();
}
