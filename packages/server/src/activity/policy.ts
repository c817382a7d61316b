/**
 * Policy evaluation for users outside the root quorum (docs/decisions/0003-authorization.md).
 * A policy applies when both its `condition` and its `consensus` hold (an empty one holds).
 * Expressions see `activity.type` and `approvers`, the users approving so far (the submitter),
 * each `{id, tags}` where `tags` are the user tag ids, and for an Ethereum sign_transaction
 * `eth.tx` (Turnkey's names: to, value, chain_id, nonce, gas, gas_price, max_fee_per_gas,
 * max_priority_fee_per_gas, data; see policy-transaction.ts); anything else is UNKNOWN
 * (policy-language.ts). Fail closed: an ALLOW counts only when it surely applies, a DENY
 * whenever it might (UNKNOWN or unparsable), and DENY wins over ALLOW. No ALLOW, no access.
 */
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../store/db.js';
import { policies, userTagMembers, userTags } from '../store/schema.js';
import type { Caller } from './context.js';
import { evaluatePolicyExpression, parsePolicyExpression, UNKNOWN, type Expr, type Truth, type Value } from './policy-language.js';
import { ethereumTransactionFields } from './policy-transaction.js';

export type Verdict = 'allow' | 'deny';

/** What a policy is evaluated against. */
export interface PolicySubject {
  activityType: string;
  approvers: Array<{ id: string; tags: string[] }>;
  /** `eth.tx` of an Ethereum sign_transaction (absent otherwise, so that it reads UNKNOWN). */
  ethTx?: { readonly [field: string]: Value };
}

/** The stored fields of a policy that evaluation reads. */
export interface PolicyRule {
  effect: string;
  condition: string | null;
  consensus: string | null;
}

// Parsed expressions by source text; stored policies are few and re-read on every activity.
const parsedCache = new Map<string, Expr | null>();
const CACHE_LIMIT = 1000;

function parsed(src: string): Expr | null {
  let expr = parsedCache.get(src);
  if (expr === undefined) {
    try {
      expr = parsePolicyExpression(src);
    } catch {
      expr = null; // stored before validation or by an older version: never trusted
    }
    if (parsedCache.size >= CACHE_LIMIT) parsedCache.delete(parsedCache.keys().next().value as string);
    parsedCache.set(src, expr);
  }
  return expr;
}

function holds(src: string | null, env: ReadonlyMap<string, Value>): Truth {
  if (src === null || src.trim() === '') return true;
  const expr = parsed(src);
  return expr ? evaluatePolicyExpression(expr, env) : UNKNOWN;
}

/**
 * Whether a policy applies to a subject: true, false, or UNKNOWN when it reads something this
 * server does not know.
 * @example policyApplies({ effect: 'EFFECT_ALLOW', condition: "activity.type == 'T'", consensus: null }, { activityType: 'T', approvers: [] }) // true
 */
export function policyApplies(policy: PolicyRule, subject: PolicySubject): Truth {
  const env = new Map<string, Value>([
    ['activity', { type: subject.activityType }],
    ['approvers', subject.approvers.map((a) => ({ id: a.id, tags: a.tags }))],
  ]);
  if (subject.ethTx) env.set('eth', { tx: subject.ethTx });
  const condition = holds(policy.condition, env);
  if (condition === false) return false;
  const consensus = holds(policy.consensus, env);
  if (consensus === false) return false;
  return condition === true && consensus === true ? true : UNKNOWN;
}

/**
 * The verdict of a set of policies (fail closed, DENY wins).
 * @example decide([{ effect: 'EFFECT_ALLOW', condition: 'true', consensus: null }], subject) // 'allow'
 */
export function decide(rules: PolicyRule[], subject: PolicySubject): Verdict {
  let allowed = false;
  for (const rule of rules) {
    const applies = policyApplies(rule, subject);
    if (rule.effect === 'EFFECT_ALLOW') allowed ||= applies === true;
    else if (applies !== false) return 'deny'; // EFFECT_DENY, or an unknown effect: fail closed
  }
  return allowed ? 'allow' : 'deny';
}

/** Evaluate the target organization's policies for a caller submitting an activity type. */
export async function evaluatePolicies(
  tx: Executor,
  input: { organizationId: string; caller: Caller; type: string; parameters?: Record<string, unknown> },
): Promise<Verdict> {
  // Policies bind users of their own organization only; a parent's non-root user gets nothing.
  if (input.caller.organizationId !== input.organizationId) return 'deny';
  const rules = await tx.select().from(policies).where(eq(policies.organizationId, input.organizationId));
  if (rules.length === 0) return 'deny';
  const tags = await tx
    .select({ id: userTagMembers.tagId })
    .from(userTagMembers)
    .innerJoin(userTags, eq(userTags.id, userTagMembers.tagId))
    .where(and(eq(userTags.organizationId, input.organizationId), eq(userTagMembers.userId, input.caller.userId)));
  const ethTx = ethereumTransactionFields(input.type, input.parameters);
  return decide(rules, {
    activityType: input.type,
    approvers: [{ id: input.caller.userId, tags: tags.map((t) => t.id) }],
    ...(ethTx ? { ethTx } : {}),
  });
}
