/** Every activity handler, by operation name; the plugin registers a route for each. */
import type { HandlerTable, PrefetchTable } from '../context';
import { walletHandlers } from './wallets';
import { privateKeyHandlers } from './private-keys';
import { signingHandlers } from './signing';
import { transactionHandlers } from './transactions';
import { policyHandlers } from './policies';
import { tagHandlers } from './tags';
import { smartContractHandlers } from './smart-contracts';
import { organizationHandlers } from './organization';
import { userHandlers } from './users';
import { sessionHandlers } from './sessions';
import { oauth2Handlers, oauth2Prefetchers } from './oauth2';
import { oauthLoginHandlers } from './oauth-login';
import { tvcHandlers } from './tvc';
import { consensusHandlers } from './consensus';
import { otpHandlers } from './otp';
import { authProxyHandlers } from './auth-proxy';

export const handlers: HandlerTable = {
  ...walletHandlers,
  ...privateKeyHandlers,
  ...signingHandlers,
  ...transactionHandlers,
  ...policyHandlers,
  ...tagHandlers,
  ...smartContractHandlers,
  ...organizationHandlers,
  ...userHandlers,
  ...sessionHandlers,
  ...oauth2Handlers,
  ...oauthLoginHandlers,
  ...tvcHandlers,
  ...consensusHandlers,
  ...otpHandlers,
  ...authProxyHandlers,
};

/** Work done before an activity's transaction (provider calls), by operation name. */
export const prefetchers: PrefetchTable = {
  ...oauth2Prefetchers,
};
