/**
 * The claims of the tokens that cross the wire, read in one place: verification tokens (ES256
 * JWTs by the enclave key, issued by otp_verify_v2) and OIDC id tokens (Google, Apple, or this
 * server's own for X and Discord). Parsing only: whoever relies on a token verifies its
 * signature first (the server's enclave and oauth/oidc.ts), then reads the claims through these
 * functions; the proxy and the clients read them through the same functions to route and bind.
 * Schema-free (exported by `@walletkit/protocol/wire` too).
 */
import { OTP_TYPES, type OtpType } from './enums.js';
import { canonicalIssuer } from './oauth-providers.js';

/** Claims of a verification token. */
export interface VerificationTokenClaims {
  /** Token id: single use is recorded under it. */
  id: string;
  verification_type: OtpType;
  /** The contact the code went to, as given at otp_init_v2. */
  contact: string;
  /** The organization that issued the code (the proxy's, or a sub-organization). */
  organization_id: string;
  /** Compressed P-256 hex of the key bound at verify, when one was. */
  public_key?: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The payload of a JWT, decoded but NOT verified (routing, display, binding checks before a
 * verifying call); undefined when it is not a JWT with a JSON object payload.
 * @example decodeJwtPayload(token)?.['exp'] // 1767225600
 */
export function decodeJwtPayload(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return undefined;
  try {
    const b64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    const payload: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
    return isObject(payload) ? payload : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The verification-token claims of a payload, or undefined when it lacks one of them. Sessions
 * and id tokens are signed by the same enclave key: the shape tells them apart, and a token
 * without `exp` would never expire, so it is not one.
 * @example verificationClaimsFrom(await verify(token)) // { id, verification_type: 'OTP_TYPE_EMAIL', contact, organization_id, exp }
 */
export function verificationClaimsFrom(payload: unknown): VerificationTokenClaims | undefined {
  if (!isObject(payload)) return undefined;
  const { id, verification_type: type, contact, organization_id: org, exp, public_key: publicKey } = payload;
  if (typeof id !== 'string' || typeof contact !== 'string' || typeof org !== 'string' || typeof exp !== 'number') return undefined;
  if (typeof type !== 'string' || !(OTP_TYPES as readonly string[]).includes(type)) return undefined;
  if (publicKey !== undefined && typeof publicKey !== 'string') return undefined;
  return { id, verification_type: type as OtpType, contact, organization_id: org, exp, ...(publicKey !== undefined ? { public_key: publicKey } : {}) };
}

/** What an OIDC id token says about its user. `iss` is the recorded spelling (see canonicalIssuer). */
export interface OidcIdentity {
  iss: string;
  sub: string;
  aud: string;
  email?: string;
  emailVerified?: boolean;
  nonce?: string;
}

/**
 * The identity of an id-token payload, or the reason it is not one: exactly one audience (OIDC
 * Core 3.1.3.7 item 3: a token also issued to other clients is refused, whatever their order),
 * non-empty `iss`, `sub` and `aud`; `email_verified` as a boolean or Apple's "true"/"false".
 * @example oidcIdentityFrom({ iss: 'accounts.google.com', sub: '1', aud: 'client' }) // { identity: { iss: 'https://accounts.google.com', sub: '1', aud: 'client' } }
 */
export function oidcIdentityFrom(payload: unknown): { identity: OidcIdentity } | { error: string } {
  if (!isObject(payload)) return { error: 'the OIDC token has no claims' };
  const auds = typeof payload.aud === 'string' ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud : [];
  if (auds.length !== 1) return { error: 'the OIDC token must have a single aud' };
  const [aud] = auds as unknown[];
  const { iss, sub } = payload;
  if (typeof iss !== 'string' || iss === '' || typeof sub !== 'string' || sub === '' || typeof aud !== 'string' || aud === '') {
    return { error: 'the OIDC token lacks iss, sub or aud' };
  }
  const identity: OidcIdentity = { iss: canonicalIssuer(iss), sub, aud };
  if (typeof payload.email === 'string' && payload.email !== '') {
    identity.email = payload.email;
    const verified = payload.email_verified;
    if (typeof verified === 'boolean') identity.emailVerified = verified;
    else if (verified === 'true' || verified === 'false') identity.emailVerified = verified === 'true';
  }
  if (typeof payload.nonce === 'string') identity.nonce = payload.nonce;
  return { identity };
}
