import { isErrorCode, type ErrorBody } from '@walletkit/protocol/wire';
import { WalletKitError } from './errors.js';

/** The `fetch` the kit uses; inject one in tests or to add tracing. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/**
 * POSTs JSON and returns the parsed reply; the body text is sent exactly as given (stamps sign
 * those bytes). A server error body `{code, message, details:[{errorCode}]}` becomes a
 * {@link WalletKitError} with that `errorCode` and the HTTP status; a failed connection is
 * `ERR_NETWORK`; a reply that is not JSON is `ERR_UNEXPECTED_RESPONSE`.
 *
 * @example
 * ```ts
 * const reply = await postJson<{ session: string }>(fetch, 'https://api.example/v1/oauth_login', JSON.stringify(body), {
 *   'X-Auth-Proxy-Config-Id': configId,
 * });
 * ```
 */
export async function postJson<T>(fetchFn: FetchLike, url: string, body: string, headers: Record<string, string> = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetchFn(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  } catch (cause) {
    throw new WalletKitError('ERR_NETWORK', undefined, { cause });
  }
  let text: string;
  try {
    text = await res.text();
  } catch (cause) {
    throw new WalletKitError('ERR_NETWORK', undefined, { status: res.status, cause });
  }
  let json: unknown;
  try {
    json = text.length > 0 ? JSON.parse(text) : undefined;
  } catch (cause) {
    throw new WalletKitError(res.ok ? 'ERR_UNEXPECTED_RESPONSE' : 'ERR_INTERNAL', `HTTP ${res.status}: reply is not JSON`, { status: res.status, cause });
  }
  if (!res.ok) throw errorFromBody(res.status, json);
  if (json === undefined) throw new WalletKitError('ERR_UNEXPECTED_RESPONSE', `HTTP ${res.status}: empty reply`, { status: res.status });
  return json as T;
}

/** The WalletKitError for a non-2xx reply; unknown shapes keep the status under ERR_INTERNAL. */
function errorFromBody(status: number, json: unknown): WalletKitError {
  const body = json as Partial<ErrorBody> | undefined;
  const code = body?.details?.[0]?.errorCode;
  const message = typeof body?.message === 'string' ? body.message : `HTTP ${status}`;
  if (isErrorCode(code)) return new WalletKitError(code, message, { status });
  return new WalletKitError(status >= 500 ? 'ERR_INTERNAL' : 'ERR_UNEXPECTED_RESPONSE', message, { status });
}

/** The global fetch, bound (browsers throw "Illegal invocation" on an unbound call). @internal */
export function defaultFetch(): FetchLike {
  if (typeof globalThis.fetch !== 'function') throw new WalletKitError('ERR_NETWORK', 'fetch is not available; pass config.fetch');
  return (input, init) => globalThis.fetch(input, init);
}
