/**
 * POST /v1/otp_login_v2: a session for the sub-organization of the verified contact. The
 * token's signature, expiry and organization are checked here before it routes anything:
 * the "no account" answer (404) must come only from a token this server issued, or anyone
 * could ask it about any contact with a forged one (an account-existence oracle around the
 * token-guarded account lookup). otp_login verifies it again, its single use and the client
 * signature inside the activity.
 */
import type { OtpType, ProxyRequestOf, ProxyResponseOf } from '@walletkit/protocol';
import { verificationClaimsOf } from '../../activity/operations/users-verification.js';
import { ApiError } from '../../errors.js';
import { findSubOrganization } from '../accounts.js';
import type { ProxyContext, ProxyRoute } from '../context.js';
import { requireOtpMethod } from './methods.js';

/**
 * The contact of a verification token this server issued (signature, expiry and shape checked).
 * @throws ApiError ERR_VERIFICATION_TOKEN_INVALID
 */
export function tokenContact(ctx: ProxyContext, token: string, field = 'verificationToken'): { type: OtpType; contact: string; organizationId: string } {
  const claims = verificationClaimsOf(ctx.services.enclave, token, () => ctx.services.now().getTime(), field);
  return { type: claims.verification_type, contact: claims.contact, organizationId: claims.organization_id };
}

export const otpLogin: ProxyRoute<ProxyRequestOf<'otp_login_v2'>, ProxyResponseOf<'otp_login_v2'>> = async (body, ctx) => {
  const token = tokenContact(ctx, body.verificationToken);
  requireOtpMethod(ctx.settings, token.type);
  const subOrganizationId = await findSubOrganization(
    ctx.store.db,
    ctx.config.organizationId,
    token.type === 'OTP_TYPE_EMAIL' ? 'EMAIL' : 'PHONE_NUMBER',
    token.contact,
  );
  // Issued by this configuration's organization (otp_init_v2) or by the sub-organization itself.
  if (token.organizationId !== ctx.config.organizationId && token.organizationId !== subOrganizationId) {
    throw new ApiError('ERR_VERIFICATION_TOKEN_INVALID', 'the verification token was issued for another organization', 'verificationToken');
  }
  // No account yet: the client signs up instead (the token stays unused, so signup_v2 can take it).
  if (subOrganizationId === undefined) throw new ApiError('ERR_USER_NOT_FOUND', 'no account has this contact; sign up first', 'verificationToken');
  const result = await ctx.forward('otp_login', subOrganizationId, {
    verificationToken: body.verificationToken,
    publicKey: body.publicKey,
    clientSignature: body.clientSignature,
    expirationSeconds: String(ctx.settings.sessionExpirationSeconds),
    ...(body.invalidateExisting !== undefined ? { invalidateExisting: body.invalidateExisting } : {}),
  });
  return { session: result.session };
};
