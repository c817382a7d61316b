import fc from 'fast-check';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it, vi } from 'vitest';
import {
  base64urlDecode,
  base64urlEncode,
  bytesToHex,
  bytesToUtf8,
  generateEd25519KeyPair,
  generateP256KeyPair,
  generateSecp256k1KeyPair,
  hexToBytes,
  parseApiKeyStamp,
  stampApiKey,
  utf8ToBytes,
  verifyApiKeyStamp,
  type StampScheme,
} from '../src/index';
import { codeOf } from './support';

const p256Key = generateP256KeyPair();
const k1Key = generateSecp256k1KeyPair();
const edKey = generateEd25519KeyPair();
const KEYS: Record<StampScheme, { privateKey: string; publicKey: string }> = {
  SIGNATURE_SCHEME_TK_API_P256: p256Key,
  SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191: k1Key,
  SIGNATURE_SCHEME_TK_API_ED25519: edKey,
};
const SCHEMES = Object.keys(KEYS) as StampScheme[];
const BODY = '{"type":"ACTIVITY_TYPE_CREATE_WALLET","timestampMs":"1700000000000","organizationId":"o","parameters":{}}';

function header(json: unknown): string {
  return base64urlEncode(utf8ToBytes(typeof json === 'string' ? json : JSON.stringify(json)));
}

describe('API-key stamps', () => {
  it.each(SCHEMES)('given a %s key, when a body is stamped, then the header decodes to {publicKey, scheme, signature} and verifies', (scheme) => {
    const key = KEYS[scheme];
    const stamp = stampApiKey(BODY, { ...key, scheme });
    expect(stamp).toMatch(/^[A-Za-z0-9_-]+$/);
    const json = bytesToUtf8(base64urlDecode(stamp));
    expect(Object.keys(JSON.parse(json))).toEqual(['publicKey', 'scheme', 'signature']);
    const parsed = parseApiKeyStamp(stamp);
    expect(parsed.scheme).toBe(scheme);
    expect(parsed.publicKey).toBe(key.publicKey);
    expect(parsed.signature).toMatch(/^[0-9a-f]+$/);
    if (scheme === 'SIGNATURE_SCHEME_TK_API_ED25519') expect(parsed.signature).toHaveLength(128);
    else expect(parsed.signature.startsWith('30')).toBe(true); // ASN.1 DER SEQUENCE
    expect(verifyApiKeyStamp(utf8ToBytes(BODY), parsed)).toBe(true);
  });

  it('given the default scheme and an uncompressed public key, when stamped, then the stamp carries the compressed key', () => {
    const stamp = parseApiKeyStamp(stampApiKey(BODY, { privateKey: p256Key.privateKey, publicKey: p256Key.publicKeyUncompressed }));
    expect(stamp.scheme).toBe('SIGNATURE_SCHEME_TK_API_P256');
    expect(stamp.publicKey).toBe(p256Key.publicKey);
  });

  it('given an EIP-191 stamp, when compared with viem personal_sign of the same body, then r and s are identical', async () => {
    const stamp = parseApiKeyStamp(stampApiKey(BODY, { ...k1Key, scheme: 'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191' }));
    const viemSig = await privateKeyToAccount(`0x${k1Key.privateKey}`).signMessage({ message: { raw: utf8ToBytes(BODY) } });
    const der = hexToBytes(stamp.signature);
    const rLen = der[3]!;
    const r = BigInt(`0x${bytesToHex(der.subarray(4, 4 + rLen))}`);
    const s = BigInt(`0x${bytesToHex(der.subarray(6 + rLen))}`);
    expect(r).toBe(BigInt(`0x${viemSig.slice(2, 66)}`));
    expect(s).toBe(BigInt(`0x${viemSig.slice(66, 130)}`));
  });

  it.each(SCHEMES)('given a %s stamp, when any byte of the body changes, then verification fails (property)', (scheme) => {
    const key = KEYS[scheme];
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 200 }), fc.nat(), fc.integer({ min: 1, max: 255 }), (body, at, flip) => {
        const stamp = parseApiKeyStamp(stampApiKey(body, { ...key, scheme }));
        expect(verifyApiKeyStamp(body, stamp)).toBe(true);
        const changed = body.slice();
        changed[at % body.length]! ^= flip;
        expect(verifyApiKeyStamp(changed, stamp)).toBe(false);
        expect(verifyApiKeyStamp(body.subarray(0, body.length - 1), stamp)).toBe(false);
      }),
      { numRuns: 15 },
    );
  });

  it('given a stamp by another key of the same scheme, then verification fails', () => {
    for (const scheme of SCHEMES) {
      const other =
        scheme === 'SIGNATURE_SCHEME_TK_API_ED25519'
          ? generateEd25519KeyPair()
          : scheme === 'SIGNATURE_SCHEME_TK_API_P256'
            ? generateP256KeyPair()
            : generateSecp256k1KeyPair();
      const stamp = parseApiKeyStamp(stampApiKey(BODY, { ...KEYS[scheme], scheme }));
      expect(verifyApiKeyStamp(utf8ToBytes(BODY), { ...stamp, publicKey: other.publicKey })).toBe(false);
      expect(verifyApiKeyStamp(utf8ToBytes(BODY), { ...stamp, scheme: SCHEMES.find((s) => s !== scheme)! })).toBe(false);
    }
  });

  it('given an injected P-256 verifier, when verifying, then it is called with (publicKey, raw body, DER hex) and its answer is used', () => {
    const stamp = parseApiKeyStamp(stampApiKey(BODY, p256Key));
    const body = utf8ToBytes(BODY);
    const verifyP256 = vi.fn(() => false);
    expect(verifyApiKeyStamp(body, stamp, { verifyP256 })).toBe(false);
    expect(verifyP256).toHaveBeenCalledWith(stamp.publicKey, body, stamp.signature);
    expect(
      verifyApiKeyStamp(body, stamp, {
        verifyP256: () => {
          throw new Error('boom');
        },
      }),
    ).toBe(false);
  });

  it('given garbage keys and signatures in a parsed stamp, then verification returns false without throwing', () => {
    const body = utf8ToBytes(BODY);
    for (const scheme of SCHEMES) {
      expect(verifyApiKeyStamp(body, { publicKey: `02${'00'.repeat(32)}`, scheme, signature: '3006020101020101' })).toBe(false);
      expect(verifyApiKeyStamp(body, { publicKey: 'zz', scheme, signature: '00' })).toBe(false);
      expect(verifyApiKeyStamp(body, { publicKey: KEYS[scheme].publicKey, scheme, signature: '' })).toBe(false);
    }
    expect(verifyApiKeyStamp(body, { publicKey: p256Key.publicKey, scheme: 'NOPE' as StampScheme, signature: '00' })).toBe(false);
  });

  it('given a private key and a public key that do not match, when stamping, then ERR_INVALID_PARAMETER', () => {
    expect(codeOf(() => stampApiKey(BODY, { privateKey: p256Key.privateKey, publicKey: generateP256KeyPair().publicKey }))).toBe('ERR_INVALID_PARAMETER');
    expect(codeOf(() => stampApiKey(BODY, { privateKey: 'nothex' }))).toBe('ERR_INVALID_PARAMETER');
    expect(codeOf(() => stampApiKey(BODY, { privateKey: p256Key.privateKey, scheme: 'X' as StampScheme }))).toBe('ERR_INVALID_PARAMETER');
  });

  const valid = { publicKey: p256Key.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: '3006020101020101' };
  it.each([
    ['empty header', ''],
    ['not base64url', '***'],
    ['not JSON', header('{not json')],
    ['a JSON array', header([valid])],
    ['JSON null', header('null')],
    ['missing publicKey', header({ scheme: valid.scheme, signature: valid.signature })],
    ['missing signature', header({ publicKey: valid.publicKey, scheme: valid.scheme })],
    ['missing scheme', header({ publicKey: valid.publicKey, signature: valid.signature })],
    ['numeric publicKey', header({ ...valid, publicKey: 12 })],
    ['non-hex signature', header({ ...valid, signature: 'xyz' })],
    ['odd-length hex', header({ ...valid, signature: '300' })],
    ['unknown scheme', header({ ...valid, scheme: 'SIGNATURE_SCHEME_TK_API_RSA' })],
    ['an extra field', header({ ...valid, extra: true })],
    ['a huge header', 'A'.repeat(10_000)],
  ])('given a stamp header with %s, when parsed, then ERR_STAMP_MALFORMED', (_name, bad) => {
    expect(codeOf(() => parseApiKeyStamp(bad))).toBe('ERR_STAMP_MALFORMED');
  });

  it('given a well-formed header, then it parses (and a padded base64url form is tolerated)', () => {
    const text = header(valid);
    expect(parseApiKeyStamp(text)).toEqual(valid);
    expect(parseApiKeyStamp(text + '='.repeat((4 - (text.length % 4)) % 4))).toEqual(valid);
  });

  it('given a JSON parser of its own, when a header is parsed, then that parser reads the decoded bytes once and whatever it refuses is ERR_STAMP_MALFORMED', () => {
    const seen: string[] = [];
    const parseJson = (bytes: Uint8Array) => {
      const text = new TextDecoder().decode(bytes);
      seen.push(text);
      if (text.includes('"scheme":"SIGNATURE_SCHEME_TK_API_P256","scheme"')) throw new Error('a key given twice');
      return JSON.parse(text);
    };
    expect(parseApiKeyStamp(header(valid), { parseJson })).toEqual(valid);
    expect(seen).toEqual([JSON.stringify(valid)]);
    const twice = `{"publicKey":"${valid.publicKey}","scheme":"SIGNATURE_SCHEME_TK_API_P256","scheme":"SIGNATURE_SCHEME_TK_API_P256","signature":"${valid.signature}"}`;
    expect(parseApiKeyStamp(header(twice))).toEqual(valid); // JSON.parse keeps the last
    expect(codeOf(() => parseApiKeyStamp(header(twice), { parseJson }))).toBe('ERR_STAMP_MALFORMED');
    // The parser's answer is held to the same shape as JSON.parse's.
    expect(codeOf(() => parseApiKeyStamp(header(valid), { parseJson: () => [valid] }))).toBe('ERR_STAMP_MALFORMED');
  });
});
