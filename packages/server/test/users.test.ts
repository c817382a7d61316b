import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { generateEd25519KeyPair, generateP256KeyPair, generateSecp256k1KeyPair, stampApiKey } from '@walletkit/crypto';
import { organizations, rootQuorumMembers, userTags, users, walletAccounts, wallets } from '../src/store/schema';
import { newId } from '../src/store/ids';
import { SoftwareAuthenticator } from './support/authenticator';
import { startTestServer, type TestServer } from './support/harness';
import { addOrganization, expectError } from './support/members';
import { loginSignature } from './support/otp';
import { storeKinds } from './support/stores';

const ETH_ACCOUNT = { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' } as const;

const newUser = (name: string, extra: Record<string, unknown> = {}) => ({
  userName: name,
  apiKeys: [],
  authenticators: [],
  oauthProviders: [],
  userTags: [],
  ...extra,
});

describe.each(storeKinds)('users on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.dispose());

  /** A verification token exactly as the OTP flow issues it (DESIGN section 2). */
  const verificationToken = (claims: { contact: string; type?: string; organizationId?: string; exp?: number; id?: string; publicKey?: string }) =>
    server.enclave.signJwt({
      id: claims.id ?? newId(),
      verification_type: claims.type ?? 'OTP_TYPE_SMS',
      contact: claims.contact,
      organization_id: claims.organizationId ?? server.org.organizationId,
      public_key: claims.publicKey ?? generateP256KeyPair().publicKey,
      exp: claims.exp ?? Math.floor(Date.now() / 1000) + 600,
    });

  it('given API keys on the three curves, when create_users runs, then get_user lists them and each key stamps an accepted request', async () => {
    const p256 = generateP256KeyPair();
    const k1 = generateSecp256k1KeyPair();
    const ed = generateEd25519KeyPair();
    const { userIds } = await server.client.run('create_users', {
      users: [
        newUser('alice', {
          userEmail: 'alice@example.com',
          apiKeys: [
            // uncompressed input is stored compressed, the form stamps carry
            { apiKeyName: 'p256', publicKey: p256.publicKeyUncompressed, curveType: 'API_KEY_CURVE_P256' },
            { apiKeyName: 'k1', publicKey: k1.publicKey, curveType: 'API_KEY_CURVE_SECP256K1', expirationSeconds: '3600' },
            { apiKeyName: 'ed', publicKey: ed.publicKey.toUpperCase(), curveType: 'API_KEY_CURVE_ED25519' },
          ],
        }),
      ],
    });
    expect(userIds).toHaveLength(1);
    const reply = await server.client.query('get_user', { userId: userIds[0]! });
    expect(reply.status).toBe(200);
    const user = reply.body.user;
    expect(user).toMatchObject({ userId: userIds[0], userName: 'alice', userEmail: 'alice@example.com', authenticators: [], oauthProviders: [], userTags: [] });
    expect(user.userPhoneNumber).toBeUndefined();
    const byName = Object.fromEntries(user.apiKeys.map((k: any) => [k.apiKeyName, k]));
    expect(byName.p256.credential).toEqual({ publicKey: p256.publicKey, type: 'CREDENTIAL_TYPE_API_KEY_P256' });
    expect(byName.k1.credential).toEqual({ publicKey: k1.publicKey, type: 'CREDENTIAL_TYPE_API_KEY_SECP256K1' });
    expect(byName.k1.expirationSeconds).toBe('3600');
    expect(byName.ed.credential).toEqual({ publicKey: ed.publicKey, type: 'CREDENTIAL_TYPE_API_KEY_ED25519' });
    expect(byName.p256.expirationSeconds).toBeUndefined();

    const body = JSON.stringify({ organizationId: server.org.organizationId, userId: userIds[0] });
    const schemes = [
      { privateKey: p256.privateKey },
      { privateKey: k1.privateKey, scheme: 'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191' as const },
      { privateKey: ed.privateKey, scheme: 'SIGNATURE_SCHEME_TK_API_ED25519' as const },
    ];
    for (const key of schemes) {
      const res = await server.client.post('/public/v1/query/get_user', body, { 'x-stamp': stampApiKey(body, key) });
      expect(res.status, key.scheme ?? 'p256').toBe(200);
    }
  });

  it('given a key that is not on its curve, when create_users runs, then it is a 400 naming the field and no user is written', async () => {
    const before = await server.store.db.select().from(users).where(eq(users.organizationId, server.org.organizationId));
    const bad = await server.client.submit('create_users', {
      users: [newUser('bob'), newUser('carol', { apiKeys: [{ apiKeyName: 'x', publicKey: `02${'ff'.repeat(32)}`, curveType: 'API_KEY_CURVE_P256' }] })],
    });
    expectError(bad, 400, 'ERR_INVALID_PUBLIC_KEY', 'users.1.apiKeys.0.publicKey');
    const badEd = await server.client.submit('create_users', {
      users: [newUser('dave', { apiKeys: [{ apiKeyName: 'x', publicKey: 'ab'.repeat(20), curveType: 'API_KEY_CURVE_ED25519' }] })],
    });
    expectError(badEd, 400, 'ERR_INVALID_PUBLIC_KEY');
    const after = await server.store.db.select().from(users).where(eq(users.organizationId, server.org.organizationId));
    expect(after).toHaveLength(before.length);
  });

  it('given an email already used in the organization or an unknown tag, when create_users runs, then it is refused with a specific code', async () => {
    await server.client.run('create_users', { users: [newUser('erin', { userEmail: 'erin@example.com' })] });
    expectError(
      await server.client.submit('create_users', { users: [newUser('erin2', { userEmail: 'ERIN@example.com' })] }),
      409,
      'ERR_ALREADY_EXISTS',
      'users.0.userEmail',
    );
    expectError(
      await server.client.submit('create_users', { users: [newUser('f1', { userEmail: 'f@example.com' }), newUser('f2', { userEmail: 'f@example.com' })] }),
      409,
      'ERR_ALREADY_EXISTS',
    );
    expectError(
      await server.client.submit('create_users', { users: [newUser('gus', { userTags: [newId()] })] }),
      404,
      'ERR_USER_TAG_NOT_FOUND',
      'users.0.userTags',
    );
    const tagId = newId();
    await server.store.db.insert(userTags).values({ id: tagId, organizationId: server.org.organizationId, name: 'ops' });
    const { userIds } = await server.client.run('create_users', { users: [newUser('gus', { userTags: [tagId] })] });
    const reply = await server.client.query('get_user', { userId: userIds[0]! });
    expect(reply.body.user.userTags).toEqual([tagId]);
  });

  it("given another organization's user, when its keys are created, read or deleted, then each answers ERR_USER_NOT_FOUND", async () => {
    const other = await addOrganization(server);
    const key = generateP256KeyPair();
    expectError(
      await server.client.submit('create_api_keys', {
        userId: other.userId,
        apiKeys: [{ apiKeyName: 'x', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }],
      }),
      404,
      'ERR_USER_NOT_FOUND',
      'userId',
    );
    expectError(await server.client.query('get_user', { userId: other.userId }), 404, 'ERR_USER_NOT_FOUND');
    expectError(await server.client.query('get_api_keys', { userId: other.userId }), 404, 'ERR_USER_NOT_FOUND');
    expectError(await server.client.submit('delete_api_keys', { userId: other.userId, apiKeyIds: [newId()] }), 404, 'ERR_USER_NOT_FOUND');
    const list = await server.client.query('list_users', {});
    expect(list.body.users.map((u: any) => u.userId)).not.toContain(other.userId);
  });

  it('given a new API key, when it is deleted, then it no longer stamps and deleting it again is a 404', async () => {
    const key = generateP256KeyPair();
    const userId = server.org.userId;
    const { apiKeyIds } = await server.client.run('create_api_keys', {
      userId,
      apiKeys: [{ apiKeyName: 'ci', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256', expirationSeconds: '60' }],
    });
    const ci = server.client.with({ key });
    expect((await ci.query('get_api_keys', {})).body.apiKeys.map((k: any) => k.apiKeyId)).toContain(apiKeyIds[0]);
    expectError(
      await server.client.submit('create_api_keys', { userId, apiKeys: [{ apiKeyName: 'again', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }] }),
      409,
      'ERR_ALREADY_EXISTS',
    );
    expectError(
      await server.client.submit('create_api_keys', {
        userId,
        apiKeys: [{ apiKeyName: 'zero', publicKey: generateP256KeyPair().publicKey, curveType: 'API_KEY_CURVE_P256', expirationSeconds: '0' }],
      }),
      400,
      'ERR_INVALID_PARAMETER',
      'apiKeys.0.expirationSeconds',
    );
    expect(await server.client.run('delete_api_keys', { userId, apiKeyIds: apiKeyIds })).toEqual({ apiKeyIds });
    expectError(await ci.query('get_api_keys', {}), 401, 'ERR_STAMP_KEY_UNKNOWN');
    expectError(await server.client.submit('delete_api_keys', { userId, apiKeyIds }), 404, 'ERR_API_KEY_NOT_FOUND', 'apiKeyIds');
  });

  it('given an SMS verification token for the number, when update_user_phone_number runs, then the number is stored verified and the token is single use', async () => {
    const { userIds } = await server.client.run('create_users', { users: [newUser('phone-user')] });
    const userId = userIds[0]!;
    const token = verificationToken({ contact: '+15551230001' });
    expect(await server.client.run('update_user_phone_number', { userId, userPhoneNumber: '+15551230001', verificationToken: token })).toEqual({ userId });
    const [row] = await server.store.db.select().from(users).where(eq(users.id, userId));
    expect(row).toMatchObject({ userPhoneNumber: '+15551230001', phoneVerified: true });
    expect((await server.client.query('get_user', { userId })).body.user.userPhoneNumber).toBe('+15551230001');

    const reused = await server.client.submit('update_user_phone_number', { userId, userPhoneNumber: '+15551230001', verificationToken: token });
    expectError(reused, 401, 'ERR_VERIFICATION_TOKEN_INVALID', 'verificationToken');
    const cases = [
      verificationToken({ contact: '+15559999999' }), // another number
      verificationToken({ contact: '+15551230002', type: 'OTP_TYPE_EMAIL' }), // another channel
      verificationToken({ contact: '+15551230002', exp: Math.floor(Date.now() / 1000) - 1 }), // expired
      verificationToken({ contact: '+15551230002', organizationId: newId() }), // another organization
      server.enclave.signJwt({ user_id: userId, exp: Math.floor(Date.now() / 1000) + 60 }), // a session-like JWT
    ];
    for (const bad of cases) {
      expectError(
        await server.client.submit('update_user_phone_number', { userId, userPhoneNumber: '+15551230002', verificationToken: bad }),
        401,
        'ERR_VERIFICATION_TOKEN_INVALID',
      );
    }
    const [after] = await server.store.db.select().from(users).where(eq(users.id, userId));
    expect(after!.userPhoneNumber).toBe('+15551230001');

    // A token spent by an activity that then fails is not spent: the transaction rolls back.
    const { userIds: others } = await server.client.run('create_users', { users: [newUser('holder', { userPhoneNumber: '+15551230004' })] });
    const pending = verificationToken({ contact: '+15551230004' });
    expectError(
      await server.client.submit('update_user_phone_number', { userId, userPhoneNumber: '+15551230004', verificationToken: pending }),
      409,
      'ERR_ALREADY_EXISTS',
    );
    await server.client.run('update_user_phone_number', { userId: others[0]!, userPhoneNumber: '' });
    await server.client.run('update_user_phone_number', { userId, userPhoneNumber: '+15551230004', verificationToken: pending });

    await server.client.run('update_user_phone_number', { userId, userPhoneNumber: '+15551230003' });
    const [unverified] = await server.store.db.select().from(users).where(eq(users.id, userId));
    expect(unverified).toMatchObject({ userPhoneNumber: '+15551230003', phoneVerified: false });
    await server.client.run('update_user_phone_number', { userId, userPhoneNumber: '' });
    expect((await server.client.query('get_user', { userId })).body.user.userPhoneNumber).toBeUndefined();
    expectError(await server.client.submit('update_user_phone_number', { userId: newId(), userPhoneNumber: '' }), 404, 'ERR_USER_NOT_FOUND');
  });

  it('given root users and a wallet, when create_sub_organization runs, then the sub-organization, its quorum and its wallet exist and its root key stamps', async () => {
    const rootKey = generateP256KeyPair();
    const token = verificationToken({ contact: 'root@example.com', type: 'OTP_TYPE_EMAIL', publicKey: rootKey.publicKey });
    const result = await server.client.run('create_sub_organization', {
      subOrganizationName: 'end-user-1',
      rootUsers: [
        {
          userName: 'root',
          userEmail: 'root@example.com',
          apiKeys: [{ apiKeyName: 'device', publicKey: rootKey.publicKey, curveType: 'API_KEY_CURVE_P256' }],
          authenticators: [],
          oauthProviders: [],
        },
        { userName: 'backup', apiKeys: [], authenticators: [], oauthProviders: [] },
      ],
      rootQuorumThreshold: 1,
      wallet: { walletName: 'Main', accounts: [ETH_ACCOUNT] },
      verificationToken: token,
      // The token is bound to the root key: its use is signed by it.
      clientSignature: loginSignature(rootKey.privateKey, token, 'USAGE_TYPE_SIGNUP'),
    });
    const subOrgId = result.subOrganizationId;
    expect(result.rootUserIds).toHaveLength(2);
    expect(result.wallet?.addresses).toHaveLength(1);
    expect(result.wallet!.addresses[0]).toMatch(/^0x[0-9a-fA-F]{40}$/);

    const [org] = await server.store.db.select().from(organizations).where(eq(organizations.id, subOrgId));
    expect(org).toMatchObject({ name: 'end-user-1', parentOrganizationId: server.org.organizationId, rootQuorumThreshold: 1 });
    const quorum = await server.store.db.select().from(rootQuorumMembers).where(eq(rootQuorumMembers.organizationId, subOrgId));
    expect(quorum.map((m) => m.userId).sort()).toEqual([...result.rootUserIds].sort());
    const [root] = await server.store.db
      .select()
      .from(users)
      .where(and(eq(users.organizationId, subOrgId), eq(users.userName, 'root')));
    expect(root).toMatchObject({ emailVerified: true, phoneVerified: false });
    const [wallet] = await server.store.db.select().from(wallets).where(eq(wallets.organizationId, subOrgId));
    expect(wallet).toMatchObject({ id: result.wallet!.walletId, name: 'Main', mnemonicLength: 12 });
    const accounts = await server.store.db.select().from(walletAccounts).where(eq(walletAccounts.walletId, wallet!.id));
    expect(accounts.map((a) => a.address)).toEqual(result.wallet!.addresses);

    const sub = server.client.with({ key: rootKey, organizationId: subOrgId });
    const listed = await sub.query('list_users', {});
    expect(listed.status).toBe(200);
    expect(listed.body.users.map((u: any) => u.userName).sort()).toEqual(['backup', 'root']);
    // the parent's root acts on the sub-organization too
    expect((await server.client.query('list_users', { organizationId: subOrgId })).status).toBe(200);
    // the token was consumed with the activity
    const again = await server.client.submit('create_sub_organization', {
      subOrganizationName: 'end-user-2',
      rootUsers: [{ userName: 'root', userEmail: 'root@example.com', apiKeys: [], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
      verificationToken: token,
    });
    expectError(again, 401, 'ERR_VERIFICATION_TOKEN_INVALID');
  });

  it('given an impossible quorum or wallet account, when create_sub_organization runs, then it is a 400 and no organization is left behind', async () => {
    const count = async () =>
      (await server.store.db.select().from(organizations).where(eq(organizations.parentOrganizationId, server.org.organizationId))).length;
    const before = await count();
    const rootUsers = [{ userName: 'root', apiKeys: [], authenticators: [], oauthProviders: [] }];
    expectError(
      await server.client.submit('create_sub_organization', { subOrganizationName: 'q', rootUsers, rootQuorumThreshold: 2 }),
      400,
      'ERR_INVALID_QUORUM',
      'rootQuorumThreshold',
    );
    const badAccount = { ...ETH_ACCOUNT, curve: 'CURVE_ED25519' as const };
    expectError(
      await server.client.submit('create_sub_organization', {
        subOrganizationName: 'w',
        rootUsers,
        rootQuorumThreshold: 1,
        wallet: { walletName: 'W', accounts: [badAccount] },
      }),
      400,
      'ERR_UNSUPPORTED_CURVE_FORMAT',
    );
    expect(await count()).toBe(before);
  });

  it("given two root users with one API key, email (in two spellings), passkey or OAuth identity, when create_sub_organization runs, then each clash within the request is a 409 naming the second and nothing is left behind; distinct ones pass beside another organization's wallet name", async () => {
    const count = async () =>
      (await server.store.db.select().from(organizations).where(eq(organizations.parentOrganizationId, server.org.organizationId))).length;
    const before = await count();
    const shared = generateP256KeyPair();
    const rootUser = (name: string, extra: Record<string, unknown> = {}) => ({ userName: name, apiKeys: [], authenticators: [], oauthProviders: [], ...extra });
    const keyOf = (name: string, publicKey: string) => ({ apiKeyName: name, publicKey, curveType: 'API_KEY_CURVE_P256' });
    // The new organization's checks read nothing back (it holds only what this request writes).
    expectError(
      await server.client.submit('create_sub_organization', {
        subOrganizationName: 'shared-key',
        rootUsers: [rootUser('a', { apiKeys: [keyOf('a', shared.publicKey)] }), rootUser('b', { apiKeys: [keyOf('b', shared.publicKey)] })],
        rootQuorumThreshold: 1,
      }),
      409,
      'ERR_ALREADY_EXISTS',
      'rootUsers.1.apiKeys.0.publicKey',
    );
    expectError(
      await server.client.submit('create_sub_organization', {
        subOrganizationName: 'shared-email',
        rootUsers: [rootUser('a', { userEmail: 'twice@example.com' }), rootUser('b', { userEmail: 'TWICE@example.com' })],
        rootQuorumThreshold: 1,
      }),
      409,
      'ERR_ALREADY_EXISTS',
      'rootUsers.1.userEmail',
    );
    const passkey = new SoftwareAuthenticator();
    expectError(
      await server.client.submit('create_sub_organization', {
        subOrganizationName: 'shared-passkey',
        rootUsers: [
          rootUser('a', { authenticators: [passkey.authenticatorParams('a')] }),
          rootUser('b', { authenticators: [passkey.authenticatorParams('b')] }),
        ],
        rootQuorumThreshold: 1,
      }),
      409,
      'ERR_ALREADY_EXISTS',
      'rootUsers.1.authenticators.0.attestation.credentialId',
    );
    const oidcClaims = { iss: 'https://accounts.example', sub: newId(), aud: 'app' };
    expectError(
      await server.client.submit('create_sub_organization', {
        subOrganizationName: 'shared-oidc',
        rootUsers: [
          rootUser('a', { oauthProviders: [{ providerName: 'google', oidcClaims }] }),
          rootUser('b', { oauthProviders: [{ providerName: 'google', oidcClaims }] }),
        ],
        rootQuorumThreshold: 1,
      }),
      409,
      'ERR_ALREADY_EXISTS',
      'rootUsers.1.oauthProviders.0',
    );
    expect(await count()).toBe(before);
    // Distinct keys of two root users pass, and a wallet name of another organization is no clash.
    const first = await server.client.run('create_sub_organization', {
      subOrganizationName: 'first',
      rootUsers: [
        rootUser('a', { userEmail: 'twice@example.com', apiKeys: [keyOf('a', shared.publicKey)] }),
        rootUser('b', { apiKeys: [keyOf('b', generateP256KeyPair().publicKey)] }),
      ],
      rootQuorumThreshold: 1,
      wallet: { walletName: 'Main', accounts: [ETH_ACCOUNT] },
    });
    const second = await server.client.run('create_sub_organization', {
      subOrganizationName: 'second',
      rootUsers: [rootUser('a', { apiKeys: [keyOf('a', generateP256KeyPair().publicKey)] })],
      rootQuorumThreshold: 1,
      wallet: { walletName: 'Main', accounts: [ETH_ACCOUNT] },
    });
    expect(await count()).toBe(before + 2);
    const listed = await server.client.query('list_users', { organizationId: first.subOrganizationId });
    expect(listed.body.users.flatMap((u: any) => u.apiKeys)).toHaveLength(2);
    const secondWallets = await server.store.db.select().from(wallets).where(eq(wallets.organizationId, second.subOrganizationId));
    expect(secondWallets.map((w) => w.name)).toEqual(['Main']);
  });
});
