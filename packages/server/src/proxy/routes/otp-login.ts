/**
 * POST /v1/otp_login_v2: a session for the sub-organization of the verified contact. The
 * token's signature, expiry and organization are checked here before it routes anything:
 * the "no account" answer (404) must come only from a token this server issued, or anyone
 * could ask it about any contact with a forged one (an account-existence oracle around the
 * token-guarded account lookup). otp_login verifies it again, its single use and the client
 * signature inside the activity.
 */
import { decodeJwt } from '@walletkit/crypto';
import type { ProxyRequestOf, ProxyResponseOf } from '@walletkit/protocol';
import { ApiError } from '../../errors';
import { findSubOrganization } from '../accounts';
import type { ProxyContext, ProxyRoute } from '../context';
import { requireOtpMethod } from './methods';

/** The contact a verification token names, without verifying it. @throws ApiError ERR_VERIFICATION_TOKEN_INVALID */
export function tokenContact(token: string, field = 'verificationToken'): { type: 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS'; contact: string; organizationId: string } {
  let claims: Record<string, unknown>;
  try {
    claims = decodeJwt<Record<string, unknown>>(token);
  } catch (cause) {
    throw new ApiError('ERR_VERIFICATION_TOKEN_INVALID', 'the verification token cannot be decoded', field, { cause });
  }
  const type = claims.verification_type;
  if ((type !== 'OTP_TYPE_EMAIL' && type !== 'OTP_TYPE_SMS') || typeof claims.contact !== 'string' || typeof claims.organization_id !== 'string') {
    throw new ApiError('ERR_VERIFICATION_TOKEN_INVALID', 'the token is not a verification token', field);
  }
  return { type, contact: claims.contact, organizationId: claims.organization_id };
}

/**
 * The contact of a verification token this server issued (signature and expiry checked).
 * @throws ApiError ERR_VERIFICATION_TOKEN_INVALID
 */
function verifiedTokenContact(ctx: ProxyContext, token: string, field = 'verificationToken'): ReturnType<typeof tokenContact> {
  let exp: unknown;
  try {
    ({ exp } = ctx.services.enclave.verifyJwt<{ exp?: unknown }>(token, () => ctx.services.now().getTime()));
  } catch (cause) {
    throw new ApiError('ERR_VERIFICATION_TOKEN_INVALID', 'the verification token does not verify or has expired', field, { cause });
  }
  // verifyJwt checks exp only when present; a verification token always has one.
  if (typeof exp !== 'number') throw new ApiError('ERR_VERIFICATION_TOKEN_INVALID', 'the token is not a verification token', field);
  return tokenContact(token, field);
}

export const otpLogin: ProxyRoute<ProxyRequestOf<'otp_login_v2'>, ProxyResponseOf<'otp_login_v2'>> = async (body, ctx) => {
  const token = verifiedTokenContact(ctx, body.verificationToken);
  requireOtpMethod(ctx.settings, token.type);
  const subOrganizationId = await findSubOrganization(ctx.store.db, ctx.config.organizationId, token.type === 'OTP_TYPE_EMAIL' ? 'EMAIL' : 'PHONE_NUMBER', token.contact);
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
