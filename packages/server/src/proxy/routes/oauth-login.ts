/**
 * POST /v1/oauth_login: a session for the sub-organization holding the token's (iss, sub,
 * aud). The proxy checks the token against the enabled providers' client ids (its policy);
 * oauth_login verifies it again, and its nonce, inside the activity.
 */
import type { ProxyRequestOf, ProxyResponseOf } from '@walletkit/protocol';
import { ApiError } from '../../errors.js';
import { verifyOidcToken, type VerifiedOidcToken } from '../../oauth/oidc.js';
import { findSubOrganization, oidcIdentityValue } from '../accounts.js';
import type { ProxyContext, ProxyRoute } from '../context.js';
import { enabledOidcAudiences } from './methods.js';

/** Verify an OIDC token for this configuration: signature, expiry and `aud` among the enabled client ids. */
export async function verifyConfiguredOidcToken(ctx: ProxyContext, token: string, field = 'oidcToken') {
  const audiences = enabledOidcAudiences(ctx.settings);
  if (audiences.length === 0) throw new ApiError('ERR_AUTH_METHOD_DISABLED', 'no social login is enabled', field);
  const { config, enclave, fetch, now } = ctx.services;
  return verifyOidcToken(token, { config, enclave, fetch, now, audiences, field });
}

/**
 * Where the token's identity logs in: the sub-organization that linked it, else (social
 * linking) the one whose verified email is the token's verified email, when the token's client
 * id is listed in `socialLinkingClientIds`. The activity checks every condition again.
 */
async function subOrganizationOf(ctx: ProxyContext, identity: VerifiedOidcToken): Promise<string | undefined> {
  const parent = ctx.config.organizationId;
  const linked = await findSubOrganization(ctx.store.db, parent, 'OIDC', oidcIdentityValue(identity));
  if (linked !== undefined) return linked;
  const linkable = identity.email !== undefined && identity.emailVerified === true && ctx.settings.socialLinkingClientIds.includes(identity.aud);
  return linkable ? findSubOrganization(ctx.store.db, parent, 'EMAIL', identity.email!) : undefined;
}

export const oauthLogin: ProxyRoute<ProxyRequestOf<'oauth_login'>, ProxyResponseOf<'oauth_login'>> = async (body, ctx) => {
  const identity = await verifyConfiguredOidcToken(ctx, body.oidcToken);
  const subOrganizationId = await subOrganizationOf(ctx, identity);
  if (subOrganizationId === undefined) throw new ApiError('ERR_USER_NOT_FOUND', 'no account has this OAuth identity; sign up first', 'oidcToken');
  const result = await ctx.forward('oauth_login', subOrganizationId, {
    oidcToken: body.oidcToken,
    publicKey: body.publicKey,
    expirationSeconds: String(ctx.settings.sessionExpirationSeconds),
    ...(body.invalidateExisting !== undefined ? { invalidateExisting: body.invalidateExisting } : {}),
  });
  return { session: result.session };
};
