import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64urlDecode, base64urlEncode, bytesToHex, bytesToUtf8, decodeJwt, generateP256KeyPair, signJwt, utf8ToBytes, verifyJwt } from '../src/index';
import { webCryptoVerify } from './webcrypto';
import { codeOf } from './support';

const enclave = generateP256KeyPair();
const NOW_MS = 1_700_000_000_000;
const now = () => NOW_MS;
const CLAIMS = {
  public_key: generateP256KeyPair().publicKey,
  session_type: 'SESSION_TYPE_READ_WRITE',
  user_id: 'u1',
  organization_id: 'o1',
  exp: NOW_MS / 1000 + 900,
};

describe('ES256 JWT', () => {
  it('given claims, when signed, then the header is ES256/JWT/kid and WebCrypto verifies the raw r||s signature', async () => {
    const token = signJwt(CLAIMS, enclave.privateKey, { kid: 'k1' });
    const [h, p, s] = token.split('.') as [string, string, string];
    expect(JSON.parse(bytesToUtf8(base64urlDecode(h)))).toEqual({ alg: 'ES256', typ: 'JWT', kid: 'k1' });
    expect(base64urlDecode(s)).toHaveLength(64);
    expect(await webCryptoVerify(enclave.publicKeyUncompressed, base64urlDecode(s), utf8ToBytes(`${h}.${p}`))).toBe(true);
    expect(verifyJwt(token, enclave.publicKey, { now })).toEqual(CLAIMS);
    expect(decodeJwt(token)).toEqual(CLAIMS);
  });

  it('given a JWT signed by WebCrypto (high-S possible), when verified, then it is accepted', async () => {
    const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    const publicKey = bytesToHex(new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey)));
    for (let i = 0; i < 8; i++) {
      const input = `${base64urlEncode(utf8ToBytes('{"alg":"ES256"}'))}.${base64urlEncode(utf8ToBytes(JSON.stringify({ i })))}`;
      const sig = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, utf8ToBytes(input)));
      expect(verifyJwt(`${input}.${base64urlEncode(sig)}`, publicKey)).toEqual({ i });
    }
  });

  it('given exp and a clock, then ERR_JWT_EXPIRED exactly when exp <= now in seconds (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4_000_000_000 }), fc.integer({ min: 0, max: 4_000_000_000_000 }), (exp, nowMs) => {
        const token = signJwt({ exp }, enclave.privateKey);
        const code = codeOf(() => verifyJwt(token, enclave.publicKeyUncompressed, { now: () => nowMs }));
        expect(code).toBe(exp <= nowMs / 1000 ? 'ERR_JWT_EXPIRED' : undefined);
      }),
      { numRuns: 30 },
    );
  });

  it('given an expired token with a bad signature, then ERR_JWT_INVALID (signature is checked first)', () => {
    const token = signJwt({ exp: 1 }, generateP256KeyPair().privateKey);
    expect(codeOf(() => verifyJwt(token, enclave.publicKey, { now }))).toBe('ERR_JWT_INVALID');
  });

  it('given tampered, alg-none, malformed or future-nbf tokens, then ERR_JWT_INVALID', () => {
    const token = signJwt(CLAIMS, enclave.privateKey);
    const [h, p, s] = token.split('.') as [string, string, string];
    const forgedPayload = base64urlEncode(utf8ToBytes(JSON.stringify({ ...CLAIMS, user_id: 'admin' })));
    const none = base64urlEncode(utf8ToBytes('{"alg":"none","typ":"JWT"}'));
    const hs = base64urlEncode(utf8ToBytes('{"alg":"HS256","typ":"JWT"}'));
    for (const bad of [
      `${h}.${forgedPayload}.${s}`,
      `${none}.${p}.`,
      `${none}.${p}.${s}`,
      `${hs}.${p}.${s}`,
      `${h}.${p}`,
      `${h}.${p}.${s}.x`,
      `${h}.${p}.${s.slice(0, -2)}`,
      `${h}.${p}.!!!`,
      'not a token',
      signJwt({ exp: 'soon' }, enclave.privateKey),
      signJwt({ nbf: NOW_MS / 1000 + 60 }, enclave.privateKey),
    ]) {
      expect(codeOf(() => verifyJwt(bad, enclave.publicKey, { now }))).toBe('ERR_JWT_INVALID');
    }
    expect(codeOf(() => decodeJwt('a.b'))).toBe('ERR_JWT_INVALID');
    expect(codeOf(() => verifyJwt(token, 'nope'))).toBe('ERR_INVALID_PUBLIC_KEY');
  });

  it('given tokens of two keys checked in turn, then each verifies with its own key only, and an invalid pinned key is refused whatever was pinned before', () => {
    const other = generateP256KeyPair();
    const ours = signJwt(CLAIMS, enclave.privateKey);
    const theirs = signJwt(CLAIMS, other.privateKey);
    for (let i = 0; i < 3; i += 1) {
      expect(verifyJwt(ours, enclave.publicKey, { now })).toEqual(CLAIMS);
      expect(codeOf(() => verifyJwt(ours, other.publicKey, { now }))).toBe('ERR_JWT_INVALID');
      expect(verifyJwt(theirs, other.publicKeyUncompressed, { now })).toEqual(CLAIMS);
      expect(codeOf(() => verifyJwt(theirs, enclave.publicKeyUncompressed, { now }))).toBe('ERR_JWT_INVALID');
      expect(codeOf(() => verifyJwt(ours, `04${'00'.repeat(64)}`, { now }))).toBe('ERR_INVALID_PUBLIC_KEY');
      expect(codeOf(() => verifyJwt(ours, 'zz', { now }))).toBe('ERR_INVALID_PUBLIC_KEY');
    }
  });
});
