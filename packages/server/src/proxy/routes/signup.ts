/**
 * POST /v1/signup_v2: one create_sub_organization activity on the configuration's
 * organization: a root user built from the fields (quorum of one), its credentials, the
 * optional wallet and user tag, atomically. The proxy applies its policy (enabled methods, the
 * audience of OIDC tokens) to the claims it reads; the activity verifies every token itself:
 * the verification token, and each OAuth provider's id token. An `oidcClaims` entry is sent on
 * as the accompanying `oidcToken` once its claims are the token's, so the activity verifies
 * that token rather than trusting the claims. Duplicates (contact, identity) are refused by the
 * activity (409).
 */
import { canonicalIssuer, type OidcIdentity, type ParamsOf, type ProxyRequestOf, type ProxyResponseOf } from '@walletkit/protocol';
import { ApiError } from '../../errors.js';
import type { ProxyContext, ProxyRoute } from '../context.js';
import { configuredOidcIdentity, verificationTokenClaims } from '../tokens.js';
import { requireOtpMethod, requireWalletMethod } from './methods.js';

type Body = ProxyRequestOf<'signup_v2'>;
type RootUser = ParamsOf<'create_sub_organization'>['rootUsers'][number];

function oauthProvidersOf(body: Body, ctx: ProxyContext): RootUser['oauthProviders'] {
  const out: RootUser['oauthProviders'] = [];
  let accompanying: OidcIdentity | undefined;
  for (const [i, provider] of (body.oauthProviders ?? []).entries()) {
    if ('oidcToken' in provider) {
      configuredOidcIdentity(ctx, provider.oidcToken, `oauthProviders.${i}.oidcToken`);
      out.push(provider);
      continue;
    }
    if (body.oidcToken === undefined)
      throw new ApiError('ERR_INVALID_REQUEST', 'oidcClaims must come with the oidcToken they are checked against', 'oidcToken');
    accompanying ??= configuredOidcIdentity(ctx, body.oidcToken, 'oidcToken');
    const { iss, sub, aud } = provider.oidcClaims;
    const claimed = canonicalIssuer(iss);
    if (claimed !== accompanying.iss || sub !== accompanying.sub || aud !== accompanying.aud) {
      throw new ApiError('ERR_OIDC_TOKEN_INVALID', 'oidcClaims do not match the oidcToken', `oauthProviders.${i}.oidcClaims`);
    }
    out.push({ providerName: provider.providerName, oidcToken: body.oidcToken });
  }
  return out;
}

export const signup: ProxyRoute<Body, ProxyResponseOf<'signup_v2'>> = async (body, ctx) => {
  if (
    body.userEmail === undefined &&
    body.userPhoneNumber === undefined &&
    !body.apiKeys?.length &&
    !body.authenticators?.length &&
    !body.oauthProviders?.length
  ) {
    throw new ApiError('ERR_INVALID_REQUEST', 'a signup needs a contact or a credential', 'userEmail');
  }
  if (body.verificationToken !== undefined) requireOtpMethod(ctx.settings, verificationTokenClaims(body.verificationToken).verification_type);
  if (body.authenticators?.length && !ctx.settings.methods.passkey) throw new ApiError('ERR_AUTH_METHOD_DISABLED', 'passkeys are disabled', 'authenticators');
  // A secp256k1 API key is an external wallet's key (Ethereum signatures): the wallet method.
  if (body.apiKeys?.some((k) => k.curveType === 'API_KEY_CURVE_SECP256K1')) requireWalletMethod(ctx.settings, 'apiKeys');
  if (body.oidcToken !== undefined && !body.oauthProviders?.some((p) => 'oidcClaims' in p)) {
    throw new ApiError('ERR_INVALID_REQUEST', 'oidcToken is only used to check oidcClaims', 'oidcToken');
  }
  const userName = body.userName ?? body.userEmail ?? body.userPhoneNumber ?? 'user';
  const rootUser: RootUser = {
    userName,
    ...(body.userEmail !== undefined ? { userEmail: body.userEmail } : {}),
    ...(body.userPhoneNumber !== undefined ? { userPhoneNumber: body.userPhoneNumber } : {}),
    apiKeys: body.apiKeys ?? [],
    authenticators: body.authenticators ?? [],
    oauthProviders: oauthProvidersOf(body, ctx),
  };
  // With a wallet, the activity's App Proofs go back to the client, which checks the addresses it gets.
  const { result, appProofs } = await ctx.api.submit(
    'create_sub_organization',
    ctx.config.organizationId,
    {
      subOrganizationName: body.organizationName ?? userName,
      rootUsers: [rootUser],
      rootQuorumThreshold: 1,
      ...(body.userTag !== undefined ? { rootUserTag: body.userTag } : {}),
      ...(body.wallet !== undefined ? { wallet: body.wallet } : {}),
      ...(body.verificationToken !== undefined ? { verificationToken: body.verificationToken } : {}),
      ...(body.clientSignature !== undefined ? { clientSignature: body.clientSignature } : {}),
    },
    { appProofs: body.wallet !== undefined },
  );
  const userId = result.rootUserIds[0];
  if (userId === undefined) throw new ApiError('ERR_UNAVAILABLE', 'create_sub_organization returned no root user');
  return { organizationId: result.subOrganizationId, userId, ...(result.wallet !== undefined ? { wallet: result.wallet, appProofs } : {}) };
};
