/**
 * The one INSERT that stores an activity, guarded: each row is written only if the organizations
 * its caller's facts were read from still have the versions they had then (facts.ts,
 * migration 0009). A row the guard holds back is `stale`: its request is authenticated and
 * authorized again on fresh facts (`StaleFacts`, plugin.ts), so no activity commits on facts that
 * another server process changed after they were cached. Rows are written in one statement,
 * several at once for the group commit (completed-writer.ts).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../store/db.js';
import type { activities } from '../store/schema.js';
import type { OrgVersion } from './facts.js';

export type ActivityRow = typeof activities.$inferSelect;

/** A complete activity row as it will be stored, and the versions it depends on. */
export interface GuardedRow {
  row: ActivityRow;
  /** At most two (the target organization and its parent); none for an unguarded row. */
  guard: readonly OrgVersion[];
}

/**
 * Thrown when an activity's facts changed after they were read (the guard held its row back):
 * nothing of the request was stored; it runs again from authentication.
 */
export class StaleFacts extends Error {
  constructor(readonly organizations: readonly string[]) {
    super('the facts of this request changed while it ran');
    this.name = 'StaleFacts';
  }
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

function valuesOf({ row, guard }: GuardedRow): SQL {
  if (guard.length > 2) throw new Error('an activity depends on at most two organizations');
  const [g1, g2] = guard;
  return sql`(${row.id}, ${row.organizationId}, ${row.type}, ${row.status}, ${row.fingerprint}, ${row.timestampMs}, ${row.userId},
    ${json(row.intent)}::jsonb, ${json(row.result)}::jsonb, ${json(row.appProofs)}::jsonb, ${row.generateAppProofs}::boolean, ${json(row.failure)}::jsonb,
    ${row.createdAt.toISOString()}::timestamptz, ${row.updatedAt.toISOString()}::timestamptz,
    ${g1?.[0] ?? null}::text, ${g1 ? String(g1[1]) : null}::bigint, ${g2?.[0] ?? null}::text, ${g2 ? String(g2[1]) : null}::bigint)`;
}

/**
 * The INSERT of `rows` where their guards hold, returning the ids written. With `skipConflicts` a
 * row whose fingerprint is already stored is skipped (the group commit); without, it raises the
 * unique violation (a transaction that must roll back).
 */
export function activitiesInsert(rows: readonly GuardedRow[], opts: { skipConflicts: boolean }): SQL {
  return sql`
    INSERT INTO activities (id, organization_id, type, status, fingerprint, timestamp_ms, user_id, intent, result, app_proofs, generate_app_proofs, failure, created_at, updated_at)
    SELECT v.id, v.organization_id, v.type, v.status, v.fingerprint, v.timestamp_ms, v.user_id, v.intent, v.result, v.app_proofs, v.generate_app_proofs, v.failure, v.created_at, v.updated_at
    FROM (VALUES ${sql.join(rows.map(valuesOf), sql`, `)})
      AS v(id, organization_id, type, status, fingerprint, timestamp_ms, user_id, intent, result, app_proofs, generate_app_proofs, failure, created_at, updated_at, g1_org, g1_version, g2_org, g2_version)
    WHERE (v.g1_org IS NULL OR EXISTS (SELECT 1 FROM organizations o WHERE o.id = v.g1_org AND o.auth_version = v.g1_version))
      AND (v.g2_org IS NULL OR EXISTS (SELECT 1 FROM organizations o WHERE o.id = v.g2_org AND o.auth_version = v.g2_version))
    ${opts.skipConflicts ? sql`ON CONFLICT DO NOTHING` : sql``}
    RETURNING id`;
}

/** `activitiesInsert` in a transaction (or on any drizzle executor); the ids written. */
export async function insertActivities(db: Executor, rows: readonly GuardedRow[], opts: { skipConflicts: boolean }): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const result = (await db.execute(activitiesInsert(rows, opts))) as unknown as { rows: Array<{ id: string }> };
  return new Set(result.rows.map((r) => r.id));
}
