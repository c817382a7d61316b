/** POST /v1/otp_verify_v2: check the encrypted code (verify_otp) and return the verification token. */
import type { ProxyRequestOf, ProxyResponseOf } from '@walletkit/protocol';
import type { ProxyRoute } from '../context.js';

export const otpVerify: ProxyRoute<ProxyRequestOf<'otp_verify_v2'>, ProxyResponseOf<'otp_verify_v2'>> = async (body, ctx) => {
  const { result } = await ctx.api.submit('verify_otp', ctx.config.organizationId, { otpId: body.otpId, encryptedOtpBundle: body.encryptedOtpBundle });
  return { verificationToken: result.verificationToken };
};
