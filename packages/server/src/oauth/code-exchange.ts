/**
 * OAuth 2.0 authorization-code exchange with PKCE (RFC 6749 section 4.1.3, RFC 7636 section
 * 4.5) and the user-info call, for providers without OIDC (X, Discord). The client secret is
 * sent with HTTP Basic (RFC 6749 section 2.3.1) and never logged or returned.
 */
import { ApiError } from '../errors.js';

/** Where a provider's endpoints are (ServerConfig.oauth2Providers entries). */
export interface ProviderEndpoints {
  tokenUrl: string;
  userInfoUrl: string;
  issuer: string;
}

/** The provider's user, as far as an id token needs it. */
export interface ProviderUser {
  id: string;
  email?: string;
  emailVerified?: boolean;
}

const TIMEOUT_MS = 10_000;

/** application/x-www-form-urlencoded of one value, as RFC 6749 section 2.3.1 asks for Basic credentials. */
function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/**
 * What the log may keep of a failed provider call: the error's name and code, never its text
 * or properties, which an HTTP client can fill with the request (the Basic credentials with
 * the client secret, the bearer access token).
 */
function redactedCause(err: unknown): Error {
  const e = (typeof err === 'object' && err !== null ? err : {}) as { name?: unknown; code?: unknown; cause?: { code?: unknown } };
  const code = typeof e.code === 'string' ? e.code : typeof e.cause?.code === 'string' ? e.cause.code : undefined;
  return new Error(`${typeof e.name === 'string' ? e.name : 'Error'}${code ? ` (${code})` : ''}`);
}

function failed(message: string, cause?: unknown): ApiError {
  return new ApiError('ERR_OAUTH_EXCHANGE_FAILED', message, undefined, cause === undefined ? undefined : { cause: redactedCause(cause) });
}

/** A token endpoint's reply (RFC 6749 sections 5.1 and 5.2), the members read here; any may be missing or mistyped. */
interface TokenReply {
  access_token?: unknown;
  error?: unknown;
}

/** A user-info reply, the members read here: Discord `{id, email, verified}`, OIDC-style `{sub, email, email_verified}`. */
interface UserInfo {
  id?: unknown;
  sub?: unknown;
  email?: unknown;
  verified?: unknown;
  email_verified?: unknown;
}

async function readJson(res: Response): Promise<Record<string, unknown> | undefined> {
  try {
    const value: unknown = await res.json();
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Exchange an authorization code for an access token.
 * A provider answering `invalid_grant` (wrong, expired or reused code, wrong redirect URI or
 * code verifier) means the caller's input is bad: ERR_INVALID_PARAMETER (400). Anything else
 * (unreachable provider, rejected client credentials, malformed reply) is the provider side
 * failing: ERR_OAUTH_EXCHANGE_FAILED (502).
 * @example const accessToken = await exchangeAuthorizationCode(fetch, endpoints, { clientId, clientSecret, code, redirectUri, codeVerifier });
 */
export async function exchangeAuthorizationCode(
  fetchFn: typeof fetch,
  endpoints: ProviderEndpoints,
  input: { clientId: string; clientSecret: string; code: string; redirectUri: string; codeVerifier: string },
): Promise<string> {
  const basic = Buffer.from(`${formEncode(input.clientId)}:${formEncode(input.clientSecret)}`).toString('base64');
  let res: Response;
  try {
    res = await fetchFn(endpoints.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', authorization: `Basic ${basic}` },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: input.code,
        redirect_uri: input.redirectUri,
        code_verifier: input.codeVerifier,
        client_id: input.clientId,
      }).toString(),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (cause) {
    throw failed(`token endpoint ${endpoints.tokenUrl} unreachable`, cause);
  }
  const body: TokenReply | undefined = await readJson(res);
  if (!res.ok) {
    if (res.status === 400 && body?.error === 'invalid_grant') {
      throw new ApiError('ERR_INVALID_PARAMETER', 'the provider rejected the authorization code, redirect URI or code verifier (invalid_grant)', 'authCode');
    }
    throw failed(`token endpoint answered ${res.status} ${typeof body?.error === 'string' ? body.error : ''}`.trim());
  }
  const accessToken = body?.access_token;
  if (typeof accessToken !== 'string' || accessToken === '') throw failed('token endpoint returned no access_token');
  return accessToken;
}

/**
 * Fetch the provider's user with the access token. Understands Discord (`{id, email,
 * verified}`), X (`{data: {id}}`) and OIDC-style (`{sub, email, email_verified}`) replies.
 * @example const user = await fetchProviderUser(fetch, endpoints, accessToken); // { id: '80351110224678912', email: 'a@example.com' }
 */
export async function fetchProviderUser(fetchFn: typeof fetch, endpoints: ProviderEndpoints, accessToken: string): Promise<ProviderUser> {
  let res: Response;
  try {
    res = await fetchFn(endpoints.userInfoUrl, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (cause) {
    throw failed(`user-info endpoint ${endpoints.userInfoUrl} unreachable`, cause);
  }
  // X nests the user under `data`.
  const body: (UserInfo & { data?: unknown }) | undefined = await readJson(res);
  if (!res.ok || !body) throw failed(`user-info endpoint answered ${res.status}`);
  const data = typeof body.data === 'object' && body.data !== null ? (body.data as UserInfo) : body;
  const rawId = data.id ?? data.sub;
  const id = typeof rawId === 'number' ? String(rawId) : rawId;
  if (typeof id !== 'string' || id === '') throw failed('user-info reply has no user id');
  const user: ProviderUser = { id };
  if (typeof data.email === 'string' && data.email !== '') {
    user.email = data.email;
    const verified = data.verified ?? data.email_verified;
    if (typeof verified === 'boolean') user.emailVerified = verified;
  }
  return user;
}
