/**
 * Sub-organization identities: one sub-organization per email, phone, OAuth identity, passkey
 * and API key under a parent, also when signups race; list_suborgs finds them by every filter
 * type; adding and deleting credentials keeps the index in step.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateP256KeyPair } from '@walletkit/crypto';
import { issueOidcToken, issuerOf } from '../src/oauth/issued-token';
import { currentIdentities } from '../src/activity/operations/identities';
import { organizations, subOrganizationIdentities } from '../src/store/schema';
import { SoftwareAuthenticator } from './support/authenticator';
import { startTestServer, type TestServer } from './support/harness';
import { expectError } from './support/members';
import { storeKinds } from './support/stores';

let seq = 0;
const unique = (prefix: string) => `${prefix}-${Date.now()}-${++seq}`;
const bare = (name: string, extra: Record<string, unknown> = {}) => ({ userName: name, apiKeys: [], authenticators: [], oauthProviders: [], ...extra });

describe.each(storeKinds)('sub-organization identities on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.dispose());

  const lookup = async (filterType: string, filterValue: string): Promise<string[]> => {
    const reply = await server.client.query('list_suborgs', { filterType: filterType as never, filterValue });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.organizationIds;
  };

  it('given 10 racing signups with the same email, then exactly one sub-organization exists and the others get 409 ERR_ALREADY_EXISTS', async () => {
    const email = `${unique('race')}@example.com`;
    const name = unique('race-org');
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        server.client.submit('create_sub_organization', {
          subOrganizationName: name,
          // Case varies: emails are one identity case-insensitively.
          rootUsers: [bare(`user-${i}`, { userEmail: i % 2 ? email.toUpperCase() : email })],
          rootQuorumThreshold: 1,
        }),
      ),
    );
    const ok = replies.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of replies.filter((x) => x.status !== 200)) expectError(r, 409, 'ERR_ALREADY_EXISTS');
    const winner = ok[0]!.body.activity.result.createSubOrganizationResultV8.subOrganizationId;
    expect(await lookup('EMAIL', email)).toEqual([winner]);
    // Nothing half-written: the losers' organizations were rolled back.
    const orgs = await server.store.db
      .select()
      .from(organizations)
      .where(and(eq(organizations.parentOrganizationId, server.org.organizationId), eq(organizations.name, name)));
    expect(orgs.map((o) => o.id)).toEqual([winner]);
  });

  it('given a sub-organization with every kind of identity, then list_suborgs finds it by each filter type and finds nothing for others', async () => {
    const email = `${unique('all')}@Example.com`;
    const phone = `+1555${String(Date.now()).slice(-7)}`;
    const apiKey = generateP256KeyPair();
    const passkey = new SoftwareAuthenticator();
    const userName = unique('username');
    const aud = unique('client');
    const sub = unique('subject');
    const iss = issuerOf(server.config);
    const created = await server.client.run('create_sub_organization', {
      subOrganizationName: unique('all'),
      rootUsers: [
        bare(userName, {
          userEmail: email,
          userPhoneNumber: phone,
          apiKeys: [{ apiKeyName: 'k', publicKey: apiKey.publicKey, curveType: 'API_KEY_CURVE_P256' }],
          authenticators: [passkey.authenticatorParams('laptop')],
          oauthProviders: [{ providerName: 'discord', oidcClaims: { iss, sub, aud } }],
        }),
      ],
      rootQuorumThreshold: 1,
    });
    const id = created.subOrganizationId;
    expect(await lookup('EMAIL', email.toLowerCase())).toEqual([id]);
    expect(await lookup('PHONE_NUMBER', phone)).toEqual([id]);
    expect(await lookup('CREDENTIAL_ID', passkey.credentialId)).toEqual([id]);
    expect(await lookup('PUBLIC_KEY', apiKey.publicKey)).toEqual([id]);
    expect(await lookup('PUBLIC_KEY', apiKey.publicKeyUncompressed.toUpperCase())).toEqual([id]);
    expect(await lookup('USERNAME', userName)).toEqual([id]);
    const token = issueOidcToken(server.enclave, server.config, { sub, aud, nonce: 'n', now: new Date() });
    expect(await lookup('OIDC_TOKEN', token)).toEqual([id]);
    const stranger = issueOidcToken(server.enclave, server.config, { sub: 'someone-else', aud, nonce: 'n', now: new Date() });
    expect(await lookup('OIDC_TOKEN', stranger)).toEqual([]);
    expect(await lookup('EMAIL', 'nobody@example.com')).toEqual([]);
    expect(await lookup('PUBLIC_KEY', generateP256KeyPair().publicKey)).toEqual([]);
    expect(await lookup('USERNAME', 'nobody')).toEqual([]);

    const forged = await server.client.query('list_suborgs', { filterType: 'OIDC_TOKEN', filterValue: `${token.slice(0, -4)}AAAA` });
    expectError(forged, 401, 'ERR_OIDC_TOKEN_INVALID', 'filterValue');
    const badType = await server.client.query('list_suborgs', { filterType: 'SHOE_SIZE' as never, filterValue: '42' });
    expectError(badType, 400, 'ERR_INVALID_REQUEST');

    // Every identity is taken: a second signup with any one of them is refused.
    const again = [
      bare('a', { userEmail: email.toUpperCase() }),
      bare('b', { userPhoneNumber: phone }),
      bare('c', { apiKeys: [{ apiKeyName: 'k', publicKey: apiKey.publicKeyUncompressed, curveType: 'API_KEY_CURVE_P256' }] }),
      bare('d', { oauthProviders: [{ providerName: 'discord', oidcClaims: { iss, sub, aud } }] }),
    ];
    for (const user of again) {
      const reply = await server.client.submit('create_sub_organization', { subOrganizationName: unique('dup'), rootUsers: [user], rootQuorumThreshold: 1 });
      expectError(reply, 409, 'ERR_ALREADY_EXISTS');
    }
  });

  it('given a new sub-organization with two root users and every kind of identity, when created, then its identity rows are exactly those its tables give (what the signup kept in memory equals what they hold)', async () => {
    const keys = [generateP256KeyPair(), generateP256KeyPair(), generateP256KeyPair()];
    const passkey = new SoftwareAuthenticator();
    const iss = issuerOf(server.config);
    const created = await server.client.run('create_sub_organization', {
      subOrganizationName: unique('mem'),
      rootUsers: [
        bare(unique('first'), {
          userEmail: `${unique('First')}@Example.COM`,
          userPhoneNumber: `+1444${String(Date.now()).slice(-7)}`,
          apiKeys: [{ apiKeyName: 'k', publicKey: keys[0]!.publicKeyUncompressed, curveType: 'API_KEY_CURVE_P256' }],
          authenticators: [passkey.authenticatorParams('laptop')],
          oauthProviders: [{ providerName: 'google', oidcClaims: { iss, sub: unique('sub'), aud: unique('aud') } }],
        }),
        bare(unique('second'), {
          userEmail: `${unique('second')}@example.com`,
          apiKeys: keys.slice(1).map((k, i) => ({ apiKeyName: `k${i}`, publicKey: k.publicKey, curveType: 'API_KEY_CURVE_P256' })),
        }),
      ],
      rootQuorumThreshold: 1,
    });
    const id = created.subOrganizationId;
    const sorted = (rows: Array<{ kind: string; value: string }>) => rows.map((r) => `${r.kind} ${r.value}`).sort();
    const stored = await server.store.db
      .select({ kind: subOrganizationIdentities.kind, value: subOrganizationIdentities.value })
      .from(subOrganizationIdentities)
      .where(eq(subOrganizationIdentities.subOrganizationId, id));
    expect(stored).toHaveLength(8);
    expect(sorted(stored)).toEqual(sorted(await currentIdentities(server.store.db, id)));
  });

  it('given credentials added to and deleted from a sub-organization, then lookups follow and a freed identity can be reused', async () => {
    const first = await server.client.run('create_sub_organization', {
      subOrganizationName: unique('first'),
      rootUsers: [bare('first')],
      rootQuorumThreshold: 1,
    });
    const second = await server.client.run('create_sub_organization', {
      subOrganizationName: unique('second'),
      rootUsers: [bare('second')],
      rootQuorumThreshold: 1,
    });
    const [firstUser] = first.rootUserIds;
    const [secondUser] = second.rootUserIds;
    const onFirst = { organizationId: first.subOrganizationId };
    const onSecond = { organizationId: second.subOrganizationId };
    const key = generateP256KeyPair();
    const apiKeyParams = [{ apiKeyName: 'added', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' as const }];

    const { apiKeyIds } = await server.client.run('create_api_keys', { userId: firstUser!, apiKeys: apiKeyParams }, onFirst);
    expect(await lookup('PUBLIC_KEY', key.publicKey)).toEqual([first.subOrganizationId]);
    expectError(await server.client.submit('create_api_keys', { userId: secondUser!, apiKeys: apiKeyParams }, onSecond), 409, 'ERR_ALREADY_EXISTS');
    await server.client.run('delete_api_keys', { userId: firstUser!, apiKeyIds }, onFirst);
    expect(await lookup('PUBLIC_KEY', key.publicKey)).toEqual([]);
    await server.client.run('create_api_keys', { userId: secondUser!, apiKeys: apiKeyParams }, onSecond);
    expect(await lookup('PUBLIC_KEY', key.publicKey)).toEqual([second.subOrganizationId]);

    const claims = { iss: 'https://accounts.google.com', sub: unique('g'), aud: 'google-client' };
    const { providerIds } = await server.client.run(
      'create_oauth_providers',
      { userId: firstUser!, oauthProviders: [{ providerName: 'google', oidcClaims: claims }] },
      onFirst,
    );
    expectError(
      await server.client.submit('create_oauth_providers', { userId: secondUser!, oauthProviders: [{ providerName: 'google', oidcClaims: claims }] }, onSecond),
      409,
      'ERR_ALREADY_EXISTS',
    );
    await server.client.run('delete_oauth_providers', { userId: firstUser!, providerIds }, onFirst);
    await server.client.run('create_oauth_providers', { userId: secondUser!, oauthProviders: [{ providerName: 'google', oidcClaims: claims }] }, onSecond);

    const passkey = new SoftwareAuthenticator();
    const { authenticatorIds } = await server.client.run(
      'create_authenticators',
      { userId: firstUser!, authenticators: [passkey.authenticatorParams('key')] },
      onFirst,
    );
    expect(await lookup('CREDENTIAL_ID', passkey.credentialId)).toEqual([first.subOrganizationId]);
    await server.client.run('delete_authenticators', { userId: firstUser!, authenticatorIds }, onFirst);
    expect(await lookup('CREDENTIAL_ID', passkey.credentialId)).toEqual([]);

    const phone = `+1666${String(Date.now()).slice(-7)}`;
    await server.client.run('update_user_phone_number', { userId: firstUser!, userPhoneNumber: phone }, onFirst);
    expect(await lookup('PHONE_NUMBER', phone)).toEqual([first.subOrganizationId]);
    expectError(await server.client.submit('update_user_phone_number', { userId: secondUser!, userPhoneNumber: phone }, onSecond), 409, 'ERR_ALREADY_EXISTS');
    await server.client.run('update_user_phone_number', { userId: firstUser!, userPhoneNumber: '' }, onFirst);
    expect(await lookup('PHONE_NUMBER', phone)).toEqual([]);
  });

  it("given a user added to a sub-organization with another sub-organization's email, then 409 and nothing is written", async () => {
    const email = `${unique('taken')}@example.com`;
    const owner = await server.client.run('create_sub_organization', {
      subOrganizationName: unique('owner'),
      rootUsers: [bare('o', { userEmail: email })],
      rootQuorumThreshold: 1,
    });
    const other = await server.client.run('create_sub_organization', { subOrganizationName: unique('other'), rootUsers: [bare('x')], rootQuorumThreshold: 1 });
    const reply = await server.client.submit(
      'create_users',
      { users: [{ ...bare('late', { userEmail: email }), userTags: [] }] },
      { organizationId: other.subOrganizationId },
    );
    expectError(reply, 409, 'ERR_ALREADY_EXISTS');
    expect(await lookup('EMAIL', email)).toEqual([owner.subOrganizationId]);
    const users = await server.client.query('list_users', { organizationId: other.subOrganizationId });
    expect(users.body.users.map((u: { userName: string }) => u.userName)).toEqual(['x']);
  });

  it('given the same email in two different parent organizations, then both signups succeed (identities are per parent)', async () => {
    const email = `${unique('shared')}@example.com`;
    const a = await server.client.run('create_sub_organization', {
      subOrganizationName: unique('a'),
      rootUsers: [bare('a', { userEmail: email })],
      rootQuorumThreshold: 1,
    });
    const { createOrganization } = await import('../src/admin/organizations');
    const otherOrg = await createOrganization(server.store, { name: 'Second parent' });
    const other = server.client.with({ key: otherOrg.apiKey, organizationId: otherOrg.organizationId });
    const b = await other.run('create_sub_organization', {
      subOrganizationName: unique('b'),
      rootUsers: [bare('b', { userEmail: email })],
      rootQuorumThreshold: 1,
    });
    expect(await lookup('EMAIL', email)).toEqual([a.subOrganizationId]);
    expect((await other.query('list_suborgs', { filterType: 'EMAIL', filterValue: email })).body.organizationIds).toEqual([b.subOrganizationId]);
  });
});
