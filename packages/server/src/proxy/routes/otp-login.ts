/**
 * POST /v1/otp_login_v2: a session for the sub-organization of the verified contact. The
 * token is only decoded here, to find that sub-organization; otp_login verifies it, its
 * single use and the client signature inside the activity.
 */
import { decodeJwt } from '@walletkit/crypto';
import type { ProxyRequestOf, ProxyResponseOf } from '@walletkit/protocol';
import { ApiError } from '../../errors';
import { findSubOrganization } from '../accounts';
import type { ProxyRoute } from '../context';
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

export const otpLogin: ProxyRoute<ProxyRequestOf<'otp_login_v2'>, ProxyResponseOf<'otp_login_v2'>> = async (body, ctx) => {
  const token = tokenContact(body.verificationToken);
  requireOtpMethod(ctx.settings, token.type);
  const subOrganizationId = await findSubOrganization(ctx.store.db, ctx.config.organizationId, token.type === 'OTP_TYPE_EMAIL' ? 'EMAIL' : 'PHONE_NUMBER', token.contact);
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
