/**
 * Proxy OTP flows through real HTTP: codes read from the dev outbox (GET /v1/dev/outbox),
 * encrypted to the signed target, verified, then signup and login; on PostgreSQL a second
 * server instance finishes what the first began.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientSignature, decodeJwt, generateP256KeyPair, hpkeSeal, utf8ToBytes, verifyBundle } from '@walletkit/crypto';
import { updateProxySettings } from '../src/admin/proxy';
import { expectProxyError, startProxyServer, startSecondInstance, submitOver, type ProxyTestServer } from './support/proxy';
import { storeKinds } from './support/stores';

const APP = 'https://app.example';

describe.each(storeKinds)('proxy OTP flows on %s', (kind) => {
  let a: ProxyTestServer;
  /** Base URL of the instance finishing the flows: a second instance on PostgreSQL, the same one on PGlite. */
  let bUrl: string;
  let closeB: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    a = await startProxyServer(kind, { proxy: { origins: [APP] } });
    if (kind === 'postgres') {
      const b = await startSecondInstance(a as ProxyTestServer & { store: { location: string } });
      bUrl = b.url;
      closeB = b.close;
    } else {
      bUrl = a.url;
    }
  });
  afterAll(async () => {
    await closeB?.();
    await a?.dispose();
  });

  /** The user reads the code from the dev outbox (GET /v1/dev/outbox) and encrypts it with their key. */
  async function receiveAndEncrypt(contact: string, bundle: string, key: { publicKey: string }) {
    const res = await fetch(`${a.url}/v1/dev/outbox?recipient=${encodeURIComponent(contact)}&limit=1`);
    const { messages } = (await res.json()) as { messages: Array<{ body: string }> };
    const code = /^\s*([0-9]{6})\s*$/m.exec(messages[0]!.body)![1]!;
    const target = verifyBundle<{ targetPublic: string; otpId: string }>(bundle, a.enclave.signingPublicKey);
    const sealed = await hpkeSeal({
      plaintext: utf8ToBytes(JSON.stringify({ otp_code: code, public_key: key.publicKey })),
      receiverPublicKey: target.targetPublic,
    });
    return { code, encryptedOtpBundle: JSON.stringify(sealed) };
  }

  /** otp_init_v2 on A, then the code verified on B: a verification token bound to `key`. */
  async function verifiedToken(contact: string, key: { publicKey: string }): Promise<string> {
    const init = await a.browser.post('otp_init_v2', { otpType: 'OTP_TYPE_EMAIL', contact });
    expect(init.status).toBe(200);
    const { encryptedOtpBundle } = await receiveAndEncrypt(contact, init.body.otpEncryptionTargetBundle, key);
    const verify = await a.browser.with({ baseUrl: bUrl }).post('otp_verify_v2', { otpId: init.body.otpId, encryptedOtpBundle });
    expect(verify.status).toBe(200);
    return verify.body.verificationToken;
  }

  const usage = (type: 'USAGE_TYPE_SIGNUP' | 'USAGE_TYPE_LOGIN', token: string, privateKey: string) =>
    createClientSignature({ privateKey, message: JSON.stringify({ type, tokenId: decodeJwt<{ id: string }>(token).id }) });

  it('given an email OTP begun on one instance, when the user verifies, signs up, verifies again and logs in on another, then the session key stamps an accepted request of the new sub-organization', async () => {
    await updateProxySettings(a.store, a.org.organizationId, { sessionExpirationSeconds: 1200 });
    const contact = `carol-${randomUUID().slice(0, 8)}@example.com`;
    const b = a.browser.with({ baseUrl: bUrl });

    const signupKey = generateP256KeyPair();
    const signupToken = await verifiedToken(contact, signupKey);
    const signup = await b.post('signup_v2', {
      userEmail: contact,
      verificationToken: signupToken,
      clientSignature: usage('USAGE_TYPE_SIGNUP', signupToken, signupKey.privateKey),
    });
    expect(signup.status).toBe(200);
    expect((await b.post('account', { filterType: 'EMAIL', filterValue: contact })).body).toEqual({ organizationId: signup.body.organizationId });

    const sessionKey = generateP256KeyPair();
    const loginToken = await verifiedToken(contact, sessionKey);
    const login = await b.post('otp_login_v2', {
      verificationToken: loginToken,
      publicKey: sessionKey.publicKey,
      clientSignature: usage('USAGE_TYPE_LOGIN', loginToken, sessionKey.privateKey),
    });
    expect(login.status).toBe(200);
    const claims = decodeJwt<{ organization_id: string; user_id: string; exp: number; public_key: string }>(login.body.session);
    expect(claims).toMatchObject({ organization_id: signup.body.organizationId, user_id: signup.body.userId, public_key: sessionKey.publicKey });
    expect(Math.abs(claims.exp - Math.floor(Date.now() / 1000) - 1200)).toBeLessThan(30);

    const wallet = await submitOver(bUrl, sessionKey, signup.body.organizationId, 'create_wallet', { walletName: 'w', accounts: [] });
    expect(wallet.status).toBe(200);
    expect(wallet.body.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');

    // The token is single use: replaying the login is refused by the activity, unchanged by the proxy.
    const replay = await b.post('otp_login_v2', {
      verificationToken: loginToken,
      publicKey: sessionKey.publicKey,
      clientSignature: usage('USAGE_TYPE_LOGIN', loginToken, sessionKey.privateKey),
    });
    expectProxyError(replay, 401, 'ERR_VERIFICATION_TOKEN_INVALID');
  });

  it('given a wrong code, when otp_verify_v2 runs, then it is a 401 ERR_OTP_INVALID and no code appears in any reply', async () => {
    const contact = `dave-${randomUUID().slice(0, 8)}@example.com`;
    const key = generateP256KeyPair();
    const init = await a.browser.post('otp_init_v2', { otpType: 'OTP_TYPE_EMAIL', contact });
    expect(init.status).toBe(200);
    const { code } = await receiveAndEncrypt(contact, init.body.otpEncryptionTargetBundle, key);
    const target = verifyBundle<{ targetPublic: string }>(init.body.otpEncryptionTargetBundle, a.enclave.signingPublicKey);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const sealed = await hpkeSeal({
      plaintext: utf8ToBytes(JSON.stringify({ otp_code: wrong, public_key: key.publicKey })),
      receiverPublicKey: target.targetPublic,
    });
    const reply = await a.browser.with({ baseUrl: bUrl }).post('otp_verify_v2', { otpId: init.body.otpId, encryptedOtpBundle: JSON.stringify(sealed) });
    expectProxyError(reply, 401, 'ERR_OTP_INVALID');
    for (const body of [init.body, reply.body]) expect(JSON.stringify(body)).not.toContain(code);
  });
});
