/**
 * POST /v1/otp_login_v2: a session for the sub-organization of the verified contact, or of
 * `organizationId` when the client names it. The sub-organization is found by list_suborgs
 * with the token as proof: the activity API verifies the token (signature, expiry,
 * organization, contact, not used yet) before it answers, so the "no account" reply (404) comes
 * only for a token this server issued, never for a forged one (no account-existence oracle).
 * otp_login verifies it again, spends it and checks the client signature.
 */
import type { ProxyRequestOf, ProxyResponseOf } from '@walletkit/protocol';
import { ApiError } from '../../errors.js';
import type { ProxyRoute } from '../context.js';
import { contactFilter, findSubOrganization, onSubOrganization, verificationTokenClaims } from '../tokens.js';
import { requireOtpMethod } from './methods.js';

export const otpLogin: ProxyRoute<ProxyRequestOf<'otp_login_v2'>, ProxyResponseOf<'otp_login_v2'>> = async (body, ctx) => {
  const claims = verificationTokenClaims(body.verificationToken);
  requireOtpMethod(ctx.settings, claims.verification_type);
  const subOrganizationId =
    body.organizationId ??
    (await findSubOrganization(ctx, {
      filterType: contactFilter(claims.verification_type),
      filterValue: claims.contact,
      verificationToken: body.verificationToken,
    }));
  // No account yet: the client signs up instead (the token stays unused, so signup_v2 can take it).
  if (subOrganizationId === undefined) throw new ApiError('ERR_USER_NOT_FOUND', 'no account has this contact; sign up first', 'verificationToken');
  const { result } = await onSubOrganization(() =>
    ctx.api.submit('otp_login', subOrganizationId, {
      verificationToken: body.verificationToken,
      publicKey: body.publicKey,
      clientSignature: body.clientSignature,
      expirationSeconds: String(ctx.settings.sessionExpirationSeconds),
      ...(body.invalidateExisting !== undefined ? { invalidateExisting: body.invalidateExisting } : {}),
    }),
  );
  return { session: result.session };
};
