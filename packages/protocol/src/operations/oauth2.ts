import { Type } from '@sinclair/typebox';
import { defineOperation, Obj, Enum } from '../descriptor.js';
import { OAUTH2_PROVIDERS } from '../enums.js';
import { Id, PublicKeyHex } from '../fields.js';

/**
 * Spec B: store an OAuth 2.0 client (X, Discord) whose secret is encrypted to the enclave.
 * @example { provider: 'OAUTH2_PROVIDER_DISCORD', clientId: '123', encryptedClientSecret: '{"encappedPublic":..}' }
 */
export const createOauth2Credential = defineOperation({
  name: 'create_oauth2_credential',
  spec: true,
  parameters: Obj({
    provider: Enum(OAUTH2_PROVIDERS),
    clientId: Type.String({ minLength: 1, maxLength: 1024 }),
    encryptedClientSecret: Type.String({ minLength: 1, maxLength: 8192 }),
  }),
  result: Obj({ oauth2CredentialId: Type.String() }),
});

/**
 * Spec B: exchange an authorization code (PKCE) with the provider and return an OIDC token
 * issued by this service, to be used with oauth_login. `nonce` is required because the
 * proxy's oauth2_authenticate always sends it and oauth_login checks it; the bearer-token
 * target is optional as in Turnkey.
 * @example { oauth2CredentialId, authCode, redirectUri: 'https://app.example/cb', codeVerifier, nonce } // -> { oidcToken }
 */
export const oauth2Authenticate = defineOperation({
  name: 'oauth2_authenticate',
  spec: true,
  parameters: Obj({
    oauth2CredentialId: Id,
    authCode: Type.String({ minLength: 1, maxLength: 4096 }),
    redirectUri: Type.String({ minLength: 1, maxLength: 2048 }),
    /** RFC 7636 section 4.1: 43 to 128 characters. */
    codeVerifier: Type.String({ minLength: 43, maxLength: 128, pattern: '^[A-Za-z0-9._~-]+$' }),
    nonce: Type.String({ minLength: 1, maxLength: 256 }),
    bearerTokenTargetPublicKey: Type.Optional(PublicKeyHex),
  }),
  result: Obj({ oidcToken: Type.String() }),
});
