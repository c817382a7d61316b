import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { generateP256KeyPair, hpkeSeal, sha256Hex, signJwt, utf8ToBytes, verifyJwt } from '@walletkit/crypto';
import { issuerOf, type IssuedTokenClaims } from '../src/oauth/issued-token';
import { oauth2Credentials, oauthProviders } from '../src/store/schema';
import { newId } from '../src/store/ids';
import { startTestServer, type TestServer } from './support/harness';
import { addOrganization, expectError } from './support/members';
import { codeChallengeOf, newCodeVerifier, startOAuth2Provider, type LocalOAuth2Provider } from './support/oauth2-provider';
import { storeKinds } from './support/stores';
import { openSealed } from './support/sealed';
import { encryptOauth2ClientSecret } from '@turnkey/crypto';

const CLIENT_ID = 'walletkit-test-client';
const CLIENT_SECRET = 'correct horse battery staple';
const REDIRECT_URI = 'https://app.example/oauth/callback';

describe.each(storeKinds)('OAuth 2.0 on %s', (kind) => {
  let server: TestServer;
  let discord: LocalOAuth2Provider;
  let x: LocalOAuth2Provider;
  /** While set, the Discord provider's /token waits for it (a slow provider). */
  let gate: Promise<void> | undefined;
  let credentialId: string;

  beforeAll(async () => {
    discord = await startOAuth2Provider({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, shape: 'discord', tokenGate: () => gate ?? Promise.resolve() });
    x = await startOAuth2Provider({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, shape: 'x' });
    server = await startTestServer(kind, {
      config: {
        publicUrl: 'https://wallet.example/',
        oauth2Providers: {
          OAUTH2_PROVIDER_DISCORD: { tokenUrl: discord.tokenUrl, userInfoUrl: discord.userInfoUrl, issuer: discord.url },
          OAUTH2_PROVIDER_X: { tokenUrl: x.tokenUrl, userInfoUrl: x.userInfoUrl, issuer: x.url },
        },
      },
    });
  });
  afterAll(async () => {
    await server?.dispose();
    await discord?.close();
    await x?.close();
  });

  const encryptSecret = async (secret: string, to = server.enclave.encryptionPublicKey) =>
    JSON.stringify(await hpkeSeal({ plaintext: utf8ToBytes(secret), receiverPublicKey: to }));
  const claimsOf = (token: string) => verifyJwt<IssuedTokenClaims>(token, server.enclave.signingPublicKey);
  /** The browser half of a login: the user consents at the provider, which redirects with a code. */
  const consent = (provider: LocalOAuth2Provider, user: { id: string; username: string; email?: string }) => {
    const codeVerifier = newCodeVerifier();
    const authCode = provider.authorize({ user, redirectUri: REDIRECT_URI, codeChallenge: codeChallengeOf(codeVerifier) });
    return { authCode, codeVerifier, redirectUri: REDIRECT_URI };
  };

  it('given a client secret encrypted to the enclave, when create_oauth2_credential runs, then reads show the credential but never the secret', async () => {
    const reply = await server.client.submit('create_oauth2_credential', {
      provider: 'OAUTH2_PROVIDER_DISCORD',
      clientId: CLIENT_ID,
      encryptedClientSecret: await encryptSecret(CLIENT_SECRET),
    });
    expect(reply.status).toBe(200);
    credentialId = reply.body.activity.result.createOauth2CredentialResult.oauth2CredentialId;
    const got = await server.client.query('get_oauth2_credential', { oauth2CredentialId: credentialId });
    expect(got.body.oauth2Credential).toMatchObject({
      oauth2CredentialId: credentialId,
      organizationId: server.org.organizationId,
      provider: 'OAUTH2_PROVIDER_DISCORD',
      clientId: CLIENT_ID,
    });
    const listed = await server.client.query('list_oauth2_credentials', {});
    expect(listed.body.oauth2Credentials.map((c: any) => c.oauth2CredentialId)).toContain(credentialId);
    for (const body of [reply.body, got.body, listed.body]) expect(JSON.stringify(body)).not.toContain(CLIENT_SECRET);
    const [row] = await server.store.db.select().from(oauth2Credentials).where(eq(oauth2Credentials.id, credentialId));
    expect(JSON.stringify(row)).not.toContain(CLIENT_SECRET);
    expect(await openSealed(server, row!.clientSecretEncrypted)).toBe(CLIENT_SECRET);
  });

  it('given a secret not encrypted to the enclave, when create_oauth2_credential runs, then it is a 400 ERR_INVALID_ENCRYPTED_BUNDLE', async () => {
    const elsewhere = await encryptSecret(CLIENT_SECRET, generateP256KeyPair().publicKeyUncompressed);
    for (const encryptedClientSecret of [elsewhere, 'not json', '{"encappedPublic":"04","ciphertext":"00"}']) {
      expectError(
        await server.client.submit('create_oauth2_credential', { provider: 'OAUTH2_PROVIDER_X', clientId: CLIENT_ID, encryptedClientSecret }),
        400,
        'ERR_INVALID_ENCRYPTED_BUNDLE',
        'encryptedClientSecret',
      );
    }
  });

  it('given a provider that is slow to answer, when oauth2_authenticate waits on it, then other activities of the organization still complete meanwhile', async () => {
    let release!: () => void;
    gate = new Promise<void>((resolve) => (release = resolve));
    try {
      const grant = consent(discord, { id: '41771983423143937', username: 'slow' });
      const sent = discord.tokenRequests.length;
      const login = server.client.run('oauth2_authenticate', { oauth2CredentialId: credentialId, ...grant, nonce: sha256Hex(generateP256KeyPair().publicKey) });
      await expect.poll(() => discord.tokenRequests.length).toBe(sent + 1);
      // The exchange is in flight and the provider has not answered: no transaction is held
      // (the embedded database runs one at a time), so another activity goes through.
      const other = await server.client.submit('create_oauth2_credential', {
        provider: 'OAUTH2_PROVIDER_X',
        clientId: 'other-client',
        encryptedClientSecret: await encryptSecret('s3cret'),
      });
      expect(other.status).toBe(200);
      release();
      const { oidcToken } = await login;
      expect(claimsOf(oidcToken).sub).toBe(`${discord.url}|41771983423143937`);
    } finally {
      release();
      gate = undefined;
    }
  });

  it('given a consented authorization code, when oauth2_authenticate runs, then the provider saw PKCE and Basic auth and the server issues an id token for the user', async () => {
    const nonce = sha256Hex(generateP256KeyPair().publicKey);
    const grant = consent(discord, { id: '80351110224678912', username: 'nelly', email: 'nelly@example.com' });
    const sent = discord.tokenRequests.length;
    const { oidcToken } = await server.client.run('oauth2_authenticate', { oauth2CredentialId: credentialId, ...grant, nonce });
    const claims = claimsOf(oidcToken);
    expect(claims).toMatchObject({
      iss: 'https://wallet.example',
      sub: `${discord.url}|80351110224678912`,
      aud: CLIENT_ID,
      nonce,
      email: 'nelly@example.com',
      email_verified: true,
    });
    expect(claims.exp - claims.iat).toBe(600);
    const request = discord.tokenRequests[sent]!;
    expect(Buffer.from(request.authorization!.replace('Basic ', ''), 'base64').toString()).toBe(`${CLIENT_ID}:${CLIENT_SECRET.replace(/ /g, '+')}`);
    expect(request.body).toEqual({
      grant_type: 'authorization_code',
      code: grant.authCode,
      redirect_uri: REDIRECT_URI,
      code_verifier: grant.codeVerifier,
      client_id: CLIENT_ID,
    });
  });

  it("given a client secret in Turnkey's format (@turnkey/crypto encryptOauth2ClientSecret to the enclave's encryption key), when the credential is created and used, then the exchange authenticates with that secret; the envelope to another key or tampered is a 400", async () => {
    const encryptedClientSecret = await encryptOauth2ClientSecret(CLIENT_SECRET, server.enclave.encryptionPublicKey);
    const created = await server.client.run('create_oauth2_credential', { provider: 'OAUTH2_PROVIDER_DISCORD', clientId: CLIENT_ID, encryptedClientSecret });
    const [row] = await server.store.db.select().from(oauth2Credentials).where(eq(oauth2Credentials.id, created.oauth2CredentialId));
    expect(JSON.stringify(row)).not.toContain(CLIENT_SECRET);
    expect(await openSealed(server, row!.clientSecretEncrypted)).toBe(CLIENT_SECRET);
    const sent = discord.tokenRequests.length;
    const grant = consent(discord, { id: '42', username: 'tk' });
    const { oidcToken } = await server.client.run('oauth2_authenticate', { oauth2CredentialId: created.oauth2CredentialId, ...grant, nonce: 'n-turnkey' });
    expect(claimsOf(oidcToken).sub).toBe(`${discord.url}|42`);
    expect(Buffer.from(discord.tokenRequests[sent]!.authorization!.replace('Basic ', ''), 'base64').toString()).toBe(
      `${CLIENT_ID}:${CLIENT_SECRET.replace(/ /g, '+')}`,
    );
    const elsewhere = await encryptOauth2ClientSecret(CLIENT_SECRET, generateP256KeyPair().publicKeyUncompressed);
    const flipped = encryptedClientSecret.slice(0, -2) + (encryptedClientSecret.endsWith('00') ? '01' : '00');
    const empty = await encryptOauth2ClientSecret('', server.enclave.encryptionPublicKey);
    for (const [bad, code] of [
      [elsewhere, 'ERR_INVALID_ENCRYPTED_BUNDLE'],
      [flipped, 'ERR_INVALID_ENCRYPTED_BUNDLE'],
      [empty, 'ERR_INVALID_PARAMETER'],
    ] as const) {
      expectError(
        await server.client.submit('create_oauth2_credential', { provider: 'OAUTH2_PROVIDER_X', clientId: CLIENT_ID, encryptedClientSecret: bad }),
        400,
        code,
        'encryptedClientSecret',
      );
    }
  });

  it("given X's user-info shape, when oauth2_authenticate runs, then the subject is X's user id", async () => {
    const { oauth2CredentialId } = await server.client.run('create_oauth2_credential', {
      provider: 'OAUTH2_PROVIDER_X',
      clientId: CLIENT_ID,
      encryptedClientSecret: await encryptSecret(CLIENT_SECRET),
    });
    const { oidcToken } = await server.client.run('oauth2_authenticate', {
      oauth2CredentialId,
      ...consent(x, { id: '2244994945', username: 'xdev' }),
      nonce: 'n-1',
    });
    const claims = claimsOf(oidcToken);
    expect(claims).toMatchObject({ sub: `${x.url}|2244994945`, aud: CLIENT_ID, nonce: 'n-1' });
    expect(claims.email).toBeUndefined();
  });

  it('given a reused code or a wrong verifier or redirect URI, when oauth2_authenticate runs, then it is a 400 on authCode (invalid_grant)', async () => {
    const grant = consent(discord, { id: '1', username: 'a' });
    await server.client.run('oauth2_authenticate', { oauth2CredentialId: credentialId, ...grant, nonce: 'n' });
    expectError(
      await server.client.submit('oauth2_authenticate', { oauth2CredentialId: credentialId, ...grant, nonce: 'n2' }),
      400,
      'ERR_INVALID_PARAMETER',
      'authCode',
    );
    const wrongVerifier = { ...consent(discord, { id: '1', username: 'a' }), codeVerifier: newCodeVerifier() };
    expectError(
      await server.client.submit('oauth2_authenticate', { oauth2CredentialId: credentialId, ...wrongVerifier, nonce: 'n' }),
      400,
      'ERR_INVALID_PARAMETER',
      'authCode',
    );
    const wrongRedirect = { ...consent(discord, { id: '1', username: 'a' }), redirectUri: 'https://evil.example/cb' };
    expectError(
      await server.client.submit('oauth2_authenticate', { oauth2CredentialId: credentialId, ...wrongRedirect, nonce: 'n' }),
      400,
      'ERR_INVALID_PARAMETER',
      'authCode',
    );
  });

  it('given a credential whose secret the provider refuses, when oauth2_authenticate runs, then it is a 502 ERR_OAUTH_EXCHANGE_FAILED that leaks nothing', async () => {
    const { oauth2CredentialId } = await server.client.run('create_oauth2_credential', {
      provider: 'OAUTH2_PROVIDER_DISCORD',
      clientId: CLIENT_ID,
      encryptedClientSecret: await encryptSecret('wrong secret'),
    });
    const reply = await server.client.submit('oauth2_authenticate', { oauth2CredentialId, ...consent(discord, { id: '1', username: 'a' }), nonce: 'n' });
    expectError(reply, 502, 'ERR_OAUTH_EXCHANGE_FAILED');
    expect(JSON.stringify(reply.body)).not.toMatch(/wrong secret|invalid_client|127\.0\.0\.1/);
  });

  it("given another organization's credential or an unknown id, when it is used or read, then it is ERR_OAUTH2_CREDENTIAL_NOT_FOUND", async () => {
    const other = await addOrganization(server);
    const { oauth2CredentialId: theirs } = await other.client.run('create_oauth2_credential', {
      provider: 'OAUTH2_PROVIDER_DISCORD',
      clientId: CLIENT_ID,
      encryptedClientSecret: await encryptSecret(CLIENT_SECRET),
    });
    for (const id of [theirs, newId()]) {
      expectError(
        await server.client.submit('oauth2_authenticate', { oauth2CredentialId: id, ...consent(discord, { id: '1', username: 'a' }), nonce: 'n' }),
        404,
        'ERR_OAUTH2_CREDENTIAL_NOT_FOUND',
        'oauth2CredentialId',
      );
      expectError(await server.client.query('get_oauth2_credential', { oauth2CredentialId: id }), 404, 'ERR_OAUTH2_CREDENTIAL_NOT_FOUND');
    }
    const mine = (await server.client.query('list_oauth2_credentials', {})).body.oauth2Credentials.map((c: any) => c.oauth2CredentialId);
    expect(mine).not.toContain(theirs);
    expectError(
      await server.client.submit('oauth2_authenticate', {
        oauth2CredentialId: credentialId,
        ...consent(discord, { id: '1', username: 'a' }),
        nonce: 'n',
        bearerTokenTargetPublicKey: `04${'ff'.repeat(64)}`,
      }),
      400,
      'ERR_INVALID_PUBLIC_KEY',
      'bearerTokenTargetPublicKey',
    );
  });

  it('given an id token issued by oauth2_authenticate, when create_oauth_providers links it, then the identity is stored and can be unlinked', async () => {
    const { oidcToken } = await server.client.run('oauth2_authenticate', {
      oauth2CredentialId: credentialId,
      ...consent(discord, { id: 'link-me', username: 'l' }),
      nonce: 'n',
    });
    const userId = server.org.userId;
    const { providerIds } = await server.client.run('create_oauth_providers', {
      userId,
      oauthProviders: [
        { providerName: 'discord', oidcToken },
        { providerName: 'google', oidcClaims: { iss: 'https://accounts.google.com', sub: '1234', aud: 'google-client' } },
      ],
    });
    const user = (await server.client.query('get_user', { userId })).body.user;
    expect(user.oauthProviders.map((p: any) => [p.providerId, p.providerName, p.issuer, p.subject, p.audience])).toEqual([
      [providerIds[0], 'discord', issuerOf(server.config), `${discord.url}|link-me`, CLIENT_ID],
      [providerIds[1], 'google', 'https://accounts.google.com', '1234', 'google-client'],
    ]);
    expectError(
      await server.client.submit('create_oauth_providers', { userId, oauthProviders: [{ providerName: 'again', oidcToken }] }),
      409,
      'ERR_ALREADY_EXISTS',
      'oauthProviders.0',
    );
    expect(await server.client.run('delete_oauth_providers', { userId, providerIds })).toEqual({ providerIds });
    expect(await server.store.db.select().from(oauthProviders).where(eq(oauthProviders.userId, userId))).toEqual([]);
    expectError(await server.client.submit('delete_oauth_providers', { userId, providerIds }), 404, 'ERR_OAUTH_PROVIDER_NOT_FOUND', 'providerIds');
  });

  it('given OIDC tokens this server did not issue or that expired, when create_oauth_providers runs, then it is a 401 ERR_OIDC_TOKEN_INVALID', async () => {
    const now = Math.floor(Date.now() / 1000);
    const base = { iss: issuerOf(server.config), sub: 's', aud: 'a', iat: now, exp: now + 600 };
    const tokens = [
      signJwt(base, generateP256KeyPair().privateKey), // a foreign key
      server.enclave.signJwt({ ...base, iss: 'https://accounts.google.com' }), // not our issuer
      server.enclave.signJwt({ ...base, exp: now - 1 }), // expired
      server.enclave.signJwt({ user_id: server.org.userId, exp: now + 600 }), // a session, not an id token
      'not.a.jwt',
    ];
    for (const oidcToken of tokens) {
      expectError(
        await server.client.submit('create_oauth_providers', { userId: server.org.userId, oauthProviders: [{ providerName: 'p', oidcToken }] }),
        401,
        'ERR_OIDC_TOKEN_INVALID',
        'oauthProviders.0.oidcToken',
      );
    }
  });

  it('given an unreachable provider, when oauth2_authenticate runs, then it is a 502 ERR_OAUTH_EXCHANGE_FAILED', async () => {
    const { oauth2CredentialId } = await server.client.run('create_oauth2_credential', {
      provider: 'OAUTH2_PROVIDER_X',
      clientId: CLIENT_ID,
      encryptedClientSecret: await encryptSecret(CLIENT_SECRET),
    });
    const grant = consent(x, { id: '1', username: 'a' });
    await x.close();
    expectError(await server.client.submit('oauth2_authenticate', { oauth2CredentialId, ...grant, nonce: 'n' }), 502, 'ERR_OAUTH_EXCHANGE_FAILED');
  });
});
