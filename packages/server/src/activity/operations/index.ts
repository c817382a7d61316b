/** Every activity handler, by operation name; the plugin registers a route for each. */
import type { ComputeTable, Handlers, PrefetchTable } from '../context.js';
import { walletHandlers, walletPrefetchers } from './wallets.js';
import { privateKeyHandlers, privateKeyPrefetchers } from './private-keys.js';
import { signingCompute, signingHandlers } from './signing.js';
import { transactionCompute, transactionHandlers } from './transactions.js';
import { policyHandlers } from './policies.js';
import { tagHandlers } from './tags.js';
import { smartContractHandlers } from './smart-contracts.js';
import { organizationHandlers } from './organization.js';
import { userHandlers, userPrefetchers } from './users.js';
import { sessionHandlers } from './sessions.js';
import { oauth2Handlers, oauth2Prefetchers } from './oauth2.js';
import { oauthLoginHandlers } from './oauth-login.js';
import { tvcHandlers } from './tvc.js';
import { consensusHandlers } from './consensus.js';
import { otpHandlers, otpPrefetchers } from './otp.js';
import { authProxyHandlers } from './auth-proxy.js';

export const handlers: Handlers = {
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
  ...walletPrefetchers,
  ...userPrefetchers,
  ...otpPrefetchers,
  ...privateKeyPrefetchers,
};

/** Operations that only read and compute (signing): run outside any transaction (execute.ts). */
export const computeHandlers: ComputeTable = {
  ...signingCompute,
  ...transactionCompute,
};
