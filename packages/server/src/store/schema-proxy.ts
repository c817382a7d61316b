// Tables of the authentication proxy (issue 3); re-exported by schema.ts. Must match migrations/*.sql.
import { boolean, jsonb, pgTable, primaryKey, text, uniqueIndex, index } from 'drizzle-orm/pg-core';
import type { ProxySettings } from '../proxy/settings.js';
import { ts } from './schema-columns.js';
import type { Sealed } from '../enclave/types.js';
import { organizations, users } from './schema.js';

/** One authentication proxy configuration per organization (the "dashboard" settings). */
export const proxyConfigs = pgTable(
  'proxy_configs',
  {
    /** The value clients send in X-Auth-Proxy-Config-Id. */
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    enabled: boolean('enabled').notNull().default(true),
    /** Every setting of the spec's table, validated by proxy/settings.ts. */
    settings: jsonb('settings').$type<ProxySettings>().notNull(),
    /** The proxy user (users.is_proxy) and its proxy-scoped P-256 API key. */
    proxyUserId: text('proxy_user_id')
      .notNull()
      .references(() => users.id),
    proxyApiPublicKey: text('proxy_api_public_key').notNull(),
    /** HPKE ciphertext (to the enclave at-rest key) of the proxy API private key. */
    proxyApiPrivateKeyEncrypted: jsonb('proxy_api_private_key_encrypted').$type<Sealed>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('proxy_configs_org_uq').on(t.organizationId)],
);

/**
 * Identities (email, phone, OIDC issuer|subject|audience, passkey credential id, API public key)
 * of sub-organizations under a parent: the unique index makes "one sub-organization per contact
 * or identity" hold when signups race, and account lookups read it.
 */
export const subOrganizationIdentities = pgTable(
  'sub_org_identities',
  {
    parentOrganizationId: text('parent_organization_id')
      .notNull()
      .references(() => organizations.id),
    /** EMAIL | PHONE_NUMBER | OIDC | CREDENTIAL_ID | PUBLIC_KEY */
    kind: text('kind').notNull(),
    /** Normalized value (lowercased email, E.164 phone, `iss|sub|aud`, base64url id, hex key). */
    value: text('value').notNull(),
    subOrganizationId: text('sub_organization_id')
      .notNull()
      .references(() => organizations.id),
  },
  (t) => [primaryKey({ columns: [t.parentOrganizationId, t.kind, t.value] }), index('sub_org_identities_sub_idx').on(t.subOrganizationId)],
);
