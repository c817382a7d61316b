import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide, policyApplies } from '../src/activity/policy';
import { evaluatePolicyExpression, parsePolicyExpression, PolicySyntaxError, UNKNOWN, type Value } from '../src/activity/policy-language';
import { startTestServer, type TestServer } from './support/harness';
import { addOrganization, addUser, expectError } from './support/members';
import { storeKinds } from './support/stores';

const evaluate = (src: string, env: Record<string, Value> = {}) => evaluatePolicyExpression(parsePolicyExpression(src), new Map(Object.entries(env)));
const subject = (type: string, id = 'u1', tags: string[] = []) => ({ activityType: type, approvers: [{ id, tags }] });

describe('policy language', () => {
  it('given Turnkey policy syntax, when parsed, then it is accepted', () => {
    for (const src of [
      "activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS'",
      "approvers.any(user, user.id == 'abc') && approvers.count() >= 1",
      "eth.tx.to == '0xabc' && eth.tx.data[0..10] == '0xa9059cbb'",
      "solana.tx.transfers.all(t, t.to in ['a', 'b']) || !(wallet.id == 'w')",
      "approvers.filter(u, u.tags.contains('t')).count() >= 2",
    ]) {
      expect(() => parsePolicyExpression(src), src).not.toThrow();
    }
  });

  it('given malformed expressions, when parsed, then a PolicySyntaxError names the position', () => {
    for (const src of ["activity.type == 'x", 'a ==', '(a', 'a b', "approvers.any('x', true)", '#', `${'('.repeat(100)}a${')'.repeat(100)}`]) {
      expect(() => parsePolicyExpression(src), src).toThrow(PolicySyntaxError);
    }
  });

  it('given known and unknown fields, when evaluated, then Kleene logic keeps what is certain', () => {
    const env = { activity: { type: 'T' }, approvers: [{ id: 'u1', tags: ['t1'] }] };
    expect(evaluate("activity.type == 'T'", env)).toBe(true);
    expect(evaluate("activity.type in ['A', 'T']", env)).toBe(true);
    expect(evaluate("activity.type != 'T'", env)).toBe(false);
    expect(evaluate("approvers.any(u, u.tags.contains('t1'))", env)).toBe(true);
    expect(evaluate('approvers.count() >= 2', env)).toBe(false);
    expect(evaluate('eth.tx.value > 5', env)).toBe(UNKNOWN);
    expect(evaluate("activity.type == 'X' && eth.tx.value > 5", env)).toBe(false);
    expect(evaluate("activity.type == 'T' && eth.tx.value > 5", env)).toBe(UNKNOWN);
    expect(evaluate("activity.type == 'T' || eth.tx.value > 5", env)).toBe(true);
    expect(evaluate("activity.resource == 'WALLET'", env)).toBe(UNKNOWN);
    expect(evaluate("'abcdef'[1..3] == 'bc'", env)).toBe(true);
  });

  it('given an ALLOW and a DENY that might apply, when decided, then it fails closed', () => {
    const allow = { effect: 'EFFECT_ALLOW', condition: "activity.type == 'T'", consensus: null };
    expect(decide([allow], subject('T'))).toBe('allow');
    expect(decide([allow], subject('U'))).toBe('deny');
    expect(decide([allow, { effect: 'EFFECT_DENY', condition: 'eth.tx.value > 1', consensus: null }], subject('T'))).toBe('deny');
    expect(decide([allow, { effect: 'EFFECT_DENY', condition: "activity.type == 'U'", consensus: null }], subject('T'))).toBe('allow');
    expect(decide([{ effect: 'EFFECT_ALLOW', condition: 'wallet.id == "w"', consensus: null }], subject('T'))).toBe('deny');
    expect(policyApplies({ effect: 'EFFECT_ALLOW', condition: null, consensus: "approvers.any(u, u.id == 'u2')" }, subject('T'))).toBe(false);
  });
});

describe.each(storeKinds)('policies on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.dispose());

  it('given create_policy, when read back, then get_policy and list_policies return it with all fields', async () => {
    const { policyId } = await server.client.run('create_policy', {
      policyName: 'allow tags',
      effect: 'EFFECT_ALLOW',
      condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
      notes: 'for ops',
    });
    const got = await server.client.query('get_policy', { policyId });
    expect(got.status).toBe(200);
    expect(got.body.policy).toMatchObject({
      policyId,
      policyName: 'allow tags',
      effect: 'EFFECT_ALLOW',
      condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
      consensus: '',
      notes: 'for ops',
    });
    expect(Date.parse(got.body.policy.createdAt)).not.toBeNaN();
    const list = await server.client.query('list_policies', {});
    expect(list.body.policies.map((p: { policyId: string }) => p.policyId)).toContain(policyId);
  });

  it('given update_policy with some optional fields, then only the given fields change', async () => {
    const { policyId } = await server.client.run('create_policy', {
      policyName: 'p-update',
      effect: 'EFFECT_ALLOW',
      condition: 'true',
      consensus: "approvers.any(u, u.id == 'x')",
      notes: 'old',
    });
    const result = await server.client.run('update_policy', { policyId, policyName: 'p-updated', policyEffect: 'EFFECT_DENY', policyNotes: 'new' });
    expect(result).toEqual({ policyId });
    const { policy } = (await server.client.query('get_policy', { policyId })).body;
    expect(policy).toMatchObject({
      policyName: 'p-updated',
      effect: 'EFFECT_DENY',
      condition: 'true',
      consensus: "approvers.any(u, u.id == 'x')",
      notes: 'new',
    });
    expect(Date.parse(policy.updatedAt)).toBeGreaterThanOrEqual(Date.parse(policy.createdAt));
  });

  it('given a taken name, a malformed condition or a wrong effect, then create_policy is refused with 4xx', async () => {
    await server.client.run('create_policy', { policyName: 'dup', effect: 'EFFECT_ALLOW' });
    expectError(await server.client.submit('create_policy', { policyName: 'dup', effect: 'EFFECT_DENY' }), 409, 'ERR_ALREADY_EXISTS', 'policyName');
    expectError(
      await server.client.submit('create_policy', { policyName: 'bad', effect: 'EFFECT_ALLOW', condition: "activity.type == 'x" }),
      400,
      'ERR_INVALID_PARAMETER',
      'condition',
    );
    expectError(
      await server.client.submit('create_policy', { policyName: 'bad', effect: 'EFFECT_ALLOW', consensus: 'approvers.any(' }),
      400,
      'ERR_INVALID_PARAMETER',
      'consensus',
    );
    expectError(await server.client.submit('create_policy', { policyName: 'bad', effect: 'EFFECT_MAYBE' as 'EFFECT_ALLOW' }), 400, 'ERR_INVALID_REQUEST');
    const names = (await server.client.query('list_policies', {})).body.policies.map((p: { policyName: string }) => p.policyName);
    expect(names).not.toContain('bad');
  });

  it("given an unknown id or another organization's policy, then update_policy and get_policy answer 404", async () => {
    const other = await addOrganization(server);
    const { policyId } = await other.client.run('create_policy', { policyName: 'theirs', effect: 'EFFECT_ALLOW' });
    expectError(
      await server.client.submit('update_policy', { policyId, policyName: 'mine', policyEffect: 'EFFECT_DENY' }),
      404,
      'ERR_POLICY_NOT_FOUND',
      'policyId',
    );
    expectError(
      await server.client.submit('update_policy', { policyId: 'nope', policyName: 'mine', policyEffect: 'EFFECT_DENY' }),
      404,
      'ERR_POLICY_NOT_FOUND',
    );
    expectError(await server.client.query('get_policy', { policyId }), 404, 'ERR_POLICY_NOT_FOUND');
    expect((await other.client.query('get_policy', { policyId })).body.policy.policyName).toBe('theirs');
  });

  it('given a renamed policy onto a taken name, then update_policy is 409 and nothing changes', async () => {
    await server.client.run('create_policy', { policyName: 'taken', effect: 'EFFECT_ALLOW' });
    const { policyId } = await server.client.run('create_policy', { policyName: 'free', effect: 'EFFECT_ALLOW' });
    expectError(await server.client.submit('update_policy', { policyId, policyName: 'taken', policyEffect: 'EFFECT_DENY' }), 409, 'ERR_ALREADY_EXISTS');
    expect((await server.client.query('get_policy', { policyId })).body.policy).toMatchObject({ policyName: 'free', effect: 'EFFECT_ALLOW' });
  });

  it('given delete_policy, then the policy is gone from get_policy and list_policies, and a second delete is 404', async () => {
    const { policyId } = await server.client.run('create_policy', { policyName: 'short-lived', effect: 'EFFECT_ALLOW' });
    expect(await server.client.run('delete_policy', { policyId })).toEqual({ policyId });
    expectError(await server.client.query('get_policy', { policyId }), 404, 'ERR_POLICY_NOT_FOUND');
    expect((await server.client.query('list_policies', {})).body.policies.map((p: { policyId: string }) => p.policyId)).not.toContain(policyId);
    expectError(await server.client.submit('delete_policy', { policyId }), 404, 'ERR_POLICY_NOT_FOUND', 'policyId');
    // The name is free again.
    await server.client.run('create_policy', { policyName: 'short-lived', effect: 'EFFECT_ALLOW' });
  });

  it("given another organization's policy or bad input, then delete_policy is a 4xx and nothing is deleted", async () => {
    const other = await addOrganization(server);
    const { policyId } = await other.client.run('create_policy', { policyName: 'keep me', effect: 'EFFECT_ALLOW' });
    expectError(await server.client.submit('delete_policy', { policyId }), 404, 'ERR_POLICY_NOT_FOUND', 'policyId');
    expectError(await server.client.submit('delete_policy', { policyId: 'nope' }), 404, 'ERR_POLICY_NOT_FOUND');
    expectError(await server.client.submit('delete_policy', {} as never), 400, 'ERR_INVALID_REQUEST');
    expectError(await server.client.submit('delete_policy', { policyId: '' }), 400, 'ERR_INVALID_REQUEST');
    expectError(await server.client.submit('delete_policy', { policyId, policyName: 'keep me' } as never), 400, 'ERR_INVALID_REQUEST');
    expect((await other.client.query('get_policy', { policyId })).body.policy.policyName).toBe('keep me');
  });

  it('given a non-root user allowed by a policy, when the root deletes that policy, then the user is denied again and may not delete policies itself', async () => {
    const org = await addOrganization(server, 'Delete Org');
    const { client, userId } = await addUser(server, { organizationId: org.organizationId });
    const { policyId } = await org.client.run('create_policy', {
      policyName: `allow ${userId}`,
      effect: 'EFFECT_ALLOW',
      condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
      consensus: `approvers.any(user, user.id == '${userId}')`,
    });
    await client.run('create_user_tag', { userTagName: `before-${userId.slice(0, 6)}`, userIds: [] });
    expectError(await client.submit('delete_policy', { policyId }), 403, 'ERR_PERMISSION_DENIED');
    await org.client.run('delete_policy', { policyId });
    expectError(await client.submit('create_user_tag', { userTagName: `after-${userId.slice(0, 6)}`, userIds: [] }), 403, 'ERR_PERMISSION_DENIED');
  });

  it('given a non-root user, when a policy allows them by id or by tag, then they may act; a DENY wins', async () => {
    // A fresh organization: the policies above allow every user of the first one.
    const org = await addOrganization(server, 'Policy Org');
    const root = org.client;
    const { client, userId } = await addUser(server, { organizationId: org.organizationId });
    const tagName = `t-${userId.slice(0, 6)}`;
    expectError(await client.submit('create_user_tag', { userTagName: tagName, userIds: [] }), 403, 'ERR_PERMISSION_DENIED');
    await root.run('create_policy', {
      policyName: `allow ${userId}`,
      effect: 'EFFECT_ALLOW',
      condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
      consensus: `approvers.any(user, user.id == '${userId}')`,
    });
    const { userTagId } = await client.run('create_user_tag', { userTagName: tagName, userIds: [userId] });
    // Allowed to tag, not to write policies.
    expectError(await client.submit('create_policy', { policyName: 'self', effect: 'EFFECT_ALLOW' }), 403, 'ERR_PERMISSION_DENIED');
    // By tag membership.
    await root.run('create_policy', {
      policyName: `allow tag ${userTagId}`,
      effect: 'EFFECT_ALLOW',
      condition: "activity.type == 'ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE'",
      consensus: `approvers.any(user, user.tags.contains('${userTagId}'))`,
    });
    await client.run('set_organization_feature', { name: 'FEATURE_NAME_WEBHOOK', value: 'https://hooks.example' });
    // A DENY this server cannot evaluate (eth.tx) applies: fail closed.
    await root.run('create_policy', { policyName: `deny ${userId}`, effect: 'EFFECT_DENY', condition: "eth.tx.to == '0x0'" });
    expectError(await client.submit('create_user_tag', { userTagName: `${tagName}-2`, userIds: [] }), 403, 'ERR_PERMISSION_DENIED');
  });
});
