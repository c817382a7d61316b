/**
 * What the proxy reads of the tokens it is given, to route a request before the activity API
 * verifies them: the claims are decoded, not verified, through the one parser of
 * `@walletkit/protocol` (tokens.ts). Nothing here trusts a claim: every token the proxy routes
 * by is verified by the activity API (list_suborgs, otp_login, oauth_login,
 * create_sub_organization) before any reply depends on it.
 */
import {
  decodeJwtPayload,
  oidcIdentityFrom,
  verificationClaimsFrom,
  type OidcIdentity,
  type OtpType,
  type QueryRequestOf,
  type VerificationTokenClaims,
} from '@walletkit/protocol';
import { ApiError } from '../errors.js';
import type { ProxyContext } from './context.js';
import { enabledOidcAudiences } from './routes/methods.js';

/**
 * The claims of a verification token, unverified (the activity API verifies it).
 * @throws ApiError ERR_VERIFICATION_TOKEN_INVALID when it is not shaped like one
 */
export function verificationTokenClaims(token: string, field = 'verificationToken'): VerificationTokenClaims {
  const claims = verificationClaimsFrom(decodeJwtPayload(token));
  if (!claims) throw new ApiError('ERR_VERIFICATION_TOKEN_INVALID', 'the token is not a verification token', field);
  return claims;
}

/**
 * The identity an OIDC token claims, unverified, once its audience is one of the enabled
 * providers' client ids (the proxy's policy; the activity API verifies the token).
 * @throws ApiError ERR_AUTH_METHOD_DISABLED (no social login enabled) | ERR_OIDC_TOKEN_INVALID
 */
export function configuredOidcIdentity(ctx: ProxyContext, token: string, field = 'oidcToken'): OidcIdentity {
  const audiences = enabledOidcAudiences(ctx.settings);
  if (audiences.length === 0) throw new ApiError('ERR_AUTH_METHOD_DISABLED', 'no social login is enabled', field);
  const payload = decodeJwtPayload(token);
  if (!payload) throw new ApiError('ERR_OIDC_TOKEN_INVALID', 'the OIDC token is not a JWT', field);
  const parsed = oidcIdentityFrom(payload);
  if ('error' in parsed) throw new ApiError('ERR_OIDC_TOKEN_INVALID', parsed.error, field);
  if (!audiences.includes(parsed.identity.aud)) throw new ApiError('ERR_OIDC_TOKEN_INVALID', 'the OIDC token was issued for another client (aud)', field);
  return parsed.identity;
}

/** The account filter of a verified contact. */
export function contactFilter(type: OtpType): 'EMAIL' | 'PHONE_NUMBER' {
  return type === 'OTP_TYPE_EMAIL' ? 'EMAIL' : 'PHONE_NUMBER';
}

/**
 * The sub-organization of the configuration's organization that holds an identity, through the
 * activity API's list_suborgs (which verifies the proofs it is given); undefined when none.
 * @example await findSubOrganization(ctx, { filterType: 'EMAIL', filterValue: 'a@example.com', verificationToken })
 */
export async function findSubOrganization(
  ctx: ProxyContext,
  filter: Omit<QueryRequestOf<'list_suborgs'>, 'organizationId' | 'paginationOptions'>,
): Promise<string | undefined> {
  const { organizationIds } = await ctx.api.query('list_suborgs', { organizationId: ctx.config.organizationId, ...filter });
  return organizationIds[0];
}

/**
 * Submit an activity on a sub-organization the client named: one that is not the
 * configuration's own is unknown to the proxy key (ERR_STAMP_KEY_UNKNOWN from the activity
 * API), which the caller sees as ERR_ORGANIZATION_NOT_FOUND on `organizationId`.
 */
export async function onSubOrganization<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError && err.code === 'ERR_STAMP_KEY_UNKNOWN') {
      throw new ApiError('ERR_ORGANIZATION_NOT_FOUND', 'organizationId is not a sub-organization of this configuration', 'organizationId');
    }
    throw err;
  }
}
