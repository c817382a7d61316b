/**
 * Authentication proxy settings: the document of `@walletkit/protocol`'s AuthProxySettings
 * (every row of the spec's "Proxy configuration" table), stored per organization in
 * proxy_configs.settings, changed through stamped admin activities and the CLI, read per
 * request by the /v1 plugin.
 */
import type { Static } from '@sinclair/typebox';
import { AuthProxySettings, byProvider } from '@walletkit/protocol';

export const ProxySettings = AuthProxySettings;
export type ProxySettings = Static<typeof AuthProxySettings>;

/** A provider's entry before anyone configured it: off. */
const providerOff = () => ({ enabled: false, clientIds: [] });

/**
 * Stored settings with an entry for every provider of the table: a provider added to the table
 * after a configuration was written is simply off there (adding a provider needs no migration).
 * @example withEveryProvider(row.settings).social.discord // { enabled: false, clientIds: [] } when never set
 */
export function withEveryProvider(settings: ProxySettings): ProxySettings {
  const stored = settings.social as Partial<ProxySettings['social']> | undefined;
  return { ...settings, social: byProvider((id) => stored?.[id] ?? providerOff()) };
}

/** Defaults of a freshly enabled proxy (spec: origins `*`, sessions 900 s, 6-digit codes). */
export function defaultProxySettings(): ProxySettings {
  return {
    allowedOrigins: ['*'],
    sessionExpirationSeconds: 900,
    otpLength: 6,
    otpAlphanumeric: false,
    emailAppName: 'walletkit',
    methods: { emailOtp: true, smsOtp: true, passkey: true, wallet: true },
    social: byProvider(providerOff),
    socialLinkingClientIds: [],
    requireVerificationTokenForAccountLookup: false,
  };
}
