// The enclave's own signatures and token checks on its signer threads (decision 0029): a code's
// target bundle, a right attempt's verification token, a session and the check of a token it
// issued are made by the thread that does the rest of the job, with the same bytes a verifier
// expects as when the event loop made them, and in-process when there are no threads. A token
// checked on a thread is remembered, so its next check is its times alone.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compressPublicKey, createClientSignature, generateP256KeyPair, signJwt, verifyBundle, verifyJwt } from '@walletkit/crypto';
import { loadConfig } from '../src/config';
import { Enclave } from '../src/enclave';
import { encryptOtpAttempt } from './support/otp';
import { openTestStore, type TestStore } from './support/stores';

/** A JWT's JOSE header. */
const headerOf = (jwt: string): unknown => JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString('utf8'));

interface Target {
  targetPublic: string;
  organizationId: string;
  otpId: string;
}

describe.each([1, 0])("the enclave's own signatures with %i signer threads", (threads) => {
  let store: TestStore;
  let enclave: Enclave;
  /** The pool's JWT checks, counted. */
  let pool: { verifyJwt: (job: unknown) => Promise<unknown> };

  beforeAll(async () => {
    store = await openTestStore('pglite');
    const config = loadConfig(
      {},
      { port: 0, logLevel: 'silent', masterKey: randomBytes(32).toString('hex'), dataDir: '/nonexistent-test-dir', signerThreads: threads },
    );
    enclave = await Enclave.open(store, config);
    pool = (enclave as unknown as { signer: typeof pool }).signer;
  });
  afterAll(async () => {
    await enclave.close();
    await store.dispose();
  });

  /** A code issued for a new id of `organizationId`. */
  const issue = (organizationId = 'org-1') => {
    const otpId = randomUUID();
    return enclave.issueOtp({ otpId, organizationId, length: 6, alphanumeric: false }).then((issued) => ({ otpId, issued }));
  };

  it('given a code, when it is issued, then its target bundle is signed by the enclave key and names its target, organization and id', async () => {
    const { otpId, issued } = await issue('org-bundle');
    const target = verifyBundle<Target>(issued.otpEncryptionTargetBundle, enclave.signingPublicKey);
    expect(target).toEqual({ targetPublic: issued.targetPublicKey, organizationId: 'org-bundle', otpId });
    // Another key does not verify it.
    expect(() => verifyBundle(issued.otpEncryptionTargetBundle, generateP256KeyPair().publicKeyUncompressed)).toThrow();
  });

  it('given a right attempt and token claims, when it is checked, then the token comes back signed and bound to the attempt key; a wrong code gets none', async () => {
    const { otpId, issued } = await issue();
    const client = generateP256KeyPair();
    const exp = Math.floor(Date.now() / 1000) + 600;
    const token = { id: randomUUID(), verification_type: 'OTP_TYPE_EMAIL', contact: 'a@example.com', organization_id: 'org-1', exp };
    const attempt = (code: string, key = client.publicKeyUncompressed) =>
      encryptOtpAttempt(issued.targetPublicKey, code, key).then((bundle) =>
        enclave.checkOtpAttempt({ otpId, sealedTargetKey: issued.sealedTargetKey, codeMac: issued.codeMac, encrypted: JSON.parse(bundle), token }),
      );

    const wrong = issued.code === '000000' ? '000001' : '000000';
    expect(await attempt(wrong)).toBeUndefined();

    const opened = await attempt(issued.code);
    expect(opened?.clientKey).toBe(compressPublicKey('p256', client.publicKeyUncompressed));
    const claims = verifyJwt(opened!.verificationToken!, enclave.signingPublicKey);
    expect(claims).toEqual({ ...token, public_key: opened!.clientKey });
    expect(headerOf(opened!.verificationToken!)).toEqual({ alg: 'ES256', typ: 'JWT', kid: enclave.keyId });

    // Without claims to sign, a right attempt is its key alone.
    const bare = await enclave.checkOtpAttempt({
      otpId,
      sealedTargetKey: issued.sealedTargetKey,
      codeMac: issued.codeMac,
      encrypted: JSON.parse(await encryptOtpAttempt(issued.targetPublicKey, issued.code, client.publicKeyUncompressed)),
    });
    expect(bare).toEqual({ clientKey: opened!.clientKey });
  });

  it('given a verification token its attempt job signed, when it is checked, then no check is a job: its claims come back, its times are checked, and a token altered from it is still a job and refused', async () => {
    const { otpId, issued } = await issue();
    const client = generateP256KeyPair();
    const now = Date.now();
    const token = {
      id: randomUUID(),
      verification_type: 'OTP_TYPE_EMAIL',
      contact: 'b@example.com',
      organization_id: 'org-1',
      exp: Math.floor(now / 1000) + 60,
    };
    const jobs = vi.spyOn(pool, 'verifyJwt');
    try {
      const encrypted = JSON.parse(await encryptOtpAttempt(issued.targetPublicKey, issued.code, client.publicKeyUncompressed));
      const opened = await enclave.checkOtpAttempt({ otpId, sealedTargetKey: issued.sealedTargetKey, codeMac: issued.codeMac, encrypted, token });
      const signed = opened!.verificationToken!;
      expect(await enclave.verifyJwtOnThread(signed, () => now)).toEqual({ ...token, public_key: opened!.clientKey });
      expect(await enclave.verifyJwtOnThread(signed, () => now + 1000)).toEqual({ ...token, public_key: opened!.clientKey });
      await expect(enclave.verifyJwtOnThread(signed, () => now + 61_000)).rejects.toMatchObject({ code: 'ERR_JWT_EXPIRED' });
      expect(jobs).toHaveBeenCalledTimes(0);
      // The same signature over other claims is not the token it signed: a job, and refused.
      const [head, , signature] = signed.split('.');
      const altered = `${head}.${Buffer.from(JSON.stringify({ ...token, public_key: generateP256KeyPair().publicKey })).toString('base64url')}.${signature}`;
      await expect(enclave.verifyJwtOnThread(altered, () => now)).rejects.toMatchObject({ code: 'ERR_JWT_INVALID' });
      expect(jobs).toHaveBeenCalledTimes(1);
    } finally {
      jobs.mockRestore();
    }
  });

  it('given client signatures, when their key is asked for, then a good one gives its key compressed, in either encoding, and anything else none', async () => {
    const client = generateP256KeyPair();
    const message = JSON.stringify({ type: 'USAGE_TYPE_LOGIN', tokenId: randomUUID() });
    const good = createClientSignature({ privateKey: client.privateKey, message });
    const compressed = compressPublicKey('p256', client.publicKeyUncompressed);
    expect(await enclave.clientSignatureKey(good)).toBe(compressed);
    expect(await enclave.clientSignatureKey({ ...good, publicKey: client.publicKeyUncompressed })).toBe(compressed);
    expect(await enclave.checkClientSignature(good)).toBe(true);
    const other = generateP256KeyPair();
    for (const bad of [
      { ...good, message: `${message} ` },
      { ...good, publicKey: other.publicKey },
      { ...good, publicKey: 'zz' },
    ]) {
      expect(await enclave.clientSignatureKey(bad)).toBeUndefined();
      expect(await enclave.checkClientSignature(bad)).toBe(false);
    }
  });

  it('given claims, when a session is signed on a thread, then it verifies against the enclave key and names its key id', async () => {
    const claims = { exp: Math.floor(Date.now() / 1000) + 900, public_key: generateP256KeyPair().publicKey, user_id: 'u', organization_id: 'o' };
    const session = await enclave.signJwtOnThread(claims);
    expect(verifyJwt(session, enclave.signingPublicKey)).toEqual(claims);
    expect(headerOf(session)).toEqual({ alg: 'ES256', typ: 'JWT', kid: enclave.keyId });
  });

  it('given a token of its own, when it is checked twice, then the second check is its times alone: good until it expires, then expired', async () => {
    const now = Date.now();
    const token = await enclave.signJwtOnThread({ id: randomUUID(), exp: Math.floor(now / 1000) + 60 });
    const jobs = vi.spyOn(pool, 'verifyJwt');
    try {
      expect(await enclave.verifyJwtOnThread<{ exp: number }>(token, () => now)).toMatchObject({ exp: Math.floor(now / 1000) + 60 });
      expect(jobs).toHaveBeenCalledTimes(1);
      expect(await enclave.verifyJwtOnThread(token, () => now + 1000)).toMatchObject({ exp: Math.floor(now / 1000) + 60 });
      expect(jobs).toHaveBeenCalledTimes(1);
      await expect(enclave.verifyJwtOnThread(token, () => now + 61_000)).rejects.toMatchObject({ code: 'ERR_JWT_EXPIRED' });
      expect(jobs).toHaveBeenCalledTimes(1);
      // The claims handed out cannot be changed for the next check.
      const claims = await enclave.verifyJwtOnThread<{ exp: number }>(token, () => now);
      expect(() => {
        claims.exp = Number.MAX_SAFE_INTEGER;
      }).toThrow();
    } finally {
      jobs.mockRestore();
    }
  });

  it('given a forged, tampered or expired token, when it is checked, then it is refused with the code verifyJwt gives, and each check of it is a job again', async () => {
    const now = Date.now();
    const forged = signJwt({ id: 'x', exp: Math.floor(now / 1000) + 60 }, generateP256KeyPair().privateKey);
    const own = await enclave.signJwtOnThread({ id: 'y', exp: Math.floor(now / 1000) + 60 });
    const [head, , signature] = own.split('.');
    const tampered = `${head}.${Buffer.from(JSON.stringify({ id: 'z', exp: Math.floor(now / 1000) + 60 })).toString('base64url')}.${signature}`;
    const expired = await enclave.signJwtOnThread({ id: 'w', exp: Math.floor(now / 1000) - 1 });
    const jobs = vi.spyOn(pool, 'verifyJwt');
    try {
      for (const token of [forged, tampered, 'not a token', forged]) {
        await expect(enclave.verifyJwtOnThread(token, () => now)).rejects.toMatchObject({ name: 'CryptoError', code: 'ERR_JWT_INVALID' });
      }
      await expect(enclave.verifyJwtOnThread(expired, () => now)).rejects.toMatchObject({ code: 'ERR_JWT_EXPIRED' });
      await expect(enclave.verifyJwtOnThread(expired, () => now)).rejects.toMatchObject({ code: 'ERR_JWT_EXPIRED' });
      expect(jobs).toHaveBeenCalledTimes(6);
    } finally {
      jobs.mockRestore();
    }
  });

  it('given more tokens than it remembers, when the first is checked again, then it is a job again (the oldest went first)', async () => {
    const exp = Math.floor(Date.now() / 1000) + 600;
    const tokens = await Promise.all(Array.from({ length: 1025 }, (_, i) => enclave.signJwtOnThread({ id: `t${i}`, exp })));
    for (const token of tokens) await enclave.verifyJwtOnThread(token, Date.now);
    const jobs = vi.spyOn(pool, 'verifyJwt');
    try {
      await enclave.verifyJwtOnThread(tokens[1024]!, Date.now);
      expect(jobs).toHaveBeenCalledTimes(0);
      await enclave.verifyJwtOnThread(tokens[0]!, Date.now);
      expect(jobs).toHaveBeenCalledTimes(1);
    } finally {
      jobs.mockRestore();
    }
  });
});
