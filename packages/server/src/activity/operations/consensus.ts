/**
 * Votes on activities awaiting consensus (approve_activity / reject_activity, by fingerprint;
 * docs/decisions/0003-authorization.md). The quorum that decides is the root quorum of the
 * submitter's organization (the one that required consensus); only its current members vote
 * and count. At the threshold the stored activity runs in the voter's transaction; one
 * rejection rejects it.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Activity } from '@walletkit/protocol';
import { ApiError } from '../../errors.js';
import { isUniqueViolation } from '../../store/db.js';
import { newSortableId } from '../../store/ids.js';
import { activities, activityVotes, users } from '../../store/schema.js';
import { isRootMember } from '../authorize.js';
import type { HandlerTable, OperationContext } from '../context.js';
import { refusalRaised } from '../refusals.js';
import { readQuorum } from '../queries/organization.js';
import { toActivity } from '../record.js';

type Selection = 'VOTE_SELECTION_APPROVED' | 'VOTE_SELECTION_REJECTED';

async function recordOf(ctx: OperationContext, activityId: string): Promise<Activity> {
  const [row] = await ctx.tx.select().from(activities).where(eq(activities.id, activityId));
  const votes = await ctx.tx
    .select()
    .from(activityVotes)
    .where(eq(activityVotes.activityId, activityId))
    .orderBy(asc(activityVotes.createdAt), asc(activityVotes.id));
  // The voter sees the record as any reader other than its submitter does.
  return toActivity(row!, votes, ctx.caller.userId);
}

/**
 * Run an approved activity inside a savepoint: when its handler refuses (e.g. the name it
 * creates was taken meanwhile) its writes are undone and it is marked FAILED, while the vote
 * that approved it stays recorded.
 */
async function runOrFail(ctx: OperationContext, activityId: string): Promise<void> {
  try {
    await ctx.tx.transaction(() => ctx.runApproved(activityId));
  } catch (err) {
    let failure: { code: string; message: string };
    const refused = err instanceof ApiError ? err : refusalRaised(err);
    if (refused) failure = { code: refused.code, message: refused.message };
    else if (isUniqueViolation(err)) failure = { code: 'ERR_ALREADY_EXISTS', message: 'a resource with the same unique value already exists' };
    else throw err;
    await ctx.tx.update(activities).set({ status: 'ACTIVITY_STATUS_FAILED', failure, updatedAt: ctx.now() }).where(eq(activities.id, activityId));
  }
}

async function vote(ctx: OperationContext, given: string, selection: Selection): Promise<{ activity: Activity }> {
  // Turnkey's form is `sha256:<hex>`; a bare digest (as clients computed it before) names the same activity.
  const fingerprint = /^[0-9a-f]{64}$/i.test(given) ? `sha256:${given.toLowerCase()}` : given;
  // Row lock: concurrent voters on one activity are serialized, so it runs at most once.
  const [target] = await ctx.tx
    .select()
    .from(activities)
    .where(and(eq(activities.organizationId, ctx.organizationId), eq(activities.fingerprint, fingerprint)))
    .for('update');
  if (!target) throw new ApiError('ERR_ACTIVITY_NOT_FOUND', 'no activity of this organization has this fingerprint', 'fingerprint');
  if (target.status !== 'ACTIVITY_STATUS_CONSENSUS_NEEDED') {
    throw new ApiError('ERR_ACTIVITY_NOT_PENDING', `the activity is ${target.status}`, 'fingerprint');
  }
  const [submitter] = await ctx.tx.select({ organizationId: users.organizationId }).from(users).where(eq(users.id, target.userId));
  const quorumOrganizationId = submitter?.organizationId ?? target.organizationId;
  if (!(await isRootMember(ctx.tx, quorumOrganizationId, ctx.caller.userId))) {
    throw new ApiError('ERR_PERMISSION_DENIED', 'only members of the root quorum that must approve this activity vote on it');
  }
  const votes = await ctx.tx.select().from(activityVotes).where(eq(activityVotes.activityId, target.id));
  if (votes.some((v) => v.userId === ctx.caller.userId)) throw new ApiError('ERR_ALREADY_VOTED', undefined, 'fingerprint');
  const now = ctx.now();
  await ctx.tx.insert(activityVotes).values({ id: newSortableId(), activityId: target.id, userId: ctx.caller.userId, selection, createdAt: now });

  if (selection === 'VOTE_SELECTION_REJECTED') {
    await ctx.tx.update(activities).set({ status: 'ACTIVITY_STATUS_REJECTED', updatedAt: now }).where(eq(activities.id, target.id));
  } else {
    const quorum = await readQuorum(ctx.tx, quorumOrganizationId);
    const members = new Set(quorum.userIds);
    const approvals = votes.filter((v) => v.selection === 'VOTE_SELECTION_APPROVED' && members.has(v.userId)).length + 1;
    if (approvals >= quorum.threshold) await runOrFail(ctx, target.id);
  }
  return { activity: await recordOf(ctx, target.id) };
}

/** Handlers of approve_activity and reject_activity. */
export const consensusHandlers = {
  approve_activity: (params, ctx) => vote(ctx, params.fingerprint, 'VOTE_SELECTION_APPROVED'),
  reject_activity: (params, ctx) => vote(ctx, params.fingerprint, 'VOTE_SELECTION_REJECTED'),
} satisfies HandlerTable;
