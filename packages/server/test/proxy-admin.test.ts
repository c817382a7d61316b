/**
 * Authentication proxy administration: enable / update / disable as stamped activities and
 * through the CLI; the proxy user and its sealed key; what the proxy key may and may not do.
 */
import { createECDH } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/store/db';
import { apiKeys, proxyConfigs, rootQuorumMembers, users } from '../src/store/schema';
import { startTestServer, type ActivityClient, type TestServer } from './support/harness';
import { addOrganization, expectError } from './support/members';
import { SoftwareAuthenticator } from './support/authenticator';
import { createTestDataDir, storeKinds } from './support/stores';
import { cli } from './support/cli';
import { openSealed } from './support/sealed';
import { createOrganization } from '../src/admin/organizations';

const ETH_ACCOUNT = { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' } as const;
const rootUser = (email: string) => ({ userName: email, userEmail: email, apiKeys: [], authenticators: [], oauthProviders: [] });

describe.each(storeKinds)('auth proxy administration on %s', (kind) => {
  let server: TestServer;
  let configId: string;
  let proxy: ActivityClient;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.dispose());

  /** A client stamping with the proxy's API key, opened from its sealed form (with the master key and the database). */
  async function proxyClient(organizationId: string): Promise<ActivityClient> {
    const [row] = await server.store.db.select().from(proxyConfigs).where(eq(proxyConfigs.organizationId, organizationId));
    const privateKey = await openSealed(server, row!.proxyApiPrivateKeyEncrypted);
    return server.client.with({ key: { publicKey: row!.proxyApiPublicKey, privateKey }, organizationId });
  }

  it('given enable_auth_proxy by the root user, then a config with the defaults exists, its proxy user is outside the root quorum and its key is sealed', async () => {
    const result = await server.client.run('enable_auth_proxy', { settings: { allowedOrigins: ['https://App.Example.com:443', 'http://localhost:5173'] } });
    expect(result).toEqual({ configId: expect.any(String), enabled: true });
    configId = result.configId;

    const reply = await server.client.query('get_auth_proxy_config', {});
    expect(reply.status).toBe(200);
    const config = reply.body.config;
    expect(config).toMatchObject({ configId, organizationId: server.org.organizationId, enabled: true });
    expect(config.settings).toMatchObject({
      allowedOrigins: ['https://app.example.com', 'http://localhost:5173'],
      sessionExpirationSeconds: 900,
      otpLength: 6,
      otpAlphanumeric: false,
      methods: { emailOtp: true, smsOtp: true, passkey: true, wallet: true },
      requireVerificationTokenForAccountLookup: false,
    });
    expect(JSON.stringify(reply.body)).not.toMatch(/ciphertext|encappedPublic/);

    const [user] = await server.store.db.select().from(users).where(eq(users.id, config.proxyUserId));
    expect(user).toMatchObject({ organizationId: server.org.organizationId, isProxy: true });
    const quorum = await server.store.db.select().from(rootQuorumMembers).where(eq(rootQuorumMembers.organizationId, server.org.organizationId));
    expect(quorum.map((m) => m.userId)).not.toContain(config.proxyUserId);
    const keys = await server.store.db.select().from(apiKeys).where(eq(apiKeys.userId, config.proxyUserId));
    expect(keys.map((k) => k.publicKey)).toEqual([config.proxyApiPublicKey]);

    const [row] = await server.store.db.select().from(proxyConfigs).where(eq(proxyConfigs.id, configId));
    const stored = JSON.stringify(row!.proxyApiPrivateKeyEncrypted);
    const privateKey = await openSealed(server, row!.proxyApiPrivateKeyEncrypted);
    expect(stored).not.toContain(privateKey);
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(privateKey, 'hex'));
    expect(ecdh.getPublicKey('hex', 'compressed')).toBe(config.proxyApiPublicKey);
    proxy = await proxyClient(server.org.organizationId);
  });

  it('given the proxy is already enabled, when it is enabled again, then the same config id comes back and settings are merged', async () => {
    const again = await server.client.run('enable_auth_proxy', { settings: { otpLength: 8 } });
    expect(again.configId).toBe(configId);
    const config = (await server.client.query('get_auth_proxy_config', {})).body.config;
    expect(config.settings.otpLength).toBe(8);
    expect(config.settings.allowedOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
    const rows = await server.store.db.select().from(users).where(eq(users.isProxy, true));
    expect(rows.filter((u) => u.organizationId === server.org.organizationId)).toHaveLength(1);
  });

  it('given partial wildcards, paths, a mixed "*" or another scheme, when origins are set, then 400 ERR_INVALID_PARAMETER and nothing changes', async () => {
    for (const allowedOrigins of [
      ['https://*.example.com'],
      ['https://app.example.com/login'],
      ['*', 'https://a.example'],
      ['ftp://a.example'],
      ['https://user@a.example'],
      ['app.example.com'],
    ]) {
      const reply = await server.client.submit('update_auth_proxy_config', { settings: { allowedOrigins } });
      expectError(reply, 400, 'ERR_INVALID_PARAMETER');
    }
    expectError(
      await server.client.submit('update_auth_proxy_config', { settings: { emailLogoUrl: 'javascript:alert(1)' } }),
      400,
      'ERR_INVALID_PARAMETER',
      'settings.emailLogoUrl',
    );
    expectError(await server.client.submit('update_auth_proxy_config', { settings: { otpLength: 5 } }), 400, 'ERR_INVALID_REQUEST');
    const config = (await server.client.query('get_auth_proxy_config', {})).body.config;
    expect(config.settings.allowedOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
  });

  it('given a partial update of nested settings, then only the given keys change', async () => {
    const result = await server.client.run('update_auth_proxy_config', {
      settings: {
        methods: { smsOtp: false },
        social: { google: { enabled: true, clientIds: ['google-client'] } },
        requireVerificationTokenForAccountLookup: true,
      },
    });
    expect(result).toEqual({ configId, enabled: true });
    const settings = (await server.client.query('get_auth_proxy_config', {})).body.config.settings;
    expect(settings.methods).toEqual({ emailOtp: true, smsOtp: false, passkey: true, wallet: true });
    expect(settings.social.google).toEqual({ enabled: true, clientIds: ['google-client'] });
    expect(settings.social.apple).toEqual({ enabled: false, clientIds: [] });
    expect(settings.requireVerificationTokenForAccountLookup).toBe(true);
  });

  it('given exact allowed origins, then passkeys registered on them are accepted for sub-organizations, others are not, and "*" adds none', async () => {
    const signup = (client: ActivityClient, passkey: SoftwareAuthenticator) =>
      client.submit('create_sub_organization', {
        subOrganizationName: `passkey-${Math.random()}`,
        rootUsers: [{ ...rootUser(`pk-${Math.random()}@example.com`), authenticators: [passkey.authenticatorParams('app')] }],
        rootQuorumThreshold: 1,
      });
    const onApp = new SoftwareAuthenticator({ origin: 'https://app.example.com', rpId: 'app.example.com' });
    expect((await signup(server.client, onApp)).status).toBe(200);
    const elsewhere = new SoftwareAuthenticator({ origin: 'https://evil.example.com', rpId: 'evil.example.com' });
    expectError(await signup(server.client, elsewhere), 400, 'ERR_INVALID_ATTESTATION');

    const wildcard = await addOrganization(server, 'Wildcard Org');
    await wildcard.client.run('enable_auth_proxy', {});
    const again = new SoftwareAuthenticator({ origin: 'https://app.example.com', rpId: 'app.example.com' });
    expectError(await signup(wildcard.client, again), 400, 'ERR_INVALID_ATTESTATION');
    // The configured relying party (config.webauthn) still works everywhere.
    expect((await signup(wildcard.client, new SoftwareAuthenticator())).status).toBe(200);
  });

  it('given the proxy key, when it signs up a user and looks accounts up, then both are allowed', async () => {
    const created = await proxy.run('create_sub_organization', {
      subOrganizationName: 'proxy-signup',
      rootUsers: [rootUser('signup@example.com')],
      rootQuorumThreshold: 1,
    });
    expect(created.subOrganizationId).toEqual(expect.any(String));
    // The proxy cannot vouch for the email it was handed (no verification token): profile data, no identity.
    const lookup = await proxy.query('list_suborgs', { filterType: 'EMAIL', filterValue: 'SIGNUP@example.com' });
    expect(lookup.status).toBe(200);
    expect(lookup.body.organizationIds).toEqual([]);
    const byName = await proxy.query('list_suborgs', { filterType: 'USERNAME', filterValue: rootUser('signup@example.com').userName });
    expect(byName.body.organizationIds).toEqual([created.subOrganizationId]);
    // Authorization passes; the handler then reports the unknown credential (not a 403).
    const exchange = await proxy.submit('oauth2_authenticate', {
      oauth2CredentialId: '00000000-0000-4000-8000-000000000000',
      authCode: 'c',
      redirectUri: 'https://app.example.com/cb',
      codeVerifier: 'v'.repeat(43),
      nonce: 'n',
    });
    expectError(exchange, 404, 'ERR_OAUTH2_CREDENTIAL_NOT_FOUND');
  });

  it('given the proxy key, when it submits anything beyond the auth flows, then 403 ERR_PERMISSION_DENIED, even with a policy allowing it', async () => {
    const config = (await server.client.query('get_auth_proxy_config', {})).body.config;
    await server.client.run('create_policy', {
      policyName: 'let the proxy make wallets',
      effect: 'EFFECT_ALLOW',
      condition: "activity.type == 'ACTIVITY_TYPE_CREATE_WALLET'",
      consensus: `approvers.any(user, user.id == '${config.proxyUserId}')`,
      notes: '',
    });
    const denied: Array<[string, () => Promise<{ status: number; body: any }>]> = [
      ['create_wallet', () => proxy.submit('create_wallet', { walletName: 'w', accounts: [ETH_ACCOUNT] })],
      [
        'sign_raw_payloads',
        () =>
          proxy.submit('sign_raw_payloads', {
            signWith: '0x0000000000000000000000000000000000000000',
            payloads: ['00'],
            encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
            hashFunction: 'HASH_FUNCTION_NO_OP',
          }),
      ],
      ['create_policy', () => proxy.submit('create_policy', { policyName: 'p', effect: 'EFFECT_ALLOW', condition: 'true', consensus: 'true', notes: '' })],
      ['create_users', () => proxy.submit('create_users', { users: [{ ...rootUser('x@example.com'), userTags: [] }] })],
      ['update_root_quorum', () => proxy.submit('update_root_quorum', { threshold: 1, userIds: [config.proxyUserId] })],
      ['update_auth_proxy_config', () => proxy.submit('update_auth_proxy_config', { settings: { allowedOrigins: ['*'] } })],
      ['disable_auth_proxy', () => proxy.submit('disable_auth_proxy', {})],
      ['stamp_login', () => proxy.submit('stamp_login', { publicKey: config.proxyApiPublicKey })],
    ];
    for (const [name, call] of denied) {
      const reply = await call();
      expect({ name, status: reply.status, code: reply.body?.details?.[0]?.errorCode }).toEqual({ name, status: 403, code: 'ERR_PERMISSION_DENIED' });
    }
    for (const name of ['whoami', 'list_wallets', 'get_auth_proxy_config', 'list_users'] as const) {
      expectError(await proxy.query(name, {} as never), 403, 'ERR_PERMISSION_DENIED');
    }
  });

  it('given a sub-organization, when the proxy key acts on it beyond the auth flows, then 403', async () => {
    const { subOrganizationId } = await server.client.run('create_sub_organization', {
      subOrganizationName: 'end-user',
      rootUsers: [rootUser('end@example.com')],
      rootQuorumThreshold: 1,
    });
    const onSub = proxy.with({ organizationId: subOrganizationId });
    expectError(await onSub.submit('create_wallet', { walletName: 'w', accounts: [ETH_ACCOUNT] }), 403, 'ERR_PERMISSION_DENIED');
    expectError(await onSub.query('list_wallets', {}), 403, 'ERR_PERMISSION_DENIED');
  });

  it('given the proxy is disabled, then its key is refused with ERR_PROXY_DISABLED until it is enabled again with the same id', async () => {
    expect(await server.client.run('disable_auth_proxy', {})).toEqual({ configId, enabled: false });
    const signup = () =>
      proxy.submit('create_sub_organization', {
        subOrganizationName: `late-${Date.now()}-${Math.random()}`,
        rootUsers: [rootUser(`late-${Math.random()}@example.com`)],
        rootQuorumThreshold: 1,
      });
    expectError(await signup(), 403, 'ERR_PROXY_DISABLED');
    expectError(await proxy.query('list_suborgs', { filterType: 'EMAIL', filterValue: 'a@example.com' }), 403, 'ERR_PROXY_DISABLED');
    expect((await server.client.query('get_auth_proxy_config', {})).body.config.enabled).toBe(false);
    expect(await server.client.run('enable_auth_proxy', {})).toEqual({ configId, enabled: true });
    expect((await signup()).status).toBe(200);
  });

  it('given no configuration or a sub-organization, then update and disable are 404 ERR_CONFIG_NOT_FOUND and enabling a sub-organization is refused', async () => {
    const other = await addOrganization(server, 'No Proxy Org');
    expectError(await other.client.submit('update_auth_proxy_config', { settings: { otpLength: 7 } }), 404, 'ERR_CONFIG_NOT_FOUND');
    expectError(await other.client.submit('disable_auth_proxy', {}), 404, 'ERR_CONFIG_NOT_FOUND');
    expectError(await other.client.query('get_auth_proxy_config', {}), 404, 'ERR_CONFIG_NOT_FOUND');
    const { subOrganizationId } = await other.client.run('create_sub_organization', {
      subOrganizationName: 's',
      rootUsers: [rootUser('s@example.com')],
      rootQuorumThreshold: 1,
    });
    expectError(await other.client.submit('enable_auth_proxy', {}, { organizationId: subOrganizationId }), 403, 'ERR_PERMISSION_DENIED');
    // The other organization's root key is no key of this proxy's organization.
    expectError(await other.client.query('get_auth_proxy_config', { organizationId: server.org.organizationId }), 401, 'ERR_STAMP_KEY_UNKNOWN');
  });

  it('given ten racing enables of a fresh organization, each changing it, then all succeed, and exactly one configuration and one proxy user exist', async () => {
    const other = await addOrganization(server, 'Racing Org');
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => other.client.submit('enable_auth_proxy', { settings: { otpLength: 6 + (i % 4) } })));
    const ids = new Set(replies.map((r) => r.body.activity?.result.enableAuthProxyResult.configId));
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(ids.size).toBe(1);
    const proxies = await server.store.db.select().from(users).where(eq(users.organizationId, other.organizationId));
    expect(proxies.filter((u) => u.isProxy)).toHaveLength(1);
  });
});

const cliRun = (args: string[]) => cli(args, {});

describe('walletkit-server proxy enable', () => {
  const dir = createTestDataDir();
  const dataDir = dir.dataDir;
  afterAll(() => dir.remove());

  it('given an organization, when proxy enable runs twice with origins, then it prints the same config id and stores the proxy with a sealed key', async () => {
    // The organization is made in-process (the CLI's org create has its own test): fewer slow spawns.
    const setup = await openStore({ dataDir });
    const org = await createOrganization(setup, { name: 'Acme' });
    await setup.close();

    const first = await cliRun([
      'proxy',
      'enable',
      '--org',
      org.organizationId,
      '--origin',
      'https://app.example.com',
      '--origin',
      'http://localhost:5173',
      '--data-dir',
      dataDir,
      '--json',
    ]);
    expect(first.code, first.stderr).toBe(0);
    const out = JSON.parse(first.stdout);
    expect(out).toEqual({
      configId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      organizationId: org.organizationId,
      enabled: true,
      proxyUserId: expect.any(String),
      proxyApiPublicKey: expect.stringMatching(/^0[23][0-9a-f]{64}$/),
      allowedOrigins: ['https://app.example.com', 'http://localhost:5173'],
    });
    const second = await cliRun(['proxy', 'enable', '--org', org.organizationId, '--data-dir', dataDir, '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout).configId).toBe(out.configId);

    const bad = await cliRun(['proxy', 'enable', '--org', org.organizationId, '--origin', 'https://*.example.com', '--data-dir', dataDir, '--json']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/ERR_INVALID_PARAMETER/);
    const missing = await cliRun(['proxy', 'enable', '--data-dir', dataDir]);
    expect(missing.code).toBe(2);

    const store = await openStore({ dataDir });
    try {
      const rows = await store.db.select().from(proxyConfigs);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ id: out.configId, enabled: true, proxyApiPublicKey: out.proxyApiPublicKey });
      expect(rows[0]!.settings.allowedOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
      expect(rows[0]!.proxyApiPrivateKeyEncrypted).toEqual({ nonce: expect.stringMatching(/^[0-9a-f]{24}$/), ciphertext: expect.any(String) });
      expect(first.stdout + second.stdout).not.toContain(rows[0]!.proxyApiPrivateKeyEncrypted.ciphertext);
    } finally {
      await store.close();
    }
  }, 180_000);
});
