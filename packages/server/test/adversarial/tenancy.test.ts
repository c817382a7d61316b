/**
 * Tenancy under attack, over real HTTP: two top-level organizations A and B, each with
 * sub-organizations, all holding real data (wallets with accounts, private keys, users with
 * API keys, passkeys and OIDC identities, user and private key tags, policies, smart contract
 * interfaces, OAuth 2.0 credentials, completed and pending activities). Every id-taking read
 * and activity is tried by one organization with another's ids and with random ids: the two
 * replies must be the same refusal (status, code, field, and message once the id itself is
 * replaced), so that an id of another tenant is indistinguishable from a made-up one, and the
 * victim's rows must be byte-for-byte unchanged afterwards.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { inArray, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksumAddress, generateP256KeyPair, hpkeSeal, stampApiKey, utf8ToBytes } from '@walletkit/crypto';
import { operations, type OperationName } from '@walletkit/protocol';
import {
  activities,
  activityVotes,
  apiKeys,
  authenticators,
  oauth2Credentials,
  oauthProviders,
  organizationFeatures,
  organizations,
  policies,
  privateKeyTagMembers,
  privateKeyTags,
  privateKeys,
  rootQuorumMembers,
  smartContractInterfaces,
  usedExportTargets,
  userTagMembers,
  userTags,
  users,
  walletAccounts,
  wallets,
} from '../../src/store/schema';
import { SoftwareAuthenticator } from '../support/authenticator';
import { startTestServer, type TestServer } from '../support/harness';
import { createOrganization } from '../../src/admin/organizations';
import { ETH_WALLET } from './support/flows';
import { envelopeText, sendRaw, type RawReply } from './support/http';
import { adversarialTally, errorCodeOf } from './support/tally';

const tally = adversarialTally('tenancy');

interface Key {
  publicKey: string;
  privateKey: string;
}

/** Who stamps, for which organization. */
interface Caller {
  label: string;
  key: Key;
  organizationId: string;
}

/** The ids an attack names: another tenant's, or made up. */
interface Ids {
  walletId: string;
  address: string;
  privateKeyId: string;
  privateKeyAddress: string;
  userId: string;
  apiKeyId: string;
  authenticatorId: string;
  oauthProviderId: string;
  userTagId: string;
  privateKeyTagId: string;
  policyId: string;
  activityId: string;
  fingerprint: string;
  /** A fingerprint of an activity awaiting consensus, where the organization has one. */
  pendingFingerprint?: string;
  smartContractInterfaceId: string;
  oauth2CredentialId: string;
}

/** An organization with its data and its root key. */
interface Tenant extends Ids {
  label: string;
  organizationId: string;
  rootUserId: string;
  key: Key;
}

/** The id fields of {@link Ids} (a tenant carries more, e.g. its label, which are not ids). */
const ID_FIELDS = [
  'walletId',
  'address',
  'privateKeyId',
  'privateKeyAddress',
  'userId',
  'apiKeyId',
  'authenticatorId',
  'oauthProviderId',
  'userTagId',
  'privateKeyTagId',
  'policyId',
  'activityId',
  'fingerprint',
  'pendingFingerprint',
  'smartContractInterfaceId',
  'oauth2CredentialId',
] as const satisfies ReadonlyArray<keyof Ids>;

const randomAddress = () => checksumAddress(`0x${randomBytes(20).toString('hex')}`);

/** Ids nobody has: the baseline every foreign id must be indistinguishable from. */
function madeUpIds(): Ids {
  return {
    walletId: randomUUID(),
    address: randomAddress(),
    privateKeyId: randomUUID(),
    privateKeyAddress: randomAddress(),
    userId: randomUUID(),
    apiKeyId: randomUUID(),
    authenticatorId: randomUUID(),
    oauthProviderId: randomUUID(),
    userTagId: randomUUID(),
    privateKeyTagId: randomUUID(),
    policyId: randomUUID(),
    activityId: randomUUID(),
    fingerprint: randomBytes(32).toString('hex'),
    pendingFingerprint: randomBytes(32).toString('hex'),
    smartContractInterfaceId: randomUUID(),
    oauth2CredentialId: randomUUID(),
  };
}

/** One id-taking read or activity, its parameters built from the named ids and the caller's own. */
interface Probe {
  what: string;
  kind: 'query' | 'submit';
  name: string;
  params: (ids: Ids, own: Tenant) => Record<string, unknown>;
  /** Skip when the victim lacks what the probe names (a pending activity). */
  needs?: keyof Ids;
}

const target = () => generateP256KeyPair().publicKeyUncompressed;
const passkeyParams = () => new SoftwareAuthenticator().authenticatorParams('stolen');

/** Every id-taking operation and query, with the foreign id in each position it can take. */
const PROBES: Probe[] = [
  // Reads.
  { what: 'get_wallet', kind: 'query', name: 'get_wallet', params: (v) => ({ walletId: v.walletId }) },
  { what: 'list_wallet_accounts', kind: 'query', name: 'list_wallet_accounts', params: (v) => ({ walletId: v.walletId }) },
  {
    what: 'list_wallet_accounts with details',
    kind: 'query',
    name: 'list_wallet_accounts',
    params: (v) => ({ walletId: v.walletId, includeWalletDetails: true }),
  },
  { what: 'get_wallet_account', kind: 'query', name: 'get_wallet_account', params: (v) => ({ walletId: v.walletId, address: v.address }) },
  {
    what: 'get_wallet_account of a foreign address (own wallet)',
    kind: 'query',
    name: 'get_wallet_account',
    params: (v, own) => ({ walletId: own.walletId, address: v.address }),
  },
  { what: 'get_user', kind: 'query', name: 'get_user', params: (v) => ({ userId: v.userId }) },
  { what: 'get_api_keys', kind: 'query', name: 'get_api_keys', params: (v) => ({ userId: v.userId }) },
  { what: 'get_authenticators', kind: 'query', name: 'get_authenticators', params: (v) => ({ userId: v.userId }) },
  { what: 'get_activity', kind: 'query', name: 'get_activity', params: (v) => ({ activityId: v.activityId }) },
  { what: 'list_activities after a foreign activity', kind: 'query', name: 'list_activities', params: (v) => ({ paginationOptions: { after: v.activityId } }) },
  {
    what: 'list_activities before a foreign activity',
    kind: 'query',
    name: 'list_activities',
    params: (v) => ({ paginationOptions: { before: v.activityId } }),
  },
  { what: 'get_private_key', kind: 'query', name: 'get_private_key', params: (v) => ({ privateKeyId: v.privateKeyId }) },
  { what: 'get_policy', kind: 'query', name: 'get_policy', params: (v) => ({ policyId: v.policyId }) },
  { what: 'get_oauth2_credential', kind: 'query', name: 'get_oauth2_credential', params: (v) => ({ oauth2CredentialId: v.oauth2CredentialId }) },
  // Wallets, keys and signing.
  { what: 'export_wallet', kind: 'submit', name: 'export_wallet', params: (v) => ({ walletId: v.walletId, targetPublicKey: target() }) },
  { what: 'export_wallet_account', kind: 'submit', name: 'export_wallet_account', params: (v) => ({ address: v.address, targetPublicKey: target() }) },
  { what: 'export_private_key', kind: 'submit', name: 'export_private_key', params: (v) => ({ privateKeyId: v.privateKeyId, targetPublicKey: target() }) },
  {
    what: 'create_wallet_accounts on a foreign wallet',
    kind: 'submit',
    name: 'create_wallet_accounts',
    params: (v) => ({ walletId: v.walletId, accounts: ETH_WALLET.accounts }),
  },
  ...(['address', 'privateKeyId', 'privateKeyAddress'] as const).map(
    (field): Probe => ({
      what: `sign_raw_payloads signWith a foreign ${field}`,
      kind: 'submit',
      name: 'sign_raw_payloads',
      params: (v) => ({
        signWith: v[field],
        payloads: [`0x${'ab'.repeat(32)}`],
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NO_OP',
      }),
    }),
  ),
  { what: 'init_import_wallet for a foreign user', kind: 'submit', name: 'init_import_wallet', params: (v) => ({ userId: v.userId }) },
  { what: 'init_import_private_key for a foreign user', kind: 'submit', name: 'init_import_private_key', params: (v) => ({ userId: v.userId }) },
  // Tags.
  {
    what: 'create_user_tag with a foreign user',
    kind: 'submit',
    name: 'create_user_tag',
    params: (v) => ({ userTagName: `t-${randomUUID()}`, userIds: [v.userId] }),
  },
  {
    what: 'update_user_tag adding a foreign user',
    kind: 'submit',
    name: 'update_user_tag',
    params: (v, own) => ({ userTagId: own.userTagId, newUserTagName: `t-${randomUUID()}`, addUserIds: [v.userId], removeUserIds: [] }),
  },
  {
    what: 'update_user_tag removing a foreign user',
    kind: 'submit',
    name: 'update_user_tag',
    params: (v, own) => ({ userTagId: own.userTagId, newUserTagName: `t-${randomUUID()}`, addUserIds: [], removeUserIds: [v.userId] }),
  },
  {
    what: 'update_user_tag of a foreign tag',
    kind: 'submit',
    name: 'update_user_tag',
    params: (v) => ({ userTagId: v.userTagId, newUserTagName: `t-${randomUUID()}`, addUserIds: [], removeUserIds: [] }),
  },
  { what: 'delete_user_tags of a foreign tag', kind: 'submit', name: 'delete_user_tags', params: (v) => ({ userTagIds: [v.userTagId] }) },
  {
    what: 'create_private_key_tag with a foreign key',
    kind: 'submit',
    name: 'create_private_key_tag',
    params: (v) => ({ privateKeyTagName: `k-${randomUUID()}`, privateKeyIds: [v.privateKeyId] }),
  },
  {
    what: 'update_private_key_tag adding a foreign key',
    kind: 'submit',
    name: 'update_private_key_tag',
    params: (v, own) => ({
      privateKeyTagId: own.privateKeyTagId,
      newPrivateKeyTagName: `k-${randomUUID()}`,
      addPrivateKeyIds: [v.privateKeyId],
      removePrivateKeyIds: [],
    }),
  },
  {
    what: 'update_private_key_tag of a foreign tag',
    kind: 'submit',
    name: 'update_private_key_tag',
    params: (v) => ({ privateKeyTagId: v.privateKeyTagId, newPrivateKeyTagName: `k-${randomUUID()}`, addPrivateKeyIds: [], removePrivateKeyIds: [] }),
  },
  {
    what: 'create_users with a foreign tag',
    kind: 'submit',
    name: 'create_users',
    params: (v) => ({ users: [{ userName: `u-${randomUUID()}`, apiKeys: [], authenticators: [], oauthProviders: [], userTags: [v.userTagId] }] }),
  },
  // Policies and interfaces.
  {
    what: 'update_policy',
    kind: 'submit',
    name: 'update_policy',
    params: (v) => ({ policyId: v.policyId, policyName: `p-${randomUUID()}`, policyEffect: 'EFFECT_DENY' }),
  },
  { what: 'delete_policy', kind: 'submit', name: 'delete_policy', params: (v) => ({ policyId: v.policyId }) },
  {
    what: 'delete_smart_contract_interface',
    kind: 'submit',
    name: 'delete_smart_contract_interface',
    params: (v) => ({ smartContractInterfaceId: v.smartContractInterfaceId }),
  },
  // Users and their credentials.
  {
    what: 'create_api_keys for a foreign user',
    kind: 'submit',
    name: 'create_api_keys',
    params: (v) => ({ userId: v.userId, apiKeys: [{ apiKeyName: 'backdoor', publicKey: generateP256KeyPair().publicKey, curveType: 'API_KEY_CURVE_P256' }] }),
  },
  {
    what: 'delete_api_keys of a foreign key (own user)',
    kind: 'submit',
    name: 'delete_api_keys',
    params: (v, own) => ({ userId: own.rootUserId, apiKeyIds: [v.apiKeyId] }),
  },
  {
    what: 'delete_api_keys of a foreign key (foreign user)',
    kind: 'submit',
    name: 'delete_api_keys',
    params: (v) => ({ userId: v.userId, apiKeyIds: [v.apiKeyId] }),
  },
  {
    what: 'create_authenticators for a foreign user',
    kind: 'submit',
    name: 'create_authenticators',
    params: (v) => ({ userId: v.userId, authenticators: [passkeyParams()] }),
  },
  {
    what: 'delete_authenticators of a foreign passkey (own user)',
    kind: 'submit',
    name: 'delete_authenticators',
    params: (v, own) => ({ userId: own.rootUserId, authenticatorIds: [v.authenticatorId] }),
  },
  {
    what: 'delete_authenticators of a foreign passkey (foreign user)',
    kind: 'submit',
    name: 'delete_authenticators',
    params: (v) => ({ userId: v.userId, authenticatorIds: [v.authenticatorId] }),
  },
  { what: 'recover_user of a foreign user', kind: 'submit', name: 'recover_user', params: (v) => ({ userId: v.userId, authenticator: passkeyParams() }) },
  {
    what: 'create_oauth_providers for a foreign user',
    kind: 'submit',
    name: 'create_oauth_providers',
    params: (v) => ({
      userId: v.userId,
      oauthProviders: [{ providerName: 'google', oidcClaims: { iss: 'https://issuer.example', sub: randomUUID(), aud: 'app' } }],
    }),
  },
  {
    what: 'delete_oauth_providers of a foreign identity (foreign user)',
    kind: 'submit',
    name: 'delete_oauth_providers',
    params: (v) => ({ userId: v.userId, providerIds: [v.oauthProviderId] }),
  },
  {
    what: 'delete_oauth_providers of a foreign identity (own user)',
    kind: 'submit',
    name: 'delete_oauth_providers',
    params: (v, own) => ({ userId: own.rootUserId, providerIds: [v.oauthProviderId] }),
  },
  {
    what: 'update_user_email of a foreign user',
    kind: 'submit',
    name: 'update_user_email',
    params: (v) => ({ userId: v.userId, userEmail: `x-${randomUUID().slice(0, 8)}@example.com` }),
  },
  {
    what: 'update_user_phone_number of a foreign user',
    kind: 'submit',
    name: 'update_user_phone_number',
    params: (v) => ({ userId: v.userId, userPhoneNumber: `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}` }),
  },
  {
    what: 'update_root_quorum with a foreign user',
    kind: 'submit',
    name: 'update_root_quorum',
    params: (v, own) => ({ threshold: 1, userIds: [own.rootUserId, v.userId] }),
  },
  // Consensus.
  { what: 'approve_activity of a foreign completed activity', kind: 'submit', name: 'approve_activity', params: (v) => ({ fingerprint: v.fingerprint }) },
  { what: 'reject_activity of a foreign completed activity', kind: 'submit', name: 'reject_activity', params: (v) => ({ fingerprint: v.fingerprint }) },
  {
    what: 'approve_activity of a foreign pending activity',
    kind: 'submit',
    name: 'approve_activity',
    params: (v) => ({ fingerprint: v.pendingFingerprint }),
    needs: 'pendingFingerprint',
  },
  {
    what: 'reject_activity of a foreign pending activity',
    kind: 'submit',
    name: 'reject_activity',
    params: (v) => ({ fingerprint: v.pendingFingerprint }),
    needs: 'pendingFingerprint',
  },
  // OAuth 2.0.
  {
    what: 'oauth2_authenticate with a foreign credential',
    kind: 'submit',
    name: 'oauth2_authenticate',
    params: (v) => ({
      oauth2CredentialId: v.oauth2CredentialId,
      authCode: 'code',
      redirectUri: 'https://app.example/cb',
      codeVerifier: 'v'.repeat(43),
      nonce: 'n',
    }),
  },
];

describe('tenancy under attack (PGlite, real HTTP)', () => {
  let s: TestServer;
  let url: string;
  let A: Tenant;
  let B: Tenant;
  let aSub: Tenant;
  let aSibling: Tenant;
  let bSub: Tenant;

  const post = (path: string, body: string, key: Key) => sendRaw(url, path, body, { 'x-stamp': stampApiKey(body, key) });
  /** One probe's request as `caller`. */
  function send(caller: Caller, kind: 'query' | 'submit', name: string, params: Record<string, unknown>): Promise<RawReply> {
    if (kind === 'query') return post(`/public/v1/query/${name}`, JSON.stringify({ organizationId: caller.organizationId, ...params }), caller.key);
    return post(operations[name as OperationName].path, envelopeText(name as OperationName, caller.organizationId, params), caller.key);
  }
  /** A stamped activity that must complete (setup). */
  async function run(caller: Caller, op: OperationName, params: Record<string, unknown>): Promise<any> {
    const reply = await send(caller, 'submit', op, params);
    expect(reply.status, `${op}: ${JSON.stringify(reply.body)}`).toBe(200);
    expect(reply.body.activity.status, op).toBe('ACTIVITY_STATUS_COMPLETED');
    return { ...reply.body.activity.result[operations[op].resultKey], activity: reply.body.activity };
  }
  async function query(caller: Caller, name: string, params: Record<string, unknown>): Promise<any> {
    const reply = await send(caller, 'query', name, params);
    expect(reply.status, `${name}: ${JSON.stringify(reply.body)}`).toBe(200);
    return reply.body;
  }

  /** Give an organization one of everything; its root acts. */
  async function populate(label: string, caller: Caller, rootUserId: string): Promise<Tenant> {
    const wallet = await run(caller, 'create_wallet', { walletName: `${label} wallet`, accounts: ETH_WALLET.accounts });
    const { privateKeys: keys } = await run(caller, 'create_private_keys', {
      privateKeys: [{ privateKeyName: `${label} key`, curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] }],
    });
    const member = generateP256KeyPair();
    const tag = Math.random().toString(36).slice(2, 8);
    const { userIds } = await run(caller, 'create_users', {
      users: [
        {
          userName: `${label} member`,
          userEmail: `${label.replace(/\W/g, '')}-${tag}@example.com`,
          userPhoneNumber: `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`,
          apiKeys: [{ apiKeyName: 'member key', publicKey: member.publicKey, curveType: 'API_KEY_CURVE_P256' }],
          authenticators: [new SoftwareAuthenticator().authenticatorParams(`${label} passkey`)],
          oauthProviders: [{ providerName: 'google', oidcClaims: { iss: 'https://accounts.example', sub: `${label}-${tag}`, aud: 'app' } }],
          userTags: [],
        },
      ],
    });
    const userId = userIds[0] as string;
    const { user } = await query(caller, 'get_user', { userId });
    const { userTagId } = await run(caller, 'create_user_tag', { userTagName: `${label} tag`, userIds: [userId] });
    const privateKeyId = keys[0].privateKeyId as string;
    const { privateKeyTagId } = await run(caller, 'create_private_key_tag', { privateKeyTagName: `${label} key tag`, privateKeyIds: [privateKeyId] });
    const { policyId } = await run(caller, 'create_policy', { policyName: `${label} policy`, effect: 'EFFECT_ALLOW', notes: label });
    const { smartContractInterfaceId } = await run(caller, 'create_smart_contract_interface', {
      smartContractAddress: randomAddress(),
      smartContractInterface: JSON.stringify([
        {
          type: 'function',
          name: 'transfer',
          inputs: [
            { name: 'to', type: 'address' },
            { name: 'amount', type: 'uint256' },
          ],
          outputs: [{ type: 'bool' }],
          stateMutability: 'nonpayable',
        },
      ]),
      type: 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM',
      label: `${label} interface`,
    });
    const encryptedClientSecret = JSON.stringify(
      await hpkeSeal({ plaintext: utf8ToBytes(`${label} secret`), receiverPublicKey: s.enclave.encryptionPublicKey }),
    );
    const { oauth2CredentialId } = await run(caller, 'create_oauth2_credential', {
      provider: 'OAUTH2_PROVIDER_X',
      clientId: `${label}-client`,
      encryptedClientSecret,
    });
    return {
      label,
      organizationId: caller.organizationId,
      rootUserId,
      key: caller.key,
      walletId: wallet.walletId,
      address: wallet.addresses[0],
      privateKeyId,
      privateKeyAddress: keys[0].addresses[0].address,
      userId,
      apiKeyId: user.apiKeys[0].apiKeyId,
      authenticatorId: user.authenticators[0].authenticatorId,
      oauthProviderId: user.oauthProviders[0].providerId,
      userTagId,
      privateKeyTagId,
      policyId,
      activityId: wallet.activity.id,
      fingerprint: wallet.activity.fingerprint,
      smartContractInterfaceId,
      oauth2CredentialId,
    };
  }

  /** A sub-organization of `parent` with its own root key, populated by that key. */
  async function subOf(parent: Tenant, label: string): Promise<Tenant> {
    const key = generateP256KeyPair();
    const created = await run(parent, 'create_sub_organization', {
      subOrganizationName: label,
      rootUsers: [
        {
          userName: `${label} root`,
          apiKeys: [{ apiKeyName: 'root', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }],
          authenticators: [],
          oauthProviders: [],
        },
      ],
      rootQuorumThreshold: 1,
    });
    return populate(label, { label, key, organizationId: created.subOrganizationId }, created.rootUserIds[0]);
  }

  beforeAll(async () => {
    s = await startTestServer('pglite');
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    const address = s.app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const b = await createOrganization(s.store, { name: 'Tenant B' });
    A = await populate('A', { label: 'A', key: s.org.apiKey, organizationId: s.org.organizationId }, s.org.userId);
    B = await populate('B', { label: 'B', key: b.apiKey, organizationId: b.organizationId }, b.userId);
    aSub = await subOf(A, 'A sub');
    aSibling = await subOf(A, 'A sub 2');
    bSub = await subOf(B, 'B sub');

    // B gets a second root member and a quorum of two: its next activity waits for consensus.
    const second = generateP256KeyPair();
    const { userIds } = await run(B, 'create_users', {
      users: [
        {
          userName: 'B second root',
          apiKeys: [{ apiKeyName: 'k', publicKey: second.publicKey, curveType: 'API_KEY_CURVE_P256' }],
          authenticators: [],
          oauthProviders: [],
          userTags: [],
        },
      ],
    });
    await run(B, 'update_root_quorum', { threshold: 2, userIds: [B.rootUserId, userIds[0]] });
    const pending = await send(B, 'submit', 'create_user_tag', { userTagName: 'awaiting consensus', userIds: [] });
    expect(pending.body.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    B.pendingFingerprint = pending.body.activity.fingerprint;
  }, 60_000);
  afterAll(async () => s?.dispose());

  /** Every row that belongs to the given organizations (or links to them), in a stable order. */
  async function snapshot(organizationIds: string[]): Promise<string> {
    const db = s.store.db;
    const byOrg = async (
      table:
        | typeof wallets
        | typeof users
        | typeof apiKeys
        | typeof authenticators
        | typeof oauthProviders
        | typeof walletAccounts
        | typeof privateKeys
        | typeof policies
        | typeof userTags
        | typeof privateKeyTags
        | typeof smartContractInterfaces
        | typeof oauth2Credentials
        | typeof activities
        | typeof rootQuorumMembers
        | typeof organizationFeatures
        | typeof usedExportTargets,
    ) => (await db.select().from(table).where(inArray(table.organizationId, organizationIds))).map((r) => JSON.stringify(r)).sort();
    const orgRows = (await db.select().from(organizations).where(inArray(organizations.id, organizationIds))).map((r) => JSON.stringify(r)).sort();
    const tagIds = (await db.select({ id: userTags.id }).from(userTags).where(inArray(userTags.organizationId, organizationIds))).map((r) => r.id);
    const userIds = (await db.select({ id: users.id }).from(users).where(inArray(users.organizationId, organizationIds))).map((r) => r.id);
    const keyTagIds = (await db.select({ id: privateKeyTags.id }).from(privateKeyTags).where(inArray(privateKeyTags.organizationId, organizationIds))).map(
      (r) => r.id,
    );
    const keyIds = (await db.select({ id: privateKeys.id }).from(privateKeys).where(inArray(privateKeys.organizationId, organizationIds))).map((r) => r.id);
    const activityIds = (await db.select({ id: activities.id }).from(activities).where(inArray(activities.organizationId, organizationIds))).map((r) => r.id);
    const links = [
      ...(await db
        .select()
        .from(userTagMembers)
        .where(or(inArray(userTagMembers.tagId, tagIds), inArray(userTagMembers.userId, userIds)))),
      ...(await db
        .select()
        .from(privateKeyTagMembers)
        .where(or(inArray(privateKeyTagMembers.tagId, keyTagIds), inArray(privateKeyTagMembers.privateKeyId, keyIds)))),
      ...(await db.select().from(activityVotes).where(inArray(activityVotes.activityId, activityIds))),
    ]
      .map((r) => JSON.stringify(r))
      .sort();
    const tables = [
      users,
      rootQuorumMembers,
      apiKeys,
      authenticators,
      oauthProviders,
      wallets,
      walletAccounts,
      privateKeys,
      policies,
      userTags,
      privateKeyTags,
      smartContractInterfaces,
      oauth2Credentials,
      organizationFeatures,
      activities,
      usedExportTargets,
    ] as const;
    const perTable = [];
    for (const table of tables) perTable.push(await byOrg(table));
    return JSON.stringify([orgRows, links, perTable]);
  }

  /** A reply as a client can compare it: the ids it named replaced by a placeholder. */
  function comparable(reply: RawReply, ids: Ids): { status: number; code?: string; field?: string; message?: string } {
    let message = (reply.body as { message?: string } | undefined)?.message;
    const named = ID_FIELDS.map((f) => ids[f]).filter((v): v is string => typeof v === 'string');
    for (const value of named) message = message?.split(value).join('<id>').split(value.toLowerCase()).join('<id>');
    const field = (reply.body as { details?: Array<{ field?: string }> } | undefined)?.details?.[0]?.field;
    return {
      status: reply.status,
      ...(errorCodeOf(reply) ? { code: errorCodeOf(reply) } : {}),
      ...(field !== undefined ? { field } : {}),
      ...(message !== undefined ? { message } : {}),
    };
  }

  /**
   * Run every probe as `caller` (whose own data is `own`) with the victim's ids and with made-up
   * ids; each pair must be the same 4xx refusal, and the victim's rows must not change.
   */
  async function attack(scenario: string, caller: Caller, own: Tenant, victim: Tenant, victimOrganizations: string[]): Promise<void> {
    const before = await snapshot(victimOrganizations);
    const differences: string[] = [];
    for (const probe of PROBES) {
      if (probe.needs && victim[probe.needs] === undefined) continue;
      const made = madeUpIds();
      const [foreign, unknown] = await Promise.all([
        send(caller, probe.kind, probe.name, probe.params(victim, own)),
        send(caller, probe.kind, probe.name, probe.params(made, own)),
      ]);
      const what = `${scenario}: ${probe.what}`;
      expect(unknown.status, `${what} with a made-up id: ${JSON.stringify(unknown.body)}`).toBeGreaterThanOrEqual(400);
      expect(unknown.status, `${what} with a made-up id: ${JSON.stringify(unknown.body)}`).toBeLessThan(500);
      tally.refused('tenancy', what, foreign, unknown.status, errorCodeOf(unknown));
      const [f, u] = [comparable(foreign, victim), comparable(unknown, made)];
      if (JSON.stringify(f) !== JSON.stringify(u)) differences.push(`${what}: ${JSON.stringify(f)} vs ${JSON.stringify(u)}`);
    }
    tally.violations('tenancy', `${scenario}: foreign ids distinguishable from made-up ones`, differences);
    const after = await snapshot(victimOrganizations);
    tally.violations('tenancy', `${scenario}: the victim's rows changed`, after === before ? [] : [`rows of ${victim.label} changed`]);
  }

  const as = (t: Tenant, organizationId = t.organizationId): Caller => ({ label: t.label, key: t.key, organizationId });

  it("given organization A's root, when it names B's ids (top-level B) in every id-taking read and activity, then each is refused exactly as a made-up id and nothing of B changes", async () => {
    await attack('A on B', as(A), A, B, [B.organizationId, bSub.organizationId]);
  });

  it("given organization A's root, when it names the ids of B's sub-organization, then each is refused exactly as a made-up id and nothing of it changes", async () => {
    await attack("A on B's sub-organization", as(A), A, bSub, [B.organizationId, bSub.organizationId]);
  });

  it("given a sub-organization's root, when it names its sibling's ids, then each is refused exactly as a made-up id and nothing of the sibling changes", async () => {
    await attack('sub-organization on its sibling', as(aSub), aSub, aSibling, [aSibling.organizationId]);
  });

  it("given a sub-organization's root, when it names its parent's ids, then each is refused exactly as a made-up id and nothing of the parent changes", async () => {
    await attack('sub-organization on its parent', as(aSub), aSub, A, [A.organizationId]);
  });

  it("given the parent's root acting on its sub-organization, when it names the parent's own ids there, then each is refused exactly as a made-up id (the sub-organization's data is its own) and nothing of the parent changes", async () => {
    await attack('parent through its sub-organization', as(A, aSub.organizationId), aSub, A, [A.organizationId]);
  });

  it("given B's sub-organization's root, when it names A's sub-organization's ids, then each is refused exactly as a made-up id and nothing of it changes", async () => {
    // (B itself now needs two approvals for anything: its sub-organization attacks instead.)
    await attack("B's sub-organization on A's sub-organization", as(bSub), bSub, aSub, [aSub.organizationId]);
  });

  it('given the positive controls, then every probe succeeds on its own organization (the refusals above are tenancy, not broken requests)', async () => {
    // A handful of the probes with A's own ids, as A: they are accepted.
    const own = (name: string) => PROBES.find((p) => p.what === name)!;
    for (const name of [
      'get_wallet',
      'get_user',
      'get_private_key',
      'get_policy',
      'get_oauth2_credential',
      'get_activity',
      'export_wallet_account',
      'update_user_tag adding a foreign user',
    ]) {
      const probe = own(name);
      const reply = await send(as(A), probe.kind, probe.name, probe.params(A, A));
      expect(reply.status, `${name}: ${JSON.stringify(reply.body)}`).toBe(200);
    }
  });
});
