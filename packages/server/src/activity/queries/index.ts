/** Every read handler, by query name. */
import type { QueryName } from '@walletkit/protocol';
import type { Queries } from './context.js';
import { walletQueries } from './wallets.js';
import { userQueries } from './users.js';
import { activityQueries } from './activities.js';
import { organizationQueries } from './organization.js';
import { policyQueries } from './policies.js';
import { authProxyQueries } from './auth-proxy.js';

export const queryHandlers: Queries = {
  ...walletQueries,
  ...userQueries,
  ...activityQueries,
  ...organizationQueries,
  ...policyQueries,
  ...authProxyQueries,
};

/**
 * Reads whose answer depends only on rows of the target organization whose every change is
 * announced (migration 0009: wallets and wallet accounts), so their answers are served from
 * memory until the organization changes (plugin.ts, facts.ts). Errors are never kept.
 */
export const cachedQueries: ReadonlySet<QueryName> = new Set<QueryName>(['list_wallets', 'get_wallet', 'list_wallet_accounts', 'get_wallet_account']);
