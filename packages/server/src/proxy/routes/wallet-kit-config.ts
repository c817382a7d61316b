/** POST /v1/wallet_kit_config: the enabled methods and the session and OTP settings, for the client's auth modal. */
import { OAUTH_PROVIDERS, type ProxyAuthMethod, type ProxyRequestOf, type ProxyResponseOf } from '@walletkit/protocol';
import type { ProxyRoute } from '../context.js';

export const walletKitConfig: ProxyRoute<ProxyRequestOf<'wallet_kit_config'>, ProxyResponseOf<'wallet_kit_config'>> = async (_body, ctx) => {
  const s = ctx.settings;
  const enabledProviders: ProxyAuthMethod[] = [];
  if (s.methods.emailOtp) enabledProviders.push('email');
  if (s.methods.smsOtp) enabledProviders.push('sms');
  if (s.methods.passkey) enabledProviders.push('passkey');
  if (s.methods.wallet) enabledProviders.push('wallet');
  const oauthClientIds: ProxyResponseOf<'wallet_kit_config'>['oauthClientIds'] = {};
  for (const { id } of OAUTH_PROVIDERS) {
    const social = s.social[id];
    if (!social.enabled) continue;
    enabledProviders.push(id);
    if (social.clientIds[0] !== undefined) oauthClientIds[id] = social.clientIds[0];
  }
  return {
    organizationId: ctx.config.organizationId,
    enabledProviders,
    oauthClientIds,
    ...(s.oauthRedirectUrl !== undefined ? { oauthRedirectUrl: s.oauthRedirectUrl } : {}),
    sessionExpirationSeconds: String(s.sessionExpirationSeconds),
    otpLength: String(s.otpLength),
    otpAlphanumeric: s.otpAlphanumeric,
    appName: s.emailAppName,
    ...(s.emailLogoUrl !== undefined ? { logoUrl: s.emailLogoUrl } : {}),
    requireVerificationTokenForAccountLookup: s.requireVerificationTokenForAccountLookup,
  };
};

/**
 * POST /v1/wallet_kit_client_params: Turnkey's client parameters (a Turnstile site key when
 * bot protection is on). This server has no captcha, so the reply is empty.
 */
export const walletKitClientParams: ProxyRoute<ProxyRequestOf<'wallet_kit_client_params'>, ProxyResponseOf<'wallet_kit_client_params'>> = async () => ({});
