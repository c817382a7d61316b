/**
 * Who may run which activity (docs/decisions/0003-authorization.md):
 * - a member of the root quorum of the caller's organization (the target, or its parent
 *   acting on a sub-organization) may submit anything; when that quorum's threshold is
 *   above 1 the activity waits for approvals (ACTIVITY_STATUS_CONSENSUS_NEEDED);
 * - any other user is allowed only where a policy of the target organization allows it
 *   and none denies it (see policy.ts); only quorum members vote (approve/reject).
 */
import { and, eq } from 'drizzle-orm';
import { ApiError } from '../errors';
import type { Tx } from '../store/db';
import { organizations, rootQuorumMembers } from '../store/schema';
import type { Caller } from './context';
import { evaluatePolicies } from './policy';

export type Decision = { kind: 'execute' } | { kind: 'consensus'; threshold: number };

const VOTE_TYPES = new Set(['ACTIVITY_TYPE_APPROVE_ACTIVITY', 'ACTIVITY_TYPE_REJECT_ACTIVITY']);

/** True when `userId` is a member of the root quorum of `organizationId`. */
export async function isRootMember(tx: Tx, organizationId: string, userId: string): Promise<boolean> {
  const rows = await tx
    .select({ userId: rootQuorumMembers.userId })
    .from(rootQuorumMembers)
    .where(and(eq(rootQuorumMembers.organizationId, organizationId), eq(rootQuorumMembers.userId, userId)));
  return rows.length > 0;
}

/** Approvals the root quorum of `organizationId` needs (1 when the organization is unknown). */
export async function quorumThreshold(tx: Tx, organizationId: string): Promise<number> {
  const [org] = await tx.select({ t: organizations.rootQuorumThreshold }).from(organizations).where(eq(organizations.id, organizationId));
  return org?.t ?? 1;
}

/**
 * Decide whether the caller may run an activity now, must wait for consensus, or is refused.
 * @throws ApiError ERR_PERMISSION_DENIED
 */
export async function authorize(
  tx: Tx,
  input: { organizationId: string; caller: Caller; type: string; parameters: Record<string, unknown> },
): Promise<Decision> {
  const { caller } = input;
  if (await isRootMember(tx, caller.organizationId, caller.userId)) {
    if (VOTE_TYPES.has(input.type)) return { kind: 'execute' };
    const threshold = await quorumThreshold(tx, caller.organizationId);
    return threshold > 1 ? { kind: 'consensus', threshold } : { kind: 'execute' };
  }
  if (VOTE_TYPES.has(input.type)) throw new ApiError('ERR_PERMISSION_DENIED', 'only root quorum members vote on activities');
  const verdict = await evaluatePolicies(tx, input);
  if (verdict === 'allow') return { kind: 'execute' };
  throw new ApiError('ERR_PERMISSION_DENIED', `user ${caller.userId} may not submit ${input.type}`);
}
