/**
 * Reads of policies and of what policies refer to: user tags, private key tags and smart
 * contract interfaces. Lists are in creation order; absent optional texts read as ''.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { PolicyEffect, SmartContractInterfaceType } from '@walletkit/protocol';
import { ApiError } from '../../errors.js';
import { policies, privateKeyTags, smartContractInterfaces, userTags } from '../../store/schema.js';
import type { QueryTable } from './context.js';

type PolicyRow = typeof policies.$inferSelect;

function toPolicy(row: PolicyRow) {
  return {
    policyId: row.id,
    policyName: row.name,
    effect: row.effect as PolicyEffect,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    notes: row.notes,
    consensus: row.consensus ?? '',
    condition: row.condition ?? '',
  };
}

function toTag(row: { id: string; name: string; createdAt: Date; updatedAt: Date }, tagType: 'TAG_TYPE_USER' | 'TAG_TYPE_PRIVATE_KEY') {
  return { tagId: row.id, tagName: row.name, tagType, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/** Read handlers of policies, tags and smart contract interfaces. */
export const policyQueries = {
  list_policies: async (_request, ctx) => {
    const rows = await ctx.db.select().from(policies).where(eq(policies.organizationId, ctx.organizationId)).orderBy(asc(policies.createdAt), asc(policies.id));
    return { policies: rows.map(toPolicy) };
  },

  get_policy: async (request, ctx) => {
    const [row] = await ctx.db
      .select()
      .from(policies)
      .where(and(eq(policies.id, request.policyId), eq(policies.organizationId, ctx.organizationId)));
    if (!row) throw new ApiError('ERR_POLICY_NOT_FOUND', `policy ${request.policyId} not found`, 'policyId');
    return { policy: toPolicy(row) };
  },

  list_user_tags: async (_request, ctx) => {
    const rows = await ctx.db.select().from(userTags).where(eq(userTags.organizationId, ctx.organizationId)).orderBy(asc(userTags.createdAt), asc(userTags.id));
    return { userTags: rows.map((r) => toTag(r, 'TAG_TYPE_USER')) };
  },

  list_private_key_tags: async (_request, ctx) => {
    const rows = await ctx.db
      .select()
      .from(privateKeyTags)
      .where(eq(privateKeyTags.organizationId, ctx.organizationId))
      .orderBy(asc(privateKeyTags.createdAt), asc(privateKeyTags.id));
    return { privateKeyTags: rows.map((r) => toTag(r, 'TAG_TYPE_PRIVATE_KEY')) };
  },

  list_smart_contract_interfaces: async (_request, ctx) => {
    const rows = await ctx.db
      .select()
      .from(smartContractInterfaces)
      .where(eq(smartContractInterfaces.organizationId, ctx.organizationId))
      .orderBy(asc(smartContractInterfaces.createdAt), asc(smartContractInterfaces.id));
    return {
      smartContractInterfaces: rows.map((r) => ({
        organizationId: r.organizationId,
        smartContractInterfaceId: r.id,
        smartContractAddress: r.smartContractAddress,
        smartContractInterface: r.smartContractInterface,
        type: r.type as SmartContractInterfaceType,
        label: r.label,
        notes: r.notes,
        createdAt: r.createdAt.toISOString(),
        updatedAt: r.createdAt.toISOString(), // interfaces are immutable: never updated
      })),
    };
  },
} satisfies QueryTable;
