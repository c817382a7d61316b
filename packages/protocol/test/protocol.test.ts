import { readFileSync } from 'node:fs';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  Activity,
  errorTable,
  isOperationName,
  isQueryName,
  operationByType,
  operations,
  queries,
  specOperationNames,
  type ErrorCode,
  type OperationName,
  type ParamsOf,
  type QueryRequestOf,
  type ResultOf,
} from '../src/index';

/**
 * Spec section B, copied row by row from shared/spec/service-api.md:
 * [path suffix, type, intent key, result key]. The spec's prose says "20 operations"; its
 * table has 21 rows (remove_organization_feature is the 21st). The table is the contract.
 */
const SPEC_TABLE = [
  ['oauth2_authenticate', 'ACTIVITY_TYPE_OAUTH2_AUTHENTICATE', 'oauth2AuthenticateIntent', 'oauth2AuthenticateResult'],
  ['recover_user', 'ACTIVITY_TYPE_RECOVER_USER', 'recoverUserIntent', 'recoverUserResult'],
  ['sign_raw_payloads', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS', 'signRawPayloadsIntent', 'signRawPayloadsResult'],
  ['update_policy', 'ACTIVITY_TYPE_UPDATE_POLICY_V2', 'updatePolicyIntentV2', 'updatePolicyResultV2'],
  ['stamp_login', 'ACTIVITY_TYPE_STAMP_LOGIN', 'stampLoginIntent', 'stampLoginResult'],
  ['update_user_tag', 'ACTIVITY_TYPE_UPDATE_USER_TAG', 'updateUserTagIntent', 'updateUserTagResult'],
  ['create_oauth2_credential', 'ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL', 'createOauth2CredentialIntent', 'createOauth2CredentialResult'],
  ['create_private_key_tag', 'ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG', 'createPrivateKeyTagIntent', 'createPrivateKeyTagResult'],
  ['export_private_key', 'ACTIVITY_TYPE_EXPORT_PRIVATE_KEY', 'exportPrivateKeyIntent', 'exportPrivateKeyResult'],
  [
    'delete_smart_contract_interface',
    'ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE',
    'deleteSmartContractInterfaceIntent',
    'deleteSmartContractInterfaceResult',
  ],
  ['delete_user_tags', 'ACTIVITY_TYPE_DELETE_USER_TAGS', 'deleteUserTagsIntent', 'deleteUserTagsResult'],
  ['update_root_quorum', 'ACTIVITY_TYPE_UPDATE_ROOT_QUORUM', 'updateRootQuorumIntent', 'updateRootQuorumResult'],
  ['init_import_private_key', 'ACTIVITY_TYPE_INIT_IMPORT_PRIVATE_KEY', 'initImportPrivateKeyIntent', 'initImportPrivateKeyResult'],
  [
    'create_smart_contract_interface',
    'ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE',
    'createSmartContractInterfaceIntent',
    'createSmartContractInterfaceResult',
  ],
  ['create_wallet_accounts', 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', 'createWalletAccountsIntent', 'createWalletAccountsResult'],
  ['update_private_key_tag', 'ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG', 'updatePrivateKeyTagIntent', 'updatePrivateKeyTagResult'],
  ['create_policy', 'ACTIVITY_TYPE_CREATE_POLICY_V3', 'createPolicyIntentV3', 'createPolicyResult'],
  ['update_user_phone_number', 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER', 'updateUserPhoneNumberIntent', 'updateUserPhoneNumberResult'],
  ['create_user_tag', 'ACTIVITY_TYPE_CREATE_USER_TAG', 'createUserTagIntent', 'createUserTagResult'],
  ['create_tvc_manifest_approvals', 'ACTIVITY_TYPE_CREATE_TVC_MANIFEST_APPROVALS', 'createTvcManifestApprovalsIntent', 'createTvcManifestApprovalsResult'],
  ['remove_organization_feature', 'ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE', 'removeOrganizationFeatureIntent', 'removeOrganizationFeatureResult'],
] as const;

/**
 * Extras of DESIGN section 2 with Turnkey's current names (checked against tkhq/sdk's
 * public_api types and its versioned-activity table). approve/reject result keys and all of
 * create_tvc_manifest are this project's names (Turnkey has none).
 */
const EXTRAS_TABLE = [
  ['init_otp', 'ACTIVITY_TYPE_INIT_OTP_V3', 'initOtpIntentV3', 'initOtpResultV2'],
  ['verify_otp', 'ACTIVITY_TYPE_VERIFY_OTP_V2', 'verifyOtpIntentV2', 'verifyOtpResult'],
  ['otp_login', 'ACTIVITY_TYPE_OTP_LOGIN_V2', 'otpLoginIntentV2', 'otpLoginResult'],
  ['oauth_login', 'ACTIVITY_TYPE_OAUTH_LOGIN', 'oauthLoginIntent', 'oauthLoginResult'],
  ['create_sub_organization', 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', 'createSubOrganizationIntentV8', 'createSubOrganizationResultV8'],
  ['create_users', 'ACTIVITY_TYPE_CREATE_USERS_V4', 'createUsersIntentV4', 'createUsersResult'],
  ['update_user_email', 'ACTIVITY_TYPE_UPDATE_USER_EMAIL', 'updateUserEmailIntent', 'updateUserEmailResult'],
  ['sign_raw_payload', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', 'signRawPayloadIntentV2', 'signRawPayloadResult'],
  ['sign_transaction', 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', 'signTransactionIntentV2', 'signTransactionResult'],
  ['create_api_keys', 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', 'createApiKeysIntentV2', 'createApiKeysResult'],
  ['delete_api_keys', 'ACTIVITY_TYPE_DELETE_API_KEYS', 'deleteApiKeysIntent', 'deleteApiKeysResult'],
  ['create_authenticators', 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2', 'createAuthenticatorsIntentV2', 'createAuthenticatorsResult'],
  ['delete_authenticators', 'ACTIVITY_TYPE_DELETE_AUTHENTICATORS', 'deleteAuthenticatorsIntent', 'deleteAuthenticatorsResult'],
  ['create_oauth_providers', 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2', 'createOauthProvidersIntentV2', 'createOauthProvidersResultV2'],
  ['delete_oauth_providers', 'ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS', 'deleteOauthProvidersIntent', 'deleteOauthProvidersResult'],
  ['create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', 'createWalletIntent', 'createWalletResult'],
  ['export_wallet', 'ACTIVITY_TYPE_EXPORT_WALLET', 'exportWalletIntent', 'exportWalletResult'],
  ['export_wallet_account', 'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT', 'exportWalletAccountIntent', 'exportWalletAccountResult'],
  ['init_import_wallet', 'ACTIVITY_TYPE_INIT_IMPORT_WALLET', 'initImportWalletIntent', 'initImportWalletResult'],
  ['import_wallet', 'ACTIVITY_TYPE_IMPORT_WALLET', 'importWalletIntent', 'importWalletResult'],
  ['create_private_keys', 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2', 'createPrivateKeysIntentV2', 'createPrivateKeysResultV2'],
  ['import_private_key', 'ACTIVITY_TYPE_IMPORT_PRIVATE_KEY', 'importPrivateKeyIntent', 'importPrivateKeyResult'],
  ['set_organization_feature', 'ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE', 'setOrganizationFeatureIntent', 'setOrganizationFeatureResult'],
  ['approve_activity', 'ACTIVITY_TYPE_APPROVE_ACTIVITY', 'approveActivityIntent', 'approveActivityResult'],
  ['reject_activity', 'ACTIVITY_TYPE_REJECT_ACTIVITY', 'rejectActivityIntent', 'rejectActivityResult'],
  ['create_tvc_manifest', 'ACTIVITY_TYPE_CREATE_TVC_MANIFEST', 'createTvcManifestIntent', 'createTvcManifestResult'],
  ['delete_policy', 'ACTIVITY_TYPE_DELETE_POLICY', 'deletePolicyIntent', 'deletePolicyResult'],
  ['enable_auth_proxy', 'ACTIVITY_TYPE_ENABLE_AUTH_PROXY', 'enableAuthProxyIntent', 'enableAuthProxyResult'],
  ['update_auth_proxy_config', 'ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG', 'updateAuthProxyConfigIntent', 'updateAuthProxyConfigResult'],
  ['disable_auth_proxy', 'ACTIVITY_TYPE_DISABLE_AUTH_PROXY', 'disableAuthProxyIntent', 'disableAuthProxyResult'],
] as const;

/** The read endpoints DESIGN section 2 asks for at least, plus the ones the kit uses. */
const QUERY_NAMES = [
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

const allOperations = Object.values(operations);
const allQueries = Object.values(queries);

/** Path to the first object schema (with declared properties) that accepts unknown fields. */
function firstOpenObject(schema: TSchema, path: string): string | undefined {
  // The activity record (envelope.ts) is the one shared reply shape; it is defined there and
  // kept open so clients accept records that gain fields, as Turnkey's do.
  if (JSON.stringify(schema) === JSON.stringify(Activity)) return undefined;
  if (schema.type === 'object' && schema.properties !== undefined) {
    if (schema.additionalProperties !== false) return path;
    for (const [key, child] of Object.entries(schema.properties as Record<string, TSchema>)) {
      const open = firstOpenObject(child, `${path}.${key}`);
      if (open) return open;
    }
  }
  if (schema.type === 'array' && schema.items) return firstOpenObject(schema.items as TSchema, `${path}[]`);
  for (const branch of (schema.anyOf ?? []) as TSchema[]) {
    const open = firstOpenObject(branch, `${path}|`);
    if (open) return open;
  }
  return undefined;
}

/** Path to the first input string without a length, pattern or literal bound, or array without maxItems. */
function firstUnbounded(schema: TSchema, path: string): string | undefined {
  const bounded = schema.maxLength !== undefined || schema.pattern !== undefined || schema.const !== undefined;
  if (schema.type === 'string' && !bounded) return path;
  if (schema.type === 'array' && schema.maxItems === undefined) return path;
  if (schema.type === 'object' && schema.properties) {
    for (const [key, child] of Object.entries(schema.properties as Record<string, TSchema>)) {
      const found = firstUnbounded(child, `${path}.${key}`);
      if (found) return found;
    }
  }
  if (schema.type === 'array' && schema.items) return firstUnbounded(schema.items as TSchema, `${path}[]`);
  for (const branch of (schema.anyOf ?? []) as TSchema[]) {
    const found = firstUnbounded(branch, path);
    if (found) return found;
  }
  return undefined;
}

const check = <N extends OperationName>(name: N, params: unknown) => Value.Check(operations[name].parameters, params);

describe('registry: spec section B', () => {
  it('given the spec table, then the registry marks exactly its 21 rows as spec operations, in order', () => {
    expect(SPEC_TABLE).toHaveLength(21);
    expect(specOperationNames).toEqual(SPEC_TABLE.map(([name]) => name));
  });

  it.each(SPEC_TABLE)('given %s, then its type, intent key and result key are the spec table row', (name, type, intentKey, resultKey) => {
    const d = operations[name];
    expect({ name: d.name, path: d.path, type: d.type, intentKey: d.intentKey, resultKey: d.resultKey, spec: d.spec }).toEqual({
      name,
      path: `/public/v1/submit/${name}`,
      type,
      intentKey,
      resultKey,
      spec: true,
    });
  });
});

describe('registry: extras of DESIGN section 2', () => {
  it.each(EXTRAS_TABLE)('given %s, then it carries Turnkey names and spec: false', (name, type, intentKey, resultKey) => {
    const d = operations[name];
    expect({ type: d.type, intentKey: d.intentKey, resultKey: d.resultKey, spec: d.spec }).toEqual({
      type,
      intentKey,
      resultKey,
      spec: false,
    });
  });

  it('given the two tables, then the registry holds those operations and nothing else', () => {
    expect(Object.keys(operations).sort()).toEqual([...SPEC_TABLE, ...EXTRAS_TABLE].map(([n]) => n).sort());
  });
});

describe('registry: identity', () => {
  it('given every operation, then its key, name and path agree and names, types, paths and keys are unique', () => {
    for (const [key, d] of Object.entries(operations)) {
      expect(d.name).toBe(key);
      expect(d.path).toBe(`/public/v1/submit/${key}`);
    }
    for (const field of ['name', 'type', 'path', 'intentKey', 'resultKey'] as const) {
      const values = allOperations.map((d) => d[field]);
      expect(new Set(values).size, field).toBe(values.length);
    }
  });

  it('given an activity type, then operationByType returns its descriptor, and undefined for an unknown type', () => {
    for (const d of allOperations) expect(operationByType(d.type)).toBe(d);
    expect(operationByType('ACTIVITY_TYPE_CREATE_POLICY')).toBeUndefined();
  });

  it('given names, then the guards accept registered names only', () => {
    expect(isOperationName('create_policy')).toBe(true);
    expect(isOperationName('toString')).toBe(false);
    expect(isQueryName('whoami')).toBe(true);
    expect(isQueryName('create_policy')).toBe(false);
  });

  it('given every query, then its key, name and path agree and the DESIGN list is covered', () => {
    expect(Object.keys(queries).sort()).toEqual([...QUERY_NAMES].sort());
    for (const [key, q] of Object.entries(queries)) {
      expect(q.name).toBe(key);
      expect(q.path).toBe(`/public/v1/query/${key}`);
      expect(q.request.properties).toHaveProperty('organizationId');
    }
  });
});

describe('schemas are closed and bounded', () => {
  it('given every operation, then parameters and result refuse unknown fields at every depth', () => {
    for (const d of allOperations) {
      expect(firstOpenObject(d.parameters, `${d.name}.parameters`)).toBeUndefined();
      expect(firstOpenObject(d.result, `${d.name}.result`)).toBeUndefined();
    }
  });

  it('given every query, then request and response refuse unknown fields at every depth', () => {
    for (const q of allQueries) {
      expect(firstOpenObject(q.request, `${q.name}.request`)).toBeUndefined();
      expect(firstOpenObject(q.response, `${q.name}.response`)).toBeUndefined();
    }
  });

  it('given every input schema, then each string has a length or pattern bound and each array a maxItems', () => {
    for (const d of allOperations) expect(firstUnbounded(d.parameters, `${d.name}.parameters`)).toBeUndefined();
    for (const q of allQueries) expect(firstUnbounded(q.request, `${q.name}.request`)).toBeUndefined();
  });
});

describe('parameters validate with TypeBox', () => {
  const attestation = {
    credentialId: 'Y3JlZA',
    clientDataJson: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0',
    attestationObject: 'o2NmbXRkbm9uZQ',
    transports: ['AUTHENTICATOR_TRANSPORT_INTERNAL', 'AUTHENTICATOR_TRANSPORT_HYBRID'],
  };
  const account = { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' };

  it('given create_policy, then condition/consensus/notes are optional, unknown fields and wrong enums are refused', () => {
    expect(check('create_policy', { policyName: 'p', effect: 'EFFECT_ALLOW' })).toBe(true);
    expect(check('create_policy', { policyName: 'p', effect: 'EFFECT_DENY', condition: 'true', consensus: 'approvers.count() >= 1', notes: '' })).toBe(true);
    expect(check('create_policy', { policyName: 'p', effect: 'EFFECT_ALLOW', selectors: [] })).toBe(false);
    expect(check('create_policy', { policyName: 'p', effect: 'ALLOW' })).toBe(false);
    expect(check('create_policy', { policyName: '', effect: 'EFFECT_ALLOW' })).toBe(false);
  });

  it('given update_policy, then only condition/consensus/notes may be left out', () => {
    const base = { policyId: 'p1', policyName: 'n', policyEffect: 'EFFECT_ALLOW' };
    expect(check('update_policy', base)).toBe(true);
    expect(check('update_policy', { ...base, policyCondition: 'true', policyConsensus: 'true', policyNotes: 'x' })).toBe(true);
    expect(check('update_policy', { policyId: 'p1', policyName: 'n' })).toBe(false);
  });

  it('given stamp_login, then expirationSeconds is a decimal string and invalidateExisting a boolean, both optional', () => {
    expect(check('stamp_login', { publicKey: '02'.padEnd(66, 'a') })).toBe(true);
    expect(check('stamp_login', { publicKey: '02'.padEnd(66, 'a'), expirationSeconds: '900', invalidateExisting: true })).toBe(true);
    expect(check('stamp_login', { publicKey: '02'.padEnd(66, 'a'), expirationSeconds: 900 })).toBe(false);
    expect(check('stamp_login', { publicKey: '02'.padEnd(66, 'a'), invalidateExisting: 'true' })).toBe(false);
    expect(check('stamp_login', { publicKey: 'not hex' })).toBe(false);
  });

  it('given update_root_quorum, then threshold is an integer of at least 1 and the result is the empty object', () => {
    expect(check('update_root_quorum', { threshold: 1, userIds: ['u1'] })).toBe(true);
    expect(check('update_root_quorum', { threshold: 0, userIds: ['u1'] })).toBe(false);
    expect(check('update_root_quorum', { threshold: 1.5, userIds: ['u1'] })).toBe(false);
    expect(check('update_root_quorum', { threshold: '1', userIds: ['u1'] })).toBe(false);
    expect(Value.Check(operations.update_root_quorum.result, {})).toBe(true);
    expect(Value.Check(operations.update_root_quorum.result, { threshold: 1 })).toBe(false);
  });

  it('given recover_user, then the nested attestation is checked and closed too', () => {
    const params = { userId: 'u1', authenticator: { authenticatorName: 'laptop', challenge: 'abc', attestation } };
    expect(check('recover_user', params)).toBe(true);
    expect(check('recover_user', { ...params, authenticator: { ...params.authenticator, attestation: { ...attestation, extra: 1 } } })).toBe(false);
    expect(check('recover_user', { ...params, authenticator: { ...params.authenticator, attestation: { ...attestation, transports: ['USB'] } } })).toBe(false);
  });

  it('given create_wallet_accounts, then persist is an optional boolean and accounts use the enums', () => {
    expect(check('create_wallet_accounts', { walletId: 'w1', accounts: [account] })).toBe(true);
    expect(check('create_wallet_accounts', { walletId: 'w1', accounts: [account], persist: false })).toBe(true);
    expect(check('create_wallet_accounts', { walletId: 'w1', accounts: [{ ...account, curve: 'secp256k1' }] })).toBe(false);
    expect(check('create_wallet_accounts', { walletId: 'w1', accounts: [] })).toBe(false);
  });

  it('given create_sub_organization, then each OAuth provider carries exactly one of oidcToken and oidcClaims', () => {
    const user = (oauthProviders: unknown[]) => ({
      subOrganizationName: 'user-1',
      rootUsers: [{ userName: 'a', userEmail: 'a@example.com', apiKeys: [], authenticators: [], oauthProviders }],
      rootQuorumThreshold: 1,
      wallet: { walletName: 'Main', accounts: [account] },
    });
    const claims = { iss: 'https://accounts.google.com', sub: '123', aud: 'client' };
    expect(check('create_sub_organization', user([{ providerName: 'google', oidcToken: 'a.b.c' }]))).toBe(true);
    expect(check('create_sub_organization', user([{ providerName: 'google', oidcClaims: claims }]))).toBe(true);
    expect(check('create_sub_organization', user([{ providerName: 'google', oidcToken: 'a.b.c', oidcClaims: claims }]))).toBe(false);
    expect(check('create_sub_organization', user([{ providerName: 'google' }]))).toBe(false);
  });

  it('given otp_login, then clientSignature must use the one client signature scheme', () => {
    const signature = { publicKey: '02'.padEnd(66, 'b'), scheme: 'CLIENT_SIGNATURE_SCHEME_API_P256', message: '{}', signature: 'ab'.repeat(64) };
    const params = { verificationToken: 'a.b.c', publicKey: '02'.padEnd(66, 'b'), clientSignature: signature };
    expect(check('otp_login', params)).toBe(true);
    expect(check('otp_login', { ...params, clientSignature: { ...signature, scheme: 'SIGNATURE_SCHEME_TK_API_P256' } })).toBe(false);
  });

  it('given sign_raw_payloads, then the existing descriptor still validates its example', () => {
    const params = { signWith: '0xabc', payloads: ['0x00'], encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_KECCAK256' };
    expect(check('sign_raw_payloads', params)).toBe(true);
    expect(check('sign_raw_payloads', { ...params, payloads: [] })).toBe(false);
  });

  it('given list_activities, then filters and pagination are optional and typed', () => {
    const request = queries.list_activities.request;
    expect(Value.Check(request, { organizationId: 'o1' })).toBe(true);
    expect(
      Value.Check(request, {
        organizationId: 'o1',
        filterByStatus: ['ACTIVITY_STATUS_COMPLETED'],
        filterByType: ['ACTIVITY_TYPE_CREATE_POLICY_V3'],
        paginationOptions: { limit: '10', after: 'a1' },
      }),
    ).toBe(true);
    expect(Value.Check(request, { organizationId: 'o1', filterByStatus: ['DONE'] })).toBe(false);
    expect(Value.Check(request, { organizationId: 'o1', paginationOptions: { limit: '500' } })).toBe(false);
    expect(Value.Check(request, {})).toBe(false);
  });

  it('given get_organization_configs, then a Turnkey-shaped response validates', () => {
    const response = { configs: { features: [{ name: 'FEATURE_NAME_EMAIL_AUTH', value: '' }], quorum: { threshold: 1, userIds: ['u1'] } } };
    expect(Value.Check(queries.get_organization_configs.response, response)).toBe(true);
  });
});

describe('static types follow the schemas', () => {
  it('given ParamsOf/ResultOf/QueryRequestOf, then enums and optionals are typed', () => {
    expectTypeOf<ParamsOf<'create_policy'>['effect']>().toEqualTypeOf<'EFFECT_ALLOW' | 'EFFECT_DENY'>();
    expectTypeOf<ParamsOf<'create_policy'>>().toHaveProperty('notes').toEqualTypeOf<string | undefined>();
    expectTypeOf<ParamsOf<'sign_raw_payloads'>['hashFunction']>().toEqualTypeOf<
      'HASH_FUNCTION_NO_OP' | 'HASH_FUNCTION_SHA256' | 'HASH_FUNCTION_KECCAK256' | 'HASH_FUNCTION_NOT_APPLICABLE'
    >();
    expectTypeOf<ParamsOf<'create_wallet'>['mnemonicLength']>().toEqualTypeOf<12 | 15 | 18 | 21 | 24 | undefined>();
    expectTypeOf<ResultOf<'recover_user'>['authenticatorId']>().toEqualTypeOf<string[]>();
    expectTypeOf<QueryRequestOf<'get_user'>>().toEqualTypeOf<{ organizationId: string; userId: string }>();
  });
});

describe('errors', () => {
  const codes = Object.keys(errorTable) as ErrorCode[];

  it('given every error code, then its HTTP status is 4xx or 5xx, its gRPC code is valid and it has a message', () => {
    for (const code of codes) {
      const { status, grpc, message } = errorTable[code];
      expect(status >= 400 && status < 600, code).toBe(true);
      expect(Number.isInteger(grpc) && grpc >= 1 && grpc <= 16, code).toBe(true);
      expect(message.trim().length, code).toBeGreaterThan(0);
    }
  });

  it('given docs/errors.md, then it has one row per code with the same HTTP status and gRPC code', () => {
    const doc = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
    const rows = new Map([...doc.matchAll(/^\| `(ERR_[A-Z0-9_]+)` +\| (\d+) +\| (\d+)\b/gm)].map((m) => [m[1], { status: Number(m[2]), grpc: Number(m[3]) }]));
    for (const code of codes) {
      expect(rows.get(code), code).toEqual({ status: errorTable[code].status, grpc: errorTable[code].grpc });
    }
    expect([...rows.keys()].sort()).toEqual([...codes].sort());
  });
});
