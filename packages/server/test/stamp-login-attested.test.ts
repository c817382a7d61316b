/**
 * stamp_login with X-Stamp-Attested (decision 0020), the stamp `@turnkey/core`'s loginWithOtp and
 * loginWithOauth send: built here by core's own AttestedStamper. Verification tokens come from
 * the real init_otp / verify_otp round trip (the code read from the dev outbox), signups are the
 * create_sub_organization the proxy's signup_v2 forwards, OIDC tokens come from a local provider.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, generateP256KeyPair, sha256Hex, signJwt, stampApiKey, verifyJwt, type EcKeyPair } from '@walletkit/crypto';
import { operations } from '@walletkit/protocol';
import type { SessionClaims } from '../src/activity/operations/sessions';
import { apiKeys, usedVerificationTokens } from '../src/store/schema';
import {
  attestedStamp,
  decodeAttested,
  encodeAttested,
  signUpWithToken,
  stampLoginBody,
  verifiedToken as verifiedToken_,
  type Attestation,
} from './support/attested';
import { startTestServer, type ActivityClient, type Reply, type TestServer } from './support/harness';
import { addOrganization, expectError } from './support/members';
import { startOidcIssuer, type LocalOidcIssuer } from './support/oidc-issuer';
import { loginSignature } from './support/otp';
import { storeKinds } from './support/stores';

const CLIENT_ID = 'walletkit-web.apps.googleusercontent.example';
const STAMP_LOGIN = operations.stamp_login.path;

describe.each(storeKinds)('stamp_login with X-Stamp-Attested on %s', (kind) => {
  let server: TestServer;
  let google: LocalOidcIssuer;
  /** Moves the server clock (and the bodies' timestampMs with it). */
  let offsetMs = 0;
  /** Every call of the clock is a new millisecond: no two bodies are the same activity by accident. */
  let tick = 0;
  const clock = () => Date.now() + offsetMs + tick++;
  let parentId: string;

  beforeAll(async () => {
    google = await startOidcIssuer({ clientId: CLIENT_ID, clientSecret: 'secret', redirectUri: 'https://app.example/oauth/callback' });
    server = await startTestServer(kind, {
      clock,
      config: { devOutbox: true, oidcProviders: [{ name: 'google', issuer: google.issuer, jwksUri: google.jwksUri }] },
    });
    parentId = server.org.organizationId;
  }, 60_000);
  afterAll(async () => {
    await server?.dispose();
    await google?.close();
  });

  const freshEmail = (label: string) => `${label}-${Math.random().toString(36).slice(2, 10)}@example.com`;

  const verifiedToken = (contact: string, key: { publicKey: string }, client?: ActivityClient) => verifiedToken_(server, contact, key, client);
  const signUp = (contact: string, key: EcKeyPair, token?: string) => signUpWithToken(server, contact, key, token);

  /** POST stamp_login as @turnkey/core does: its body, its attested stamp by `key` (or the given header). */
  async function attestedLogin(
    organizationId: string,
    key: EcKeyPair,
    attestation: Attestation,
    opts: { sessionKey?: string; header?: (body: string) => Promise<string> } = {},
  ): Promise<Reply> {
    const body = stampLoginBody(organizationId, opts.sessionKey ?? key.publicKey, clock());
    const header = opts.header ? await opts.header(body) : await attestedStamp(body, key, attestation);
    return server.client.post(STAMP_LOGIN, body, { 'x-stamp-attested': header });
  }

  const sessionOf = (reply: Reply) => verifyJwt<SessionClaims>(reply.body.activity.result.stampLoginResult.session, server.enclave.signingPublicKey);
  const stampsIn = async (key: EcKeyPair, organizationId: string) => (await server.client.with({ key, organizationId }).query('whoami', {})).status;
  const sessionRows = async (key: EcKeyPair) => (await server.store.db.select().from(apiKeys).where(eq(apiKeys.publicKey, key.publicKey))).length;
  const tokenRow = async (token: string) => {
    const [row] = await server.store.db
      .select()
      .from(usedVerificationTokens)
      .where(eq(usedVerificationTokens.tokenId, decodeJwt<{ id: string }>(token).id));
    return row;
  };

  describe('verification tokens', () => {
    it('given a user who signed up with an emailed code, when a fresh code is verified and core logs in with the attested stamp on the parent organization, then a session of the sub-organization user opens and its key stamps there', async () => {
      const contact = freshEmail('login');
      const { subOrganizationId, userId } = await signUp(contact, generateP256KeyPair());
      const key = generateP256KeyPair();
      const token = await verifiedToken(contact, key);

      const reply = await attestedLogin(parentId, key, { verificationToken: token });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      expect(reply.body.activity).toMatchObject({ type: 'ACTIVITY_TYPE_STAMP_LOGIN', status: 'ACTIVITY_STATUS_COMPLETED' });
      expect(sessionOf(reply)).toMatchObject({ user_id: userId, organization_id: subOrganizationId, public_key: key.publicKey });
      expect(await stampsIn(key, subOrganizationId)).toBe(200);
      // The session key belongs to the sub-organization, not to the parent.
      expect(await stampsIn(key, parentId)).toBe(401);
      expect(await tokenRow(token)).toMatchObject({ purpose: 'login', subOrganizationId });
    });

    it('given a token just spent on the signup of a sub-organization, when it logs in to that sub-organization (core signUpWithOtp), then the session opens once; a second login with it is 401 ERR_VERIFICATION_TOKEN_INVALID', async () => {
      const contact = freshEmail('signup');
      const key = generateP256KeyPair();
      const { subOrganizationId, userId, token } = await signUp(contact, key);
      expect(await tokenRow(token)).toMatchObject({ purpose: 'signup', subOrganizationId });

      const first = await attestedLogin(subOrganizationId, key, { verificationToken: token });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(sessionOf(first)).toMatchObject({ user_id: userId, organization_id: subOrganizationId });
      expect(await tokenRow(token)).toMatchObject({ purpose: 'login', subOrganizationId });

      expectError(await attestedLogin(subOrganizationId, key, { verificationToken: token }), 401, 'ERR_VERIFICATION_TOKEN_INVALID', 'publicKeyAttestation');
      expectError(await attestedLogin(parentId, key, { verificationToken: token }), 401, 'ERR_VERIFICATION_TOKEN_INVALID', 'publicKeyAttestation');
    });

    it('given a token that already logged in, when it signs up or logs in again (attested or otp_login), then each is 401 ERR_VERIFICATION_TOKEN_INVALID and nothing is created', async () => {
      const contact = freshEmail('twice');
      await signUp(contact, generateP256KeyPair());
      const key = generateP256KeyPair();
      const token = await verifiedToken(contact, key);
      expect((await attestedLogin(parentId, key, { verificationToken: token })).status).toBe(200);

      expectError(await attestedLogin(parentId, key, { verificationToken: token }), 401, 'ERR_VERIFICATION_TOKEN_INVALID');
      const signup = await server.client.submit('create_sub_organization', {
        subOrganizationName: 'second',
        rootUsers: [{ userName: 'second', apiKeys: [], authenticators: [], oauthProviders: [] }],
        rootQuorumThreshold: 1,
        verificationToken: token,
        clientSignature: loginSignature(key.privateKey, token, 'USAGE_TYPE_SIGNUP'),
      });
      expectError(signup, 401, 'ERR_VERIFICATION_TOKEN_INVALID');
    });

    it('given a token spent on a signup, when otp_login presents it, then it is 401 ERR_VERIFICATION_TOKEN_INVALID (otp_login stays single use) and the attested login after the signup still opens; a token spent by otp_login never logs in by attested stamp', async () => {
      const contact = freshEmail('otp-login');
      const signupKey = generateP256KeyPair();
      const { subOrganizationId, token: signupToken } = await signUp(contact, signupKey);
      const otpLogin = (token: string, key: EcKeyPair) =>
        server.client.submit(
          'otp_login',
          { verificationToken: token, publicKey: key.publicKey, clientSignature: loginSignature(key.privateKey, token) },
          { organizationId: subOrganizationId },
        );
      expectError(await otpLogin(signupToken, signupKey), 401, 'ERR_VERIFICATION_TOKEN_INVALID');
      expect(await tokenRow(signupToken)).toMatchObject({ purpose: 'signup', subOrganizationId });
      expect((await attestedLogin(subOrganizationId, signupKey, { verificationToken: signupToken })).status).toBe(200);

      const key = generateP256KeyPair();
      const token = await verifiedToken(contact, key);
      expect((await otpLogin(token, key)).status).toBe(200);
      expectError(await attestedLogin(parentId, key, { verificationToken: token }), 401, 'ERR_VERIFICATION_TOKEN_INVALID');
    });

    it('given a stamp by another key than the one the token binds, or a signature over another body, when stamp_login runs, then each is 401 ERR_STAMP_INVALID and the token still logs in afterwards', async () => {
      const contact = freshEmail('wrong-key');
      await signUp(contact, generateP256KeyPair());
      const key = generateP256KeyPair();
      const token = await verifiedToken(contact, key);
      const other = generateP256KeyPair();

      // Signed by another key, naming it: a genuine stamp of the wrong key.
      expectError(await attestedLogin(parentId, other, { verificationToken: token }), 401, 'ERR_STAMP_INVALID');
      // Naming the bound key but signed by another one.
      const forgedKey = (body: string) => attestedStamp(body, other, { verificationToken: token }, key.publicKey);
      expectError(await attestedLogin(parentId, key, { verificationToken: token }, { header: forgedKey }), 401, 'ERR_STAMP_INVALID');
      // A real signature by the bound key, over another body.
      const otherBody = async (body: string) => attestedStamp(body.replace('"900"', '"901"'), key, { verificationToken: token });
      expectError(await attestedLogin(parentId, key, { verificationToken: token }, { header: otherBody }), 401, 'ERR_STAMP_INVALID');
      expect(await sessionRows(other)).toBe(0);
      expect(await tokenRow(token)).toBeUndefined();

      expect((await attestedLogin(parentId, key, { verificationToken: token })).status).toBe(200);
    });

    it('given a session key other than the attested key, when stamp_login names it, then it is 400 ERR_INVALID_PARAMETER, no key is registered and the token is not spent', async () => {
      const contact = freshEmail('other-session-key');
      await signUp(contact, generateP256KeyPair());
      const key = generateP256KeyPair();
      const token = await verifiedToken(contact, key);
      const elsewhere = generateP256KeyPair();
      expectError(
        await attestedLogin(parentId, key, { verificationToken: token }, { sessionKey: elsewhere.publicKey }),
        400,
        'ERR_INVALID_PARAMETER',
        'publicKey',
      );
      expect(await sessionRows(elsewhere)).toBe(0);
      expect(await tokenRow(token)).toBeUndefined();
      expect((await attestedLogin(parentId, key, { verificationToken: token })).status).toBe(200);
    });

    it('given an expired token, a token with a changed claim, a token signed by another key and a session JWT, when presented as the attestation, then each is 401 ERR_VERIFICATION_TOKEN_INVALID', async () => {
      const contact = freshEmail('forged');
      const { subOrganizationId, userId } = await signUp(contact, generateP256KeyPair());
      const key = generateP256KeyPair();
      const token = await verifiedToken(contact, key);
      const claims = decodeJwt<Record<string, unknown>>(token);
      const [head, , signature] = token.split('.');
      const changed = `${head}.${Buffer.from(JSON.stringify({ ...claims, contact: freshEmail('someone-else') })).toString('base64url')}.${signature}`;
      const outsider = generateP256KeyPair();
      const foreign = signJwt(claims, outsider.privateKey);
      // Signed by the enclave too, but a session, not a verification token.
      const sessionJwt = server.enclave.signJwt({
        exp: Math.floor(clock() / 1000) + 600,
        public_key: key.publicKey,
        session_type: 'SESSION_TYPE_READ_WRITE',
        user_id: userId,
        organization_id: subOrganizationId,
      });
      for (const bad of [changed, foreign, sessionJwt]) {
        expectError(await attestedLogin(parentId, key, { verificationToken: bad }), 401, 'ERR_VERIFICATION_TOKEN_INVALID', 'publicKeyAttestation');
      }
      // One hour and a bit later the genuine token has expired.
      offsetMs = 3700_000;
      try {
        const reply = await attestedLogin(parentId, key, { verificationToken: token });
        expectError(reply, 401, 'ERR_VERIFICATION_TOKEN_INVALID', 'publicKeyAttestation');
        expect(reply.body.message).toMatch(/expired/);
      } finally {
        offsetMs = 0;
      }
      expect(await sessionRows(key)).toBe(0);
    });

    it('given a token issued by another organization for the email of a user here, when it logs in here, then it is 401 ERR_VERIFICATION_TOKEN_INVALID', async () => {
      const contact = freshEmail('cross-org');
      await signUp(contact, generateP256KeyPair());
      const other = await addOrganization(server, `other ${contact}`);
      const key = generateP256KeyPair();
      const token = await verifiedToken(contact, key, other.client);
      expectError(await attestedLogin(parentId, key, { verificationToken: token }), 401, 'ERR_VERIFICATION_TOKEN_INVALID', 'publicKeyAttestation');
      expect(await sessionRows(key)).toBe(0);
      expect(await tokenRow(token)).toBeUndefined();
    });

    it('given an email no sub-organization holds, another sub-organization as the target, or an unknown organization, when core logs in, then each is 401 ERR_STAMP_KEY_UNKNOWN and the token stays unspent', async () => {
      const key = generateP256KeyPair();
      const stranger = await verifiedToken(freshEmail('nobody'), key);
      expectError(await attestedLogin(parentId, key, { verificationToken: stranger }), 401, 'ERR_STAMP_KEY_UNKNOWN');

      const contact = freshEmail('elsewhere');
      await signUp(contact, generateP256KeyPair());
      const { subOrganizationId: sibling } = await signUp(freshEmail('sibling'), generateP256KeyPair());
      const holderKey = generateP256KeyPair();
      const token = await verifiedToken(contact, holderKey);
      expectError(await attestedLogin(sibling, holderKey, { verificationToken: token }), 401, 'ERR_STAMP_KEY_UNKNOWN');
      expectError(await attestedLogin('00000000-0000-4000-8000-000000000000', holderKey, { verificationToken: token }), 401, 'ERR_STAMP_KEY_UNKNOWN');
      expect(await tokenRow(token)).toBeUndefined();
      expect(await tokenRow(stranger)).toBeUndefined();
      expect((await attestedLogin(parentId, holderKey, { verificationToken: token })).status).toBe(200);
    });

    it('given the exact same attested request sent twice, when both arrive, then the second answers the same activity and session: one session key row', async () => {
      const contact = freshEmail('replay');
      await signUp(contact, generateP256KeyPair());
      const key = generateP256KeyPair();
      const token = await verifiedToken(contact, key);
      const body = stampLoginBody(parentId, key.publicKey, clock());
      const header = await attestedStamp(body, key, { verificationToken: token });
      const first = await server.client.post(STAMP_LOGIN, body, { 'x-stamp-attested': header });
      const second = await server.client.post(STAMP_LOGIN, body, { 'x-stamp-attested': header });
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.body.activity.id).toBe(first.body.activity.id);
      expect(await sessionRows(key)).toBe(1);
    });
  });

  describe('OIDC tokens', () => {
    let subOrganizationId: string;
    let userId: string;
    const SUB = `google-${Math.random().toString(36).slice(2)}`;

    beforeAll(async () => {
      const created = await server.client.run('create_sub_organization', {
        subOrganizationName: 'google user',
        rootUsers: [
          {
            userName: 'g',
            apiKeys: [],
            authenticators: [],
            oauthProviders: [{ providerName: 'google', oidcToken: await google.login({ sub: SUB, nonce: 'signup' }) }],
          },
        ],
        rootQuorumThreshold: 1,
      });
      subOrganizationId = created.subOrganizationId;
      userId = created.rootUserIds[0]!;
    });

    it('given a Google identity linked to a sub-organization, when core logs in with an id token whose nonce hashes the key, on the parent or on the sub-organization, then a session of that user opens', async () => {
      for (const target of [parentId, subOrganizationId]) {
        const key = generateP256KeyPair();
        const oidcToken = await google.login({ sub: SUB, nonce: sha256Hex(key.publicKey) });
        const reply = await attestedLogin(target, key, { oidcToken });
        expect(reply.status, JSON.stringify(reply.body)).toBe(200);
        expect(sessionOf(reply)).toMatchObject({ user_id: userId, organization_id: subOrganizationId, public_key: key.publicKey });
        expect(await stampsIn(key, subOrganizationId)).toBe(200);
      }
    });

    it('given an id token whose nonce is not the hash of the stamping key, or that no sub-organization linked, when core logs in, then they are 401 ERR_OIDC_TOKEN_INVALID and ERR_STAMP_KEY_UNKNOWN', async () => {
      const key = generateP256KeyPair();
      const other = generateP256KeyPair();
      const wrongNonce = await google.login({ sub: SUB, nonce: sha256Hex(other.publicKey) });
      expectError(await attestedLogin(parentId, key, { oidcToken: wrongNonce }), 401, 'ERR_OIDC_TOKEN_INVALID', 'publicKeyAttestation');
      const noNonce = await google.sign({ sub: SUB, aud: CLIENT_ID, exp: Math.floor(Date.now() / 1000) + 600, iat: Math.floor(Date.now() / 1000) });
      expectError(await attestedLogin(parentId, key, { oidcToken: noNonce }), 401, 'ERR_OIDC_TOKEN_INVALID', 'publicKeyAttestation');
      const unlinked = await google.login({ sub: `${SUB}-unlinked`, nonce: sha256Hex(key.publicKey) });
      expectError(await attestedLogin(parentId, key, { oidcToken: unlinked }), 401, 'ERR_STAMP_KEY_UNKNOWN');
      expect(await sessionRows(key)).toBe(0);
    });
  });

  describe('where the header is accepted', () => {
    it('given a valid attested stamp, when it is sent on another activity or on a query, then each is 401 ERR_STAMP_NOT_ACCEPTED; with X-Stamp beside it, 401 ERR_STAMP_MALFORMED', async () => {
      const contact = freshEmail('elsewhere-op');
      const { subOrganizationId } = await signUp(contact, generateP256KeyPair());
      const key = generateP256KeyPair();
      const token = await verifiedToken(contact, key);

      const account = {
        curve: 'CURVE_SECP256K1',
        pathFormat: 'PATH_FORMAT_BIP32',
        path: "m/44'/60'/0'/0/0",
        addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
      } as const;
      const wallet = server.client.envelope('create_wallet', { walletName: 'w', accounts: [account] }, { organizationId: subOrganizationId });
      const asWallet = await server.client.post(operations.create_wallet.path, wallet, {
        'x-stamp-attested': await attestedStamp(wallet, key, { verificationToken: token }),
      });
      expectError(asWallet, 401, 'ERR_STAMP_NOT_ACCEPTED');
      const query = JSON.stringify({ organizationId: subOrganizationId });
      const asQuery = await server.client.post('/public/v1/query/whoami', query, {
        'x-stamp-attested': await attestedStamp(query, key, { verificationToken: token }),
      });
      expectError(asQuery, 401, 'ERR_STAMP_NOT_ACCEPTED');

      const body = stampLoginBody(parentId, key.publicKey, clock());
      const both = await server.client.post(STAMP_LOGIN, body, {
        'x-stamp-attested': await attestedStamp(body, key, { verificationToken: token }),
        'x-stamp': stampApiKey(body, server.org.apiKey),
      });
      expectError(both, 401, 'ERR_STAMP_MALFORMED');
      expect(await tokenRow(token)).toBeUndefined();
    });

    it('given malformed headers (not base64url, not JSON, a repeated key, an extra or missing field, an unknown scheme, a key or signature that is not hex), when sent on stamp_login, then each is 401 ERR_STAMP_MALFORMED', async () => {
      const key = generateP256KeyPair();
      const body = stampLoginBody(parentId, key.publicKey, clock());
      const good = decodeAttested(await attestedStamp(body, key, { verificationToken: 'x.y.z' }));
      const cases: string[] = [
        '',
        '!!not base64url!!',
        Buffer.from('not json').toString('base64url'),
        encodeAttested([good]),
        Buffer.from(
          `{"publicKeyAttestation":"a","publicKeyAttestation":"b","scheme":"${good.scheme}","publicKey":"${good.publicKey}","signature":"${good.signature}"}`,
        ).toString('base64url'),
        encodeAttested({ ...good, extra: 1 }),
        encodeAttested({ ...good, publicKeyAttestation: undefined }),
        encodeAttested({ ...good, publicKeyAttestation: '' }),
        encodeAttested({ ...good, scheme: 'SIGNATURE_SCHEME_TK_API_P256' }),
        encodeAttested({ ...good, publicKey: `${good.publicKey.slice(0, -2)}zz` }),
        encodeAttested({ ...good, publicKey: good.publicKey.slice(2) }),
        encodeAttested({ ...good, signature: 'not hex' }),
        encodeAttested({ ...good, signature: 42 }),
        'A'.repeat(40_000),
      ];
      for (const header of cases) expectError(await server.client.post(STAMP_LOGIN, body, { 'x-stamp-attested': header }), 401, 'ERR_STAMP_MALFORMED');
    });

    it('given a browser preflight from any origin, when it asks for X-Stamp-Attested and X-Client-Version (what @turnkey/core sends), then both are allowed', async () => {
      const res = await server.app.inject({
        method: 'OPTIONS',
        url: STAMP_LOGIN,
        headers: {
          origin: 'http://localhost:5173',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-client-version,x-stamp-attested',
        },
      });
      expect(res.statusCode).toBe(204);
      const allowed = String(res.headers['access-control-allow-headers']).split(/,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(['content-type', 'x-stamp', 'x-stamp-webauthn', 'x-stamp-attested', 'x-client-version']));
    });

    it('given a page on any origin, when it reads discovery for the enclave key (the OTP override of @turnkey/core), then the reply is readable cross-origin', async () => {
      for (const url of ['/.well-known/walletkit.json', '/.well-known/jwks.json']) {
        const res = await server.app.inject({ method: 'GET', url, headers: { origin: 'http://localhost:5173' } });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['access-control-allow-origin'], url).toBe('*');
        expect(res.headers['access-control-allow-credentials'], url).toBeUndefined();
      }
      expect(JSON.parse((await server.app.inject({ method: 'GET', url: '/.well-known/walletkit.json' })).body).enclaveSigningPublicKey).toBe(
        server.enclave.signingPublicKey,
      );
    });
  });
});
