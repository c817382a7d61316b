import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { operations, type OperationName, type ParamsOf } from '@walletkit/protocol';
import { authenticators } from '../src/store/schema';
import { newId } from '../src/store/ids';
import { startTestServer, type ActivityClient, type TestServer } from './support/harness';
import { SoftwareAuthenticator } from './support/authenticator';
import { addOrganization, expectError } from './support/members';
import { storeKinds } from './support/stores';

const noUser = () => ({ userName: `u-${newId().slice(0, 8)}`, apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] });

const uuidOf = (b: Buffer) => b.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

/** Submit an activity stamped by a passkey instead of an API key. */
async function submitWithPasskey<N extends OperationName>(
  client: ActivityClient,
  passkey: SoftwareAuthenticator,
  op: N,
  params: ParamsOf<N>,
  tamper?: (stamp: any) => void,
) {
  const body = client.envelope(op, params);
  const stamp = JSON.parse(passkey.stamp(body));
  tamper?.(stamp);
  return client.post(operations[op].path, body, { 'x-stamp-webauthn': JSON.stringify(stamp) });
}

describe.each(storeKinds)('passkeys and recovery on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.dispose());

  it('given a verified attestation, when create_authenticators runs, then the passkey is listed and its assertions stamp accepted activities', async () => {
    const passkey = new SoftwareAuthenticator();
    const { authenticatorIds } = await server.client.run('create_authenticators', {
      userId: server.org.userId,
      authenticators: [passkey.authenticatorParams('laptop')],
    });
    const listed = await server.client.query('get_authenticators', { userId: server.org.userId });
    expect(listed.body.authenticators).toHaveLength(1);
    const record = listed.body.authenticators[0];
    expect(record).toMatchObject({
      authenticatorId: authenticatorIds[0],
      authenticatorName: 'laptop',
      credentialId: passkey.credentialId,
      attestationType: 'none',
      aaguid: uuidOf(passkey.aaguid),
      transports: ['AUTHENTICATOR_TRANSPORT_INTERNAL', 'AUTHENTICATOR_TRANSPORT_HYBRID'],
      credential: { type: 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR' },
    });
    expect(record.credential.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);

    const accepted = await submitWithPasskey(server.client, passkey, 'create_users', { users: [noUser()] });
    expect(accepted.status).toBe(200);
    expect(accepted.body.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const [row] = await server.store.db.select().from(authenticators).where(eq(authenticators.id, authenticatorIds[0]!));
    expect(row!.counter).toBe(1); // the signature counter advanced with the assertion
  });

  it('given a tampered passkey stamp, when it is submitted, then it is refused with ERR_STAMP_INVALID', async () => {
    const passkey = new SoftwareAuthenticator();
    await server.client.run('create_authenticators', { userId: server.org.userId, authenticators: [passkey.authenticatorParams('phone')] });
    const flip = (b64: string) => {
      const bytes = Buffer.from(b64, 'base64url');
      bytes[bytes.length - 1]! ^= 0x01;
      return bytes.toString('base64url');
    };
    // a stamp for another body
    const body = server.client.envelope('create_users', { users: [noUser()] });
    const other = server.client.envelope('create_users', { users: [noUser()] });
    expectError(await server.client.post(operations.create_users.path, body, { 'x-stamp-webauthn': passkey.stamp(other) }), 401, 'ERR_STAMP_INVALID');
    expectError(
      await submitWithPasskey(server.client, passkey, 'create_users', { users: [noUser()] }, (s) => (s.signature = flip(s.signature))),
      401,
      'ERR_STAMP_INVALID',
    );
    expectError(
      await submitWithPasskey(server.client, passkey, 'create_users', { users: [noUser()] }, (s) => (s.authenticatorData = flip(s.authenticatorData))),
      401,
      'ERR_STAMP_INVALID',
    );
    const evil = new SoftwareAuthenticator({ origin: 'https://evil.example' });
    await server.client.run('create_authenticators', {
      userId: server.org.userId,
      authenticators: [{ ...evil.authenticatorParams('x'), attestation: evil.attest('c', { origin: 'http://localhost:5173' }), challenge: 'c' }],
    });
    expectError(await submitWithPasskey(server.client, evil, 'create_users', { users: [noUser()] }), 401, 'ERR_STAMP_INVALID');
    // an unregistered passkey is unknown
    expectError(await submitWithPasskey(server.client, new SoftwareAuthenticator(), 'create_users', { users: [noUser()] }), 401, 'ERR_STAMP_KEY_UNKNOWN');
  });

  it('given attestations that do not verify, when create_authenticators runs, then it is a 400 ERR_INVALID_ATTESTATION and nothing is stored', async () => {
    const passkey = new SoftwareAuthenticator();
    const userId = server.org.userId;
    const before = (await server.store.db.select().from(authenticators)).length;
    const cases = [
      { ...passkey.authenticatorParams('a'), challenge: 'another-challenge' },
      { authenticatorName: 'b', challenge: 'c1', attestation: passkey.attest('c1', { origin: 'https://evil.example' }) },
      { authenticatorName: 'c', challenge: 'c2', attestation: passkey.attest('c2', { rpId: 'evil.example' }) },
      { authenticatorName: 'd', challenge: 'c3', attestation: passkey.attest('c3', { type: 'webauthn.get' }) },
      { authenticatorName: 'e', challenge: 'c4', attestation: { ...passkey.attest('c4'), credentialId: new SoftwareAuthenticator().credentialId } },
      { authenticatorName: 'f', challenge: 'c5', attestation: { ...passkey.attest('c5'), attestationObject: 'AAAA' } },
    ];
    for (const [i, params] of cases.entries()) {
      const reply = await server.client.submit('create_authenticators', { userId, authenticators: [passkey.authenticatorParams('ok'), params] });
      expect({ i, status: reply.status, code: reply.body.details?.[0]?.errorCode, field: reply.body.details?.[0]?.field }).toEqual({
        i,
        status: 400,
        code: 'ERR_INVALID_ATTESTATION',
        field: 'authenticators.1',
      });
    }
    expect((await server.store.db.select().from(authenticators)).length).toBe(before);
    await server.client.run('create_authenticators', { userId, authenticators: [passkey.authenticatorParams('ok')] });
    expectError(
      await server.client.submit('create_authenticators', { userId, authenticators: [passkey.authenticatorParams('again')] }),
      409,
      'ERR_ALREADY_EXISTS',
    );
  });

  it('given a deleted passkey, when it stamps, then it is unknown, and deleting it twice is a 404', async () => {
    const passkey = new SoftwareAuthenticator();
    const userId = server.org.userId;
    const { authenticatorIds } = await server.client.run('create_authenticators', { userId, authenticators: [passkey.authenticatorParams('old')] });
    expect(await server.client.run('delete_authenticators', { userId, authenticatorIds })).toEqual({ authenticatorIds });
    expectError(await submitWithPasskey(server.client, passkey, 'create_users', { users: [noUser()] }), 401, 'ERR_STAMP_KEY_UNKNOWN');
    expectError(await server.client.submit('delete_authenticators', { userId, authenticatorIds }), 404, 'ERR_AUTHENTICATOR_NOT_FOUND', 'authenticatorIds');
  });

  it('given an end user who lost their passkey, when the parent runs recover_user, then the new passkey logs the user in', async () => {
    const lost = new SoftwareAuthenticator();
    const { subOrganizationId, rootUserIds } = await server.client.run('create_sub_organization', {
      subOrganizationName: 'recover-me',
      rootUsers: [{ userName: 'end-user', apiKeys: [], authenticators: [lost.authenticatorParams('lost')], oauthProviders: [] }],
      rootQuorumThreshold: 1,
    });
    const userId = rootUserIds[0]!;
    const fresh = new SoftwareAuthenticator();
    const parentOnSub = server.client.with({ organizationId: subOrganizationId });
    const { authenticatorId } = await parentOnSub.run('recover_user', { userId, authenticator: fresh.authenticatorParams('new phone') });
    expect(authenticatorId).toHaveLength(1);
    const listed = await parentOnSub.query('get_authenticators', { userId });
    expect(listed.body.authenticators.map((a: any) => a.authenticatorId)).toContain(authenticatorId[0]);

    const sub = server.client.with({ organizationId: subOrganizationId });
    const login = await submitWithPasskey(sub, fresh, 'create_users', { users: [noUser()] });
    expect(login.status).toBe(200);
    expect(login.body.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
  });

  it("given another organization's user or a bad attestation, when recover_user runs, then it is refused and nothing is added", async () => {
    const other = await addOrganization(server);
    const passkey = new SoftwareAuthenticator();
    expectError(
      await server.client.submit('recover_user', { userId: other.userId, authenticator: passkey.authenticatorParams('x') }),
      404,
      'ERR_USER_NOT_FOUND',
      'userId',
    );
    const bad = { ...passkey.authenticatorParams('x'), challenge: 'not-the-one-signed' };
    expectError(await server.client.submit('recover_user', { userId: server.org.userId, authenticator: bad }), 400, 'ERR_INVALID_ATTESTATION', 'authenticator');
    const rows = await server.store.db.select().from(authenticators).where(eq(authenticators.credentialId, passkey.credentialId));
    expect(rows).toHaveLength(0);
  });
});
