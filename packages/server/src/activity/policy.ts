/**
 * Policy evaluation for non-root users: a deliberately small, total subset of Turnkey's
 * policy language (docs/decisions/0003-authorization.md). A policy applies when its
 * `consensus` names the caller (`approvers.any(user, user.id == '<id>')`) or is empty, and
 * its `condition` holds. Conditions are `&&`/`||` of comparisons on `activity.type`,
 * `activity.resource`-free fields only: `activity.type == '<TYPE>'`, `activity.type in [...]`,
 * or `true`. Anything else never matches (fails closed). DENY wins over ALLOW.
 */
import { eq } from 'drizzle-orm';
import type { Tx } from '../store/db';
import { policies } from '../store/schema';
import type { Caller } from './context';

type Verdict = 'allow' | 'deny';

function consensusNamesCaller(consensus: string | null, userId: string): boolean {
  if (!consensus || consensus.trim() === '') return true;
  const ids = [...consensus.matchAll(/user\.id\s*==\s*'([^']+)'/g)].map((m) => m[1]);
  return ids.includes(userId);
}

function comparisonHolds(expr: string, type: string): boolean {
  const e = expr.trim();
  if (e === 'true') return true;
  let m = /^activity\.type\s*==\s*'([A-Z0-9_]+)'$/.exec(e);
  if (m) return m[1] === type;
  m = /^activity\.type\s+in\s+\[([^\]]*)\]$/.exec(e);
  if (m) {
    const values = (m[1] ?? '').split(',').map((v) => v.trim().replace(/^'|'$/g, ''));
    return values.includes(type);
  }
  return false;
}

/** Evaluate `a || b && c` (no parentheses) for one activity type. */
export function conditionHolds(condition: string | null, type: string): boolean {
  if (!condition || condition.trim() === '') return true;
  return condition.split('||').some((conj) => conj.split('&&').every((part) => comparisonHolds(part, type)));
}

export async function evaluatePolicies(tx: Tx, input: { organizationId: string; caller: Caller; type: string }): Promise<Verdict> {
  if (input.caller.organizationId !== input.organizationId) return 'deny';
  const rows = await tx.select().from(policies).where(eq(policies.organizationId, input.organizationId));
  const applicable = rows.filter((p) => consensusNamesCaller(p.consensus, input.caller.userId) && conditionHolds(p.condition, input.type));
  if (applicable.some((p) => p.effect === 'EFFECT_DENY')) return 'deny';
  return applicable.some((p) => p.effect === 'EFFECT_ALLOW') ? 'allow' : 'deny';
}
