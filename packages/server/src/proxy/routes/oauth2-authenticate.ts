/**
 * POST /v1/oauth2_authenticate: X and Discord. The provider must be enabled and `clientId`
 * the configured one; the code exchange runs in the oauth2_authenticate activity with the
 * configuration's stored OAuth 2.0 credential, and its issued OIDC token is returned.
 */
import type { ProxyRequestOf, ProxyResponseOf } from '@walletkit/protocol';
import { ApiError } from '../../errors.js';
import type { ProxyRoute } from '../context.js';

export const oauth2Authenticate: ProxyRoute<ProxyRequestOf<'oauth2_authenticate'>, ProxyResponseOf<'oauth2_authenticate'>> = async (body, ctx) => {
  const social = body.provider === 'OAUTH2_PROVIDER_X' ? ctx.settings.social.x : ctx.settings.social.discord;
  if (!social.enabled) throw new ApiError('ERR_AUTH_METHOD_DISABLED', `${body.provider} login is disabled`, 'provider');
  if (!social.clientIds.includes(body.clientId))
    throw new ApiError('ERR_INVALID_PARAMETER', 'clientId is not the configured client of this provider', 'clientId');
  if (!social.oauth2CredentialId) throw new ApiError('ERR_AUTH_METHOD_DISABLED', `${body.provider} has no OAuth 2.0 credential configured`, 'provider');
  const result = await ctx.forward('oauth2_authenticate', ctx.config.organizationId, {
    oauth2CredentialId: social.oauth2CredentialId,
    authCode: body.authCode,
    redirectUri: body.redirectUri,
    codeVerifier: body.codeVerifier,
    nonce: body.nonce,
  });
  return { oidcToken: result.oidcToken };
};
