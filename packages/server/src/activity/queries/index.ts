/** Every read handler, by query name. */
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
