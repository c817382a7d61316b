/**
 * An activity's stored row read back: the winner of racing copies (by fingerprint), the reply it
 * gives a caller, and the failure it recorded (a replay answers exactly the same body); and a
 * refusal stored as a FAILED row (execute.ts answers a 4xx with it).
 */
import { and, asc, eq } from 'drizzle-orm';
import type { ActivityReply } from '@walletkit/protocol';
import { ApiError } from '../errors.js';
import type { Store, Tx } from '../store/db.js';
import { activities, activityVotes } from '../store/schema.js';
import type { ActivityRow } from './activity-insert.js';
import type { Caller } from './context.js';
import type { SubmitInput } from './execute.js';
import { newSortableId } from '../store/ids.js';
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

/**
 * What a racing copy's stored row answers a caller: the failure it recorded, thrown, or its reply.
 * @throws ApiError the row's recorded failure
 */
export async function answerOf(db: Store['db'] | Tx, winner: ActivityRow, caller: Caller): Promise<ActivityReply> {
  const failed = failureOf(winner);
  if (failed) throw failed;
  return replyOf(db, winner, caller);
}

/** The stored row of an identical body (same fingerprint) in the organization, if any. */
export async function findByFingerprint(db: Store['db'] | Tx, organizationId: string, fingerprint: string) {
  const [row] = await db
    .select()
    .from(activities)
    .where(and(eq(activities.organizationId, organizationId), eq(activities.fingerprint, fingerprint)));
  return row;
}

/**
 * Store a refusal raised while an activity ran (a 4xx; its transaction rolled back) as a FAILED
 * activity, so that a replay of the exact body answers the same refusal instead of running later
 * against changed state: a refused create_api_keys replayed after the key's revocation would
 * otherwise bring the key back. 5xx are not stored (a retry may succeed). When a racing copy
 * stored its outcome first, that outcome is the answer.
 * @throws ApiError `error`, or the failure a racing copy stored
 */
export async function storeRefusal(db: Store['db'], now: Date, input: SubmitInput, error: ApiError): Promise<ActivityReply> {
  let stored: unknown[];
  try {
    stored = await db
      .insert(activities)
      .values({
        id: newSortableId(),
        organizationId: input.organizationId,
        type: input.descriptor.type,
        status: 'ACTIVITY_STATUS_FAILED',
        fingerprint: input.fingerprint,
        timestampMs: input.timestampMs,
        userId: input.caller.userId,
        // Refused parameters are not kept: they were never accepted, and a bundle refused
        // for not being ciphertext may be the mnemonic, key, code or client secret in clear.
        intent: { [input.descriptor.intentKey]: {} },
        result: {},
        generateAppProofs: input.generateAppProofs,
        failure: failureRecord(error),
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: activities.id });
  } catch {
    // The store failed after the refusal was decided: the refusal is still the answer.
    throw error;
  }
  if (stored.length > 0) throw error;
  const winner = await findByFingerprint(db, input.organizationId, input.fingerprint);
  if (!winner) throw error;
  return answerOf(db, winner, input.caller);
}
