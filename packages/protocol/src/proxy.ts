import { Type, type Static, type TObject } from '@sinclair/typebox';
import { Obj, Enum, perProvider } from './descriptor.js';
import { OAUTH2_PROVIDERS, OTP_TYPES } from './enums.js';
import { OAUTH_PROVIDER_IDS, type OAuthProviderId } from './oauth-providers.js';
import { Email, Id, Jwt, MAX_ITEMS, Name, PhoneNumber, PublicKeyHex } from './fields.js';
import { ApiKeyParams, AuthenticatorParams, ClientSignature, OidcClaims, WalletParams, WalletResult } from './params.js';
import { AppProof } from './envelope.js';
import { proxyPath, type WireProxyEndpointName } from './wire.js';

export { PROXY_CONFIG_ID_HEADER } from './wire.js';

/**
 * The authentication proxy's wire contract (spec section A): one descriptor per `/v1/<name>`
 * endpoint with closed TypeBox schemas for the JSON request and response. Every request also
 * carries the `X-Auth-Proxy-Config-Id` header and comes from an allowed Origin; clients never
 * stamp proxy requests (the proxy stamps what it forwards with its own key).
 */
export interface ProxyEndpointDescriptor<N extends string = string, Q extends TObject = TObject, R extends TObject = TObject> {
  /** Path suffix after `/v1/`. */
  readonly name: N;
  /** Full path, `/v1/<name>`. */
  readonly path: string;
  /** Schema of the JSON request body (closed: unknown fields are refused). */
  readonly request: Q;
  /** Schema of the JSON response body. */
  readonly response: R;
}

/**
 * Declare a proxy endpoint; `name` must be listed in the wire table of `./wire`.
 * @example defineProxyEndpoint({ name: 'wallet_kit_config', request: Obj({}), response: Obj({}) }).path // '/v1/wallet_kit_config'
 */
export function defineProxyEndpoint<N extends WireProxyEndpointName, Q extends TObject, R extends TObject>(d: {
  name: N;
  request: Q;
  response: R;
}): ProxyEndpointDescriptor<N, Q, R> {
  return Object.freeze({ ...d, path: proxyPath(d.name) });
}

const Contact = Type.String({ minLength: 3, maxLength: 320 });
const Session = Obj({ session: Type.String() });
const invalidateExisting = Type.Optional(Type.Boolean());

/**
 * Send a one-time code to an email address or phone number; the code length, charset, app
 * name and logo come from the proxy configuration.
 * @example { otpType: 'OTP_TYPE_EMAIL', contact: 'a@example.com' } // -> { otpId, otpEncryptionTargetBundle }
 */
export const proxyOtpInit = defineProxyEndpoint({
  name: 'otp_init_v2',
  request: Obj({
    otpType: Enum(OTP_TYPES),
    contact: Contact,
    /** Turnkey's email template choice; accepted for compatibility, the configuration's app name and logo apply. */
    emailCustomization: Type.Optional(Obj({ templateId: Type.Optional(Id) })),
  }),
  response: Obj({ otpId: Type.String(), otpEncryptionTargetBundle: Type.String() }),
});

/**
 * Check the code, HPKE-encrypted with the client's public key to the target of otp_init_v2
 * (DESIGN section 2), and obtain a single-use verification token bound to that key.
 * @example { otpId, encryptedOtpBundle: '{"encappedPublic":"04..","ciphertext":".."}' } // -> { verificationToken }
 */
export const proxyOtpVerify = defineProxyEndpoint({
  name: 'otp_verify_v2',
  request: Obj({ otpId: Id, encryptedOtpBundle: Type.String({ minLength: 1, maxLength: 4096 }) }),
  response: Obj({ verificationToken: Type.String() }),
});

/**
 * Exchange a verification token for a session of the sub-organization of the verified contact
 * (or of `organizationId` when given); `clientSignature` signs
 * `{"type":"USAGE_TYPE_LOGIN","tokenId":<token id>}` with the key bound at verify.
 * @example { verificationToken, publicKey: '02ab..', clientSignature } // -> { session }
 */
export const proxyOtpLogin = defineProxyEndpoint({
  name: 'otp_login_v2',
  request: Obj({ verificationToken: Jwt, publicKey: PublicKeyHex, clientSignature: ClientSignature, invalidateExisting, organizationId: Type.Optional(Id) }),
  response: Session,
});

/**
 * Exchange an OIDC token (nonce = SHA-256 of the compressed `publicKey` hex) for a session of
 * the sub-organization holding that (iss, sub, aud), or of `organizationId` when given.
 * @example { oidcToken, publicKey: '02ab..' } // -> { session }
 */
export const proxyOauthLogin = defineProxyEndpoint({
  name: 'oauth_login',
  request: Obj({ oidcToken: Jwt, publicKey: PublicKeyHex, invalidateExisting, organizationId: Type.Optional(Id) }),
  response: Session,
});

/**
 * X and Discord: exchange an authorization code (PKCE) for an OIDC token issued by this
 * service, to be used with oauth_login. `clientId` must be the configured one.
 * @example { provider: 'OAUTH2_PROVIDER_DISCORD', authCode, redirectUri, codeVerifier, nonce, clientId } // -> { oidcToken }
 */
export const proxyOauth2Authenticate = defineProxyEndpoint({
  name: 'oauth2_authenticate',
  request: Obj({
    provider: Enum(OAUTH2_PROVIDERS),
    authCode: Type.String({ minLength: 1, maxLength: 4096 }),
    redirectUri: Type.String({ minLength: 1, maxLength: 2048 }),
    /** RFC 7636 section 4.1: 43 to 128 characters. */
    codeVerifier: Type.String({ minLength: 43, maxLength: 128, pattern: '^[A-Za-z0-9._~-]+$' }),
    nonce: Type.String({ minLength: 1, maxLength: 256 }),
    clientId: Type.String({ minLength: 1, maxLength: 1024 }),
  }),
  response: Obj({ oidcToken: Type.String() }),
});

/**
 * An OAuth provider at signup: a verified `oidcToken`, or `oidcClaims` that the proxy checks
 * against the request's top-level `oidcToken` (spec A, signup: "verified against an
 * accompanying token").
 */
export const ProxySignupOauthProvider = Type.Union([Obj({ providerName: Name, oidcToken: Jwt }), Obj({ providerName: Name, oidcClaims: OidcClaims })]);

/**
 * Create a sub-organization for an end user, optionally with credentials and a wallet, in one
 * activity. `verificationToken` marks the contact verified; `clientSignature` signs
 * `{"type":"USAGE_TYPE_SIGNUP","tokenId":<token id>}` with the key bound at verify.
 * @example { userEmail: 'a@example.com', verificationToken, apiKeys: [{ apiKeyName: 'session', publicKey, curveType: 'API_KEY_CURVE_P256' }] } // -> { organizationId, userId }
 */
export const proxySignup = defineProxyEndpoint({
  name: 'signup_v2',
  request: Obj({
    userName: Type.Optional(Name),
    /** Name of the sub-organization (default: the user name). */
    organizationName: Type.Optional(Name),
    /** Name of a user tag the new sub-organization gets, holding its root user (for the integrator's policies). */
    userTag: Type.Optional(Name),
    userEmail: Type.Optional(Email),
    userPhoneNumber: Type.Optional(PhoneNumber),
    verificationToken: Type.Optional(Jwt),
    apiKeys: Type.Optional(Type.Array(ApiKeyParams, { maxItems: MAX_ITEMS })),
    authenticators: Type.Optional(Type.Array(AuthenticatorParams, { maxItems: MAX_ITEMS })),
    oauthProviders: Type.Optional(Type.Array(ProxySignupOauthProvider, { maxItems: MAX_ITEMS })),
    /** The token that `oidcClaims` entries of oauthProviders are checked against. */
    oidcToken: Type.Optional(Jwt),
    wallet: Type.Optional(WalletParams),
    clientSignature: Type.Optional(ClientSignature),
  }),
  /** With a wallet: the App Proofs of the create_sub_organization activity, passed through unverified. */
  response: Obj({ organizationId: Type.String(), userId: Type.String(), wallet: Type.Optional(WalletResult), appProofs: Type.Optional(Type.Array(AppProof)) }),
});

/** What an account lookup filters on (spec A, "proxy account filter type"; Turnkey's GetAccount). */
export const ACCOUNT_FILTER_TYPES = ['EMAIL', 'PHONE_NUMBER', 'CREDENTIAL_ID', 'OIDC_TOKEN', 'PUBLIC_KEY', 'USERNAME', 'NAME'] as const;
export type AccountFilterType = (typeof ACCOUNT_FILTER_TYPES)[number];

/**
 * Is there a sub-organization for this contact or credential? `organizationId` when one
 * exists, an empty object when none does (spec A: "an empty response"). `verificationToken` (a
 * verified contact) or `oidcToken` (a verified email) proves the caller may ask about an email
 * or phone number; the configuration may require one.
 * @example { filterType: 'EMAIL', filterValue: 'a@example.com', verificationToken } // -> { organizationId: '..' } | {}
 */
export const proxyAccount = defineProxyEndpoint({
  name: 'account',
  request: Obj({
    filterType: Enum(ACCOUNT_FILTER_TYPES),
    filterValue: Type.String({ minLength: 1, maxLength: 16384 }),
    verificationToken: Type.Optional(Jwt),
    oidcToken: Type.Optional(Jwt),
  }),
  response: Obj({ organizationId: Type.Optional(Type.String()) }),
});

/** Auth methods a configuration can enable (the values of `enabledProviders`): the built-in ones, then each OAuth provider. */
export const PROXY_AUTH_METHODS = ['email', 'sms', 'passkey', 'wallet', ...OAUTH_PROVIDER_IDS] as const;
export type ProxyAuthMethod = 'email' | 'sms' | 'passkey' | 'wallet' | OAuthProviderId;

/**
 * The calling configuration's enabled methods and session and OTP settings, as the client's
 * auth modal needs them. Numbers travel as strings, as in Turnkey's reply.
 * @example {} // -> { organizationId, enabledProviders: ['email', 'passkey'], sessionExpirationSeconds: '900', otpLength: '6', otpAlphanumeric: false, ... }
 */
export const proxyWalletKitConfig = defineProxyEndpoint({
  name: 'wallet_kit_config',
  request: Obj({}),
  response: Obj({
    organizationId: Type.String(),
    enabledProviders: Type.Array(Enum(PROXY_AUTH_METHODS)),
    /** Client id per enabled social provider (the first configured one), keyed by provider id. */
    oauthClientIds: perProvider(Type.Optional(Type.String())),
    oauthRedirectUrl: Type.Optional(Type.String()),
    sessionExpirationSeconds: Type.String(),
    otpLength: Type.String(),
    otpAlphanumeric: Type.Boolean(),
    appName: Type.String(),
    logoUrl: Type.Optional(Type.String()),
    requireVerificationTokenForAccountLookup: Type.Boolean(),
  }),
});

/**
 * What the client needs before its first flow: the bot-protection site key, when the
 * configuration uses one (none here: the reply is empty). Turnkey's wallet_kit_client_params.
 * @example {} // -> {}
 */
export const proxyWalletKitClientParams = defineProxyEndpoint({
  name: 'wallet_kit_client_params',
  request: Obj({}),
  response: Obj({ turnstileSiteKey: Type.Optional(Type.String()) }),
});

/**
 * Every proxy endpoint, keyed by its path suffix.
 * @example proxyEndpoints.otp_init_v2.path // '/v1/otp_init_v2'
 */
export const proxyEndpoints = {
  otp_init_v2: proxyOtpInit,
  otp_verify_v2: proxyOtpVerify,
  otp_login_v2: proxyOtpLogin,
  oauth_login: proxyOauthLogin,
  oauth2_authenticate: proxyOauth2Authenticate,
  signup_v2: proxySignup,
  account: proxyAccount,
  wallet_kit_config: proxyWalletKitConfig,
  wallet_kit_client_params: proxyWalletKitClientParams,
} as const;

/** Name of a proxy endpoint, e.g. `'otp_init_v2'`. */
export type ProxyEndpointName = keyof typeof proxyEndpoints;

/** Request body type of proxy endpoint `N`. */
export type ProxyRequestOf<N extends ProxyEndpointName> = Static<(typeof proxyEndpoints)[N]['request']>;

/** Response body type of proxy endpoint `N`. */
export type ProxyResponseOf<N extends ProxyEndpointName> = Static<(typeof proxyEndpoints)[N]['response']>;

proxyEndpoints satisfies Record<string, ProxyEndpointDescriptor>;
