import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../src/store/schema';
import { startTestServer, type TestServer } from './support/harness';
import { addOrganization, addUser, expectError, type Member } from './support/members';
import { storeKinds } from './support/stores';

describe.each(storeKinds)('consensus on %s', (kind) => {
  let server: TestServer;
  let second: Member; // a second root quorum member
  let outsider: Member; // a user outside the quorum
  beforeAll(async () => {
    server = await startTestServer(kind);
    second = await addUser(server, { root: true, name: 'second root' });
    outsider = await addUser(server, { name: 'outsider' });
    await server.client.run('update_root_quorum', { threshold: 2, userIds: [server.org.userId, second.userId] });
  });
  afterAll(() => server?.dispose());

  const policyNames = async () => (await server.client.query('list_policies', {})).body.policies.map((p: { policyName: string }) => p.policyName);
  const pending = async (policyName: string) => {
    // An inert condition: these policies must not grant the outsider anything.
    const reply = await server.client.submit('create_policy', { policyName, effect: 'EFFECT_ALLOW', condition: "activity.type == 'ACTIVITY_TYPE_NONE'" });
    expect(reply.status).toBe(200);
    return reply.body.activity;
  };

  it('given a threshold of 2, when a root user submits, then the activity needs consensus and nothing is written', async () => {
    const activity = await pending('needs two');
    expect(activity).toMatchObject({ status: 'ACTIVITY_STATUS_CONSENSUS_NEEDED', canApprove: true, canReject: true, result: {} });
    expect(activity.votes).toEqual([expect.objectContaining({ userId: server.org.userId, selection: 'VOTE_SELECTION_APPROVED', activityId: activity.id })]);
    expect(await policyNames()).not.toContain('needs two');
    expect((await server.client.query('get_organization_configs', {})).body.configs.quorum).toEqual({
      threshold: 2,
      userIds: [server.org.userId, second.userId].sort(),
    });
  });

  it('given a pending activity, when the second root user approves, then it runs and completes', async () => {
    const activity = await pending('approved policy');
    const { activity: voted } = await second.client.run('approve_activity', { fingerprint: activity.fingerprint });
    expect(voted).toMatchObject({ id: activity.id, status: 'ACTIVITY_STATUS_COMPLETED', canApprove: false, canReject: false });
    expect(voted.votes.map((v) => [v.userId, v.selection])).toEqual([
      [server.org.userId, 'VOTE_SELECTION_APPROVED'],
      [second.userId, 'VOTE_SELECTION_APPROVED'],
    ]);
    const policyId = (voted.result.createPolicyResult as { policyId: string }).policyId;
    expect((await server.client.query('get_policy', { policyId })).body.policy.policyName).toBe('approved policy');
    const read = await server.client.query('get_activity', { activityId: activity.id });
    expect(read.body.activity).toMatchObject({ status: 'ACTIVITY_STATUS_COMPLETED', result: { createPolicyResult: { policyId } } });
    // Voting again on a completed activity.
    expectError(await server.client.submit('reject_activity', { fingerprint: activity.fingerprint }), 409, 'ERR_ACTIVITY_NOT_PENDING');
  });

  it('given a pending activity, when a root user rejects, then it is REJECTED, never runs, and takes no more votes', async () => {
    const activity = await pending('rejected policy');
    const { activity: voted } = await second.client.run('reject_activity', { fingerprint: activity.fingerprint });
    expect(voted).toMatchObject({ id: activity.id, status: 'ACTIVITY_STATUS_REJECTED', canApprove: false, result: {} });
    expect(voted.votes.at(-1)).toMatchObject({ userId: second.userId, selection: 'VOTE_SELECTION_REJECTED' });
    expect(await policyNames()).not.toContain('rejected policy');
    expectError(await second.client.submit('approve_activity', { fingerprint: activity.fingerprint }), 409, 'ERR_ACTIVITY_NOT_PENDING', 'fingerprint');
  });

  it('given votes by the submitter, a user outside the quorum, or on an unknown or foreign fingerprint, then they are refused', async () => {
    const activity = await pending('voting rules');
    expectError(await server.client.submit('approve_activity', { fingerprint: activity.fingerprint }), 409, 'ERR_ALREADY_VOTED');
    expectError(await outsider.client.submit('approve_activity', { fingerprint: activity.fingerprint }), 403, 'ERR_PERMISSION_DENIED');
    expectError(await second.client.submit('approve_activity', { fingerprint: 'ab'.repeat(32) }), 404, 'ERR_ACTIVITY_NOT_FOUND', 'fingerprint');
    const other = await addOrganization(server);
    expectError(await other.client.submit('approve_activity', { fingerprint: activity.fingerprint }), 404, 'ERR_ACTIVITY_NOT_FOUND');
    const [row] = await server.store.db.select().from(activities).where(eq(activities.id, activity.id));
    expect(row?.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
  });

  it('given a non-root user, then they are denied until a policy that allows them reaches consensus', async () => {
    const tag = { userTagName: 'outsider tag', userIds: [] };
    expectError(await outsider.client.submit('create_user_tag', tag), 403, 'ERR_PERMISSION_DENIED');
    const activity = (
      await server.client.submit('create_policy', {
        policyName: 'outsider may tag',
        effect: 'EFFECT_ALLOW',
        condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
        consensus: `approvers.any(user, user.id == '${outsider.userId}')`,
      })
    ).body.activity;
    expect(activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expectError(await outsider.client.submit('create_user_tag', tag), 403, 'ERR_PERMISSION_DENIED');
    await second.client.run('approve_activity', { fingerprint: activity.fingerprint });
    // Policies bind non-root users directly: no consensus round for them.
    const { userTagId } = await outsider.client.run('create_user_tag', tag);
    expect((await server.client.query('list_user_tags', {})).body.userTags.map((t: { tagId: string }) => t.tagId)).toContain(userTagId);
    expectError(await outsider.client.submit('create_private_key_tag', { privateKeyTagName: 'k', privateKeyIds: [] }), 403, 'ERR_PERMISSION_DENIED');
  });

  it('given an approved activity that can no longer run, then it is FAILED and the vote is kept', async () => {
    const first = await pending('contested');
    const second_ = await pending('contested');
    await second.client.run('approve_activity', { fingerprint: first.fingerprint });
    const { activity } = await second.client.run('approve_activity', { fingerprint: second_.fingerprint });
    expect(activity).toMatchObject({ id: second_.id, status: 'ACTIVITY_STATUS_FAILED', result: {} });
    expect(activity.votes).toHaveLength(2);
    const [row] = await server.store.db.select().from(activities).where(eq(activities.id, second_.id));
    expect(row?.failure).toMatchObject({ code: 'ERR_ALREADY_EXISTS' });
    expect((await policyNames()).filter((n: string) => n === 'contested')).toHaveLength(1);
  });

  it('given a quorum change through consensus, when two members approve at once, then the activity runs exactly once', async () => {
    const third = await addUser(server, { root: true, name: 'third root' });
    const change = (await server.client.submit('update_root_quorum', { threshold: 2, userIds: [server.org.userId, second.userId, third.userId] })).body
      .activity;
    expect(change.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expect((await second.client.run('approve_activity', { fingerprint: change.fingerprint })).activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    const activity = await pending('raced approvals');
    const replies = await Promise.all([second, third].map((m) => m.client.submit('approve_activity', { fingerprint: activity.fingerprint })));
    const outcomes = replies.map((r) => (r.status === 200 ? r.body.activity.result.approveActivityResult.activity.status : r.body.details[0].errorCode)).sort();
    // Sent in the same millisecond, the two approvals are the same body (same organization, type,
    // parameters and timestampMs), so the second is the first's idempotent replay: one
    // approve_activity, shared. Otherwise the second finds the activity no longer pending.
    const replayed = replies.every((r) => r.status === 200) && replies[0]!.body.activity.id === replies[1]!.body.activity.id;
    expect(outcomes).toEqual(replayed ? ['ACTIVITY_STATUS_COMPLETED', 'ACTIVITY_STATUS_COMPLETED'] : ['ACTIVITY_STATUS_COMPLETED', 'ERR_ACTIVITY_NOT_PENDING']);
    // Either way the approved activity ran exactly once.
    expect((await policyNames()).filter((n: string) => n === 'raced approvals')).toHaveLength(1);
  });
});
