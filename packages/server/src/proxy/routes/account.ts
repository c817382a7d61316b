/**
 * POST /v1/account: which sub-organization holds a contact or credential, so the client can
 * choose signup or login. Same reply shape either way (`organizationId` null when none).
 * With requireVerificationTokenForAccountLookup, EMAIL and PHONE_NUMBER lookups need a valid,
 * unused verification token of this organization for that very contact, and other filter types
 * need one too (any contact): the lookup then reveals nothing to someone who proved nothing.
 * With the wallet method disabled, PUBLIC_KEY lookups of a secp256k1 key (an external
 * wallet's) are refused (ERR_AUTH_METHOD_DISABLED), as its signup would be.
 */
import { eq } from 'drizzle-orm';
import type { ProxyRequestOf, ProxyResponseOf } from '@walletkit/protocol';
import { verificationClaimsOf } from '../../activity/operations/users-verification.js';
import { ApiError } from '../../errors.js';
import { usedVerificationTokens } from '../../store/schema.js';
import { findSubOrganization, isSecp256k1LookupKey, normalizeIdentity, oidcIdentityValue, type IdentityKind } from '../accounts.js';
import type { ProxyContext, ProxyRoute } from '../context.js';
import { requireWalletMethod } from './methods.js';
import { verifyConfiguredOidcToken } from './oauth-login.js';

type Body = ProxyRequestOf<'account'>;

/**
 * Verify (not consume) the token: signature, expiry, organization, contact when given, and
 * that no login or signup has used it yet. The client looks up before it uses the token; a
 * used one proves nothing any more (single use), so it must not keep answering lookups.
 */
async function checkLookupToken(ctx: ProxyContext, body: Body): Promise<void> {
  const field = 'verificationToken';
  if (body.verificationToken === undefined) throw new ApiError('ERR_VERIFICATION_TOKEN_REQUIRED', undefined, field);
  const claims = verificationClaimsOf(ctx.services.enclave, body.verificationToken, () => ctx.services.now().getTime(), field);
  if (claims.organization_id !== ctx.config.organizationId) {
    throw new ApiError('ERR_VERIFICATION_TOKEN_INVALID', 'the token is not a verification token of this organization', field);
  }
  const [used] = await ctx.store.db
    .select({ id: usedVerificationTokens.tokenId })
    .from(usedVerificationTokens)
    .where(eq(usedVerificationTokens.tokenId, claims.id));
  if (used) throw new ApiError('ERR_VERIFICATION_TOKEN_INVALID', 'the verification token has already been used', field);
  const wanted = body.filterType === 'EMAIL' ? 'OTP_TYPE_EMAIL' : body.filterType === 'PHONE_NUMBER' ? 'OTP_TYPE_SMS' : undefined;
  if (wanted === undefined) return;
  const kind = body.filterType as IdentityKind;
  if (claims.verification_type !== wanted || normalizeIdentity(kind, claims.contact) !== normalizeIdentity(kind, body.filterValue)) {
    throw new ApiError('ERR_VERIFICATION_TOKEN_INVALID', 'the verification token was issued for another contact', field);
  }
}

export const account: ProxyRoute<Body, ProxyResponseOf<'account'>> = async (body, ctx) => {
  if (ctx.settings.requireVerificationTokenForAccountLookup) await checkLookupToken(ctx, body);
  const parent = ctx.config.organizationId;
  if (body.filterType === 'PUBLIC_KEY' && !ctx.settings.methods.wallet && (await isSecp256k1LookupKey(ctx.store.db, parent, body.filterValue))) {
    requireWalletMethod(ctx.settings, 'filterValue');
  }
  let organizationId: string | undefined;
  if (body.filterType === 'OIDC_TOKEN') {
    const identity = await verifyConfiguredOidcToken(ctx, body.filterValue, 'filterValue');
    organizationId = await findSubOrganization(ctx.store.db, parent, 'OIDC', oidcIdentityValue(identity));
  } else {
    organizationId = await findSubOrganization(ctx.store.db, parent, body.filterType, body.filterValue);
  }
  return { organizationId: organizationId ?? null };
};
