/**
 * OIDC tokens issued by this server (DESIGN section 3, "OAuth"): after an OAuth 2.0 code
 * exchange with X or Discord, the server vouches for the provider's user with an ES256 id
 * token signed by the enclave key (published at /.well-known/jwks.json). oauth_login and
 * create_oauth_providers accept these like any OIDC provider's tokens.
 */
import type { ServerConfig } from '../config.js';
import type { Enclave } from '../enclave/index.js';

/** Lifetime of an issued id token: long enough to finish a login, short enough to be useless later. */
export const ISSUED_TOKEN_TTL_SECONDS = 600;

/** The `iss` of tokens this server issues: its public URL, without a trailing slash. */
export function issuerOf(config: Pick<ServerConfig, 'publicUrl' | 'port'>): string {
  return (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
}

/** Claims of an issued id token. */
export interface IssuedTokenClaims {
  iss: string;
  sub: string;
  aud: string;
  nonce: string;
  iat: number;
  exp: number;
  email?: string;
  email_verified?: boolean;
}

/**
 * Sign an id token for a provider user.
 * @example issueOidcToken(ctx.enclave, ctx.config, { sub: 'https://discord.com|123', aud: clientId, nonce, now: ctx.now() })
 */
export function issueOidcToken(
  enclave: Enclave,
  config: Pick<ServerConfig, 'publicUrl' | 'port'>,
  input: { sub: string; aud: string; nonce: string; now: Date; email?: string; emailVerified?: boolean },
): string {
  const iat = Math.floor(input.now.getTime() / 1000);
  const claims: IssuedTokenClaims = { iss: issuerOf(config), sub: input.sub, aud: input.aud, nonce: input.nonce, iat, exp: iat + ISSUED_TOKEN_TTL_SECONDS };
  if (input.email !== undefined) {
    claims.email = input.email;
    if (input.emailVerified !== undefined) claims.email_verified = input.emailVerified;
  }
  return enclave.signJwt(claims as unknown as Record<string, unknown>);
}

// Verification of these tokens (and of Google/Apple ones) lives in oauth/oidc.ts.
