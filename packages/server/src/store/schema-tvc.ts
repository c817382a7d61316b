// Tables of TVC (verifiable compute) manifests and their operators' approvals; re-exported by schema.ts. Must match migrations/*.sql.
import { integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations } from './schema.js';
import { created } from './schema-columns.js';

/** TVC (verifiable compute) manifests awaiting operator approvals. */
export const tvcManifests = pgTable('tvc_manifests', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id),
  /** The manifest document as submitted (JSON text); operators sign SHA-256 of its UTF-8 bytes. */
  manifest: text('manifest').notNull(),
  manifestHash: text('manifest_hash').notNull(),
  threshold: integer('threshold').notNull(),
  createdAt: created(),
});

export const tvcOperators = pgTable(
  'tvc_operators',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    manifestId: text('manifest_id')
      .notNull()
      .references(() => tvcManifests.id),
    name: text('name').notNull(),
    /** Compressed P-256 hex. */
    publicKey: text('public_key').notNull(),
  },
  (t) => [uniqueIndex('tvc_operators_uq').on(t.manifestId, t.publicKey)],
);

export const tvcManifestApprovals = pgTable(
  'tvc_manifest_approvals',
  {
    id: text('id').primaryKey(),
    manifestId: text('manifest_id')
      .notNull()
      .references(() => tvcManifests.id),
    operatorId: text('operator_id')
      .notNull()
      .references(() => tvcOperators.id),
    signature: text('signature').notNull(),
    createdAt: created(),
  },
  (t) => [uniqueIndex('tvc_manifest_approvals_uq').on(t.manifestId, t.operatorId)],
);
