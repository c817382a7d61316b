import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyTagMembers, userTagMembers } from '../src/store/schema';
import { startTestServer, type TestServer } from './support/harness';
import { addOrganization, addPrivateKey, addUser, expectError } from './support/members';
import { storeKinds } from './support/stores';

describe.each(storeKinds)('tags on %s', (kind) => {
  let server: TestServer;
  let other: Awaited<ReturnType<typeof addOrganization>>;
  beforeAll(async () => {
    server = await startTestServer(kind);
    other = await addOrganization(server);
  });
  afterAll(() => server?.dispose());

  const userMembers = async (tagId: string) =>
    (await server.store.db.select().from(userTagMembers).where(eq(userTagMembers.tagId, tagId))).map((m) => m.userId).sort();
  const keyMembers = async (tagId: string) =>
    (await server.store.db.select().from(privateKeyTagMembers).where(eq(privateKeyTagMembers.tagId, tagId))).map((m) => m.privateKeyId).sort();
  const userTagNames = async () => (await server.client.query('list_user_tags', {})).body.userTags.map((t: { tagName: string }) => t.tagName);

  it('given create_user_tag with users of the org, then the tag is listed and the users carry it', async () => {
    const a = await addUser(server);
    const result = await server.client.run('create_user_tag', { userTagName: 'admins', userIds: [a.userId, server.org.userId, a.userId] });
    expect(result.userIds).toEqual([a.userId, server.org.userId]);
    const list = await server.client.query('list_user_tags', {});
    expect(list.body.userTags).toContainEqual(expect.objectContaining({ tagId: result.userTagId, tagName: 'admins', tagType: 'TAG_TYPE_USER' }));
    expect(await userMembers(result.userTagId)).toEqual([a.userId, server.org.userId].sort());
  });

  it('given update_user_tag, then the rename and membership changes are applied together', async () => {
    const [a, b] = [await addUser(server), await addUser(server)];
    const { userTagId } = await server.client.run('create_user_tag', { userTagName: 'ops', userIds: [a.userId] });
    expect(await server.client.run('update_user_tag', { userTagId, newUserTagName: 'operators', addUserIds: [b.userId], removeUserIds: [a.userId] })).toEqual({
      userTagId,
    });
    expect(await userMembers(userTagId)).toEqual([b.userId]);
    expect(await userTagNames()).toContain('operators');
    // Without a new name, the name stays; re-adding a member is a no-op.
    await server.client.run('update_user_tag', { userTagId, addUserIds: [b.userId], removeUserIds: [] });
    expect(await userMembers(userTagId)).toEqual([b.userId]);
    expect(await userTagNames()).toContain('operators');
  });

  it("given unknown or another org's users or tags, then the user tag ops answer 404 and change nothing", async () => {
    const { userTagId } = await server.client.run('create_user_tag', { userTagName: 'guarded', userIds: [] });
    const theirs = await other.client.run('create_user_tag', { userTagName: 'theirs', userIds: [other.userId] });
    expectError(await server.client.submit('create_user_tag', { userTagName: 'x', userIds: [other.userId] }), 404, 'ERR_USER_NOT_FOUND', 'userIds');
    expectError(
      await server.client.submit('update_user_tag', { userTagId, addUserIds: ['no-such-user'], removeUserIds: [] }),
      404,
      'ERR_USER_NOT_FOUND',
      'addUserIds',
    );
    expectError(
      await server.client.submit('update_user_tag', { userTagId: theirs.userTagId, addUserIds: [], removeUserIds: [] }),
      404,
      'ERR_USER_TAG_NOT_FOUND',
      'userTagId',
    );
    expectError(await server.client.submit('delete_user_tags', { userTagIds: [userTagId, theirs.userTagId] }), 404, 'ERR_USER_TAG_NOT_FOUND', 'userTagIds');
    expect(await userTagNames()).toContain('guarded');
    expect(await userTagNames()).not.toContain('x');
    expect(await userMembers(theirs.userTagId)).toEqual([other.userId]);
  });

  it('given a taken name, a both-added-and-removed user or a wrong type, then the user tag ops answer 4xx', async () => {
    const a = await addUser(server);
    const { userTagId } = await server.client.run('create_user_tag', { userTagName: 'one', userIds: [] });
    await server.client.run('create_user_tag', { userTagName: 'two', userIds: [] });
    expectError(await server.client.submit('create_user_tag', { userTagName: 'one', userIds: [] }), 409, 'ERR_ALREADY_EXISTS', 'userTagName');
    expectError(
      await server.client.submit('update_user_tag', { userTagId, newUserTagName: 'two', addUserIds: [], removeUserIds: [] }),
      409,
      'ERR_ALREADY_EXISTS',
    );
    expectError(await server.client.submit('update_user_tag', { userTagId, addUserIds: [a.userId], removeUserIds: [a.userId] }), 400, 'ERR_INVALID_PARAMETER');
    expectError(await server.client.submit('create_user_tag', { userTagName: 'three', userIds: 'nope' as unknown as string[] }), 400, 'ERR_INVALID_REQUEST');
    expectError(await server.client.submit('delete_user_tags', { userTagIds: [] }), 400, 'ERR_INVALID_REQUEST');
  });

  it('given delete_user_tags, then the tags are gone and the result names the users that were tagged', async () => {
    const [a, b] = [await addUser(server), await addUser(server)];
    const t1 = await server.client.run('create_user_tag', { userTagName: 'del-1', userIds: [a.userId, b.userId] });
    const t2 = await server.client.run('create_user_tag', { userTagName: 'del-2', userIds: [a.userId] });
    const result = await server.client.run('delete_user_tags', { userTagIds: [t1.userTagId, t2.userTagId] });
    expect(result.userTagIds).toEqual([t1.userTagId, t2.userTagId]);
    expect([...result.userIds].sort()).toEqual([a.userId, b.userId].sort());
    expect(await userTagNames()).not.toContain('del-1');
    expect(await userTagNames()).not.toContain('del-2');
    expect(await userMembers(t1.userTagId)).toEqual([]);
  });

  it('given private keys of the org, then private key tags are created, listed, renamed and re-membered', async () => {
    const [k1, k2] = [await addPrivateKey(server), await addPrivateKey(server)];
    const created = await server.client.run('create_private_key_tag', { privateKeyTagName: 'hot', privateKeyIds: [k1] });
    expect(created.privateKeyIds).toEqual([k1]);
    expect(await keyMembers(created.privateKeyTagId)).toEqual([k1]);
    const update = { privateKeyTagId: created.privateKeyTagId, newPrivateKeyTagName: 'cold', addPrivateKeyIds: [k2], removePrivateKeyIds: [k1] };
    expect(await server.client.run('update_private_key_tag', update)).toEqual({ privateKeyTagId: created.privateKeyTagId });
    expect(await keyMembers(created.privateKeyTagId)).toEqual([k2]);
    const list = await server.client.query('list_private_key_tags', {});
    expect(list.body.privateKeyTags).toEqual([expect.objectContaining({ tagId: created.privateKeyTagId, tagName: 'cold', tagType: 'TAG_TYPE_PRIVATE_KEY' })]);
  });

  it("given unknown or another org's private keys or tags, then the private key tag ops answer 4xx", async () => {
    const theirKey = await addPrivateKey(server, other.organizationId);
    const theirTag = await other.client.run('create_private_key_tag', { privateKeyTagName: 'theirs', privateKeyIds: [theirKey] });
    const mine = await server.client.run('create_private_key_tag', { privateKeyTagName: 'mine', privateKeyIds: [] });
    expectError(
      await server.client.submit('create_private_key_tag', { privateKeyTagName: 'x', privateKeyIds: [theirKey] }),
      404,
      'ERR_PRIVATE_KEY_NOT_FOUND',
      'privateKeyIds',
    );
    expectError(
      await server.client.submit('update_private_key_tag', { privateKeyTagId: theirTag.privateKeyTagId, addPrivateKeyIds: [], removePrivateKeyIds: [] }),
      404,
      'ERR_PRIVATE_KEY_TAG_NOT_FOUND',
      'privateKeyTagId',
    );
    expectError(
      await server.client.submit('update_private_key_tag', { privateKeyTagId: mine.privateKeyTagId, addPrivateKeyIds: ['nope'], removePrivateKeyIds: [] }),
      404,
      'ERR_PRIVATE_KEY_NOT_FOUND',
      'addPrivateKeyIds',
    );
    expectError(await server.client.submit('create_private_key_tag', { privateKeyTagName: 'mine', privateKeyIds: [] }), 409, 'ERR_ALREADY_EXISTS');
    expect(await keyMembers(theirTag.privateKeyTagId)).toEqual([theirKey]);
  });
});
