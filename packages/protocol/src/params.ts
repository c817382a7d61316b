import { Type } from '@sinclair/typebox';
import { Obj, Enum } from './descriptor.js';
import {
  ADDRESS_FORMATS,
  API_KEY_CURVES,
  AUTHENTICATOR_TRANSPORTS,
  CLIENT_SIGNATURE_SCHEMES,
  CURVES,
  FEATURE_NAMES,
  MNEMONIC_LENGTHS,
  PATH_FORMATS,
} from './enums.js';
import { DerivationPath, Email, ExpirationSeconds, IdList, Jwt, MAX_ITEMS, Name, PhoneNumber, PublicKeyHex, SignatureHex } from './fields.js';

/**
 * Parameter objects that several operations share, named after Turnkey's definitions
 * (v1WalletAccountParams, v1ApiKeyParamsV2, v1AuthenticatorParamsV2, ...). All closed.
 */

/** One account to derive: `{curve, pathFormat, path, addressFormat}` (v1WalletAccountParams). */
export const WalletAccountParams = Obj({
  curve: Enum(CURVES),
  pathFormat: Enum(PATH_FORMATS),
  path: DerivationPath,
  addressFormat: Enum(ADDRESS_FORMATS),
});

/** Accounts of a wallet; Turnkey asks for an empty array when none are wanted. */
export const WalletAccountList = Type.Array(WalletAccountParams, { maxItems: MAX_ITEMS });

/** BIP39 mnemonic length in words (12, 15, 18, 21 or 24; default 12). */
export const MnemonicLengthField = Type.Union(MNEMONIC_LENGTHS.map((n) => Type.Literal(n)));

/** A wallet created together with a sub-organization (v1WalletParams). */
export const WalletParams = Obj({
  walletName: Name,
  accounts: WalletAccountList,
  mnemonicLength: Type.Optional(MnemonicLengthField),
});

/** A wallet and its derived addresses (v1WalletResult). */
export const WalletResult = Obj({
  walletId: Type.String(),
  addresses: Type.Array(Type.String()),
});

/** One address of a private key: `{format, address}`. */
export const AddressEntry = Obj({
  format: Enum(ADDRESS_FORMATS),
  address: Type.String(),
});

/** A new API key of a user (v1ApiKeyParamsV2). */
export const ApiKeyParams = Obj({
  apiKeyName: Name,
  publicKey: PublicKeyHex,
  curveType: Enum(API_KEY_CURVES),
  expirationSeconds: Type.Optional(ExpirationSeconds),
});

/** WebAuthn attestation of a new passkey (v1Attestation); byte fields are base64url. */
export const Attestation = Obj({
  credentialId: Type.String({ minLength: 1, maxLength: 1024 }),
  clientDataJson: Type.String({ minLength: 1, maxLength: 16384 }),
  attestationObject: Type.String({ minLength: 1, maxLength: 65536 }),
  transports: Type.Array(Enum(AUTHENTICATOR_TRANSPORTS), { maxItems: AUTHENTICATOR_TRANSPORTS.length }),
});

/** A new passkey of a user (v1AuthenticatorParamsV2). */
export const AuthenticatorParams = Obj({
  authenticatorName: Name,
  challenge: Type.String({ minLength: 1, maxLength: 1024 }),
  attestation: Attestation,
});

/** Claims that identify an OIDC subject without a token: `{iss, sub, aud}` (v1OidcClaims). */
export const OidcClaims = Obj({
  iss: Type.String({ minLength: 1, maxLength: 1024 }),
  sub: Type.String({ minLength: 1, maxLength: 1024 }),
  aud: Type.String({ minLength: 1, maxLength: 1024 }),
});

/**
 * An OAuth provider to link (v1OauthProviderParamsV2): `providerName` plus exactly one of
 * `oidcToken` or `oidcClaims` (spec, signup: "either oidcToken (verified) or oidcClaims").
 */
export const OauthProviderParams = Type.Union([Obj({ providerName: Name, oidcToken: Jwt }), Obj({ providerName: Name, oidcClaims: OidcClaims })]);

/**
 * Signature binding a request to the client's key pair (DESIGN section 2): `message` is the
 * JSON token-usage document, `signature` raw r||s hex over SHA-256 of the message.
 */
export const ClientSignature = Obj({
  publicKey: PublicKeyHex,
  scheme: Enum(CLIENT_SIGNATURE_SCHEMES),
  message: Type.String({ minLength: 1, maxLength: 8192 }),
  signature: SignatureHex,
});

/** Fields shared by a new user and a new root user (v1UserParamsV4 / v1RootUserParamsV5). */
const userFields = {
  userName: Name,
  userEmail: Type.Optional(Email),
  userPhoneNumber: Type.Optional(PhoneNumber),
  apiKeys: Type.Array(ApiKeyParams, { maxItems: MAX_ITEMS }),
  authenticators: Type.Array(AuthenticatorParams, { maxItems: MAX_ITEMS }),
  oauthProviders: Type.Array(OauthProviderParams, { maxItems: MAX_ITEMS }),
};

/** A root user of a new sub-organization (v1RootUserParamsV5). */
export const RootUserParams = Obj(userFields);

/** A new user of an organization (v1UserParamsV4): a root user's fields plus tag ids. */
export const UserParams = Obj({ ...userFields, userTags: IdList });

/** An organization feature: `{name, value}` (v1Feature). */
export const Feature = Obj({
  name: Enum(FEATURE_NAMES),
  value: Type.String({ maxLength: 4096 }),
});

/** Login parameters shared by stamp_login, otp_login and oauth_login. */
export const sessionFields = {
  expirationSeconds: Type.Optional(ExpirationSeconds),
  invalidateExisting: Type.Optional(Type.Boolean()),
};
