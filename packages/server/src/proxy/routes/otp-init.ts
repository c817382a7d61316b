/** POST /v1/otp_init_v2: send a code of the configured length and charset (init_otp on the configuration's organization). */
import type { ProxyRequestOf, ProxyResponseOf } from '@walletkit/protocol';
import type { ProxyRoute } from '../context.js';
import { requireOtpMethod } from './methods.js';

export const otpInit: ProxyRoute<ProxyRequestOf<'otp_init_v2'>, ProxyResponseOf<'otp_init_v2'>> = async (body, ctx) => {
  requireOtpMethod(ctx.settings, body.otpType);
  const { settings } = ctx;
  // `emailCustomization.templateId` (Turnkey's templates) is accepted and not used: the configuration's app name and logo apply.
  const { result } = await ctx.api.submit('init_otp', ctx.config.organizationId, {
    otpType: body.otpType,
    contact: body.contact.trim(),
    otpLength: settings.otpLength,
    alphanumeric: settings.otpAlphanumeric,
    appName: settings.emailAppName,
    ...(settings.emailLogoUrl !== undefined ? { emailCustomization: { logoUrl: settings.emailLogoUrl } } : {}),
  });
  return { otpId: result.otpId, otpEncryptionTargetBundle: result.otpEncryptionTargetBundle };
};
