/** Auth-method toggles of a proxy configuration (spec A: each method enabled independently). */
import { OAUTH_PROVIDERS, type OtpType } from '@walletkit/protocol';
import { ApiError } from '../../errors.js';
import type { ProxySettings } from '../settings.js';

/** Refuse an OTP flow whose channel is disabled. @throws ApiError ERR_AUTH_METHOD_DISABLED */
export function requireOtpMethod(settings: ProxySettings, otpType: OtpType): void {
  const enabled = otpType === 'OTP_TYPE_EMAIL' ? settings.methods.emailOtp : settings.methods.smsOtp;
  if (!enabled) throw new ApiError('ERR_AUTH_METHOD_DISABLED', `${otpType === 'OTP_TYPE_EMAIL' ? 'email' : 'SMS'} one-time codes are disabled`, 'otpType');
}

/**
 * Refuse an external-wallet (secp256k1 API key) signup or lookup when the wallet method is
 * disabled, as signup_v2 refuses authenticators when passkeys are. @throws ApiError ERR_AUTH_METHOD_DISABLED
 */
export function requireWalletMethod(settings: ProxySettings, field: string): void {
  if (!settings.methods.wallet) throw new ApiError('ERR_AUTH_METHOD_DISABLED', 'external-wallet login is disabled', field);
}

/** Client ids of the enabled OIDC providers whose id tokens may log in (`aud`), and of the OAuth 2.0 ones (our issued tokens carry them). */
export function enabledOidcAudiences(settings: ProxySettings): string[] {
  return OAUTH_PROVIDERS.flatMap((p) => (settings.social[p.id].enabled ? settings.social[p.id].clientIds : []));
}
