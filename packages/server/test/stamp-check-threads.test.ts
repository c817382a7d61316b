// X-Stamp and client-signature checks on the enclave's worker threads (Enclave.checkStamp and
// Enclave.checkClientSignature, decision 0022): the same answers on a signer thread as
// in-process, for every scheme, and never a throw for a bad stamp or signature. A stamp the
// enclave made itself (stampWith, the proxy's) is answered once without a job (own-stamps.ts).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClientSignature, generateP256KeyPair, parseApiKeyStamp, stampApiKey, type ClientSignature, type StampScheme } from '@walletkit/crypto';
import { loadConfig } from '../src/config';
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
    expect(await enclave.checkStamp(utf8.encode(body), stamp)).toBe(true);
    expect(await enclave.checkStamp(utf8.encode(`${body} `), stamp)).toBe(false);
    // Another key's stamp of the same body, under this key's public key.
    const other = parseApiKeyStamp(stampApiKey(body, { privateKey: randomBytes(32).toString('hex'), scheme }));
    expect(await enclave.checkStamp(utf8.encode(body), { ...stamp, signature: other.signature })).toBe(false);
  });

  it('answers a stamp of its own (stampWith) over its very body without a job, once; over another body, under another key or a second time, it checks as any other', async () => {
    const { sealedPrivateKey, publicKey } = await enclave.createSealedApiKey();
    const jobs = vi.spyOn((enclave as unknown as { signer: { checkStamp: (job: unknown) => Promise<boolean> } }).signer, 'checkStamp');
    try {
      const body = JSON.stringify({ type: 'ACTIVITY_TYPE_INIT_OTP', nonce: randomBytes(8).toString('hex') });
      const stamp = parseApiKeyStamp(await enclave.stampWith(sealedPrivateKey, publicKey, body));
      // Another body first: refused by a job, and the entry stays for its own body.
      expect(await enclave.checkStamp(utf8.encode(`${body} `), stamp)).toBe(false);
      expect(jobs).toHaveBeenCalledTimes(1);
      // The same signature under another key's name.
      const other = generateP256KeyPair();
      expect(await enclave.checkStamp(utf8.encode(body), { ...stamp, publicKey: other.publicKey })).toBe(false);
      expect(jobs).toHaveBeenCalledTimes(2);
      expect(await enclave.checkStamp(utf8.encode(body), stamp)).toBe(true);
      expect(jobs).toHaveBeenCalledTimes(2);
      // Answered once: the second check is a job's, with the same answer.
      expect(await enclave.checkStamp(utf8.encode(body), stamp)).toBe(true);
      expect(jobs).toHaveBeenCalledTimes(3);
      // A key whose public half is not the sealed key's never stamps, and leaves nothing behind.
      await expect(enclave.stampWith(sealedPrivateKey, other.publicKey, body)).rejects.toMatchObject({ code: 'ERR_INTERNAL' });
    } finally {
      jobs.mockRestore();
    }
  });

  it('answers false, never a throw, for a signature that is not one', async () => {
    const body = '{"a":1}';
    const stamp = parseApiKeyStamp(stampApiKey(body, { privateKey: randomBytes(32).toString('hex') }));
    for (const signature of ['', '00', 'zz', '30'.repeat(200)]) {
      expect(await enclave.checkStamp(utf8.encode(body), { ...stamp, signature })).toBe(false);
    }
  });

  it('answers concurrent checks each with its own result', async () => {
    const body = '{"b":2}';
    const stamp = parseApiKeyStamp(stampApiKey(body, { privateKey: randomBytes(32).toString('hex') }));
    const checks = await Promise.all(Array.from({ length: 20 }, (_, i) => enclave.checkStamp(utf8.encode(i % 2 ? body : `${body}x`), stamp)));
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
