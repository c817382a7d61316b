import type { Static } from '@sinclair/typebox';
import type { OperationDescriptor, QueryDescriptor } from './descriptor.js';
import { disableAuthProxy, enableAuthProxy, updateAuthProxyConfig } from './operations/auth-proxy.js';
import { initOtp, oauthLogin, otpLogin, stampLogin, verifyOtp } from './operations/auth.js';
import { approveActivity, rejectActivity } from './operations/consensus.js';
import { createPrivateKeys, exportPrivateKey, importPrivateKey, initImportPrivateKey } from './operations/keys.js';
import { createOauth2Credential, oauth2Authenticate } from './operations/oauth2.js';
import { createSubOrganization, removeOrganizationFeature, setOrganizationFeature, updateRootQuorum } from './operations/organization.js';
import { createPolicy, deletePolicy, updatePolicy } from './operations/policies.js';
import { signRawPayload, signRawPayloads, signTransaction } from './operations/signing.js';
import { createSmartContractInterface, deleteSmartContractInterface } from './operations/smart-contracts.js';
import { createPrivateKeyTag, createUserTag, deleteUserTags, updatePrivateKeyTag, updateUserTag } from './operations/tags.js';
import { createTvcManifest, createTvcManifestApprovals } from './operations/tvc.js';
import {
  createApiKeys,
  createAuthenticators,
  createOauthProviders,
  createUsers,
  deleteApiKeys,
  deleteAuthenticators,
  deleteOauthProviders,
  recoverUser,
  updateUserEmail,
  updateUserPhoneNumber,
} from './operations/users.js';
import { createWallet, createWalletAccounts, exportWallet, exportWalletAccount, importWallet, initImportWallet } from './operations/wallets.js';
import * as queryDescriptors from './queries.js';

/**
 * Every submit operation, keyed by its path suffix. The server registers one route per entry;
 * the client types `submit(name, params)` from it.
 * @example operations.create_policy.path // '/public/v1/submit/create_policy'
 */
export const operations = {
  // spec section B, in the order of its table
  oauth2_authenticate: oauth2Authenticate,
  recover_user: recoverUser,
  sign_raw_payloads: signRawPayloads,
  update_policy: updatePolicy,
  stamp_login: stampLogin,
  update_user_tag: updateUserTag,
  create_oauth2_credential: createOauth2Credential,
  create_private_key_tag: createPrivateKeyTag,
  export_private_key: exportPrivateKey,
  delete_smart_contract_interface: deleteSmartContractInterface,
  delete_user_tags: deleteUserTags,
  update_root_quorum: updateRootQuorum,
  init_import_private_key: initImportPrivateKey,
  create_smart_contract_interface: createSmartContractInterface,
  create_wallet_accounts: createWalletAccounts,
  update_private_key_tag: updatePrivateKeyTag,
  create_policy: createPolicy,
  update_user_phone_number: updateUserPhoneNumber,
  create_user_tag: createUserTag,
  create_tvc_manifest_approvals: createTvcManifestApprovals,
  remove_organization_feature: removeOrganizationFeature,
  // extras of DESIGN section 2
  init_otp: initOtp,
  verify_otp: verifyOtp,
  otp_login: otpLogin,
  oauth_login: oauthLogin,
  create_sub_organization: createSubOrganization,
  create_users: createUsers,
  update_user_email: updateUserEmail,
  sign_raw_payload: signRawPayload,
  sign_transaction: signTransaction,
  create_api_keys: createApiKeys,
  delete_api_keys: deleteApiKeys,
  create_authenticators: createAuthenticators,
  delete_authenticators: deleteAuthenticators,
  create_oauth_providers: createOauthProviders,
  delete_oauth_providers: deleteOauthProviders,
  create_wallet: createWallet,
  export_wallet: exportWallet,
  export_wallet_account: exportWalletAccount,
  init_import_wallet: initImportWallet,
  import_wallet: importWallet,
  create_private_keys: createPrivateKeys,
  import_private_key: importPrivateKey,
  set_organization_feature: setOrganizationFeature,
  approve_activity: approveActivity,
  reject_activity: rejectActivity,
  create_tvc_manifest: createTvcManifest,
  delete_policy: deletePolicy,
  // authentication proxy administration (ours)
  enable_auth_proxy: enableAuthProxy,
  update_auth_proxy_config: updateAuthProxyConfig,
  disable_auth_proxy: disableAuthProxy,
} as const;

/** Name (path suffix) of a submit operation, e.g. `'sign_raw_payloads'`. */
export type OperationName = keyof typeof operations;

/** The descriptor of operation `N`. */
export type OperationOf<N extends OperationName> = (typeof operations)[N];

/** Type of `parameters` of operation `N`. @example const p: ParamsOf<'create_user_tag'> = { userTagName: 'a', userIds: [] }; */
export type ParamsOf<N extends OperationName> = Static<(typeof operations)[N]['parameters']>;

/** Type of the result object (under the descriptor's `resultKey`) of operation `N`. */
export type ResultOf<N extends OperationName> = Static<(typeof operations)[N]['result']>;

/** Any operation descriptor of the registry. */
export type AnyOperation = (typeof operations)[OperationName];

const byType: ReadonlyMap<string, AnyOperation> = new Map(Object.values(operations).map((d): [string, AnyOperation] => [d.type, d]));

/**
 * The descriptor whose activity `type` is `type`, or undefined.
 * @example operationByType('ACTIVITY_TYPE_CREATE_POLICY_V3')?.name // 'create_policy'
 */
export function operationByType(type: string): AnyOperation | undefined {
  return byType.get(type);
}

/** True when `name` is the name of a submit operation. */
export function isOperationName(name: unknown): name is OperationName {
  return typeof name === 'string' && Object.hasOwn(operations, name);
}

/**
 * Names of the operations specified in spec section B, in the order of its table. The spec's
 * prose says 20; its table lists 21 rows, and all of them are here.
 */
export const specOperationNames = (Object.keys(operations) as OperationName[]).filter((n) => operations[n].spec) as readonly OperationName[];

/**
 * Every read endpoint, keyed by name.
 * @example queries.whoami.path // '/public/v1/query/whoami'
 */
export const queries = {
  whoami: queryDescriptors.whoami,
  get_activity: queryDescriptors.getActivity,
  list_activities: queryDescriptors.listActivities,
  get_user: queryDescriptors.getUser,
  list_users: queryDescriptors.listUsers,
  list_wallets: queryDescriptors.listWallets,
  get_wallet: queryDescriptors.getWallet,
  list_wallet_accounts: queryDescriptors.listWalletAccounts,
  get_wallet_account: queryDescriptors.getWalletAccount,
  get_private_key: queryDescriptors.getPrivateKey,
  list_private_keys: queryDescriptors.listPrivateKeys,
  list_policies: queryDescriptors.listPolicies,
  get_policy: queryDescriptors.getPolicy,
  list_user_tags: queryDescriptors.listUserTags,
  list_private_key_tags: queryDescriptors.listPrivateKeyTags,
  get_oauth2_credential: queryDescriptors.getOauth2Credential,
  list_oauth2_credentials: queryDescriptors.listOauth2Credentials,
  get_organization_configs: queryDescriptors.getOrganizationConfigs,
  list_smart_contract_interfaces: queryDescriptors.listSmartContractInterfaces,
  get_api_keys: queryDescriptors.getApiKeys,
  get_authenticators: queryDescriptors.getAuthenticators,
  get_auth_proxy_config: queryDescriptors.getAuthProxyConfig,
  list_suborgs: queryDescriptors.listSuborgs,
} as const;

/** Name of a read endpoint, e.g. `'whoami'`. */
export type QueryName = keyof typeof queries;

/** Type of the request body of query `N`. */
export type QueryRequestOf<N extends QueryName> = Static<(typeof queries)[N]['request']>;

/** Type of the response body of query `N`. */
export type QueryResponseOf<N extends QueryName> = Static<(typeof queries)[N]['response']>;

/** True when `name` is the name of a read endpoint. */
export function isQueryName(name: unknown): name is QueryName {
  return typeof name === 'string' && Object.hasOwn(queries, name);
}

// Compile-time checks: every entry is a descriptor.
operations satisfies Record<string, OperationDescriptor>;
queries satisfies Record<string, QueryDescriptor>;
