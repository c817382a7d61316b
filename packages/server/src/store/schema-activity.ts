// Tables of activities and their votes (consensus); re-exported by schema.ts. Must match migrations/*.sql.
import { boolean, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations, users } from './schema.js';
import { created, updated } from './schema-columns.js';

export const activities = pgTable(
  'activities',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    type: text('type').notNull(),
    status: text('status').notNull(),
    /** Lowercase hex SHA-256 of the raw request body (DESIGN section 2, idempotency). */
    fingerprint: text('fingerprint').notNull(),
    timestampMs: text('timestamp_ms').notNull(),
    /** The user whose key stamped the request. */
    userId: text('user_id').notNull(),
    intent: jsonb('intent').$type<Record<string, unknown>>().notNull(),
    result: jsonb('result').$type<Record<string, unknown>>().notNull().default({}),
    appProofs: jsonb('app_proofs').$type<unknown[] | null>(),
    generateAppProofs: boolean('generate_app_proofs').notNull().default(false),
    /** Error code when the activity failed after being accepted (consensus path). */
    failure: jsonb('failure').$type<{ code: string; message: string; field?: string } | null>(),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [uniqueIndex('activities_fingerprint_uq').on(t.organizationId, t.fingerprint), index('activities_org_created_idx').on(t.organizationId, t.createdAt)],
);

export const activityVotes = pgTable(
  'activity_votes',
  {
    id: text('id').primaryKey(),
    activityId: text('activity_id')
      .notNull()
      .references(() => activities.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    selection: text('selection').notNull(),
    createdAt: created(),
  },
  (t) => [uniqueIndex('activity_votes_uq').on(t.activityId, t.userId)],
);
