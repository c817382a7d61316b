/**
 * The auth proxy's request shapes that Turnkey's clients send where the spec is silent
 * (decision 0021): an optional organizationId at otp_login_v2 and oauth_login, organizationName
 * and userTag at signup_v2, emailCustomization at otp_init_v2, an oidcToken as the proof of an
 * account lookup. Through the proxy, as a browser sends them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateP256KeyPair, sha256Hex } from '@walletkit/crypto';
import { updateProxySettings } from '../src/admin/proxy';
import { createOrganization } from '../src/admin/organizations';
import { freshEmail } from './adversarial/support/flows';
import { startOidcIssuer, type LocalOidcIssuer } from './support/oidc-issuer';
import { loginSignature } from './support/otp';
import { expectProxyError, startProxyServer, verificationTokenFor, type ProxyTestServer } from './support/proxy';
import { storeKinds } from './support/stores';

const CLIENT_ID = 'shapes-test.apps.googleusercontent.example';

describe.each(storeKinds)('proxy shapes of Turnkey clients on %s', (kind) => {
  let s: ProxyTestServer;
  let google: LocalOidcIssuer;

  beforeAll(async () => {
    google = await startOidcIssuer({ clientId: CLIENT_ID, clientSecret: 'secret', redirectUri: 'https://app.example/cb' });
    s = await startProxyServer(kind, { config: { oidcProviders: [{ name: 'google', issuer: google.issuer, jwksUri: google.jwksUri }] } });
    await updateProxySettings(s.store, s.org.organizationId, { social: { google: { enabled: true, clientIds: [CLIENT_ID] } } });
  });
  afterAll(async () => {
    await s?.dispose();
    await google?.close();
  });

  /** A signup by a verified email, bound to `key` as otp_verify_v2 binds it. */
  async function signup(email: string, key = generateP256KeyPair(), extra: Record<string, unknown> = {}) {
    const token = verificationTokenFor(s, email, { publicKey: key.publicKey });
    const reply = await s.browser.post('signup_v2', {
      userEmail: email,
      verificationToken: token,
      clientSignature: loginSignature(key.privateKey, token, 'USAGE_TYPE_SIGNUP'),
      apiKeys: [{ apiKeyName: 'device', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }],
      ...extra,
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body as { organizationId: string; userId: string };
  }

  it('given organizationName and userTag, when signup_v2 runs, then the sub-organization has that name and a user tag of that name holding its root user', async () => {
    const name = `Acme ${randomUUID().slice(0, 6)}`;
    const { organizationId, userId } = await signup(freshEmail('named'), generateP256KeyPair(), { organizationName: name, userTag: 'end-users' });
    const byName = await s.client.query('list_suborgs', { organizationId: s.org.organizationId, filterType: 'NAME', filterValue: name });
    expect(byName.body.organizationIds).toEqual([organizationId]);
    const tags = await s.client.with({ organizationId }).query('list_user_tags', {});
    expect(tags.body.userTags).toEqual([expect.objectContaining({ tagName: 'end-users' })]);
    const user = await s.client.with({ organizationId }).query('get_user', { userId });
    expect(user.body.user.userTags).toEqual([tags.body.userTags[0].tagId]);
  });

  it('given otp_login_v2 with the organizationId of the contact, then it logs in; with a stranger organization it is a 404 ERR_ORGANIZATION_NOT_FOUND', async () => {
    const email = freshEmail('login');
    const { organizationId } = await signup(email);
    const login = async (organizationIdGiven: string) => {
      const key = generateP256KeyPair();
      const token = verificationTokenFor(s, email, { publicKey: key.publicKey });
      return s.browser.post('otp_login_v2', {
        verificationToken: token,
        publicKey: key.publicKey,
        clientSignature: loginSignature(key.privateKey, token),
        organizationId: organizationIdGiven,
      });
    };
    const ok = await login(organizationId);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(JSON.parse(Buffer.from(ok.body.session.split('.')[1], 'base64url').toString()).organization_id).toBe(organizationId);
    const stranger = await createOrganization(s.store, { name: 'stranger' });
    for (const other of [randomUUID(), stranger.organizationId]) expectProxyError(await login(other), 404, 'ERR_ORGANIZATION_NOT_FOUND', 'organizationId');
  });

  it('given oauth_login with the organizationId of the linked identity, then it logs in without a lookup', async () => {
    const sub = randomUUID();
    const iat = Math.floor(Date.now() / 1000);
    const idToken = (publicKey: string) => google.sign({ aud: CLIENT_ID, sub, iat, exp: iat + 600, nonce: sha256Hex(publicKey) });
    const first = generateP256KeyPair();
    const signup = await s.browser.post('signup_v2', {
      userName: 'social',
      oauthProviders: [{ providerName: 'google', oidcToken: await idToken(first.publicKey) }],
    });
    expect(signup.status, JSON.stringify(signup.body)).toBe(200);
    const key = generateP256KeyPair();
    const reply = await s.browser.post('oauth_login', {
      oidcToken: await idToken(key.publicKey),
      publicKey: key.publicKey,
      organizationId: signup.body.organizationId,
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  });

  it('given emailCustomization with a template id, when otp_init_v2 runs, then the code is sent as configured (the template is not a field we refuse)', async () => {
    const reply = await s.browser.post('otp_init_v2', {
      otpType: 'OTP_TYPE_EMAIL',
      contact: freshEmail('template'),
      emailCustomization: { templateId: randomUUID() },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.otpId).toEqual(expect.any(String));
  });

  it('given lookups required to carry a proof, when an id token whose verified email is the looked-up one is given, then it answers; without a proof, or with a forged token, it is refused', async () => {
    const email = freshEmail('proof');
    const { organizationId } = await signup(email);
    await updateProxySettings(s.store, s.org.organizationId, { requireVerificationTokenForAccountLookup: true });
    try {
      const iat = Math.floor(Date.now() / 1000);
      const oidcToken = await google.sign({ aud: CLIENT_ID, sub: randomUUID(), iat, exp: iat + 600, email, email_verified: true });
      expect((await s.browser.post('account', { filterType: 'EMAIL', filterValue: email, oidcToken })).body).toEqual({ organizationId });
      expectProxyError(
        await s.browser.post('account', { filterType: 'EMAIL', filterValue: email }),
        401,
        'ERR_VERIFICATION_TOKEN_REQUIRED',
        'verificationToken',
      );
      const forged = `${verificationTokenFor(s, email).slice(0, -6)}AAAAAA`;
      for (const filterValue of [email, freshEmail('nobody')]) {
        expectProxyError(
          await s.browser.post('account', { filterType: 'EMAIL', filterValue, verificationToken: forged }),
          401,
          'ERR_VERIFICATION_TOKEN_INVALID',
          'verificationToken',
        );
      }
    } finally {
      await updateProxySettings(s.store, s.org.organizationId, { requireVerificationTokenForAccountLookup: false });
    }
  });

  it('given a forged verification token, when otp_login_v2 routes it, then it is a 401 for a known and an unknown contact alike (no existence oracle)', async () => {
    const email = freshEmail('oracle');
    await signup(email);
    for (const contact of [email, freshEmail('unknown')]) {
      const key = generateP256KeyPair();
      const forged = `${verificationTokenFor(s, contact, { publicKey: key.publicKey }).slice(0, -6)}AAAAAA`;
      const reply = await s.browser.post('otp_login_v2', {
        verificationToken: forged,
        publicKey: key.publicKey,
        clientSignature: loginSignature(key.privateKey, forged),
      });
      expectProxyError(reply, 401, 'ERR_VERIFICATION_TOKEN_INVALID', 'verificationToken');
    }
  });
});
