import { Type } from '@sinclair/typebox';
import { Obj, Enum } from './descriptor.js';
import {
  ADDRESS_FORMATS,
  AUTHENTICATOR_TRANSPORTS,
  CREDENTIAL_TYPES,
  CURVES,
  OAUTH2_PROVIDERS,
  PATH_FORMATS,
  POLICY_EFFECTS,
  SMART_CONTRACT_INTERFACE_TYPES,
  TAG_TYPES,
} from './enums.js';
import { Timestamp } from './fields.js';
import { AddressEntry, Feature } from './params.js';

/**
 * Records returned by the read endpoints, shaped like Turnkey's (v1User, v1Wallet, ...) except
 * that timestamps are ISO 8601 strings rather than {seconds, nanos}. Optional fields are
 * omitted, never null.
 */

const timestamps = { createdAt: Timestamp, updatedAt: Timestamp };

/** The public half of a credential: `{publicKey, type}`. */
export const Credential = Obj({ publicKey: Type.String(), type: Enum(CREDENTIAL_TYPES) });

/** An API key of a user (v1ApiKey). `expirationSeconds` is present for expiring keys. */
export const ApiKeyRecord = Obj({
  credential: Credential,
  apiKeyId: Type.String(),
  apiKeyName: Type.String(),
  ...timestamps,
  expirationSeconds: Type.Optional(Type.String()),
});

/** A passkey of a user (v1Authenticator). */
export const AuthenticatorRecord = Obj({
  transports: Type.Array(Enum(AUTHENTICATOR_TRANSPORTS)),
  attestationType: Type.String(),
  aaguid: Type.String(),
  credentialId: Type.String(),
  model: Type.String(),
  credential: Credential,
  authenticatorId: Type.String(),
  authenticatorName: Type.String(),
  ...timestamps,
});

/** A linked OIDC identity (v1OauthProvider). */
export const OauthProviderRecord = Obj({
  providerId: Type.String(),
  providerName: Type.String(),
  issuer: Type.String(),
  audience: Type.String(),
  subject: Type.String(),
  ...timestamps,
});

/** A user with its credentials (v1User); `userTags` holds tag ids. */
export const UserRecord = Obj({
  userId: Type.String(),
  userName: Type.String(),
  userEmail: Type.Optional(Type.String()),
  userPhoneNumber: Type.Optional(Type.String()),
  /**
   * Extra (not in Turnkey's v1User), beside the field it qualifies: whether `userEmail` was
   * proven by a one-time code (or vouched for by the integrator), which makes it a login identity.
   */
  userEmailVerified: Type.Optional(Type.Boolean()),
  /** Extra: whether `userPhoneNumber` was proven (the same rule). */
  userPhoneNumberVerified: Type.Optional(Type.Boolean()),
  authenticators: Type.Array(AuthenticatorRecord),
  apiKeys: Type.Array(ApiKeyRecord),
  userTags: Type.Array(Type.String()),
  oauthProviders: Type.Array(OauthProviderRecord),
  ...timestamps,
});

/** An HD wallet (v1Wallet). */
export const WalletRecord = Obj({
  walletId: Type.String(),
  walletName: Type.String(),
  ...timestamps,
  exported: Type.Boolean(),
  imported: Type.Boolean(),
});

/** A derived account of a wallet (v1WalletAccount); `walletDetails` only on request. */
export const WalletAccountRecord = Obj({
  walletAccountId: Type.String(),
  organizationId: Type.String(),
  walletId: Type.String(),
  curve: Enum(CURVES),
  pathFormat: Enum(PATH_FORMATS),
  path: Type.String(),
  addressFormat: Enum(ADDRESS_FORMATS),
  address: Type.String(),
  publicKey: Type.String(),
  ...timestamps,
  walletDetails: Type.Optional(WalletRecord),
});

/** A standalone private key (v1PrivateKey); `privateKeyTags` holds tag ids. */
export const PrivateKeyRecord = Obj({
  privateKeyId: Type.String(),
  publicKey: Type.String(),
  privateKeyName: Type.String(),
  curve: Enum(CURVES),
  addresses: Type.Array(AddressEntry),
  privateKeyTags: Type.Array(Type.String()),
  exported: Type.Boolean(),
  imported: Type.Boolean(),
  ...timestamps,
});

/** A policy (v1Policy); absent condition/consensus/notes read as empty strings, as in Turnkey. */
export const PolicyRecord = Obj({
  policyId: Type.String(),
  policyName: Type.String(),
  effect: Enum(POLICY_EFFECTS),
  ...timestamps,
  notes: Type.String(),
  consensus: Type.String(),
  condition: Type.String(),
});

/** A user or private key tag (datav1Tag). */
export const TagRecord = Obj({
  tagId: Type.String(),
  tagName: Type.String(),
  tagType: Enum(TAG_TYPES),
  ...timestamps,
});

/** An OAuth 2.0 client credential (v1Oauth2Credential); the secret stays encrypted. */
export const Oauth2CredentialRecord = Obj({
  oauth2CredentialId: Type.String(),
  organizationId: Type.String(),
  provider: Enum(OAUTH2_PROVIDERS),
  clientId: Type.String(),
  encryptedClientSecret: Type.String(),
  ...timestamps,
});

/** A stored ABI or IDL (externaldatav1SmartContractInterface). */
export const SmartContractInterfaceRecord = Obj({
  organizationId: Type.String(),
  smartContractInterfaceId: Type.String(),
  smartContractAddress: Type.String(),
  smartContractInterface: Type.String(),
  type: Enum(SMART_CONTRACT_INTERFACE_TYPES),
  label: Type.String(),
  notes: Type.String(),
  ...timestamps,
});

/** A quorum: approvals needed and its members (externaldatav1Quorum). */
export const Quorum = Obj({ threshold: Type.Integer({ minimum: 1 }), userIds: Type.Array(Type.String()) });

/** Organization configuration: features and root quorum (v1Config). */
export const OrganizationConfigs = Obj({ features: Type.Array(Feature), quorum: Quorum });
