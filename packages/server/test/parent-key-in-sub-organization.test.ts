/**
 * A parent organization's API key registered as the key of a user of one of its sub-organizations
 * (decision 0037): allowed, as Turnkey's delegated access registers a backend's key in a
 * sub-organization. In that sub-organization the key acts as the sub-organization's user (the
 * target organization's own key is preferred, authenticate.ts), with that user's standing; in the
 * parent it still acts as the parent's user. Nothing about it reaches further: the sub-organization
 * holds a public key, never the private half.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/harness';
import { storeKinds } from './support/stores';

const bare = (name: string) => ({ userName: name, apiKeys: [], authenticators: [], oauthProviders: [] });

describe.each(storeKinds)("a parent's API key in a sub-organization, on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.dispose());

  it('given the parent key registered for a non-root user of a sub-organization, when it stamps there, then it acts as that user with that standing; in the parent, as the parent user', async () => {
    const { subOrganizationId } = await server.client.run('create_sub_organization', {
      subOrganizationName: `delegated-${Date.now()}`,
      rootUsers: [bare('owner')],
      rootQuorumThreshold: 1,
    });
    const onSub = server.client.with({ organizationId: subOrganizationId });
    const whoOnSub = async () => (await onSub.query('whoami', {})).body;

    // Before: the parent's user acts on the sub-organization (DESIGN section 2).
    expect((await whoOnSub()).userId).toBe(server.org.userId);
    const before = await onSub.submit('create_wallet', { walletName: 'by the parent', accounts: [] }, { organizationId: subOrganizationId });
    expect(before.status).toBe(200);
    expect(before.body.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');

    const { userIds } = await onSub.run(
      'create_users',
      {
        users: [
          {
            userName: 'delegated',
            userTags: [],
            apiKeys: [{ apiKeyName: 'the parent key', publicKey: server.org.apiKey.publicKey, curveType: 'API_KEY_CURVE_P256' }],
            authenticators: [],
            oauthProviders: [],
          },
        ],
      },
      { organizationId: subOrganizationId },
    );
    const [delegated] = userIds as [string];

    // After: in the sub-organization the key is the delegated user's, a user with no policy.
    expect(await whoOnSub()).toMatchObject({ organizationId: subOrganizationId, userId: delegated, username: 'delegated' });
    const after = await onSub.submit('create_wallet', { walletName: 'by the delegated user', accounts: [] }, { organizationId: subOrganizationId });
    expect({ status: after.status, code: after.body.details[0].errorCode }).toEqual({ status: 403, code: 'ERR_PERMISSION_DENIED' });
    // In the parent, the parent's user as before.
    expect((await server.client.query('whoami', {})).body).toMatchObject({ organizationId: server.org.organizationId, userId: server.org.userId });
  });
});
