/** Every read handler, by query name. */
import type { QueryTable } from './context';
import { walletQueries } from './wallets';
import { userQueries } from './users';
import { activityQueries } from './activities';
import { organizationQueries } from './organization';
import { policyQueries } from './policies';
import { authProxyQueries } from './auth-proxy';

export const queryHandlers: QueryTable = {
  ...walletQueries,
  ...userQueries,
  ...activityQueries,
  ...organizationQueries,
  ...policyQueries,
  ...authProxyQueries,
};
