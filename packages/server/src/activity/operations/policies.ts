/**
 * Policies (spec B: create_policy V3, update_policy V2; extra: delete_policy). Expressions are checked to parse
 * (policy-language.ts) so that a typo is a 400 now rather than a policy that never matches.
 */
import { and, eq, ne } from 'drizzle-orm';
import { ApiError } from '../../errors.js';
import type { Tx } from '../../store/db.js';
import { newId } from '../../store/ids.js';
import { policies } from '../../store/schema.js';
import type { HandlerTable } from '../context.js';
import { parsePolicyExpression, PolicySyntaxError } from '../policy-language.js';

/** @throws ApiError ERR_INVALID_PARAMETER when `value` is not a policy expression. */
function assertExpression(value: string | undefined, field: string): void {
  if (value === undefined || value.trim() === '') return;
  try {
    parsePolicyExpression(value);
  } catch (err) {
    if (err instanceof PolicySyntaxError) throw new ApiError('ERR_INVALID_PARAMETER', `${field}: ${err.message}`, field);
    throw err;
  }
}

async function assertNameFree(tx: Tx, organizationId: string, name: string, field: string, exceptId?: string): Promise<void> {
  const clash = await tx
    .select({ id: policies.id })
    .from(policies)
    .where(and(eq(policies.organizationId, organizationId), eq(policies.name, name), exceptId ? ne(policies.id, exceptId) : undefined));
  if (clash.length > 0) throw new ApiError('ERR_ALREADY_EXISTS', `a policy named '${name}' already exists`, field);
}

/** Handlers of create_policy, update_policy and delete_policy. */
export const policyHandlers = {
  create_policy: async (params, ctx) => {
    assertExpression(params.condition, 'condition');
    assertExpression(params.consensus, 'consensus');
    await assertNameFree(ctx.tx, ctx.organizationId, params.policyName, 'policyName');
    const now = ctx.now();
    const policyId = newId();
    await ctx.tx.insert(policies).values({
      id: policyId,
      organizationId: ctx.organizationId,
      name: params.policyName,
      effect: params.effect,
      condition: params.condition ?? null,
      consensus: params.consensus ?? null,
      notes: params.notes ?? '',
      createdAt: now,
      updatedAt: now,
    });
    return { policyId };
  },

  update_policy: async (params, ctx) => {
    const [policy] = await ctx.tx
      .select({ id: policies.id })
      .from(policies)
      .where(and(eq(policies.id, params.policyId), eq(policies.organizationId, ctx.organizationId)));
    if (!policy) throw new ApiError('ERR_POLICY_NOT_FOUND', `policy ${params.policyId} not found`, 'policyId');
    assertExpression(params.policyCondition, 'policyCondition');
    assertExpression(params.policyConsensus, 'policyConsensus');
    await assertNameFree(ctx.tx, ctx.organizationId, params.policyName, 'policyName', policy.id);
    // Absent optional fields keep their stored value (spec marks them optional).
    await ctx.tx
      .update(policies)
      .set({
        name: params.policyName,
        effect: params.policyEffect,
        ...(params.policyCondition !== undefined ? { condition: params.policyCondition } : {}),
        ...(params.policyConsensus !== undefined ? { consensus: params.policyConsensus } : {}),
        ...(params.policyNotes !== undefined ? { notes: params.policyNotes } : {}),
        updatedAt: ctx.now(),
      })
      .where(eq(policies.id, policy.id));
    return { policyId: policy.id };
  },

  /** Another organization's policy is a 404 like an unknown one. */
  delete_policy: async (params, ctx) => {
    const [deleted] = await ctx.tx
      .delete(policies)
      .where(and(eq(policies.id, params.policyId), eq(policies.organizationId, ctx.organizationId)))
      .returning({ id: policies.id });
    if (!deleted) throw new ApiError('ERR_POLICY_NOT_FOUND', `policy ${params.policyId} not found`, 'policyId');
    return { policyId: deleted.id };
  },
} satisfies HandlerTable;
