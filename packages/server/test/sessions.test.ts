import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { generateP256KeyPair, verifyJwt } from '@walletkit/crypto';
import { operations } from '@walletkit/protocol';
import { apiKeys } from '../src/store/schema';
import type { SessionClaims } from '../src/activity/operations/sessions';
import { startTestServer, type ActivityClient, type TestServer } from './support/harness';
import { SoftwareAuthenticator } from './support/authenticator';
import { expectError } from './support/members';
import { storeKinds } from './support/stores';

describe.each(storeKinds)('stamp_login on %s', (kind) => {
  let server: TestServer;
  let now = Date.now();
  beforeAll(async () => {
    server = await startTestServer(kind, { clock: () => now });
  });
  afterAll(() => server?.dispose());

  const claimsOf = (session: string) => verifyJwt<SessionClaims>(session, server.enclave.signingPublicKey, { now: () => now });
  /** Any accepted stamped request proves the key works: a read of the caller's API keys. */
  const canStamp = async (client: ActivityClient) => (await client.query('get_api_keys', {})).status;
  /** A sub-organization of two root users, a and b, each with an API key, and a client for each. */
  const twoUsers = async (subOrganizationName: string) => {
    const a = generateP256KeyPair();
    const b = generateP256KeyPair();
    const root = (name: string, key: { publicKey: string }) => ({
      userName: name,
      apiKeys: [{ apiKeyName: name, publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' as const }],
      authenticators: [],
      oauthProviders: [],
    });
    const { subOrganizationId, rootUserIds } = await server.client.run('create_sub_organization', {
      subOrganizationName,
      rootUsers: [root('a', a), root('b', b)],
      rootQuorumThreshold: 1,
    });
    const asA = server.client.with({ key: a, organizationId: subOrganizationId });
    const asB = server.client.with({ key: b, organizationId: subOrganizationId });
    return { a, b, subOrganizationId, rootUserIds: rootUserIds as string[], asA, asB };
  };

  it('given a stamp from the root key, when stamp_login runs, then an enclave-signed session describes a session key that stamps until it expires', async () => {
    const sessionKey = generateP256KeyPair();
    const { session } = await server.client.run('stamp_login', { publicKey: sessionKey.publicKey });
    const claims = claimsOf(session);
    expect(claims).toEqual({
      exp: Math.floor(now / 1000) + 900,
      public_key: sessionKey.publicKey,
      session_type: 'SESSION_TYPE_READ_WRITE',
      user_id: server.org.userId,
      organization_id: server.org.organizationId,
    });
    const [row] = await server.store.db.select().from(apiKeys).where(eq(apiKeys.publicKey, sessionKey.publicKey));
    expect(row).toMatchObject({ userId: server.org.userId, isSession: true, curve: 'API_KEY_CURVE_P256' });
    expect(row!.expiresAt!.getTime()).toBe(now + 900_000);

    const asSession = server.client.with({ key: sessionKey });
    expect(await canStamp(asSession)).toBe(200);
    // an activity too, with the user's rights (the root user may create users)
    expect(
      (await asSession.submit('create_users', { users: [{ userName: 'via-session', apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] }))
        .status,
    ).toBe(200);
    const keys = (await asSession.query('get_api_keys', {})).body.apiKeys;
    expect(keys.find((k: any) => k.credential.publicKey === sessionKey.publicKey)).toMatchObject({
      credential: { type: 'CREDENTIAL_TYPE_LOGIN' },
      expirationSeconds: '900',
    });

    now += 899_000;
    expect(await canStamp(asSession)).toBe(200);
    now += 1_000;
    expectError(await asSession.query('get_api_keys', {}), 401, 'ERR_API_KEY_EXPIRED');
    // the root key is not a session key and is unaffected
    expect(await canStamp(server.client)).toBe(200);
  });

  it('given expirationSeconds and invalidateExisting, when stamp_login runs, then the lifetime is honoured and older session keys stop stamping', async () => {
    const [a, b, c] = [generateP256KeyPair(), generateP256KeyPair(), generateP256KeyPair()];
    const first = claimsOf((await server.client.run('stamp_login', { publicKey: a.publicKey, expirationSeconds: '60' })).session);
    expect(first.exp).toBe(Math.floor(now / 1000) + 60);
    await server.client.run('stamp_login', { publicKey: b.publicKey, invalidateExisting: false });
    expect(await canStamp(server.client.with({ key: a }))).toBe(200);
    expect(await canStamp(server.client.with({ key: b }))).toBe(200);

    // logging in again with the same key renews it instead of failing
    now += 1_000;
    const renewed = claimsOf((await server.client.run('stamp_login', { publicKey: b.publicKey, expirationSeconds: '120' })).session);
    expect(renewed.exp).toBe(Math.floor(now / 1000) + 120);

    await server.client.run('stamp_login', { publicKey: c.publicKey, invalidateExisting: true });
    expectError(await server.client.with({ key: a }).query('get_api_keys', {}), 401, 'ERR_STAMP_KEY_UNKNOWN');
    expectError(await server.client.with({ key: b }).query('get_api_keys', {}), 401, 'ERR_STAMP_KEY_UNKNOWN');
    expect(await canStamp(server.client.with({ key: c }))).toBe(200);
    const sessions = await server.store.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, server.org.userId), eq(apiKeys.isSession, true)));
    expect(sessions.map((s) => s.publicKey)).toEqual([c.publicKey]);
  });

  it('given a bad key or lifetime, when stamp_login runs, then it is a 400 naming the field', async () => {
    expectError(await server.client.submit('stamp_login', { publicKey: `02${'ff'.repeat(32)}` }), 400, 'ERR_INVALID_PUBLIC_KEY', 'publicKey');
    expectError(
      await server.client.submit('stamp_login', { publicKey: generateP256KeyPair().publicKey, expirationSeconds: '0' }),
      400,
      'ERR_INVALID_PARAMETER',
      'expirationSeconds',
    );
    // the root key itself is not a session key and cannot become one
    expectError(await server.client.submit('stamp_login', { publicKey: server.org.apiKey.publicKey }), 409, 'ERR_ALREADY_EXISTS', 'publicKey');
  });

  it("given another user's key, when stamp_login asks for it (renewing or invalidating), then it is a 409 and that user's keys keep stamping", async () => {
    const { a, subOrganizationId, rootUserIds, asA, asB } = await twoUsers('two-users');
    const aSession = generateP256KeyPair();
    await asA.run('stamp_login', { publicKey: aSession.publicKey });
    for (const key of [a, aSession]) {
      for (const invalidateExisting of [false, true]) {
        expectError(await asB.submit('stamp_login', { publicKey: key.publicKey, invalidateExisting }), 409, 'ERR_ALREADY_EXISTS', 'publicKey');
      }
    }
    // nothing of the refused logins stayed: a's keys are a's and stamp
    const keysOfA = async () =>
      (await server.store.db.select().from(apiKeys).where(eq(apiKeys.userId, rootUserIds[0]!))).map((r) => `${r.publicKey}:${r.isSession}`).sort();
    expect(await keysOfA()).toEqual([`${a.publicKey}:false`, `${aSession.publicKey}:true`].sort());
    expect(await canStamp(server.client.with({ key: aSession, organizationId: subOrganizationId }))).toBe(200);
    // and a renewing its own session key with invalidateExisting keeps exactly that one (a new
    // timestamp: the same body as b's refused request would be its replay)
    now += 1;
    await asA.run('stamp_login', { publicKey: aSession.publicKey, invalidateExisting: true });
    expect(await keysOfA()).toEqual([`${a.publicKey}:false`, `${aSession.publicKey}:true`].sort());
  });

  it('given two users of one organization logging in at once with the same session key, when both stamp_login, then one gets it and the other a 409, every time (and so for two registered keys)', async () => {
    const { subOrganizationId, rootUserIds, asA, asB } = await twoUsers('racing-users');
    for (let round = 0; round < 12; round++) {
      const key = generateP256KeyPair();
      // alternate who sends first, and half the time invalidating (the other statement's form)
      const invalidateExisting = round % 2 === 1;
      const order = round % 4 < 2 ? [asA, asB] : [asB, asA];
      // (bodies that differ: one body is one activity, whoever stamps it)
      const replies = await Promise.all(
        order.map((c, i) => c.submit('stamp_login', { publicKey: key.publicKey, invalidateExisting, expirationSeconds: String(600 + i) })),
      );
      expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
      const refused = replies.find((r) => r.status === 409)!;
      expectError(refused, 409, 'ERR_ALREADY_EXISTS', 'publicKey');
      const holders = await server.store.db
        .select({ userId: apiKeys.userId })
        .from(apiKeys)
        .where(and(eq(apiKeys.organizationId, subOrganizationId), eq(apiKeys.publicKey, key.publicKey)));
      expect(holders).toHaveLength(1);
      // the winner's session stamps as the winner
      const winner = order[replies.findIndex((r) => r.status === 200)]!;
      expect(await canStamp(winner.with({ key }))).toBe(200);
    }
    // the same for two registered keys: create_api_keys for each user at once with one key
    const users = [
      { client: asA, userId: rootUserIds[0]! },
      { client: asB, userId: rootUserIds[1]! },
    ];
    for (let round = 0; round < 6; round++) {
      const key = generateP256KeyPair();
      const replies = await Promise.all(
        users.map(({ client, userId }) =>
          client.submit('create_api_keys', { userId, apiKeys: [{ apiKeyName: `k${round}`, publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }] }),
        ),
      );
      expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
      expectError(replies.find((r) => r.status === 409)!, 409, 'ERR_ALREADY_EXISTS');
      const holders = await server.store.db
        .select({ userId: apiKeys.userId })
        .from(apiKeys)
        .where(and(eq(apiKeys.organizationId, subOrganizationId), eq(apiKeys.publicKey, key.publicKey)));
      expect(holders).toHaveLength(1);
    }
  });

  it('given a passkey stamp of a sub-organization user, when stamp_login runs, then the session belongs to that user and organization', async () => {
    const passkey = new SoftwareAuthenticator();
    const { subOrganizationId, rootUserIds } = await server.client.run('create_sub_organization', {
      subOrganizationName: 'passkey-user',
      rootUsers: [{ userName: 'p', apiKeys: [], authenticators: [passkey.authenticatorParams('laptop')], oauthProviders: [] }],
      rootQuorumThreshold: 1,
    });
    const sessionKey = generateP256KeyPair();
    const sub = server.client.with({ organizationId: subOrganizationId });
    const body = sub.envelope('stamp_login', { publicKey: sessionKey.publicKey });
    const reply = await sub.post(operations.stamp_login.path, body, { 'x-stamp-webauthn': passkey.stamp(body) });
    expect(reply.status).toBe(200);
    const claims = claimsOf(reply.body.activity.result.stampLoginResult.session);
    expect(claims).toMatchObject({ user_id: rootUserIds[0], organization_id: subOrganizationId, public_key: sessionKey.publicKey });
    expect(await canStamp(server.client.with({ key: sessionKey, organizationId: subOrganizationId }))).toBe(200);
  });
});
