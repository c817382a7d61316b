import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/harness';
import { addOrganization, addUser, expectError } from './support/members';
import { storeKinds } from './support/stores';

describe.each(storeKinds)('activity reads on %s', (kind) => {
  let server: TestServer;
  let org: Awaited<ReturnType<typeof addOrganization>>; // an organization with a known history
  const history: string[] = []; // activity ids, oldest first
  let pendingId: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    org = await addOrganization(server, 'History Org');
    const features = ['FEATURE_NAME_WEBHOOK', 'FEATURE_NAME_EMAIL_AUTH', 'FEATURE_NAME_SMS_AUTH', 'FEATURE_NAME_OTP_EMAIL_AUTH'] as const;
    for (const name of features) {
      history.push((await org.client.submit('set_organization_feature', { name, value: 'on' })).body.activity.id);
    }
    const second = await addUser(server, { organizationId: org.organizationId, root: true });
    history.push((await org.client.submit('update_root_quorum', { threshold: 2, userIds: [org.userId, second.userId] })).body.activity.id);
    const pending = (await org.client.submit('create_user_tag', { userTagName: 'later', userIds: [] })).body.activity;
    expect(pending.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    pendingId = pending.id;
    history.push(pendingId);
  });
  afterAll(() => server?.dispose());

  const list = async (request: Record<string, unknown>) => {
    const reply = await org.client.query('list_activities', request);
    expect(reply.status).toBe(200);
    return reply.body.activities.map((a: { id: string }) => a.id) as string[];
  };
  const newestFirst = () => [...history].reverse();

  it('given a root key, then whoami names its user and organization', async () => {
    const reply = await server.client.query('whoami', {});
    expect(reply.body).toEqual({ organizationId: server.org.organizationId, organizationName: 'Test Org', userId: server.org.userId, username: 'root' });
    const member = await addUser(server, { name: 'alice' });
    expect((await member.client.query('whoami', {})).body).toMatchObject({ userId: member.userId, username: 'alice' });
  });

  it('given an activity id, then get_activity returns the record the submit returned', async () => {
    const submitted = await server.client.submit('create_user_tag', { userTagName: 'read me', userIds: [] });
    const reply = await server.client.query('get_activity', { activityId: submitted.body.activity.id });
    expect(reply.status).toBe(200);
    expect(reply.body.activity).toEqual(submitted.body.activity);
    expect(reply.body.activity.intent).toEqual({ createUserTagIntent: { userTagName: 'read me', userIds: [] } });
  });

  it("given an unknown or another organization's activity id, then get_activity answers 404", async () => {
    expectError(await server.client.query('get_activity', { activityId: history[0]! }), 404, 'ERR_ACTIVITY_NOT_FOUND', 'activityId');
    expectError(await server.client.query('get_activity', { activityId: 'nope' }), 404, 'ERR_ACTIVITY_NOT_FOUND');
    // Stamping for the other organization with this organization's key is not even authenticated.
    expectError(await server.client.query('get_activity', { organizationId: org.organizationId, activityId: history[0]! }), 401, 'ERR_STAMP_KEY_UNKNOWN');
  });

  it('given no filters, then list_activities returns the newest first, 10 by default, this organization only', async () => {
    expect(await list({})).toEqual(newestFirst());
    const pending = (await org.client.query('list_activities', {})).body.activities[0];
    expect(pending).toMatchObject({
      id: pendingId,
      status: 'ACTIVITY_STATUS_CONSENSUS_NEEDED',
      canApprove: true,
      votes: [expect.objectContaining({ userId: org.userId })],
    });
    for (let i = 0; i < 11; i++) await server.client.run('set_organization_feature', { name: 'FEATURE_NAME_WEBHOOK', value: String(i) });
    expect((await server.client.query('list_activities', {})).body.activities).toHaveLength(10);
  });

  it('given status and type filters, then only matching activities are listed', async () => {
    expect(await list({ filterByStatus: ['ACTIVITY_STATUS_CONSENSUS_NEEDED'] })).toEqual([pendingId]);
    expect(await list({ filterByStatus: ['ACTIVITY_STATUS_COMPLETED'] })).toEqual(newestFirst().slice(1));
    expect(await list({ filterByType: ['ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE'] })).toEqual(history.slice(0, 4).reverse());
    expect(
      await list({ filterByType: ['ACTIVITY_TYPE_UPDATE_ROOT_QUORUM', 'ACTIVITY_TYPE_CREATE_USER_TAG'], filterByStatus: ['ACTIVITY_STATUS_COMPLETED'] }),
    ).toEqual([history[4]]);
    expect(await list({ filterByStatus: ['ACTIVITY_STATUS_REJECTED'] })).toEqual([]);
  });

  it('given a limit and cursors, then pages follow each other without gaps or repeats', async () => {
    const all = newestFirst();
    const page1 = await list({ paginationOptions: { limit: '2' } });
    const page2 = await list({ paginationOptions: { limit: '2', after: page1[1]! } });
    const page3 = await list({ paginationOptions: { limit: '2', after: page2[1]! } });
    expect([...page1, ...page2, ...page3]).toEqual(all);
    expect(await list({ paginationOptions: { limit: '2', after: page3[1]! } })).toEqual([]);
    expect(await list({ paginationOptions: { limit: '2', before: page2[0]! } })).toEqual(page1);
    expect(await list({ paginationOptions: { limit: '10', before: page3[0]!, after: page1[0]! } })).toEqual([page1[1], ...page2]);
  });

  it('given a bad limit, an unknown cursor or an unknown status, then list_activities answers 4xx', async () => {
    expectError(await org.client.query('list_activities', { paginationOptions: { limit: '0' } }), 400, 'ERR_INVALID_REQUEST');
    expectError(await org.client.query('list_activities', { paginationOptions: { limit: '101' } }), 400, 'ERR_INVALID_REQUEST');
    expectError(await org.client.query('list_activities', { paginationOptions: { after: 'nope' } }), 404, 'ERR_ACTIVITY_NOT_FOUND', 'paginationOptions.after');
    expectError(
      await org.client.query('list_activities', { filterByStatus: ['ACTIVITY_STATUS_NOPE' as 'ACTIVITY_STATUS_CREATED'] }),
      400,
      'ERR_INVALID_REQUEST',
    );
    // Another organization's activity is no cursor here.
    const foreign = (await server.client.query('list_activities', { paginationOptions: { limit: '1' } })).body.activities[0].id;
    expectError(await org.client.query('list_activities', { paginationOptions: { before: foreign } }), 404, 'ERR_ACTIVITY_NOT_FOUND');
  });
});
