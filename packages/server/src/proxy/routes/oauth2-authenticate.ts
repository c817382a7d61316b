/**
 * POST /v1/oauth2_authenticate: the OAuth 2.0 providers of the provider table (X, Discord). The
 * provider must be enabled and `clientId` the configured one; the code exchange runs in the
 * oauth2_authenticate activity with the configuration's OAuth 2.0 credential (its client secret
 * is opened only inside the enclave), and its issued OIDC token is returned.
 */
import { oauth2ProviderOf, type ProxyRequestOf, type ProxyResponseOf } from '@walletkit/protocol';
import { ApiError } from '../../errors.js';
import type { ProxyRoute } from '../context.js';

export const oauth2Authenticate: ProxyRoute<ProxyRequestOf<'oauth2_authenticate'>, ProxyResponseOf<'oauth2_authenticate'>> = async (body, ctx) => {
  const provider = oauth2ProviderOf(body.provider);
  const social = provider === undefined ? undefined : ctx.settings.social[provider.id];
  if (!social?.enabled) throw new ApiError('ERR_AUTH_METHOD_DISABLED', `${body.provider} login is disabled`, 'provider');
  if (!social.clientIds.includes(body.clientId))
    throw new ApiError('ERR_INVALID_PARAMETER', 'clientId is not the configured client of this provider', 'clientId');
  if (!social.oauth2CredentialId) throw new ApiError('ERR_AUTH_METHOD_DISABLED', `${body.provider} has no OAuth 2.0 credential configured`, 'provider');
  const { result } = await ctx.api.submit('oauth2_authenticate', ctx.config.organizationId, {
    oauth2CredentialId: social.oauth2CredentialId,
    authCode: body.authCode,
    redirectUri: body.redirectUri,
    codeVerifier: body.codeVerifier,
    nonce: body.nonce,
  });
  return { oidcToken: result.oidcToken };
};
