/**
 * Who may run which activity (docs/decisions/0003-authorization.md):
 * - a member of the root quorum of the caller's organization (the target, or its parent
 *   acting on a sub-organization) may submit anything; when that quorum's threshold is
 *   above 1 the activity waits for approvals (ACTIVITY_STATUS_CONSENSUS_NEEDED);
 * - any other user is allowed only where a policy of the target organization allows it
 *   and none denies it (see policy.ts); only quorum members vote (approve/reject);
 * - the authentication proxy's user (users.is_proxy) may run only the auth flows, on its
 *   organization or that organization's sub-organizations (stamps reach one level down, see
 *   authenticate.ts), and only while its proxy is enabled; no policy widens that. Of the reads
 *   it may use only the account lookup (list_suborgs);
 * - a caller authenticated by X-Stamp-Attested (attested.ts) may submit stamp_login only, for
 *   itself, without consensus or policy (decision 0020).
 */
import { and, eq, sql } from 'drizzle-orm';
import { operations, type OperationName, type QueryName } from '@walletkit/protocol';
import { ApiError } from '../errors.js';
import type { Executor } from '../store/db.js';
import { organizations, proxyConfigs, rootQuorumMembers, users } from '../store/schema.js';
import type { Caller, CallerFacts } from './context.js';
import { evaluatePolicies } from './policy.js';

export type Decision = { kind: 'execute' } | { kind: 'consensus'; threshold: number };

const VOTE_TYPES = new Set(['ACTIVITY_TYPE_APPROVE_ACTIVITY', 'ACTIVITY_TYPE_REJECT_ACTIVITY']);

/** What the proxy user may submit: the activities behind the /v1 endpoints, nothing else. */
const PROXY_OPERATIONS: readonly OperationName[] = ['init_otp', 'verify_otp', 'otp_login', 'oauth_login', 'oauth2_authenticate', 'create_sub_organization'];
const PROXY_TYPES = new Set(PROXY_OPERATIONS.map((name) => operations[name].type));
const PROXY_QUERIES: ReadonlySet<QueryName> = new Set<QueryName>(['list_suborgs']);

/**
 * Whether `userId` is a proxy user, and if so whether its proxy is enabled (one query for
 * everyone: a left join that finds nothing for ordinary users).
 */
async function proxyStatus(db: Executor, userId: string): Promise<{ isProxy: boolean; enabled: boolean }> {
  const [row] = await db
    .select({ isProxy: users.isProxy, enabled: proxyConfigs.enabled })
    .from(users)
    .leftJoin(proxyConfigs, eq(proxyConfigs.proxyUserId, users.id))
    .where(eq(users.id, userId));
  return { isProxy: row?.isProxy === true, enabled: row?.enabled === true };
}

function refuseProxy(enabled: boolean, what: string): never {
  if (!enabled) throw new ApiError('ERR_PROXY_DISABLED');
  throw new ApiError('ERR_PERMISSION_DENIED', `the authentication proxy may not ${what}`);
}

/**
 * Check a read before it runs: the proxy user may read only what the account lookup needs.
 * @throws ApiError ERR_PERMISSION_DENIED | ERR_PROXY_DISABLED
 */
export async function authorizeQuery(db: Executor, caller: Caller, name: string): Promise<void> {
  const proxy = caller.facts ? { isProxy: caller.facts.isProxy, enabled: caller.facts.proxyEnabled } : await proxyStatus(db, caller.userId);
  if (!proxy.isProxy) return;
  if (!proxy.enabled || !PROXY_QUERIES.has(name as QueryName)) refuseProxy(proxy.enabled, `read ${name}`);
}

/** True when `userId` is a member of the root quorum of `organizationId`. */
export async function isRootMember(tx: Executor, organizationId: string, userId: string): Promise<boolean> {
  const rows = await tx
    .select({ userId: rootQuorumMembers.userId })
    .from(rootQuorumMembers)
    .where(and(eq(rootQuorumMembers.organizationId, organizationId), eq(rootQuorumMembers.userId, userId)));
  return rows.length > 0;
}

/**
 * What authorization needs to know about the caller, in one statement (every activity reads
 * it): whether it is a proxy user and its proxy is enabled, whether it is a member of its
 * organization's root quorum, and that quorum's threshold (1 when the organization is unknown).
 */
async function callerFacts(db: Executor, caller: Caller): Promise<CallerFacts> {
  const [row] = await db
    .select({
      isProxy: users.isProxy,
      proxyEnabled: proxyConfigs.enabled,
      rootMember: sql<boolean>`exists (select 1 from ${rootQuorumMembers} where ${rootQuorumMembers.organizationId} = ${caller.organizationId} and ${rootQuorumMembers.userId} = ${users.id})`,
      threshold: sql<number>`(select ${organizations.rootQuorumThreshold} from ${organizations} where ${organizations.id} = ${caller.organizationId})`,
    })
    .from(users)
    .leftJoin(proxyConfigs, eq(proxyConfigs.proxyUserId, users.id))
    .where(eq(users.id, caller.userId));
  return {
    isProxy: row?.isProxy === true,
    proxyEnabled: row?.proxyEnabled === true,
    rootMember: row?.rootMember === true,
    threshold: row?.threshold === null || row?.threshold === undefined ? 1 : Number(row.threshold),
  };
}

/**
 * Decide whether the caller may run an activity now, must wait for consensus, or is refused.
 * @throws ApiError ERR_PERMISSION_DENIED
 */
export async function authorize(
  tx: Executor,
  input: { organizationId: string; caller: Caller; type: string; parameters: Record<string, unknown> },
): Promise<Decision> {
  const { caller } = input;
  if (caller.credential.kind === 'attested') {
    // X-Stamp-Attested (decision 0020): the user proved who they are and logs in as themselves;
    // that opens a session and nothing else, whatever the quorum or the policies say.
    if (input.type !== operations.stamp_login.type) throw new ApiError('ERR_PERMISSION_DENIED', 'an attested stamp may only submit stamp_login');
    return { kind: 'execute' };
  }
  const facts = caller.facts ?? (await callerFacts(tx, caller));
  if (facts.isProxy) {
    // Checked before the root quorum and policies: nothing may widen what the proxy can do.
    if (!facts.proxyEnabled || !PROXY_TYPES.has(input.type)) refuseProxy(facts.proxyEnabled, `submit ${input.type}`);
    return { kind: 'execute' };
  }
  if (facts.rootMember) {
    if (VOTE_TYPES.has(input.type)) return { kind: 'execute' };
    return facts.threshold > 1 ? { kind: 'consensus', threshold: facts.threshold } : { kind: 'execute' };
  }
  if (VOTE_TYPES.has(input.type)) throw new ApiError('ERR_PERMISSION_DENIED', 'only root quorum members vote on activities');
  const verdict = await evaluatePolicies(tx, input);
  if (verdict === 'allow') return { kind: 'execute' };
  throw new ApiError('ERR_PERMISSION_DENIED', `user ${caller.userId} may not submit ${input.type}`);
}
