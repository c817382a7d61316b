/**
 * OAuth 2.0 for providers without OIDC (spec B: create_oauth2_credential,
 * oauth2_authenticate): the integrator's client secret is stored encrypted to the enclave; a
 * login's authorization code is exchanged server-side (PKCE) and answered with an id token
 * issued by this server, which oauth_login and create_oauth_providers accept.
 */
import { and, eq } from 'drizzle-orm';
import { compressPublicKey } from '@walletkit/crypto';
import { ApiError } from '../../errors';
import { exchangeAuthorizationCode, fetchProviderUser } from '../../oauth/code-exchange';
import { issueOidcToken } from '../../oauth/issued-token';
import { newId } from '../../store/ids';
import { oauth2Credentials } from '../../store/schema';
import type { HandlerTable } from '../context';

export const oauth2Handlers = {
  /** Store a client credential; the secret must decrypt with the enclave's encryption key. */
  create_oauth2_credential: async (params, ctx) => {
    const sealed = await ctx.enclave.acceptCallerSecret(params.encryptedClientSecret, 'encryptedClientSecret');
    const id = newId();
    const now = ctx.now();
    await ctx.tx.insert(oauth2Credentials).values({
      id,
      organizationId: ctx.organizationId,
      provider: params.provider,
      clientId: params.clientId,
      clientSecretEncrypted: sealed,
      createdAt: now,
      updatedAt: now,
    });
    return { oauth2CredentialId: id };
  },

  /** Exchange the code with the provider, read its user, issue an id token for that user. */
  oauth2_authenticate: async (params, ctx) => {
    if (params.bearerTokenTargetPublicKey !== undefined) {
      // Validated so that a bad key is a 400, but the result schema has no field to carry
      // the encrypted provider token yet (see the report of this change).
      try {
        compressPublicKey('p256', params.bearerTokenTargetPublicKey);
      } catch (cause) {
        throw new ApiError('ERR_INVALID_PUBLIC_KEY', 'bearerTokenTargetPublicKey is not a P-256 public key', 'bearerTokenTargetPublicKey', { cause });
      }
    }
    const [credential] = await ctx.tx
      .select()
      .from(oauth2Credentials)
      .where(and(eq(oauth2Credentials.id, params.oauth2CredentialId), eq(oauth2Credentials.organizationId, ctx.organizationId)));
    if (!credential) {
      throw new ApiError('ERR_OAUTH2_CREDENTIAL_NOT_FOUND', `no OAuth 2.0 credential ${params.oauth2CredentialId} in this organization`, 'oauth2CredentialId');
    }
    const endpoints = ctx.config.oauth2Providers[credential.provider as keyof typeof ctx.config.oauth2Providers];
    if (!endpoints) throw new ApiError('ERR_INTERNAL', `no endpoints configured for ${credential.provider}`);
    // The secret exists in plaintext only for this request.
    const clientSecret = await ctx.enclave.revealSecret(credential.clientSecretEncrypted);
    const accessToken = await exchangeAuthorizationCode(ctx.fetch, endpoints, {
      clientId: credential.clientId,
      clientSecret,
      code: params.authCode,
      redirectUri: params.redirectUri,
      codeVerifier: params.codeVerifier,
    });
    const user = await fetchProviderUser(ctx.fetch, endpoints, accessToken);
    const oidcToken = issueOidcToken(ctx.enclave, ctx.config, {
      // Stable per provider account: every provider shares our issuer, so prefix theirs.
      sub: `${endpoints.issuer}|${user.id}`,
      aud: credential.clientId,
      nonce: params.nonce,
      now: ctx.now(),
      ...(user.email !== undefined ? { email: user.email } : {}),
      ...(user.emailVerified !== undefined ? { emailVerified: user.emailVerified } : {}),
    });
    return { oidcToken };
  },
} satisfies HandlerTable;
