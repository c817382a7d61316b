/**
 * The social login providers, one row each: the single table the server (token verification,
 * code exchange, proxy settings, wallet_kit_config), the client (authorization URLs, PKCE) and
 * the kit (buttons, order) read. Adding a provider means adding a row here and its
 * configuration (client ids in the proxy settings; for OAuth 2.0 providers an OAuth 2.0
 * credential): nothing else names providers one by one.
 *
 * Two kinds:
 * - `oidc`: the provider returns an id token in the browser (implicit flow, nonce = SHA-256 of
 *   the session key); the server checks it against the provider's JWKS.
 * - `oauth2`: the browser gets an authorization code (PKCE S256); the server exchanges it with
 *   the integrator's client secret (oauth2_authenticate), reads the user-info endpoint and
 *   issues its own id token (issuer = this server, `sub` = `<issuer>|<provider user id>`).
 *
 * Schema-free (exported by `@walletkit/protocol/wire` too), so browsers can import it.
 * @example OAUTH_PROVIDERS.find((p) => p.id === 'google')?.authorizeUrl // 'https://accounts.google.com/o/oauth2/v2/auth'
 */

/** Fields every provider has. */
interface ProviderBase<Id extends string> {
  /** Key in the proxy settings (`social.<id>`), in `enabledProviders` and `oauthClientIds`. */
  readonly id: Id;
  /** Display name ("Continue with Google"). */
  readonly name: string;
  /** The provider's authorization endpoint (the browser goes there). */
  readonly authorizeUrl: string;
  /** Scopes asked for (space separated). */
  readonly scopes: string;
  /** Prefix of the server's environment overrides: `<PREFIX>_ISSUER`, `<PREFIX>_JWKS_URL`, `<PREFIX>_TOKEN_URL`, `<PREFIX>_USERINFO_URL`. */
  readonly envPrefix: string;
}

/** An OpenID Connect provider: id tokens verified against its published keys. */
export interface OidcProviderSpec<Id extends string = string> extends ProviderBase<Id> {
  readonly kind: 'oidc';
  /** `iss` of its id tokens (the spelling the server records). */
  readonly issuer: string;
  /** Other spellings of `iss` the provider documents (Google: `accounts.google.com`). */
  readonly issuerAliases: readonly string[];
  readonly jwksUri: string;
}

/** An OAuth 2.0 provider without OIDC: authorization code + PKCE, exchanged server-side. */
export interface OAuth2ProviderSpec<Id extends string = string, E extends string = string> extends ProviderBase<Id> {
  readonly kind: 'oauth2';
  /** The wire enum of create_oauth2_credential and oauth2_authenticate. */
  readonly oauth2Provider: E;
  /** Prefix of the `sub` of the tokens the server issues for its users. */
  readonly issuer: string;
  readonly tokenUrl: string;
  readonly userInfoUrl: string;
}

export type OAuthProviderSpec = OidcProviderSpec | OAuth2ProviderSpec;

/** Every provider, in the order the kit shows them by default. */
export const OAUTH_PROVIDERS = [
  {
    id: 'google',
    name: 'Google',
    kind: 'oidc',
    issuer: 'https://accounts.google.com',
    issuerAliases: ['accounts.google.com'],
    jwksUri: 'https://www.googleapis.com/oauth2/v3/certs',
    authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    scopes: 'openid email profile',
    envPrefix: 'GOOGLE',
  },
  {
    id: 'apple',
    name: 'Apple',
    kind: 'oidc',
    issuer: 'https://appleid.apple.com',
    issuerAliases: [],
    jwksUri: 'https://appleid.apple.com/auth/keys',
    authorizeUrl: 'https://appleid.apple.com/auth/authorize',
    scopes: 'openid',
    envPrefix: 'APPLE',
  },
  {
    id: 'x',
    name: 'X',
    kind: 'oauth2',
    oauth2Provider: 'OAUTH2_PROVIDER_X',
    issuer: 'https://x.com',
    tokenUrl: 'https://api.x.com/2/oauth2/token',
    userInfoUrl: 'https://api.x.com/2/users/me',
    authorizeUrl: 'https://x.com/i/oauth2/authorize',
    scopes: 'users.read tweet.read',
    envPrefix: 'X',
  },
  {
    id: 'discord',
    name: 'Discord',
    kind: 'oauth2',
    oauth2Provider: 'OAUTH2_PROVIDER_DISCORD',
    issuer: 'https://discord.com',
    tokenUrl: 'https://discord.com/api/oauth2/token',
    userInfoUrl: 'https://discord.com/api/users/@me',
    authorizeUrl: 'https://discord.com/oauth2/authorize',
    scopes: 'identify email',
    envPrefix: 'DISCORD',
  },
] as const satisfies readonly OAuthProviderSpec[];

type Row = (typeof OAUTH_PROVIDERS)[number];

/** `'google' | 'apple' | 'x' | 'discord'`. */
export type OAuthProviderId = Row['id'];
/** The providers verified as OIDC (id token in the browser). */
export type OidcProviderId = Extract<Row, { kind: 'oidc' }>['id'];
/** The providers exchanged server-side (authorization code + PKCE). */
export type OAuth2ProviderId = Extract<Row, { kind: 'oauth2' }>['id'];

/** The ids, in table order. */
export const OAUTH_PROVIDER_IDS = OAUTH_PROVIDERS.map((p) => p.id) as readonly OAuthProviderId[];

/**
 * The row of a provider id.
 * @example oauthProvider('discord').kind // 'oauth2'
 */
export function oauthProvider<Id extends OAuthProviderId>(id: Id): Extract<Row, { id: Id }> {
  return OAUTH_PROVIDERS.find((p) => p.id === id) as Extract<Row, { id: Id }>;
}

/**
 * The OAuth 2.0 provider of a wire enum value, if any.
 * @example oauth2ProviderOf('OAUTH2_PROVIDER_X')?.id // 'x'
 */
export function oauth2ProviderOf(value: string): Extract<Row, { kind: 'oauth2' }> | undefined {
  return OAUTH_PROVIDERS.find((p): p is Extract<Row, { kind: 'oauth2' }> => p.kind === 'oauth2' && p.oauth2Provider === value);
}

/**
 * The issuer spelling the server records for an `iss` claim: an alias maps to its provider's
 * issuer; anything else is returned as is.
 * @example canonicalIssuer('accounts.google.com') // 'https://accounts.google.com'
 */
export function canonicalIssuer(iss: string): string {
  for (const p of OAUTH_PROVIDERS) if (p.kind === 'oidc' && (p.issuerAliases as readonly string[]).includes(iss)) return p.issuer;
  return iss;
}

/**
 * An object with one entry per provider id, in table order.
 * @example byProvider(() => ({ enabled: false, clientIds: [] })) // { google: {...}, apple: {...}, x: {...}, discord: {...} }
 */
export function byProvider<T>(value: (id: OAuthProviderId) => T): Record<OAuthProviderId, T> {
  return Object.fromEntries(OAUTH_PROVIDER_IDS.map((id) => [id, value(id)])) as Record<OAuthProviderId, T>;
}
