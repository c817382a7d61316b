/**
 * Organization reads: whoami and get_organization_configs (features + root quorum). The
 * readers are shared with the organization operations, whose results list the features.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { FeatureName } from '@walletkit/protocol';
import { ApiError } from '../../errors.js';
import type { Executor } from '../../store/db.js';
import { organizationFeatures, organizations, rootQuorumMembers, users } from '../../store/schema.js';
import type { QueryTable } from './context.js';

/** Features of an organization, by name. */
export async function readFeatures(db: Executor, organizationId: string): Promise<Array<{ name: FeatureName; value: string }>> {
  const rows = await db
    .select({ name: organizationFeatures.name, value: organizationFeatures.value })
    .from(organizationFeatures)
    .where(eq(organizationFeatures.organizationId, organizationId))
    .orderBy(asc(organizationFeatures.name));
  return rows.map((r) => ({ name: r.name as FeatureName, value: r.value }));
}

/** Root quorum of an organization: threshold and member user ids. */
export async function readQuorum(db: Executor, organizationId: string): Promise<{ threshold: number; userIds: string[] }> {
  const [org] = await db.select({ threshold: organizations.rootQuorumThreshold }).from(organizations).where(eq(organizations.id, organizationId));
  if (!org) throw new ApiError('ERR_ORGANIZATION_NOT_FOUND', `organization ${organizationId} not found`, 'organizationId');
  const members = await db
    .select({ userId: rootQuorumMembers.userId })
    .from(rootQuorumMembers)
    .where(eq(rootQuorumMembers.organizationId, organizationId))
    .orderBy(asc(rootQuorumMembers.userId));
  return { threshold: org.threshold, userIds: members.map((m) => m.userId) };
}

/** Read handlers of the organization. */
export const organizationQueries = {
  // The caller's own organization: a parent's user acting on a sub-organization learns its own.
  whoami: async (_request, ctx) => {
    const [row] = await ctx.db
      .select({ userName: users.userName, organizationName: organizations.name })
      .from(users)
      .innerJoin(organizations, eq(organizations.id, users.organizationId))
      .where(and(eq(users.id, ctx.caller.userId), eq(users.organizationId, ctx.caller.organizationId)));
    if (!row) throw new ApiError('ERR_USER_NOT_FOUND', 'the stamping user no longer exists');
    return { organizationId: ctx.caller.organizationId, organizationName: row.organizationName, userId: ctx.caller.userId, username: row.userName };
  },

  get_organization_configs: async (_request, ctx) => ({
    configs: { features: await readFeatures(ctx.db, ctx.organizationId), quorum: await readQuorum(ctx.db, ctx.organizationId) },
  }),
} satisfies QueryTable;
