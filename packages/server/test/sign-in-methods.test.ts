/**
 * At least one way to sign in (issue 15): an end user stamping for their own sub-organization
 * cannot remove the last of their sign-in methods (a verified email or phone, an OAuth
 * provider, a passkey, a lasting API key), whatever the client does; the integrator (a user of
 * the parent organization) can, as in Turnkey. One case per operation, on both databases; the
 * end user stamps with an expiring API key, which is not a way back in.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateP256KeyPair, generateSecp256k1KeyPair } from '@walletkit/crypto';
import { newId } from '../src/store/ids';
import { SoftwareAuthenticator } from './support/authenticator';
import { startTestServer, type ActivityClient, type TestServer } from './support/harness';
import { expectError } from './support/members';
import { storeKinds } from './support/stores';

type RootUser = {
  userName: string;
  userEmail?: string;
  userPhoneNumber?: string;
  apiKeys: Array<{ apiKeyName: string; publicKey: string; curveType: 'API_KEY_CURVE_P256' | 'API_KEY_CURVE_SECP256K1'; expirationSeconds?: string }>;
  authenticators: Array<ReturnType<SoftwareAuthenticator['authenticatorParams']>>;
  oauthProviders: Array<{ providerName: string; oidcClaims: { iss: string; sub: string; aud: string } }>;
};

describe.each(storeKinds)('the last sign-in method on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.dispose());

  const email = () => `end-${randomUUID().slice(0, 8)}@example.com`;
  const phone = () => `+1555${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;
  const googleClaims = () => ({ iss: 'https://accounts.google.com', sub: randomUUID(), aud: 'walletkit-test' });

  /** An email OTP proof for `contact`, as otp_verify_v2 issues it. */
  const tokenFor = (contact: string, type: 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS', publicKey = generateP256KeyPair().publicKey) =>
    server.enclave.signJwt({
      id: newId(),
      verification_type: type,
      contact,
      organization_id: server.org.organizationId,
      public_key: publicKey,
      exp: Math.floor(Date.now() / 1000) + 600,
    });

  /**
   * A sub-organization made by the integrator (its contacts vouched, so verified), whose end user
   * stamps with an API key that expires (a device key, not a sign-in method).
   */
  async function endUser(extra: Partial<RootUser> = {}): Promise<{ organizationId: string; userId: string; device: string; user: ActivityClient }> {
    const device = generateP256KeyPair();
    const root: RootUser = {
      userName: 'end user',
      authenticators: [],
      oauthProviders: [],
      ...extra,
      apiKeys: [...(extra.apiKeys ?? []), { apiKeyName: 'device', publicKey: device.publicKey, curveType: 'API_KEY_CURVE_P256', expirationSeconds: '3600' }],
    };
    const { subOrganizationId, rootUserIds } = await server.client.run('create_sub_organization', {
      subOrganizationName: `end-${randomUUID().slice(0, 8)}`,
      rootUsers: [root as never],
      rootQuorumThreshold: 1,
    });
    return {
      organizationId: subOrganizationId,
      userId: rootUserIds[0]!,
      device: device.publicKey,
      user: server.client.with({ key: device, organizationId: subOrganizationId }),
    };
  }

  const userRecord = async (client: ActivityClient, userId: string) => (await client.query('get_user', { userId })).body.user;

  it('given a passkey as the only sign-in method, when the end user removes it, then it is a 409 ERR_LAST_SIGN_IN_METHOD and the passkey stays; with a verified email beside it, the removal goes through', async () => {
    const only = await endUser({ authenticators: [new SoftwareAuthenticator().authenticatorParams('laptop')] });
    const [passkey] = (await userRecord(only.user, only.userId)).authenticators;
    expectError(
      await only.user.submit('delete_authenticators', { userId: only.userId, authenticatorIds: [passkey.authenticatorId] }),
      409,
      'ERR_LAST_SIGN_IN_METHOD',
      'authenticatorIds',
    );
    expect((await userRecord(only.user, only.userId)).authenticators).toHaveLength(1);

    const two = await endUser({ userEmail: email(), authenticators: [new SoftwareAuthenticator().authenticatorParams('laptop')] });
    const [second] = (await userRecord(two.user, two.userId)).authenticators;
    await two.user.run('delete_authenticators', { userId: two.userId, authenticatorIds: [second.authenticatorId] });
    expect((await userRecord(two.user, two.userId)).authenticators).toEqual([]);
  });

  it('given a linked Google identity as the only sign-in method, when the end user unlinks it, then it is refused and stays linked; the integrator may unlink it', async () => {
    const { userId, organizationId, user } = await endUser({ oauthProviders: [{ providerName: 'google', oidcClaims: googleClaims() }] });
    const [provider] = (await userRecord(user, userId)).oauthProviders;
    expectError(await user.submit('delete_oauth_providers', { userId, providerIds: [provider.providerId] }), 409, 'ERR_LAST_SIGN_IN_METHOD', 'providerIds');
    expect((await userRecord(user, userId)).oauthProviders).toHaveLength(1);

    // The integrator acting for the user keeps Turnkey's behaviour.
    await server.client.run('delete_oauth_providers', { userId, providerIds: [provider.providerId] }, { organizationId });
    expect((await userRecord(user, userId)).oauthProviders).toEqual([]);
  });

  it('given an external wallet key as the only sign-in method, when the end user deletes it, then it is refused; revoking a session key is not', async () => {
    const wallet = generateSecp256k1KeyPair();
    const { userId, user } = await endUser({ apiKeys: [{ apiKeyName: 'external wallet', publicKey: wallet.publicKey, curveType: 'API_KEY_CURVE_SECP256K1' }] });
    const keys = (await userRecord(user, userId)).apiKeys as Array<{ apiKeyId: string; apiKeyName: string }>;
    const walletKey = keys.find((k) => k.apiKeyName === 'external wallet')!;
    expectError(await user.submit('delete_api_keys', { userId, apiKeyIds: [walletKey.apiKeyId] }), 409, 'ERR_LAST_SIGN_IN_METHOD', 'apiKeyIds');

    // A session (stamp_login) is no sign-in method: revoking one is always allowed.
    await user.run('stamp_login', { publicKey: generateP256KeyPair().publicKey, invalidateExisting: false });
    const session = ((await userRecord(user, userId)).apiKeys as Array<{ apiKeyId: string; credential: { type: string } }>).find(
      (k) => k.credential.type === 'CREDENTIAL_TYPE_LOGIN',
    )!;
    await user.run('delete_api_keys', { userId, apiKeyIds: [session.apiKeyId] });
    expect(((await userRecord(user, userId)).apiKeys as Array<{ apiKeyId: string }>).map((k) => k.apiKeyId)).toContain(walletKey.apiKeyId);
  });

  it('given a verified email as the only sign-in method, when the end user clears it or replaces it without proof, then both are refused; a proven new email replaces it, verified', async () => {
    const first = email();
    const { userId, user, device } = await endUser({ userEmail: first });
    expect(await userRecord(user, userId)).toMatchObject({ userEmail: first, userEmailVerified: true });
    expectError(await user.submit('update_user_email', { userId, userEmail: '' }), 409, 'ERR_LAST_SIGN_IN_METHOD', 'userEmail');
    expectError(await user.submit('update_user_email', { userId, userEmail: email() }), 409, 'ERR_LAST_SIGN_IN_METHOD', 'userEmail');
    expect(await userRecord(user, userId)).toMatchObject({ userEmail: first, userEmailVerified: true });

    // The proof is a token bound to the key that stamps the change (the session's, in the kit): one
    // bound to another key (leaked from another session) proves nothing here, and is not spent.
    const next = email();
    const leaked = tokenFor(next, 'OTP_TYPE_EMAIL');
    expectError(
      await user.submit('update_user_email', { userId, userEmail: next, verificationToken: leaked }),
      401,
      'ERR_VERIFICATION_TOKEN_INVALID',
      'verificationToken',
    );
    expect(await userRecord(user, userId)).toMatchObject({ userEmail: first, userEmailVerified: true });
    await user.run('update_user_email', { userId, userEmail: next, verificationToken: tokenFor(next, 'OTP_TYPE_EMAIL', device) });
    expect(await userRecord(user, userId)).toMatchObject({ userEmail: next, userEmailVerified: true });
  });

  it('given a verified phone number and an email, when the end user clears the phone, then it goes (the email remains); clearing the email then is refused', async () => {
    const number = phone();
    const { userId, user } = await endUser({ userEmail: email(), userPhoneNumber: number });
    expect(await userRecord(user, userId)).toMatchObject({ userPhoneNumber: number, userPhoneNumberVerified: true });
    await user.run('update_user_phone_number', { userId, userPhoneNumber: '' });
    expect((await userRecord(user, userId)).userPhoneNumber).toBeUndefined();
    expectError(await user.submit('update_user_email', { userId, userEmail: '' }), 409, 'ERR_LAST_SIGN_IN_METHOD', 'userEmail');

    // The phone alone is refused the same way.
    const alone = await endUser({ userPhoneNumber: phone() });
    expectError(
      await alone.user.submit('update_user_phone_number', { userId: alone.userId, userPhoneNumber: '' }),
      409,
      'ERR_LAST_SIGN_IN_METHOD',
      'userPhoneNumber',
    );
  });

  it('given an unverified email and a passkey, when the end user removes the passkey, then it is refused: an unproven contact is no way to sign in', async () => {
    const { userId, user } = await endUser({ authenticators: [new SoftwareAuthenticator().authenticatorParams('laptop')] });
    await user.run('update_user_email', { userId, userEmail: email() });
    expect((await userRecord(user, userId)).userEmailVerified).toBe(false);
    const [passkey] = (await userRecord(user, userId)).authenticators;
    expectError(await user.submit('delete_authenticators', { userId, authenticatorIds: [passkey.authenticatorId] }), 409, 'ERR_LAST_SIGN_IN_METHOD');
  });

  it("given the top-level organization's own user, when the last passkey is removed, then nothing is checked (its administrators manage its keys)", async () => {
    const passkey = new SoftwareAuthenticator();
    const { authenticatorIds } = await server.client.run('create_authenticators', {
      userId: server.org.userId,
      authenticators: [passkey.authenticatorParams('admin key')],
    });
    await server.client.run('delete_authenticators', { userId: server.org.userId, authenticatorIds });
    expect((await userRecord(server.client, server.org.userId)).authenticators).toEqual([]);
  });
});
