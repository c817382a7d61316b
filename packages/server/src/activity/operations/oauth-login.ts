/**
 * oauth_login (spec A, POST /v1/oauth_login): a session for the user of the target
 * sub-organization who linked the OIDC identity (iss, sub, aud) the token proves. The token's
 * nonce must be the hash of the session key (DESIGN section 2, "OAuth nonce"), so a token
 * captured in transit cannot open a session for another key.
 */
import { and, eq, sql } from 'drizzle-orm';
import { sha256Hex } from '@walletkit/crypto';
import { ApiError } from '../../errors.js';
import { verifyOidcToken, type VerifiedOidcToken } from '../../oauth/oidc.js';
import { organizations, oauthProviders, proxyConfigs, users } from '../../store/schema.js';
import type { HandlerTable, OperationContext } from '../context.js';
import { openSession } from './sessions.js';
import { insertOauthProviders, normalizeApiPublicKey } from './users-credentials.js';

/**
 * The nonces that bind a token to `publicKey`: the hash of the key as sent and of its
 * normalized (lowercase compressed) form, so a client hashing either spelling is accepted.
 * @example oauthNonces('02AB...') // [sha256Hex('02AB...'), sha256Hex('02ab...')]
 */
export function oauthNonces(publicKey: string): string[] {
  const normalized = normalizeApiPublicKey('API_KEY_CURVE_P256', publicKey, 'publicKey');
  return [...new Set([sha256Hex(publicKey), sha256Hex(normalized)])];
}

/** The name a linked provider gets: the social login whose client ids hold the token's audience. */
function providerNameOf(social: Record<string, { clientIds: string[] }> | undefined, aud: string): string {
  return Object.entries(social ?? {}).find(([, s]) => s.clientIds.includes(aud))?.[0] ?? 'oidc';
}

/**
 * Social linking (spec A, "Social linking"): the organization's parent lists the token's
 * audience in `socialLinkingClientIds`, the provider says the email is verified
 * (`email_verified`), and a user of this organization has that email verified too. Then the
 * identity is linked to that user, once. An unverified email on either side links nothing:
 * otherwise whoever typed your address first, or a provider that does not check addresses,
 * would own your login (SECURITY.md, "Identities").
 * @returns the linked user's id, or undefined when linking does not apply
 */
async function linkByVerifiedEmail(ctx: OperationContext, identity: VerifiedOidcToken): Promise<string | undefined> {
  if (identity.email === undefined || identity.emailVerified !== true) return undefined;
  const [config] = await ctx.tx
    .select({ settings: proxyConfigs.settings })
    .from(organizations)
    .innerJoin(proxyConfigs, eq(proxyConfigs.organizationId, organizations.parentOrganizationId))
    .where(eq(organizations.id, ctx.organizationId));
  if (!config?.settings.socialLinkingClientIds?.includes(identity.aud)) return undefined;
  const [user] = await ctx.tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(eq(users.organizationId, ctx.organizationId), eq(users.emailVerified, true), sql`lower(${users.userEmail}) = ${identity.email.trim().toLowerCase()}`),
    );
  if (!user) return undefined;
  const owner = { organizationId: ctx.organizationId, userId: user.id };
  const providerName = providerNameOf(config.settings.social, identity.aud);
  await insertOauthProviders(ctx, owner, [{ providerName, oidcClaims: { iss: identity.iss, sub: identity.sub, aud: identity.aud } }], () => 'oidcToken');
  return user.id;
}

export const oauthLoginHandlers = {
  /**
   * Verify the token (any audience: the proxy checks it against its client ids before
   * forwarding; here the linked provider row pins it), check its nonce, find the linked
   * provider in ctx.organizationId (or link it by verified email, see linkByVerifiedEmail)
   * and open a session for its user.
   * @throws ApiError ERR_OIDC_TOKEN_INVALID | ERR_INVALID_PUBLIC_KEY | ERR_OAUTH_PROVIDER_NOT_FOUND
   */
  oauth_login: async (params, ctx) => {
    const nonces = oauthNonces(params.publicKey);
    const identity = await verifyOidcToken(params.oidcToken, ctx);
    if (identity.nonce === undefined || !nonces.includes(identity.nonce)) {
      throw new ApiError('ERR_OIDC_TOKEN_INVALID', 'the OIDC token nonce is not the SHA-256 of publicKey', 'oidcToken');
    }
    const [provider] = await ctx.tx
      .select({ userId: oauthProviders.userId })
      .from(oauthProviders)
      .where(
        and(
          eq(oauthProviders.organizationId, ctx.organizationId),
          eq(oauthProviders.issuer, identity.iss),
          eq(oauthProviders.subject, identity.sub),
          eq(oauthProviders.audience, identity.aud),
        ),
      );
    const userId = provider?.userId ?? (await linkByVerifiedEmail(ctx, identity));
    if (userId === undefined) {
      // The token is genuine (verified above), so saying it is not linked here leaks nothing
      // its holder does not already know; the proxy maps this to "sign up first".
      throw new ApiError('ERR_OAUTH_PROVIDER_NOT_FOUND', 'no user of this organization has linked this OIDC identity', 'oidcToken');
    }
    const session = await openSession(
      ctx,
      { organizationId: ctx.organizationId, userId },
      {
        publicKey: params.publicKey,
        ...(params.expirationSeconds !== undefined ? { expirationSeconds: params.expirationSeconds } : {}),
        ...(params.invalidateExisting !== undefined ? { invalidateExisting: params.invalidateExisting } : {}),
      },
    );
    return { session };
  },
} satisfies HandlerTable;
