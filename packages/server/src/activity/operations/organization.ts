/**
 * Organization settings: the root quorum (spec B update_root_quorum) and features
 * (set_organization_feature, spec B remove_organization_feature).
 */
import { and, eq } from 'drizzle-orm';
import { ApiError } from '../../errors.js';
import { organizationFeatures, organizations, rootQuorumMembers } from '../../store/schema.js';
import type { HandlerTable } from '../context.js';
import { readFeatures } from '../queries/organization.js';
import { requireUsers, unique } from './scoped.js';

/** Handlers of update_root_quorum, set_organization_feature and remove_organization_feature. */
export const organizationHandlers = {
  update_root_quorum: async (params, ctx) => {
    const members = unique(params.userIds);
    if (params.threshold > members.length) {
      throw new ApiError('ERR_INVALID_QUORUM', `threshold ${params.threshold} exceeds the ${members.length} distinct members`, 'threshold');
    }
    await requireUsers(ctx.tx, ctx.organizationId, members, 'userIds');
    // Replaces the membership: votes already cast stay, but only current members count.
    await ctx.tx.delete(rootQuorumMembers).where(eq(rootQuorumMembers.organizationId, ctx.organizationId));
    await ctx.tx.insert(rootQuorumMembers).values(members.map((userId) => ({ organizationId: ctx.organizationId, userId })));
    await ctx.tx.update(organizations).set({ rootQuorumThreshold: params.threshold, updatedAt: ctx.now() }).where(eq(organizations.id, ctx.organizationId));
    return {};
  },

  set_organization_feature: async (params, ctx) => {
    await ctx.tx
      .insert(organizationFeatures)
      .values({ organizationId: ctx.organizationId, name: params.name, value: params.value })
      .onConflictDoUpdate({ target: [organizationFeatures.organizationId, organizationFeatures.name], set: { value: params.value } });
    return { features: await readFeatures(ctx.tx, ctx.organizationId) };
  },

  remove_organization_feature: async (params, ctx) => {
    const removed = await ctx.tx
      .delete(organizationFeatures)
      .where(and(eq(organizationFeatures.organizationId, ctx.organizationId), eq(organizationFeatures.name, params.name)))
      .returning({ name: organizationFeatures.name });
    if (removed.length === 0) throw new ApiError('ERR_FEATURE_NOT_FOUND', `feature ${params.name} is not set`, 'name');
    return { features: await readFeatures(ctx.tx, ctx.organizationId) };
  },
} satisfies HandlerTable;
