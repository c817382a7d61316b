/**
 * `@walletkit/protocol/wire`: the schema-free half of the wire contract, for code that ships to
 * browsers. Every operation's activity type, path and intent/result keys, every query and proxy
 * path, the error codes and the enum value lists, without TypeBox (the schemas stay in the
 * package root, imported there as types only).
 *
 * This table is the single source: `defineOperation`, `defineQuery` and `defineProxyEndpoint`
 * read names, types, keys and paths from it, and a protocol test asserts the registries and
 * this table list the same names.
 *
 * @example
 * ```ts
 * import { operationWire, proxyPath } from '@walletkit/protocol/wire';
 * operationWire('create_wallet').type; // 'ACTIVITY_TYPE_CREATE_WALLET'
 * proxyPath('otp_init_v2'); // '/v1/otp_init_v2'
 * ```
 * @packageDocumentation
 */
export * from './errors.js';
export * from './enums.js';
export * from './oauth-providers.js';
export * from './tokens.js';

/** Activity type and intent/result keys of one submit operation. */
export interface OperationKeys {
  /** Activity `type` of the envelope, e.g. `ACTIVITY_TYPE_SIGN_RAW_PAYLOADS`. */
  readonly type: string;
  /** Key of `activity.intent` that echoes the parameters. */
  readonly intentKey: string;
  /** Key of `activity.result` that holds the outcome. */
  readonly resultKey: string;
}

/**
 * Every submit operation keyed by its path suffix, in the order of the registry (spec section B
 * first, then the extras of DESIGN section 2, then the proxy administration).
 * @example wireOperations.create_policy.type // 'ACTIVITY_TYPE_CREATE_POLICY_V3'
 */
export const wireOperations = {
  oauth2_authenticate: { type: 'ACTIVITY_TYPE_OAUTH2_AUTHENTICATE', intentKey: 'oauth2AuthenticateIntent', resultKey: 'oauth2AuthenticateResult' },
  recover_user: { type: 'ACTIVITY_TYPE_RECOVER_USER', intentKey: 'recoverUserIntent', resultKey: 'recoverUserResult' },
  sign_raw_payloads: { type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS', intentKey: 'signRawPayloadsIntent', resultKey: 'signRawPayloadsResult' },
  update_policy: { type: 'ACTIVITY_TYPE_UPDATE_POLICY_V2', intentKey: 'updatePolicyIntentV2', resultKey: 'updatePolicyResultV2' },
  stamp_login: { type: 'ACTIVITY_TYPE_STAMP_LOGIN', intentKey: 'stampLoginIntent', resultKey: 'stampLoginResult' },
  update_user_tag: { type: 'ACTIVITY_TYPE_UPDATE_USER_TAG', intentKey: 'updateUserTagIntent', resultKey: 'updateUserTagResult' },
  create_oauth2_credential: {
    type: 'ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL',
    intentKey: 'createOauth2CredentialIntent',
    resultKey: 'createOauth2CredentialResult',
  },
  create_private_key_tag: { type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG', intentKey: 'createPrivateKeyTagIntent', resultKey: 'createPrivateKeyTagResult' },
  export_private_key: { type: 'ACTIVITY_TYPE_EXPORT_PRIVATE_KEY', intentKey: 'exportPrivateKeyIntent', resultKey: 'exportPrivateKeyResult' },
  delete_smart_contract_interface: {
    type: 'ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE',
    intentKey: 'deleteSmartContractInterfaceIntent',
    resultKey: 'deleteSmartContractInterfaceResult',
  },
  delete_user_tags: { type: 'ACTIVITY_TYPE_DELETE_USER_TAGS', intentKey: 'deleteUserTagsIntent', resultKey: 'deleteUserTagsResult' },
  update_root_quorum: { type: 'ACTIVITY_TYPE_UPDATE_ROOT_QUORUM', intentKey: 'updateRootQuorumIntent', resultKey: 'updateRootQuorumResult' },
  init_import_private_key: { type: 'ACTIVITY_TYPE_INIT_IMPORT_PRIVATE_KEY', intentKey: 'initImportPrivateKeyIntent', resultKey: 'initImportPrivateKeyResult' },
  create_smart_contract_interface: {
    type: 'ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE',
    intentKey: 'createSmartContractInterfaceIntent',
    resultKey: 'createSmartContractInterfaceResult',
  },
  create_wallet_accounts: { type: 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', intentKey: 'createWalletAccountsIntent', resultKey: 'createWalletAccountsResult' },
  update_private_key_tag: { type: 'ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG', intentKey: 'updatePrivateKeyTagIntent', resultKey: 'updatePrivateKeyTagResult' },
  create_policy: { type: 'ACTIVITY_TYPE_CREATE_POLICY_V3', intentKey: 'createPolicyIntentV3', resultKey: 'createPolicyResult' },
  update_user_phone_number: {
    type: 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER',
    intentKey: 'updateUserPhoneNumberIntent',
    resultKey: 'updateUserPhoneNumberResult',
  },
  create_user_tag: { type: 'ACTIVITY_TYPE_CREATE_USER_TAG', intentKey: 'createUserTagIntent', resultKey: 'createUserTagResult' },
  create_tvc_manifest_approvals: {
    type: 'ACTIVITY_TYPE_CREATE_TVC_MANIFEST_APPROVALS',
    intentKey: 'createTvcManifestApprovalsIntent',
    resultKey: 'createTvcManifestApprovalsResult',
  },
  remove_organization_feature: {
    type: 'ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE',
    intentKey: 'removeOrganizationFeatureIntent',
    resultKey: 'removeOrganizationFeatureResult',
  },
  init_otp: { type: 'ACTIVITY_TYPE_INIT_OTP_V3', intentKey: 'initOtpIntentV3', resultKey: 'initOtpResultV2' },
  verify_otp: { type: 'ACTIVITY_TYPE_VERIFY_OTP_V2', intentKey: 'verifyOtpIntentV2', resultKey: 'verifyOtpResult' },
  otp_login: { type: 'ACTIVITY_TYPE_OTP_LOGIN_V2', intentKey: 'otpLoginIntentV2', resultKey: 'otpLoginResult' },
  oauth_login: { type: 'ACTIVITY_TYPE_OAUTH_LOGIN', intentKey: 'oauthLoginIntent', resultKey: 'oauthLoginResult' },
  create_sub_organization: {
    type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
    intentKey: 'createSubOrganizationIntentV8',
    resultKey: 'createSubOrganizationResultV8',
  },
  create_users: { type: 'ACTIVITY_TYPE_CREATE_USERS_V4', intentKey: 'createUsersIntentV4', resultKey: 'createUsersResult' },
  update_user_email: { type: 'ACTIVITY_TYPE_UPDATE_USER_EMAIL', intentKey: 'updateUserEmailIntent', resultKey: 'updateUserEmailResult' },
  sign_raw_payload: { type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', intentKey: 'signRawPayloadIntentV2', resultKey: 'signRawPayloadResult' },
  sign_transaction: { type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', intentKey: 'signTransactionIntentV2', resultKey: 'signTransactionResult' },
  create_api_keys: { type: 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', intentKey: 'createApiKeysIntentV2', resultKey: 'createApiKeysResult' },
  delete_api_keys: { type: 'ACTIVITY_TYPE_DELETE_API_KEYS', intentKey: 'deleteApiKeysIntent', resultKey: 'deleteApiKeysResult' },
  create_authenticators: { type: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2', intentKey: 'createAuthenticatorsIntentV2', resultKey: 'createAuthenticatorsResult' },
  delete_authenticators: { type: 'ACTIVITY_TYPE_DELETE_AUTHENTICATORS', intentKey: 'deleteAuthenticatorsIntent', resultKey: 'deleteAuthenticatorsResult' },
  create_oauth_providers: {
    type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2',
    intentKey: 'createOauthProvidersIntentV2',
    resultKey: 'createOauthProvidersResultV2',
  },
  delete_oauth_providers: { type: 'ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS', intentKey: 'deleteOauthProvidersIntent', resultKey: 'deleteOauthProvidersResult' },
  create_wallet: { type: 'ACTIVITY_TYPE_CREATE_WALLET', intentKey: 'createWalletIntent', resultKey: 'createWalletResult' },
  export_wallet: { type: 'ACTIVITY_TYPE_EXPORT_WALLET', intentKey: 'exportWalletIntent', resultKey: 'exportWalletResult' },
  export_wallet_account: { type: 'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT', intentKey: 'exportWalletAccountIntent', resultKey: 'exportWalletAccountResult' },
  init_import_wallet: { type: 'ACTIVITY_TYPE_INIT_IMPORT_WALLET', intentKey: 'initImportWalletIntent', resultKey: 'initImportWalletResult' },
  import_wallet: { type: 'ACTIVITY_TYPE_IMPORT_WALLET', intentKey: 'importWalletIntent', resultKey: 'importWalletResult' },
  create_private_keys: { type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2', intentKey: 'createPrivateKeysIntentV2', resultKey: 'createPrivateKeysResultV2' },
  import_private_key: { type: 'ACTIVITY_TYPE_IMPORT_PRIVATE_KEY', intentKey: 'importPrivateKeyIntent', resultKey: 'importPrivateKeyResult' },
  set_organization_feature: {
    type: 'ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE',
    intentKey: 'setOrganizationFeatureIntent',
    resultKey: 'setOrganizationFeatureResult',
  },
  approve_activity: { type: 'ACTIVITY_TYPE_APPROVE_ACTIVITY', intentKey: 'approveActivityIntent', resultKey: 'approveActivityResult' },
  reject_activity: { type: 'ACTIVITY_TYPE_REJECT_ACTIVITY', intentKey: 'rejectActivityIntent', resultKey: 'rejectActivityResult' },
  create_tvc_manifest: { type: 'ACTIVITY_TYPE_CREATE_TVC_MANIFEST', intentKey: 'createTvcManifestIntent', resultKey: 'createTvcManifestResult' },
  delete_policy: { type: 'ACTIVITY_TYPE_DELETE_POLICY', intentKey: 'deletePolicyIntent', resultKey: 'deletePolicyResult' },
  enable_auth_proxy: { type: 'ACTIVITY_TYPE_ENABLE_AUTH_PROXY', intentKey: 'enableAuthProxyIntent', resultKey: 'enableAuthProxyResult' },
  update_auth_proxy_config: {
    type: 'ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG',
    intentKey: 'updateAuthProxyConfigIntent',
    resultKey: 'updateAuthProxyConfigResult',
  },
  disable_auth_proxy: { type: 'ACTIVITY_TYPE_DISABLE_AUTH_PROXY', intentKey: 'disableAuthProxyIntent', resultKey: 'disableAuthProxyResult' },
} as const satisfies Record<string, OperationKeys>;

/** Name (path suffix) of a submit operation, e.g. `'sign_raw_payloads'`. */
export type WireOperationName = keyof typeof wireOperations;

/** What a client needs at run time to submit operation `N`. */
export interface OperationWire<N extends string = string> extends OperationKeys {
  readonly name: N;
  /** Full path, `/public/v1/submit/<name>`. */
  readonly path: string;
}

/**
 * Name, path, activity type and keys of operation `name`.
 * @example operationWire('sign_raw_payloads').path // '/public/v1/submit/sign_raw_payloads'
 */
export function operationWire<N extends WireOperationName>(name: N): OperationWire<N> {
  const { type, intentKey, resultKey } = wireOperations[name];
  return { name, path: `/public/v1/submit/${name}`, type, intentKey, resultKey };
}

/** Every read endpoint name, in the order of the registry. */
export const QUERY_NAMES = [
  'whoami',
  'get_activity',
  'list_activities',
  'get_user',
  'list_users',
  'list_wallets',
  'get_wallet',
  'list_wallet_accounts',
  'get_wallet_account',
  'get_private_key',
  'list_private_keys',
  'list_policies',
  'get_policy',
  'list_user_tags',
  'list_private_key_tags',
  'get_oauth2_credential',
  'list_oauth2_credentials',
  'get_organization_configs',
  'list_smart_contract_interfaces',
  'get_api_keys',
  'get_authenticators',
  'get_auth_proxy_config',
  'list_suborgs',
] as const;

/** Name of a read endpoint, e.g. `'whoami'`. */
export type WireQueryName = (typeof QUERY_NAMES)[number];

/**
 * Path of a read endpoint.
 * @example queryPath('whoami') // '/public/v1/query/whoami'
 */
export function queryPath(name: WireQueryName): string {
  return `/public/v1/query/${name}`;
}

/** Every authentication proxy endpoint name (spec section A), in the order of the registry. */
export const PROXY_ENDPOINT_NAMES = [
  'otp_init_v2',
  'otp_verify_v2',
  'otp_login_v2',
  'oauth_login',
  'oauth2_authenticate',
  'signup_v2',
  'account',
  'wallet_kit_config',
  'wallet_kit_client_params',
] as const;

/** Name of a proxy endpoint, e.g. `'otp_init_v2'`. */
export type WireProxyEndpointName = (typeof PROXY_ENDPOINT_NAMES)[number];

/**
 * Path of a proxy endpoint.
 * @example proxyPath('otp_init_v2') // '/v1/otp_init_v2'
 */
export function proxyPath(name: WireProxyEndpointName): string {
  return `/v1/${name}`;
}

/** The header naming the organization's proxy configuration (spec A, "Authentication proxy" 1). */
export const PROXY_CONFIG_ID_HEADER = 'X-Auth-Proxy-Config-Id';
