import { Type } from '@sinclair/typebox';
import { defineQuery, Obj, Enum } from './descriptor.js';
import { Activity, ACTIVITY_STATUSES } from './envelope.js';
import { API_KEY_CURVES } from './enums.js';
import { Address, DerivationPath, Id, Jwt, MAX_ITEMS } from './fields.js';
import { AuthProxyConfigRecord } from './operations/auth-proxy.js';
import {
  ApiKeyRecord,
  AuthenticatorRecord,
  Oauth2CredentialRecord,
  OrganizationConfigs,
  PolicyRecord,
  PrivateKeyRecord,
  SmartContractInterfaceRecord,
  TagRecord,
  UserRecord,
  WalletAccountRecord,
  WalletRecord,
} from './records.js';

/**
 * Read endpoints, `POST /public/v1/query/<name>`, stamped like submits (DESIGN section 2).
 * Names, bodies and response keys follow Turnkey's public API (v1GetWhoamiRequest, ...).
 */

/** Body of a query: the organization plus the query's own fields; closed. */
const body = <T extends Parameters<typeof Obj>[0]>(fields: T) => Obj({ organizationId: Id, ...fields });

/** Cursor pagination (v1Pagination): `limit` is a decimal string, 1 to 100, default 10. */
export const Pagination = Obj({
  limit: Type.Optional(Type.String({ pattern: '^(100|[1-9][0-9]?)$' })),
  before: Type.Optional(Id),
  after: Type.Optional(Id),
});

/** Who the stamp belongs to. @example { organizationId } // -> { organizationId, organizationName, userId, username } */
export const whoami = defineQuery({
  name: 'whoami',
  request: body({}),
  response: Obj({
    organizationId: Type.String(),
    organizationName: Type.String(),
    userId: Type.String(),
    username: Type.String(),
  }),
});

/** One activity record. @example { organizationId, activityId } // -> { activity } */
export const getActivity = defineQuery({
  name: 'get_activity',
  request: body({ activityId: Id }),
  response: Obj({ activity: Activity }),
});

/**
 * Activities of an organization, newest first, optionally filtered by status and type.
 * @example { organizationId, filterByStatus: ['ACTIVITY_STATUS_CONSENSUS_NEEDED'], paginationOptions: { limit: '10' } }
 */
export const listActivities = defineQuery({
  name: 'list_activities',
  request: body({
    filterByStatus: Type.Optional(Type.Array(Enum(ACTIVITY_STATUSES), { maxItems: ACTIVITY_STATUSES.length })),
    filterByType: Type.Optional(Type.Array(Type.String({ pattern: '^ACTIVITY_TYPE_[A-Z0-9_]+$', maxLength: 128 }), { maxItems: MAX_ITEMS })),
    paginationOptions: Type.Optional(Pagination),
  }),
  response: Obj({ activities: Type.Array(Activity) }),
});

/** One user with its credentials. @example { organizationId, userId } // -> { user } */
export const getUser = defineQuery({
  name: 'get_user',
  request: body({ userId: Id }),
  response: Obj({ user: UserRecord }),
});

/** Users of an organization. @example { organizationId } // -> { users } */
export const listUsers = defineQuery({
  name: 'list_users',
  request: body({}),
  response: Obj({ users: Type.Array(UserRecord) }),
});

/** Wallets of an organization. @example { organizationId } // -> { wallets } */
export const listWallets = defineQuery({
  name: 'list_wallets',
  request: body({}),
  response: Obj({ wallets: Type.Array(WalletRecord) }),
});

/** One wallet. @example { organizationId, walletId } // -> { wallet } */
export const getWallet = defineQuery({
  name: 'get_wallet',
  request: body({ walletId: Id }),
  response: Obj({ wallet: WalletRecord }),
});

/**
 * Accounts of one wallet, or of the whole organization when `walletId` is absent.
 * @example { organizationId, walletId } // -> { accounts }
 */
export const listWalletAccounts = defineQuery({
  name: 'list_wallet_accounts',
  request: body({
    walletId: Type.Optional(Id),
    includeWalletDetails: Type.Optional(Type.Boolean()),
    paginationOptions: Type.Optional(Pagination),
  }),
  response: Obj({ accounts: Type.Array(WalletAccountRecord) }),
});

/**
 * One account of a wallet (Turnkey's get_wallet_account), found by `address`, by `path`, or by
 * both (then both must match); at least one of them is required.
 * @example { organizationId, walletId, address: '0xAbC...' } // -> { account }
 */
export const getWalletAccount = defineQuery({
  name: 'get_wallet_account',
  request: body({
    walletId: Id,
    address: Type.Optional(Address),
    path: Type.Optional(DerivationPath),
  }),
  response: Obj({ account: WalletAccountRecord }),
});

/** One private key. @example { organizationId, privateKeyId } // -> { privateKey } */
export const getPrivateKey = defineQuery({
  name: 'get_private_key',
  request: body({ privateKeyId: Id }),
  response: Obj({ privateKey: PrivateKeyRecord }),
});

/** Private keys of an organization. @example { organizationId } // -> { privateKeys } */
export const listPrivateKeys = defineQuery({
  name: 'list_private_keys',
  request: body({}),
  response: Obj({ privateKeys: Type.Array(PrivateKeyRecord) }),
});

/** Policies of an organization. @example { organizationId } // -> { policies } */
export const listPolicies = defineQuery({
  name: 'list_policies',
  request: body({}),
  response: Obj({ policies: Type.Array(PolicyRecord) }),
});

/** One policy. @example { organizationId, policyId } // -> { policy } */
export const getPolicy = defineQuery({
  name: 'get_policy',
  request: body({ policyId: Id }),
  response: Obj({ policy: PolicyRecord }),
});

/** User tags of an organization. @example { organizationId } // -> { userTags } */
export const listUserTags = defineQuery({
  name: 'list_user_tags',
  request: body({}),
  response: Obj({ userTags: Type.Array(TagRecord) }),
});

/** Private key tags of an organization. @example { organizationId } // -> { privateKeyTags } */
export const listPrivateKeyTags = defineQuery({
  name: 'list_private_key_tags',
  request: body({}),
  response: Obj({ privateKeyTags: Type.Array(TagRecord) }),
});

/** One OAuth 2.0 credential. @example { organizationId, oauth2CredentialId } // -> { oauth2Credential } */
export const getOauth2Credential = defineQuery({
  name: 'get_oauth2_credential',
  request: body({ oauth2CredentialId: Id }),
  response: Obj({ oauth2Credential: Oauth2CredentialRecord }),
});

/** OAuth 2.0 credentials of an organization. @example { organizationId } // -> { oauth2Credentials } */
export const listOauth2Credentials = defineQuery({
  name: 'list_oauth2_credentials',
  request: body({}),
  response: Obj({ oauth2Credentials: Type.Array(Oauth2CredentialRecord) }),
});

/** Features and root quorum. @example { organizationId } // -> { configs: { features, quorum } } */
export const getOrganizationConfigs = defineQuery({
  name: 'get_organization_configs',
  request: body({}),
  response: Obj({ configs: OrganizationConfigs }),
});

/** Smart contract interfaces of an organization. @example { organizationId } // -> { smartContractInterfaces } */
export const listSmartContractInterfaces = defineQuery({
  name: 'list_smart_contract_interfaces',
  request: body({}),
  response: Obj({ smartContractInterfaces: Type.Array(SmartContractInterfaceRecord) }),
});

/** API keys of one user, or of the caller when `userId` is absent. @example { organizationId, userId } // -> { apiKeys } */
export const getApiKeys = defineQuery({
  name: 'get_api_keys',
  request: body({ userId: Type.Optional(Id) }),
  response: Obj({ apiKeys: Type.Array(ApiKeyRecord) }),
});

/** Passkeys of one user. @example { organizationId, userId } // -> { authenticators } */
export const getAuthenticators = defineQuery({
  name: 'get_authenticators',
  request: body({ userId: Id }),
  response: Obj({ authenticators: Type.Array(AuthenticatorRecord) }),
});

/** The organization's authentication proxy configuration. @example { organizationId } // -> { config } */
export const getAuthProxyConfig = defineQuery({
  name: 'get_auth_proxy_config',
  request: body({}),
  response: Obj({ config: AuthProxyConfigRecord }),
});

/**
 * Kinds of identity a sub-organization can be found by (spec: "proxy account filter type";
 * Turnkey's get_sub_org_ids). OIDC_TOKEN takes the token itself (verified; matched on iss, sub,
 * aud); USERNAME matches user names and NAME sub-organization names, which are not unique, so
 * they may return several organizations; WALLET_ACCOUNT_ADDRESS an address of a wallet account.
 */
export const SUBORG_FILTER_TYPES = [
  'EMAIL',
  'PHONE_NUMBER',
  'CREDENTIAL_ID',
  'OIDC_TOKEN',
  'PUBLIC_KEY',
  'USERNAME',
  'NAME',
  'WALLET_ACCOUNT_ADDRESS',
] as const;
export type SubOrgFilterType = (typeof SUBORG_FILTER_TYPES)[number];

/**
 * Sub-organizations of `organizationId` (Turnkey's get_sub_org_ids): all of them, oldest first
 * and paginated, or those holding an identity when `filterType` and `filterValue` are given (an
 * empty list when none matches). Ours: `verificationToken` and `oidcToken` are proofs the proxy
 * passes on for its account lookup; when given, each is verified (signature, expiry,
 * organization, not used yet), and for an EMAIL or PHONE_NUMBER filter it must prove that very
 * contact (the token's contact; the id token's verified email). `apiKeyCurve` narrows a PUBLIC_KEY
 * filter to API keys of that curve.
 * @example { organizationId, filterType: 'EMAIL', filterValue: 'a@example.com' } // -> { organizationIds: ['...'] }
 */
export const listSuborgs = defineQuery({
  name: 'list_suborgs',
  request: body({
    filterType: Type.Optional(Enum(SUBORG_FILTER_TYPES)),
    filterValue: Type.Optional(Type.String({ minLength: 1, maxLength: 16384 })),
    paginationOptions: Type.Optional(Pagination),
    verificationToken: Type.Optional(Jwt),
    oidcToken: Type.Optional(Jwt),
    /** Ours, with a PUBLIC_KEY filter: only a (non-session) API key of this curve matches (the proxy's wallet-method check). */
    apiKeyCurve: Type.Optional(Enum(API_KEY_CURVES)),
  }),
  response: Obj({ organizationIds: Type.Array(Type.String()) }),
});
