import type { Activity, ActivityReply, ActivityStatus, Vote } from '@walletkit/protocol';
import type { activities, activityVotes } from '../store/schema';

type ActivityRow = typeof activities.$inferSelect;
type VoteRow = typeof activityVotes.$inferSelect;

/** The wire activity record of a stored row (spec "Activity record", DESIGN section 2). */
export function toActivity(row: ActivityRow, votes: VoteRow[]): Activity {
  const pending = row.status === 'ACTIVITY_STATUS_CONSENSUS_NEEDED';
  const activity: Activity = {
    id: row.id,
    organizationId: row.organizationId,
    status: row.status as ActivityStatus,
    type: row.type,
    intent: row.intent,
    result: row.result,
    votes: votes.map(
      (v): Vote => ({
        id: v.id,
        userId: v.userId,
        activityId: v.activityId,
        selection: v.selection as Vote['selection'],
        createdAt: v.createdAt.toISOString(),
      }),
    ),
    fingerprint: row.fingerprint,
    canApprove: pending,
    canReject: pending,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
  if (row.appProofs) activity.appProofs = row.appProofs as Activity['appProofs'];
  return activity;
}

/** Reply of a submit: the record under `activity`, key fields mirrored at the top level. */
export function toReply(row: ActivityRow, votes: VoteRow[]): ActivityReply {
  const activity = toActivity(row, votes);
  return {
    activity,
    id: activity.id,
    status: activity.status,
    type: activity.type,
    organizationId: activity.organizationId,
    timestampMs: row.timestampMs,
    result: activity.result,
  };
}
