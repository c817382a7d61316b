// X-Stamp and client-signature checks on the enclave's worker threads (Enclave.checkStamp and
// Enclave.checkClientSignature, decision 0022): the same answers on a signer thread as
// in-process, for every scheme, and never a throw for a bad stamp or signature. A stamp the
// enclave made itself (stampWith, the proxy's) is answered once without a job (own-stamps.ts), and
// so is a pass it gave a call in this process (stampInProcess, decision 0027) until released.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClientSignature, generateP256KeyPair, parseApiKeyStamp, stampApiKey, type ClientSignature, type StampScheme } from '@walletkit/crypto';
import { loadConfig } from '../src/config';
import { checkStamp as checkSignature } from '../src/activity/stamp-check';
import { Enclave } from '../src/enclave';
import { openTestStore, type TestStore } from './support/stores';

const SCHEMES: StampScheme[] = ['SIGNATURE_SCHEME_TK_API_P256', 'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191', 'SIGNATURE_SCHEME_TK_API_ED25519'];
const utf8 = new TextEncoder();

describe.each([1, 0])('Enclave.checkStamp with %i signer threads', (threads) => {
  let store: TestStore;
  let enclave: Enclave;

  beforeAll(async () => {
    store = await openTestStore('pglite');
    const config = loadConfig(
      {},
      { port: 0, logLevel: 'silent', masterKey: randomBytes(32).toString('hex'), dataDir: '/nonexistent-test-dir', signerThreads: threads },
    );
    enclave = await Enclave.open(store, config);
  });
  afterAll(async () => {
    await enclave.close();
    await store.dispose();
  });

  it.each(SCHEMES)('accepts a %s stamp over its body and refuses it over any other', async (scheme) => {
    const body = JSON.stringify({ type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS', nonce: randomBytes(8).toString('hex') });
    const stamp = parseApiKeyStamp(stampApiKey(body, { privateKey: randomBytes(32).toString('hex'), scheme }));
    expect(await enclave.stamps.checkStamp(utf8.encode(body), stamp)).toBe(true);
    expect(await enclave.stamps.checkStamp(utf8.encode(`${body} `), stamp)).toBe(false);
    // Another key's stamp of the same body, under this key's public key.
    const other = parseApiKeyStamp(stampApiKey(body, { privateKey: randomBytes(32).toString('hex'), scheme }));
    expect(await enclave.stamps.checkStamp(utf8.encode(body), { ...stamp, signature: other.signature })).toBe(false);
  });

  it('answers a stamp of its own (stampWith) over its very body without a job, once; over another body, under another key or a second time, it checks as any other', async () => {
    const { sealedPrivateKey, publicKey } = await enclave.stamps.createSealedApiKey();
    const jobs = vi.spyOn((enclave as unknown as { signer: { checkStamp: (job: unknown) => Promise<boolean> } }).signer, 'checkStamp');
    try {
      const body = JSON.stringify({ type: 'ACTIVITY_TYPE_INIT_OTP', nonce: randomBytes(8).toString('hex') });
      const stamp = parseApiKeyStamp(await enclave.stamps.stampWith(sealedPrivateKey, publicKey, body));
      // Another body first: refused by a job, and the entry stays for its own body.
      expect(await enclave.stamps.checkStamp(utf8.encode(`${body} `), stamp)).toBe(false);
      expect(jobs).toHaveBeenCalledTimes(1);
      // The same signature under another key's name.
      const other = generateP256KeyPair();
      expect(await enclave.stamps.checkStamp(utf8.encode(body), { ...stamp, publicKey: other.publicKey })).toBe(false);
      expect(jobs).toHaveBeenCalledTimes(2);
      expect(await enclave.stamps.checkStamp(utf8.encode(body), stamp)).toBe(true);
      expect(jobs).toHaveBeenCalledTimes(2);
      // Answered once: the second check is a job's, with the same answer.
      expect(await enclave.stamps.checkStamp(utf8.encode(body), stamp)).toBe(true);
      expect(jobs).toHaveBeenCalledTimes(3);
      // A key whose public half is not the sealed key's never stamps, and leaves nothing behind.
      await expect(enclave.stamps.stampWith(sealedPrivateKey, other.publicKey, body)).rejects.toMatchObject({ code: 'ERR_INTERNAL' });
    } finally {
      jobs.mockRestore();
    }
  });

  it('gives a call in this process a pass once the sealed key has stamped here: no job, good for its body until released, no signature anywhere else', async () => {
    const { sealedPrivateKey, publicKey } = await enclave.stamps.createSealedApiKey();
    const pool = (enclave as unknown as { signer: { stamp: (job: unknown) => Promise<string>; checkStamp: (job: unknown) => Promise<boolean> } }).signer;
    const stampJobs = vi.spyOn(pool, 'stamp');
    const checkJobs = vi.spyOn(pool, 'checkStamp');
    try {
      const body = (n: number) => JSON.stringify({ type: 'ACTIVITY_TYPE_INIT_OTP', nonce: randomBytes(8).toString('hex'), n });
      // The first time, a signature: it opens the key and proves it is publicKey's.
      const firstBody = body(1);
      const first = await enclave.stamps.stampInProcess(sealedPrivateKey, publicKey, firstBody);
      const signed = parseApiKeyStamp(first.header);
      expect(checkSignature({ body: utf8.encode(firstBody), stamp: signed })).toBe(true);
      expect(stampJobs).toHaveBeenCalledTimes(1);
      first.release();

      // Then a pass: no job, the key's stamped public key and scheme, and no signature of anything.
      const passBody = body(2);
      const given = await enclave.stamps.stampInProcess(sealedPrivateKey, publicKey, passBody);
      expect(stampJobs).toHaveBeenCalledTimes(1);
      const pass = parseApiKeyStamp(given.header);
      expect(pass).toMatchObject({ publicKey: signed.publicKey, scheme: signed.scheme });
      expect(pass.signature).not.toBe(signed.signature);
      expect(checkSignature({ body: utf8.encode(passBody), stamp: pass })).toBe(false);
      expect(enclave.stamps.passesHeld).toBe(1);

      // Good for its very body, as often as it is checked (a request run again), without a job.
      expect(await enclave.stamps.checkStamp(utf8.encode(passBody), pass)).toBe(true);
      expect(await enclave.stamps.checkStamp(utf8.encode(passBody), pass)).toBe(true);
      expect(checkJobs).toHaveBeenCalledTimes(0);
      // Another body, another key's name or scheme: checked as a signature, and refused.
      expect(await enclave.stamps.checkStamp(utf8.encode(`${passBody} `), pass)).toBe(false);
      expect(await enclave.stamps.checkStamp(utf8.encode(passBody), { ...pass, publicKey: generateP256KeyPair().publicKey })).toBe(false);
      expect(await enclave.stamps.checkStamp(utf8.encode(passBody), { ...pass, scheme: 'SIGNATURE_SCHEME_TK_API_ED25519' })).toBe(false);
      // Released (its call returned): worth nothing.
      given.release();
      expect(enclave.stamps.passesHeld).toBe(0);
      expect(await enclave.stamps.checkStamp(utf8.encode(passBody), pass)).toBe(false);

      // A public key the sealed key is not: refused as stampWith refuses it, and nothing changes.
      const other = generateP256KeyPair();
      await expect(enclave.stamps.stampInProcess(sealedPrivateKey, other.publicKey, body(3))).rejects.toMatchObject({ code: 'ERR_INTERNAL' });
      // Another sealed key claiming this public key: opened, refused, no pass.
      const stranger = await enclave.stamps.createSealedApiKey();
      await expect(enclave.stamps.stampInProcess(stranger.sealedPrivateKey, publicKey, body(4))).rejects.toMatchObject({ code: 'ERR_INTERNAL' });
      expect(enclave.stamps.passesHeld).toBe(0);
      // The proven key still gets passes.
      const jobsSoFar = stampJobs.mock.calls.length;
      const again = await enclave.stamps.stampInProcess(sealedPrivateKey, publicKey, body(5));
      expect(stampJobs).toHaveBeenCalledTimes(jobsSoFar);
      again.release();
    } finally {
      stampJobs.mockRestore();
      checkJobs.mockRestore();
    }
  });

  it('answers false, never a throw, for a signature that is not one', async () => {
    const body = '{"a":1}';
    const stamp = parseApiKeyStamp(stampApiKey(body, { privateKey: randomBytes(32).toString('hex') }));
    for (const signature of ['', '00', 'zz', '30'.repeat(200)]) {
      expect(await enclave.stamps.checkStamp(utf8.encode(body), { ...stamp, signature })).toBe(false);
    }
  });

  it('answers concurrent checks each with its own result', async () => {
    const body = '{"b":2}';
    const stamp = parseApiKeyStamp(stampApiKey(body, { privateKey: randomBytes(32).toString('hex') }));
    const checks = await Promise.all(Array.from({ length: 20 }, (_, i) => enclave.stamps.checkStamp(utf8.encode(i % 2 ? body : `${body}x`), stamp)));
    expect(checks).toEqual(Array.from({ length: 20 }, (_, i) => i % 2 === 1));
  });

  it('checks client signatures: the signature by the key it names holds; another message, another key, a flipped byte or anything malformed is false, never a throw', async () => {
    const key = generateP256KeyPair();
    const other = generateP256KeyPair();
    const message = JSON.stringify({ type: 'USAGE_TYPE_LOGIN', tokenId: randomBytes(8).toString('hex') });
    const honest = createClientSignature({ privateKey: key.privateKey, message });
    const flipped = `${honest.signature.slice(0, -1)}${honest.signature.endsWith('0') ? '1' : '0'}`;
    const cases: Array<[string, ClientSignature, boolean]> = [
      ['honest', honest, true],
      ['honest, key uncompressed', { ...honest, publicKey: key.publicKeyUncompressed }, true],
      ['another message', { ...honest, message: `${message} ` }, false],
      ['under another key', { ...honest, publicKey: other.publicKey }, false],
      ['a flipped byte', { ...honest, signature: flipped }, false],
      ['not hex', { ...honest, signature: 'zz'.repeat(64) }, false],
      ['short', { ...honest, signature: honest.signature.slice(2) }, false],
      ['another scheme', { ...honest, scheme: 'CLIENT_SIGNATURE_SCHEME_OTHER' as never }, false],
      ['a key off the curve', { ...honest, publicKey: `02${'ff'.repeat(32)}` }, false],
      ['no message', { ...honest, message: undefined as never }, false],
    ];
    const answers = await Promise.all(cases.map(([, sig]) => enclave.checkClientSignature(sig)));
    expect(Object.fromEntries(cases.map(([what], i) => [what, answers[i]]))).toEqual(Object.fromEntries(cases.map(([what, , want]) => [what, want])));
  });
});
