/**
 * One PostgreSQL schema for both databases (PGlite embedded, PostgreSQL scale-out).
 * Column names are snake_case in SQL, camelCase in TypeScript. Secrets (seeds, private
 * keys, proxy API keys, OAuth client secrets) are stored only sealed with the enclave's at-rest
 * key (`*_encrypted` columns hold the JSON `{nonce, ciphertext}` of AES-256-GCM, or the HPKE
 * `{encappedPublic, ciphertext}` of callers' secrets and older values: enclave/at-rest.ts).
 * migrations/*.sql must match this file.
 */
import { bigint, boolean, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, index } from 'drizzle-orm/pg-core';
import type { Sealed } from '../enclave/types.js';
import { created, ts, updated } from './schema-columns.js';

export const organizations = pgTable(
  'organizations',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** Parent organization of a sub-organization (one per end user); null for a top-level org. */
    parentOrganizationId: text('parent_organization_id'),
    rootQuorumThreshold: integer('root_quorum_threshold').notNull().default(1),
    /**
     * Bumped by triggers at every change of what the server caches about the organization (its
     * users, API keys, root quorum, proxy, policies, wallets, accounts and private keys; migration
     * 0009): the version a cached fact was read at, checked by the activity's INSERT.
     */
    authVersion: bigint('auth_version', { mode: 'number' }).notNull().default(0),
    createdAt: created(),
    updatedAt: updated(),
  },
  // Sub-organizations of a parent (get_sub_org_ids, signup/login lookups).
  (t) => [index('organizations_parent_idx').on(t.parentOrganizationId)],
);

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    userName: text('user_name').notNull(),
    userEmail: text('user_email'),
    userPhoneNumber: text('user_phone_number'),
    emailVerified: boolean('email_verified').notNull().default(false),
    phoneVerified: boolean('phone_verified').notNull().default(false),
    /** The authentication proxy's user: may run only the auth-flow activities (authorize.ts). */
    isProxy: boolean('is_proxy').notNull().default(false),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    index('users_org_idx').on(t.organizationId),
    // Find the user (and so the sub-organization) by contact at OTP signup/login.
    index('users_email_idx').on(t.userEmail),
    index('users_phone_idx').on(t.userPhoneNumber),
  ],
);

/** Members of an organization's root quorum. */
export const rootQuorumMembers = pgTable(
  'root_quorum_members',
  {
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.userId] })],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    /** Compressed P-256 / secp256k1 hex, or raw ed25519 hex. */
    publicKey: text('public_key').notNull(),
    /** API_KEY_CURVE_P256 | API_KEY_CURVE_SECP256K1 | API_KEY_CURVE_ED25519 */
    curve: text('curve').notNull(),
    expiresAt: ts('expires_at'),
    /** True for keys registered by stamp_login / otp_login / oauth_login (session keys). */
    isSession: boolean('is_session').notNull().default(false),
    createdAt: created(),
  },
  (t) => [
    /** One holder per public key in an organization (0013, decision 0033); also its keys by organization. */
    uniqueIndex('api_keys_org_public_key_uq').on(t.organizationId, t.publicKey),
    index('api_keys_public_key_idx').on(t.publicKey),
  ],
);

export const authenticators = pgTable(
  'authenticators',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    /** base64url credential id. */
    credentialId: text('credential_id').notNull(),
    /** base64url COSE public key from the attestation. */
    credentialPublicKey: text('credential_public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    aaguid: text('aaguid').notNull().default(''),
    attestationFormat: text('attestation_format').notNull().default('none'),
    createdAt: created(),
  },
  (t) => [
    uniqueIndex('authenticators_credential_uq').on(t.organizationId, t.credentialId),
    // Passkey login knows the credential id before it knows the organization.
    index('authenticators_credential_idx').on(t.credentialId),
  ],
);

export const oauthProviders = pgTable(
  'oauth_providers',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    providerName: text('provider_name').notNull(),
    issuer: text('issuer').notNull(),
    audience: text('audience').notNull(),
    subject: text('subject').notNull(),
    createdAt: created(),
  },
  (t) => [
    uniqueIndex('oauth_providers_identity_uq').on(t.organizationId, t.issuer, t.subject, t.audience),
    // OAuth login finds the sub-organization from the token's issuer + subject.
    index('oauth_providers_issuer_subject_idx').on(t.issuer, t.subject),
  ],
);

export const wallets = pgTable(
  'wallets',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    /** HPKE ciphertext (to the at-rest key) of the BIP39 mnemonic. */
    mnemonicEncrypted: jsonb('mnemonic_encrypted').$type<Sealed>().notNull(),
    mnemonicLength: integer('mnemonic_length').notNull(),
    imported: boolean('imported').notNull().default(false),
    exported: boolean('exported').notNull().default(false),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [uniqueIndex('wallets_org_name_uq').on(t.organizationId, t.name)],
);

export const walletAccounts = pgTable(
  'wallet_accounts',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    walletId: text('wallet_id')
      .notNull()
      .references(() => wallets.id),
    curve: text('curve').notNull(),
    pathFormat: text('path_format').notNull(),
    path: text('path').notNull(),
    addressFormat: text('address_format').notNull(),
    address: text('address').notNull(),
    publicKey: text('public_key').notNull(),
    /**
     * HPKE ciphertext (to the at-rest key) of the account's private key, so a signature opens one
     * key instead of deriving it from the mnemonic (migration 0007); null for accounts stored
     * before, filled at their first signature.
     */
    privateKeyEncrypted: jsonb('private_key_encrypted').$type<Sealed>(),
    createdAt: created(),
  },
  (t) => [
    uniqueIndex('wallet_accounts_uq').on(t.walletId, t.path, t.curve, t.addressFormat),
    index('wallet_accounts_address_idx').on(t.organizationId, t.address),
  ],
);

export const privateKeys = pgTable(
  'private_keys',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    curve: text('curve').notNull(),
    /** HPKE ciphertext (to the at-rest key) of the raw private key. */
    privateKeyEncrypted: jsonb('private_key_encrypted').$type<Sealed>().notNull(),
    publicKey: text('public_key').notNull(),
    /** [{format, address}] derived at creation. */
    addresses: jsonb('addresses').$type<Array<{ format: string; address: string }>>().notNull().default([]),
    imported: boolean('imported').notNull().default(false),
    exported: boolean('exported').notNull().default(false),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [uniqueIndex('private_keys_org_name_uq').on(t.organizationId, t.name)],
);

export const policies = pgTable(
  'policies',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    effect: text('effect').notNull(),
    condition: text('condition'),
    consensus: text('consensus'),
    notes: text('notes').notNull().default(''),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [uniqueIndex('policies_org_name_uq').on(t.organizationId, t.name)],
);

export const userTags = pgTable(
  'user_tags',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [uniqueIndex('user_tags_org_name_uq').on(t.organizationId, t.name)],
);

export const userTagMembers = pgTable(
  'user_tag_members',
  {
    tagId: text('tag_id')
      .notNull()
      .references(() => userTags.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
  },
  (t) => [primaryKey({ columns: [t.tagId, t.userId] })],
);

export const privateKeyTags = pgTable(
  'private_key_tags',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [uniqueIndex('private_key_tags_org_name_uq').on(t.organizationId, t.name)],
);

export const privateKeyTagMembers = pgTable(
  'private_key_tag_members',
  {
    tagId: text('tag_id')
      .notNull()
      .references(() => privateKeyTags.id, { onDelete: 'cascade' }),
    privateKeyId: text('private_key_id')
      .notNull()
      .references(() => privateKeys.id),
  },
  (t) => [primaryKey({ columns: [t.tagId, t.privateKeyId] })],
);

export const smartContractInterfaces = pgTable('smart_contract_interfaces', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id),
  smartContractAddress: text('smart_contract_address').notNull(),
  smartContractInterface: text('smart_contract_interface').notNull(),
  type: text('type').notNull(),
  label: text('label').notNull(),
  notes: text('notes').notNull().default(''),
  createdAt: created(),
});

export const oauth2Credentials = pgTable('oauth2_credentials', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id),
  provider: text('provider').notNull(),
  clientId: text('client_id').notNull(),
  /** HPKE ciphertext (to the at-rest key) of the client secret. */
  clientSecretEncrypted: jsonb('client_secret_encrypted').$type<Sealed>().notNull(),
  createdAt: created(),
  updatedAt: updated(),
});

export const organizationFeatures = pgTable(
  'organization_features',
  {
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    value: text('value').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.name] })],
);

/** What spent a verification token (decision 0020): a signup may be followed by one login of its sub-organization. */
export type VerificationTokenPurpose = 'use' | 'signup' | 'login';

/**
 * Verification tokens (OTP) already consumed, across server instances: a token logs in at
 * most once, and its only other use is one signup before that login, for the sub-organization
 * the signup created (`sub_organization_id`); any other second use is refused.
 */
export const usedVerificationTokens = pgTable('used_verification_tokens', {
  tokenId: text('token_id').primaryKey(),
  usedAt: ts('used_at').notNull().defaultNow(),
  purpose: text('purpose').$type<VerificationTokenPurpose>().notNull().default('use'),
  subOrganizationId: text('sub_organization_id'),
});

/**
 * HPKE target keys already used by an export of the organization (export_wallet,
 * export_wallet_account, export_private_key): a target key is a one-time key, so a second
 * export to it is refused (ERR_TARGET_KEY_REUSED).
 */
export const usedExportTargets = pgTable(
  'used_export_targets',
  {
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    /** Uncompressed P-256 hex, lowercase (one spelling per key). */
    targetPublicKey: text('target_public_key').notNull(),
    usedAt: ts('used_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.targetPublicKey] })],
);

/** Enclave key material, encrypted under the master key (embedded mode keeps it here). */
export const enclaveKeys = pgTable('enclave_keys', {
  name: text('name').primaryKey(),
  /** JSON `{iv, ciphertext}` hex, AES-256-GCM under the master key. */
  sealed: jsonb('sealed').$type<{ iv: string; ciphertext: string }>().notNull(),
  createdAt: created(),
});

// Tables of one concern live in their own files (re-exported here so one schema object covers all).
export * from './schema-activity.js';
export * from './schema-tvc.js';
export * from './schema-proxy.js';
export * from './schema-otp.js';
