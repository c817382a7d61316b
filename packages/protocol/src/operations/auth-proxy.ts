/**
 * Administration of the authentication proxy (spec section A, "Proxy configuration": the
 * dashboard surface, here as stamped activities). Ours alone: Turnkey manages the proxy in its
 * dashboard only. Settings are patched field by field; the server merges a patch into the
 * stored settings and validates the whole document.
 */
import { Type } from '@sinclair/typebox';
import { defineOperation, Obj, perProvider } from '../descriptor.js';

/**
 * An allowed origin: an exact `scheme://host[:port]` (no path, no wildcard), or the single
 * `*`. The server parses each one (ERR_INVALID_PARAMETER for patterns such as
 * `https://*.example.com` or a trailing path).
 */
export const AllowedOrigin = Type.String({ minLength: 1, maxLength: 2048 });
const ClientIds = Type.Array(Type.String({ minLength: 1, maxLength: 512 }), { maxItems: 20 });

const SocialPatch = Obj({
  enabled: Type.Optional(Type.Boolean()),
  /** OIDC client ids accepted as `aud` (kind `oidc`), or the OAuth 2.0 client id (kind `oauth2`). */
  clientIds: Type.Optional(ClientIds),
  /** Kind `oauth2`: the OAuth 2.0 credential (create_oauth2_credential) holding the client secret. */
  oauth2CredentialId: Type.Optional(Type.String({ maxLength: 128 })),
});

/**
 * A partial proxy configuration: every row of the spec's table, each optional; nested objects
 * (methods, social providers) are merged key by key.
 * @example { allowedOrigins: ['https://app.example.com'], otpLength: 8, methods: { smsOtp: false } }
 */
export const AuthProxySettingsPatch = Obj({
  allowedOrigins: Type.Optional(Type.Array(AllowedOrigin, { minItems: 1, maxItems: 50 })),
  /** Session lifetime in seconds (default 900). */
  sessionExpirationSeconds: Type.Optional(Type.Integer({ minimum: 60, maximum: 31_536_000 })),
  otpLength: Type.Optional(Type.Integer({ minimum: 6, maximum: 9 })),
  otpAlphanumeric: Type.Optional(Type.Boolean()),
  emailAppName: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  emailLogoUrl: Type.Optional(Type.String({ maxLength: 2048 })),
  oauthRedirectUrl: Type.Optional(Type.String({ maxLength: 2048 })),
  methods: Type.Optional(
    Obj({
      emailOtp: Type.Optional(Type.Boolean()),
      smsOtp: Type.Optional(Type.Boolean()),
      passkey: Type.Optional(Type.Boolean()),
      wallet: Type.Optional(Type.Boolean()),
    }),
  ),
  /** Per provider of the provider table (oauth-providers.ts). */
  social: Type.Optional(perProvider(Type.Optional(SocialPatch))),
  /** Google client ids allowed to auto-link a Google account to an email-OTP account with the same email. */
  socialLinkingClientIds: Type.Optional(ClientIds),
  requireVerificationTokenForAccountLookup: Type.Optional(Type.Boolean()),
});

const Social = Obj({
  enabled: Type.Boolean(),
  clientIds: ClientIds,
  oauth2CredentialId: Type.Optional(Type.String({ maxLength: 128 })),
});

/**
 * The complete settings document (every row of the spec's "Proxy configuration" table) as
 * stored in proxy_configs.settings, validated on every change and returned by get_auth_proxy_config.
 */
export const AuthProxySettings = Obj({
  /** Exact origins (scheme://host[:port]); ['*'] allows any. No partial wildcards. */
  allowedOrigins: Type.Array(AllowedOrigin, { minItems: 1, maxItems: 50 }),
  /** Session lifetime in seconds (default 900). */
  sessionExpirationSeconds: Type.Integer({ minimum: 60, maximum: 31_536_000 }),
  otpLength: Type.Integer({ minimum: 6, maximum: 9 }),
  otpAlphanumeric: Type.Boolean(),
  emailAppName: Type.String({ minLength: 1, maxLength: 128 }),
  emailLogoUrl: Type.Optional(Type.String({ maxLength: 2048 })),
  oauthRedirectUrl: Type.Optional(Type.String({ maxLength: 2048 })),
  methods: Obj({ emailOtp: Type.Boolean(), smsOtp: Type.Boolean(), passkey: Type.Boolean(), wallet: Type.Boolean() }),
  /** Per provider of the provider table (oauth-providers.ts). */
  social: perProvider(Social),
  /** Google client ids allowed to auto-link a Google account to an email-OTP account with the same email. */
  socialLinkingClientIds: ClientIds,
  requireVerificationTokenForAccountLookup: Type.Boolean(),
});

/** A proxy configuration: its id (the X-Auth-Proxy-Config-Id value), state and settings. */
export const AuthProxyConfigRecord = Obj({
  configId: Type.String(),
  organizationId: Type.String(),
  enabled: Type.Boolean(),
  settings: AuthProxySettings,
  /** The proxy user (may run only the auth flows) and the public half of its API key. */
  proxyUserId: Type.String(),
  proxyApiPublicKey: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

const ConfigResult = Obj({ configId: Type.String(), enabled: Type.Boolean() });

/**
 * Ours: turn the proxy on for the organization. The first call creates the proxy user, its
 * P-256 API key (private half sealed by the enclave) and the configuration with defaults (spec:
 * origins `*`, sessions 900 s); later calls re-enable it and return the same config id. Given
 * settings are merged as by update_auth_proxy_config.
 * @example { settings: { allowedOrigins: ['https://app.example.com'] } } // -> { configId, enabled: true }
 */
export const enableAuthProxy = defineOperation({
  name: 'enable_auth_proxy',
  spec: false,
  parameters: Obj({ settings: Type.Optional(AuthProxySettingsPatch) }),
  result: ConfigResult,
});

/**
 * Ours: change settings of an existing proxy configuration (absent fields are kept).
 * @example { settings: { otpLength: 8, otpAlphanumeric: true } } // -> { configId, enabled }
 */
export const updateAuthProxyConfig = defineOperation({
  name: 'update_auth_proxy_config',
  spec: false,
  parameters: Obj({ settings: AuthProxySettingsPatch }),
  result: ConfigResult,
});

/**
 * Ours: turn the proxy off; its requests are refused (ERR_PROXY_DISABLED) and its user may run
 * nothing until enable_auth_proxy. The configuration and key are kept.
 * @example {} // -> { configId, enabled: false }
 */
export const disableAuthProxy = defineOperation({
  name: 'disable_auth_proxy',
  spec: false,
  parameters: Obj({}),
  result: ConfigResult,
});
