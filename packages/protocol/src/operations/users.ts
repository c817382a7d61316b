import { Type } from '@sinclair/typebox';
import { defineOperation, Obj } from '../descriptor.js';
import { Email, Id, Jwt, MAX_ITEMS } from '../fields.js';
import { ApiKeyParams, AuthenticatorParams, OauthProviderParams, UserParams } from '../params.js';

const NonEmptyIds = Type.Array(Id, { minItems: 1, maxItems: MAX_ITEMS });

/**
 * Extra (Turnkey ACTIVITY_TYPE_CREATE_USERS_V4, current; V3 differs only in that its OAuth
 * providers take `oidcToken` alone): create users with their credentials.
 * @example { users: [{ userName: 'alice', apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] }
 */
export const createUsers = defineOperation({
  name: 'create_users',
  spec: false,
  parameters: Obj({ users: Type.Array(UserParams, { minItems: 1, maxItems: MAX_ITEMS }) }),
  result: Obj({ userIds: Type.Array(Type.String()) }),
});

/**
 * Spec B: set or clear (empty string) a user's phone number. `verificationToken` is optional as
 * in Turnkey; when given, its contact must equal the number, which is then marked verified.
 * @example { userId, userPhoneNumber: '+13214567890', verificationToken }
 */
export const updateUserPhoneNumber = defineOperation({
  name: 'update_user_phone_number',
  spec: true,
  parameters: Obj({
    userId: Id,
    userPhoneNumber: Type.String({ pattern: '^(\\+[1-9][0-9]{1,14})?$' }),
    verificationToken: Type.Optional(Jwt),
  }),
  result: Obj({ userId: Type.String() }),
});

/**
 * Extra (Turnkey ACTIVITY_TYPE_UPDATE_USER_EMAIL): set or clear (empty string) a user's email.
 * With `verificationToken` (an email OTP proof for exactly this address) the email is stored
 * as verified and becomes a login identity; otherwise it is profile data (SECURITY.md).
 * @example { userId, userEmail: 'a@example.com', verificationToken }
 */
export const updateUserEmail = defineOperation({
  name: 'update_user_email',
  spec: false,
  parameters: Obj({
    userId: Id,
    userEmail: Type.Union([Email, Type.Literal('')]),
    verificationToken: Type.Optional(Jwt),
  }),
  result: Obj({ userId: Type.String() }),
});

/**
 * Spec B: finish a user recovery by registering a new passkey.
 * @example { userId, authenticator: { authenticatorName: 'laptop', challenge, attestation: { credentialId, clientDataJson, attestationObject, transports: ['AUTHENTICATOR_TRANSPORT_INTERNAL'] } } }
 */
export const recoverUser = defineOperation({
  name: 'recover_user',
  spec: true,
  parameters: Obj({ authenticator: AuthenticatorParams, userId: Id }),
  /** The spec names the field in the singular though it is a list (as in Turnkey). */
  result: Obj({ authenticatorId: Type.Array(Type.String()) }),
});

/**
 * Extra (Turnkey ACTIVITY_TYPE_CREATE_API_KEYS_V2): add API keys to a user.
 * @example { userId, apiKeys: [{ apiKeyName: 'ci', publicKey: '02ab...', curveType: 'API_KEY_CURVE_P256' }] }
 */
export const createApiKeys = defineOperation({
  name: 'create_api_keys',
  spec: false,
  parameters: Obj({ apiKeys: Type.Array(ApiKeyParams, { minItems: 1, maxItems: MAX_ITEMS }), userId: Id }),
  result: Obj({ apiKeyIds: Type.Array(Type.String()) }),
});

/** Extra (Turnkey ACTIVITY_TYPE_DELETE_API_KEYS): remove API keys of a user. @example { userId, apiKeyIds: [id] } */
export const deleteApiKeys = defineOperation({
  name: 'delete_api_keys',
  spec: false,
  parameters: Obj({ userId: Id, apiKeyIds: NonEmptyIds }),
  result: Obj({ apiKeyIds: Type.Array(Type.String()) }),
});

/**
 * Extra (Turnkey ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2): add passkeys to a user.
 * @example { userId, authenticators: [{ authenticatorName: 'phone', challenge, attestation }] }
 */
export const createAuthenticators = defineOperation({
  name: 'create_authenticators',
  spec: false,
  parameters: Obj({
    authenticators: Type.Array(AuthenticatorParams, { minItems: 1, maxItems: MAX_ITEMS }),
    userId: Id,
  }),
  result: Obj({ authenticatorIds: Type.Array(Type.String()) }),
});

/** Extra (Turnkey ACTIVITY_TYPE_DELETE_AUTHENTICATORS): remove passkeys of a user. @example { userId, authenticatorIds: [id] } */
export const deleteAuthenticators = defineOperation({
  name: 'delete_authenticators',
  spec: false,
  parameters: Obj({ userId: Id, authenticatorIds: NonEmptyIds }),
  result: Obj({ authenticatorIds: Type.Array(Type.String()) }),
});

/**
 * Extra (Turnkey ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2): link OIDC identities to a user; each
 * entry carries exactly one of `oidcToken` or `oidcClaims`.
 * @example { userId, oauthProviders: [{ providerName: 'google', oidcToken }] }
 */
export const createOauthProviders = defineOperation({
  name: 'create_oauth_providers',
  spec: false,
  parameters: Obj({
    userId: Id,
    oauthProviders: Type.Array(OauthProviderParams, { minItems: 1, maxItems: MAX_ITEMS }),
  }),
  result: Obj({ providerIds: Type.Array(Type.String()) }),
});

/** Extra (Turnkey ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS): unlink OIDC identities. @example { userId, providerIds: [id] } */
export const deleteOauthProviders = defineOperation({
  name: 'delete_oauth_providers',
  spec: false,
  parameters: Obj({ userId: Id, providerIds: NonEmptyIds }),
  result: Obj({ providerIds: Type.Array(Type.String()) }),
});
