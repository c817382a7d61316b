import type { Activity, ActivityReply, ActivityStatus, Vote } from '@walletkit/protocol';
import type { activities, activityVotes } from '../store/schema.js';

type ActivityRow = typeof activities.$inferSelect;
type VoteRow = typeof activityVotes.$inferSelect;

/**
 * Fields of intents and results that are bearer secrets of one user: verification tokens,
 * sessions, OIDC tokens and the OAuth authorization code with its PKCE verifier. They are
 * shown to the user who submitted the activity (the reply that issued them, and that user's
 * own reads); every other reader of the organization's activities (the integrator's
 * dashboard, an approver, another key replaying the same body) sees REDACTED.
 */
const SECRET_FIELDS = new Set(['verificationToken', 'session', 'oidcToken', 'authCode', 'codeVerifier']);

/** What a reader other than the submitter sees in place of a secret field. */
export const REDACTED = '<redacted>';

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_FIELDS.has(k) && typeof v === 'string' ? REDACTED : redact(v)]));
}

/**
 * The wire activity record of a stored row (spec "Activity record", DESIGN section 2), as
 * `viewerUserId` may see it: whole for the submitter, without the secret fields for anyone else.
 */
export function toActivity(row: ActivityRow, votes: VoteRow[], viewerUserId: string): Activity {
  const pending = row.status === 'ACTIVITY_STATUS_CONSENSUS_NEEDED';
  const own = viewerUserId === row.userId;
  const activity: Activity = {
    id: row.id,
    organizationId: row.organizationId,
    status: row.status as ActivityStatus,
    type: row.type,
    intent: own ? row.intent : (redact(row.intent) as Activity['intent']),
    result: own ? row.result : (redact(row.result) as Activity['result']),
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
  if (row.appProofs) activity.appProofs = row.appProofs as NonNullable<Activity['appProofs']>;
  return activity;
}

/** Reply of a submit to `viewerUserId`: the record under `activity`, key fields mirrored at the top level. */
export function toReply(row: ActivityRow, votes: VoteRow[], viewerUserId: string): ActivityReply {
  const activity = toActivity(row, votes, viewerUserId);
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
