/**
 * OIDC id-token verification (DESIGN section 3, "OAuth"). Two kinds of issuer are trusted:
 * - this server, for the tokens it issues after an OAuth 2.0 exchange (oauth/issued-token.ts),
 *   checked against the enclave signing key;
 * - the third-party providers of `config.oidcProviders` (Google, Apple), checked against their
 *   published JWKS, fetched with the injected `fetch` and cached per (fetch, JWKS URL).
 * Every failure is ERR_OIDC_TOKEN_INVALID: callers learn the token is unusable, not why in
 * a way that would help forging one (the message names the failed check for debugging).
 */
import { createLocalJWKSet, createRemoteJWKSet, customFetch, decodeJwt, errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { canonicalIssuer, oidcIdentityFrom, type OidcIdentity } from '@walletkit/protocol';
import type { ServerConfig } from '../config.js';
import type { Enclave } from '../enclave/index.js';
import { ApiError } from '../errors.js';
import { issuerOf } from './issued-token.js';

/** What a verified OIDC token proves. `iss` is the configured issuer spelling (aliases of the provider table map to it: `canonicalIssuer`). */
export type VerifiedOidcToken = OidcIdentity;

/** Dependencies and expectations of one verification. */
export interface VerifyOidcOptions {
  config: ServerConfig;
  enclave: Enclave;
  fetch: typeof fetch;
  now: () => Date;
  /** When given, the token's `aud` must be one of these (the proxy's configured client ids). */
  audiences?: string[];
  /** When given, the token's `nonce` must equal it exactly. */
  nonce?: string;
  /** Request field named in the error (defaults to `oidcToken`). */
  field?: string;
}

/** Tolerated clock difference with the issuer for exp/iat/nbf. */
export const OIDC_CLOCK_SKEW_SECONDS = 60;

/**
 * Google and Apple sign id tokens with RS256 only; pinning it refuses `none`, HMAC (which would
 * let anyone holding the public JWKS forge) and anything else before the JWKS is even fetched.
 */
const PROVIDER_ALGORITHMS = ['RS256'];
/** The enclave signs ES256. */
const OWN_ALGORITHMS = ['ES256'];

/** Remote key sets, cached per fetch implementation (tests inject their own) and JWKS URL. */
const remoteKeySets = new WeakMap<typeof fetch, Map<string, JWTVerifyGetKey>>();

function keySetFor(fetchFn: typeof fetch, jwksUri: string): JWTVerifyGetKey {
  let byUri = remoteKeySets.get(fetchFn);
  if (!byUri) {
    byUri = new Map();
    remoteKeySets.set(fetchFn, byUri);
  }
  let keySet = byUri.get(jwksUri);
  if (!keySet) {
    // jose caches the keys (cacheMaxAge) and refetches on an unknown kid after the cooldown,
    // so a provider's key rotation is picked up without a restart.
    keySet = createRemoteJWKSet(new URL(jwksUri), {
      [customFetch]: (url, init) => fetchFn(url, init),
      timeoutDuration: 10_000,
      cooldownDuration: 30_000,
      cacheMaxAge: 10 * 60_000,
    });
    byUri.set(jwksUri, keySet);
  }
  return keySet;
}

function invalid(field: string, message: string, cause?: unknown): ApiError {
  return new ApiError('ERR_OIDC_TOKEN_INVALID', message, field, cause === undefined ? undefined : { cause });
}

/** Why jose refused, in words safe to return (never the token or key material). */
function reasonOf(cause: unknown): string {
  if (cause instanceof joseErrors.JWTExpired) return 'the OIDC token has expired';
  if (cause instanceof joseErrors.JWTClaimValidationFailed) return `the OIDC token's ${cause.claim} claim is not acceptable`;
  if (cause instanceof joseErrors.JWSSignatureVerificationFailed) return 'the OIDC token signature does not verify';
  if (cause instanceof joseErrors.JWKSNoMatchingKey) return "the OIDC token is not signed by one of its issuer's keys";
  if (cause instanceof joseErrors.JWKSTimeout || cause instanceof joseErrors.JWKSInvalid) return "the issuer's keys could not be fetched";
  if (cause instanceof joseErrors.JOSEAlgNotAllowed) return 'the OIDC token uses a disallowed algorithm';
  return 'the OIDC token does not verify';
}

/** Verify signature, iss and time claims with jose; returns the payload. */
async function verifyWith(
  token: string,
  key: JWTVerifyGetKey,
  check: { issuers: string[]; algorithms: string[]; skewSeconds: number },
  opts: VerifyOidcOptions,
  field: string,
): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(token, key, {
      issuer: check.issuers,
      algorithms: check.algorithms,
      currentDate: opts.now(),
      clockTolerance: check.skewSeconds,
      requiredClaims: ['exp', 'sub', 'aud'],
    });
    // jose checks a future iat only with maxTokenAge; a token "issued" beyond the skew ahead
    // of our clock is not one a provider issued for this login (OIDC Core 3.1.3.7, item 10).
    if (typeof payload.iat === 'number' && payload.iat > opts.now().getTime() / 1000 + OIDC_CLOCK_SKEW_SECONDS) {
      throw invalid(field, "the OIDC token's iat claim is in the future");
    }
    return payload;
  } catch (cause) {
    if (cause instanceof ApiError) throw cause;
    throw invalid(field, reasonOf(cause), cause);
  }
}

/**
 * Verify an OIDC id token from this server or a configured provider and return its identity.
 * Checks: a known `iss`, the signature against that issuer's keys, `exp` (and `nbf`/`iat`)
 * with OIDC_CLOCK_SKEW_SECONDS of skew for third parties, `aud` within `audiences` when given, `nonce` when given.
 * @example const id = await verifyOidcToken(params.oidcToken, { ...ctx, nonce: sha256Hex(publicKey) }); // { iss, sub, aud, ... }
 * @throws ApiError ERR_OIDC_TOKEN_INVALID
 */
export async function verifyOidcToken(token: string, opts: VerifyOidcOptions): Promise<VerifiedOidcToken> {
  const field = opts.field ?? 'oidcToken';
  let unverified: JWTPayload;
  try {
    unverified = decodeJwt(token);
  } catch (cause) {
    throw invalid(field, 'the OIDC token is not a JWT', cause);
  }
  // The unverified iss only picks which keys to check against; jwtVerify re-checks it.
  const claimedIss = typeof unverified.iss === 'string' ? unverified.iss : '';
  const ownIssuer = issuerOf(opts.config);
  // The OIDC claims read beyond the registered ones (OIDC Core section 2 and 5.1); any may be missing or mistyped.
  let payload: JWTPayload;
  let iss: string;
  if (claimedIss === ownIssuer) {
    // The enclave key also signs sessions and verification tokens; only id tokens carry our iss.
    // Our own clock issued it: no skew to tolerate.
    const keys = createLocalJWKSet({ keys: [opts.enclave.signingJwk()] });
    payload = await verifyWith(token, keys, { issuers: [ownIssuer], algorithms: OWN_ALGORITHMS, skewSeconds: 0 }, opts, field);
    iss = ownIssuer;
  } else {
    const configured = canonicalIssuer(claimedIss);
    const provider = opts.config.oidcProviders.find((p) => p.issuer === configured);
    if (!provider) throw invalid(field, 'the OIDC token has an unknown issuer');
    const accepted = claimedIss === configured ? [configured] : [configured, claimedIss];
    const keys = keySetFor(opts.fetch, provider.jwksUri);
    payload = await verifyWith(token, keys, { issuers: accepted, algorithms: PROVIDER_ALGORITHMS, skewSeconds: OIDC_CLOCK_SKEW_SECONDS }, opts, field);
    iss = provider.issuer;
  }

  // The claims are read by the one parser of id-token claims (@walletkit/protocol tokens.ts): one
  // audience (OIDC Core 3.1.3.7 item 3: a token also issued to other clients is refused, so the
  // proxy's check and the linked identity see the same client), sub and aud present, Apple's
  // string email_verified understood.
  const parsed = oidcIdentityFrom(payload);
  if ('error' in parsed) throw invalid(field, parsed.error);
  const identity: VerifiedOidcToken = { ...parsed.identity, iss };
  if (opts.audiences !== undefined && !opts.audiences.includes(identity.aud)) throw invalid(field, 'the OIDC token was issued for another client (aud)');
  if (opts.nonce !== undefined && identity.nonce !== opts.nonce) throw invalid(field, 'the OIDC token nonce does not match');
  return identity;
}
