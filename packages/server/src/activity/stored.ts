/**
 * An activity's stored row read back: the winner of racing copies (by fingerprint), the reply it
 * gives a caller, and the failure it recorded (a replay answers exactly the same body).
 */
import { and, asc, eq } from 'drizzle-orm';
import type { ActivityReply } from '@walletkit/protocol';
import { ApiError } from '../errors.js';
import type { Store, Tx } from '../store/db.js';
import { activities, activityVotes } from '../store/schema.js';
import type { ActivityRow } from './activity-insert.js';
import type { Caller } from './context.js';
import { toReply } from './record.js';

/** The error a FAILED row recorded (what a replay of its body answers); undefined for any other row. */
export function failureOf(row: ActivityRow): ApiError | undefined {
  if (row.status !== 'ACTIVITY_STATUS_FAILED' || !row.failure) return undefined;
  return new ApiError(row.failure.code as ApiError['code'], row.failure.message, row.failure.field);
}

/** The stored form of a failure: a replay answers exactly the same body. */
export function failureRecord(error: ApiError): NonNullable<ActivityRow['failure']> {
  return { code: error.code, message: error.message, ...(error.field !== undefined ? { field: error.field } : {}) };
}

/** The reply to `caller` (an identical body replayed by another key gets no secret fields: record.ts). */
export async function replyOf(db: Store['db'] | Tx, row: ActivityRow, caller: Caller): Promise<ActivityReply> {
  const votes = await db.select().from(activityVotes).where(eq(activityVotes.activityId, row.id)).orderBy(asc(activityVotes.createdAt));
  return toReply(row, votes, caller.userId);
}

/** The stored row of an identical body (same fingerprint) in the organization, if any. */
export async function findByFingerprint(db: Store['db'] | Tx, organizationId: string, fingerprint: string) {
  const [row] = await db
    .select()
    .from(activities)
    .where(and(eq(activities.organizationId, organizationId), eq(activities.fingerprint, fingerprint)));
  return row;
}
