/**
 * Reads of users and their credentials (get_user, list_users, get_api_keys,
 * get_authenticators) and of OAuth 2.0 credentials. Scoped to the request's organization;
 * secrets never appear (client secrets only as the ciphertext to the enclave key).
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { AuthenticatorTransport, Oauth2Provider, QueryResponseOf } from '@walletkit/protocol';
import { ApiError } from '../../errors.js';
import type { Db } from '../../store/db.js';
import { apiKeys, authenticators, oauth2Credentials, oauthProviders, userTagMembers, users } from '../../store/schema.js';
import { credentialPublicKeyHex } from '../webauthn.js';
import type { QueryTable } from './context.js';

type UserRecord = QueryResponseOf<'get_user'>['user'];
type ApiKeyRecord = UserRecord['apiKeys'][number];
type AuthenticatorRecord = UserRecord['authenticators'][number];
type OauthProviderRecord = UserRecord['oauthProviders'][number];
type Oauth2CredentialRecord = QueryResponseOf<'get_oauth2_credential'>['oauth2Credential'];

const CREDENTIAL_TYPE_OF_CURVE = {
  API_KEY_CURVE_P256: 'CREDENTIAL_TYPE_API_KEY_P256',
  API_KEY_CURVE_SECP256K1: 'CREDENTIAL_TYPE_API_KEY_SECP256K1',
  API_KEY_CURVE_ED25519: 'CREDENTIAL_TYPE_API_KEY_ED25519',
} as const;

function apiKeyRecord(row: typeof apiKeys.$inferSelect): ApiKeyRecord {
  const type = row.isSession ? 'CREDENTIAL_TYPE_LOGIN' : CREDENTIAL_TYPE_OF_CURVE[row.curve as keyof typeof CREDENTIAL_TYPE_OF_CURVE];
  const record: ApiKeyRecord = {
    credential: { publicKey: row.publicKey, type },
    apiKeyId: row.id,
    apiKeyName: row.name,
    createdAt: row.createdAt.toISOString(),
    // API keys are immutable: created is also the last update.
    updatedAt: row.createdAt.toISOString(),
  };
  if (row.expiresAt) record.expirationSeconds = String(Math.round((row.expiresAt.getTime() - row.createdAt.getTime()) / 1000));
  return record;
}

function authenticatorRecord(row: typeof authenticators.$inferSelect): AuthenticatorRecord {
  return {
    transports: row.transports as AuthenticatorTransport[],
    attestationType: row.attestationFormat,
    aaguid: row.aaguid,
    credentialId: row.credentialId,
    // No metadata service is consulted; the model is unknown.
    model: '',
    credential: { publicKey: credentialPublicKeyHex(row.credentialPublicKey), type: 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR' },
    authenticatorId: row.id,
    authenticatorName: row.name,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.createdAt.toISOString(),
  };
}

function oauthProviderRecord(row: typeof oauthProviders.$inferSelect): OauthProviderRecord {
  return {
    providerId: row.id,
    providerName: row.providerName,
    issuer: row.issuer,
    audience: row.audience,
    subject: row.subject,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.createdAt.toISOString(),
  };
}

function oauth2CredentialRecord(row: typeof oauth2Credentials.$inferSelect): Oauth2CredentialRecord {
  return {
    oauth2CredentialId: row.id,
    organizationId: row.organizationId,
    provider: row.provider as Oauth2Provider,
    clientId: row.clientId,
    encryptedClientSecret: JSON.stringify(row.clientSecretEncrypted),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Users of an organization with all their credentials and tags, in creation order. */
async function loadUsers(db: Db, organizationId: string, userId?: string): Promise<UserRecord[]> {
  const userRows = await db
    .select()
    .from(users)
    .where(userId === undefined ? eq(users.organizationId, organizationId) : and(eq(users.organizationId, organizationId), eq(users.id, userId)))
    .orderBy(asc(users.createdAt), asc(users.id));
  if (userRows.length === 0) return [];
  const ids = userRows.map((u) => u.id);
  const [keys, passkeys, providers, tags] = await Promise.all([
    db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.organizationId, organizationId), inArray(apiKeys.userId, ids)))
      .orderBy(asc(apiKeys.createdAt)),
    db
      .select()
      .from(authenticators)
      .where(and(eq(authenticators.organizationId, organizationId), inArray(authenticators.userId, ids)))
      .orderBy(asc(authenticators.createdAt)),
    db
      .select()
      .from(oauthProviders)
      .where(and(eq(oauthProviders.organizationId, organizationId), inArray(oauthProviders.userId, ids)))
      .orderBy(asc(oauthProviders.createdAt)),
    db.select().from(userTagMembers).where(inArray(userTagMembers.userId, ids)),
  ]);
  return userRows.map((u) => {
    const record: UserRecord = {
      userId: u.id,
      userName: u.userName,
      authenticators: passkeys.filter((p) => p.userId === u.id).map(authenticatorRecord),
      apiKeys: keys.filter((k) => k.userId === u.id).map(apiKeyRecord),
      userTags: tags.filter((t) => t.userId === u.id).map((t) => t.tagId),
      oauthProviders: providers.filter((p) => p.userId === u.id).map(oauthProviderRecord),
      createdAt: u.createdAt.toISOString(),
      updatedAt: u.updatedAt.toISOString(),
    };
    if (u.userEmail !== null) Object.assign(record, { userEmail: u.userEmail, userEmailVerified: u.emailVerified });
    if (u.userPhoneNumber !== null) Object.assign(record, { userPhoneNumber: u.userPhoneNumber, userPhoneNumberVerified: u.phoneVerified });
    return record;
  });
}

async function requireUserRecord(db: Db, organizationId: string, userId: string): Promise<UserRecord> {
  const [user] = await loadUsers(db, organizationId, userId);
  if (!user) throw new ApiError('ERR_USER_NOT_FOUND', `user ${userId} not found in this organization`, 'userId');
  return user;
}

export const userQueries = {
  get_user: async (request, ctx) => ({ user: await requireUserRecord(ctx.db, ctx.organizationId, request.userId) }),

  list_users: async (_request, ctx) => ({ users: await loadUsers(ctx.db, ctx.organizationId) }),

  /** Keys of `userId`, or of the caller when absent (who must then be a user of this organization). */
  get_api_keys: async (request, ctx) => {
    const userId = request.userId ?? ctx.caller.userId;
    const user = await requireUserRecord(ctx.db, ctx.organizationId, userId);
    return { apiKeys: user.apiKeys };
  },

  get_authenticators: async (request, ctx) => {
    const user = await requireUserRecord(ctx.db, ctx.organizationId, request.userId);
    return { authenticators: user.authenticators };
  },

  get_oauth2_credential: async (request, ctx) => {
    const [row] = await ctx.db
      .select()
      .from(oauth2Credentials)
      .where(and(eq(oauth2Credentials.id, request.oauth2CredentialId), eq(oauth2Credentials.organizationId, ctx.organizationId)));
    if (!row)
      throw new ApiError('ERR_OAUTH2_CREDENTIAL_NOT_FOUND', `no OAuth 2.0 credential ${request.oauth2CredentialId} in this organization`, 'oauth2CredentialId');
    return { oauth2Credential: oauth2CredentialRecord(row) };
  },

  list_oauth2_credentials: async (_request, ctx) => {
    const rows = await ctx.db
      .select()
      .from(oauth2Credentials)
      .where(eq(oauth2Credentials.organizationId, ctx.organizationId))
      .orderBy(asc(oauth2Credentials.createdAt), asc(oauth2Credentials.id));
    return { oauth2Credentials: rows.map(oauth2CredentialRecord) };
  },
} satisfies QueryTable;
