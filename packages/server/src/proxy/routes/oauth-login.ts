/**
 * POST /v1/oauth_login: a session for the sub-organization holding the token's (iss, sub,
 * aud), or of `organizationId` when the client names it. The proxy checks the token's audience
 * against the enabled providers' client ids (its policy); list_suborgs verifies the token
 * before it answers, and oauth_login verifies it again with its nonce inside the activity.
 */
import type { OidcIdentity, ProxyRequestOf, ProxyResponseOf } from '@walletkit/protocol';
import { ApiError } from '../../errors.js';
import type { ProxyContext, ProxyRoute } from '../context.js';
import { configuredOidcIdentity, findSubOrganization, onSubOrganization } from '../tokens.js';

/**
 * Where the token's identity logs in: the sub-organization that linked it, else (social
 * linking) the one whose verified email is the token's verified email, when the token's client
 * id is listed in `socialLinkingClientIds`. The first lookup verified the token, so its email
 * claim is the provider's; the activity checks every condition again.
 */
async function subOrganizationOf(ctx: ProxyContext, token: string, identity: OidcIdentity): Promise<string | undefined> {
  const linked = await findSubOrganization(ctx, { filterType: 'OIDC_TOKEN', filterValue: token });
  if (linked !== undefined) return linked;
  const linkable = identity.email !== undefined && identity.emailVerified === true && ctx.settings.socialLinkingClientIds.includes(identity.aud);
  return linkable ? findSubOrganization(ctx, { filterType: 'EMAIL', filterValue: identity.email!, oidcToken: token }) : undefined;
}

export const oauthLogin: ProxyRoute<ProxyRequestOf<'oauth_login'>, ProxyResponseOf<'oauth_login'>> = async (body, ctx) => {
  const identity = configuredOidcIdentity(ctx, body.oidcToken);
  const subOrganizationId = body.organizationId ?? (await subOrganizationOf(ctx, body.oidcToken, identity));
  if (subOrganizationId === undefined) throw new ApiError('ERR_USER_NOT_FOUND', 'no account has this OAuth identity; sign up first', 'oidcToken');
  const { result } = await onSubOrganization(() =>
    ctx.api.submit('oauth_login', subOrganizationId, {
      oidcToken: body.oidcToken,
      publicKey: body.publicKey,
      expirationSeconds: String(ctx.settings.sessionExpirationSeconds),
      ...(body.invalidateExisting !== undefined ? { invalidateExisting: body.invalidateExisting } : {}),
    }),
  );
  return { session: result.session };
};
