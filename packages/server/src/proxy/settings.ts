/**
 * Authentication proxy settings: every row of the spec's "Proxy configuration" table.
 * Stored as one JSON document per organization (proxy_configs.settings); changed through
 * stamped admin activities and the CLI; read per request by the /v1 plugin.
 */
import { Type, type Static } from '@sinclair/typebox';

const Origin = Type.String({ minLength: 1, maxLength: 2048 });
const ClientIds = Type.Array(Type.String({ minLength: 1, maxLength: 512 }), { maxItems: 20 });
const Social = Type.Object(
  {
    enabled: Type.Boolean(),
    /** OIDC client ids accepted as `aud` (Google, Apple) or the OAuth 2.0 client id (X, Discord). */
    clientIds: ClientIds,
    /** X and Discord: the OAuth 2.0 credential (create_oauth2_credential) holding the client secret. */
    oauth2CredentialId: Type.Optional(Type.String({ maxLength: 128 })),
  },
  { additionalProperties: false },
);

export const ProxySettings = Type.Object(
  {
    /** Exact origins (scheme://host[:port]); ['*'] allows any. No partial wildcards. */
    allowedOrigins: Type.Array(Origin, { minItems: 1, maxItems: 50 }),
    /** Session lifetime in seconds (default 900). */
    sessionExpirationSeconds: Type.Integer({ minimum: 60, maximum: 31_536_000 }),
    otpLength: Type.Integer({ minimum: 6, maximum: 9 }),
    otpAlphanumeric: Type.Boolean(),
    emailAppName: Type.String({ minLength: 1, maxLength: 128 }),
    emailLogoUrl: Type.Optional(Type.String({ maxLength: 2048 })),
    oauthRedirectUrl: Type.Optional(Type.String({ maxLength: 2048 })),
    methods: Type.Object(
      {
        emailOtp: Type.Boolean(),
        smsOtp: Type.Boolean(),
        passkey: Type.Boolean(),
        wallet: Type.Boolean(),
      },
      { additionalProperties: false },
    ),
    social: Type.Object({ google: Social, apple: Social, x: Social, discord: Social }, { additionalProperties: false }),
    /** Google client ids allowed to auto-link a Google account to an email-OTP account with the same email. */
    socialLinkingClientIds: ClientIds,
    requireVerificationTokenForAccountLookup: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type ProxySettings = Static<typeof ProxySettings>;

const off = { enabled: false, clientIds: [] };

/** Defaults of a freshly enabled proxy (spec: origins `*`, sessions 900 s, 6-digit codes). */
export function defaultProxySettings(): ProxySettings {
  return {
    allowedOrigins: ['*'],
    sessionExpirationSeconds: 900,
    otpLength: 6,
    otpAlphanumeric: false,
    emailAppName: 'walletkit',
    methods: { emailOtp: true, smsOtp: true, passkey: true, wallet: true },
    social: { google: { ...off }, apple: { ...off }, x: { ...off }, discord: { ...off } },
    socialLinkingClientIds: [],
    requireVerificationTokenForAccountLookup: false,
  };
}
