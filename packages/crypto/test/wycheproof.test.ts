import { secp256k1 } from '@noble/curves/secp256k1.js';
import { describe, expect, it } from 'vitest';
import { compressPublicKey, hexToBytes, verifyApiKeyStamp, verifyP256Der, verifyRawSignature } from '../src/index';
import { ecdsaVerify } from '../src/ecdsa';
import { loadWycheproof, runWycheproof } from './vectors';

describe('Wycheproof ECDSA P-256 SHA-256 (DER)', () => {
  const file = loadWycheproof('ecdsa_secp256r1_sha256_test.json');

  it('given every vector as a P-256 stamp, when verified by verifyApiKeyStamp with its default verifier (verifyP256Der), then valid pass, invalid fail, nothing throws', () => {
    // Alternate key encodings across groups: stamps carry compressed keys, but the DER
    // verifier must accept both.
    let group = 0;
    const { total, failures } = runWycheproof(file, (g, t) => {
      if (t === g.tests[0]) group++;
      const publicKey = group % 2 ? compressPublicKey('p256', g.publicKey.uncompressed!) : g.publicKey.uncompressed!;
      const viaStamp = verifyApiKeyStamp(hexToBytes(t.msg), { publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: t.sig });
      if (t.tcId % 8 === 0 && viaStamp !== verifyP256Der(publicKey, hexToBytes(t.msg), t.sig)) return 'stamp and verifyP256Der disagree';
      return viaStamp;
    });
    expect(total).toBe(file.numberOfTests);
    expect(failures).toEqual([]);
  });
});

describe('Wycheproof ECDSA secp256k1 SHA-256 (DER)', () => {
  const file = loadWycheproof('ecdsa_secp256k1_sha256_test.json');

  it('given every vector, when verified (high-S accepted), then valid pass, invalid fail, nothing throws', () => {
    const { total, failures } = runWycheproof(file, (g, t) => ecdsaVerify(secp256k1, g.publicKey.uncompressed!, hexToBytes(t.msg), hexToBytes(t.sig), 'der'));
    expect(total).toBe(file.numberOfTests);
    expect(failures).toEqual([]);
  });
});

describe('Wycheproof Ed25519', () => {
  const file = loadWycheproof('ed25519_test.json');

  it('given every vector, when verified as an ed25519 stamp, then valid pass, invalid fail, nothing throws', () => {
    const { total, failures } = runWycheproof(file, (g, t) =>
      verifyApiKeyStamp(hexToBytes(t.msg), {
        publicKey: g.publicKey.pk!,
        scheme: 'SIGNATURE_SCHEME_TK_API_ED25519',
        signature: t.sig,
      }),
    );
    expect(total).toBe(file.numberOfTests);
    expect(failures).toEqual([]);
  });

  it('given every vector, when verified as a raw ed25519 signature {r, s}, then valid pass, invalid fail', () => {
    // Signatures of the wrong length cannot be split into 32-byte r and s: they reach the
    // verifier as malformed {r, s} and must be rejected, not thrown on.
    const { failures } = runWycheproof(file, (g, t) =>
      verifyRawSignature({
        curve: 'CURVE_ED25519',
        publicKey: hexToBytes(g.publicKey.pk!),
        digestOrMessage: hexToBytes(t.msg),
        signature: { r: t.sig.slice(0, 64), s: t.sig.slice(64), v: '00' },
      }),
    );
    expect(failures).toEqual([]);
  });
});
