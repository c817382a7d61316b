import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { p256 } from '@noble/curves/nist.js';
import { verifyAppProofSignature } from '@turnkey/crypto';
import {
  bytesToHex,
  createClientSignature,
  generateP256KeyPair,
  hexToBytes,
  signAppProof,
  utf8ToBytes,
  verifyAppProof,
  verifyClientSignature,
} from '../src/index';
import { webCryptoVerify } from './webcrypto';
import { codeOf } from './support';

const session = generateP256KeyPair();
const enclave = generateP256KeyPair();
/** The enclave's encryption key, carried first in an App Proof's publicKey (Turnkey's layout). */
const encryptionKey = generateP256KeyPair().publicKeyUncompressed;

describe('clientSignature', () => {
  it('given a token-usage message, when signed, then it carries the compressed key and WebCrypto verifies raw r||s over SHA-256', async () => {
    const message = JSON.stringify({ login: { tokenId: 'vt-1' } });
    const sig = createClientSignature({ privateKey: session.privateKey, message });
    expect(sig).toMatchObject({ publicKey: session.publicKey, scheme: 'CLIENT_SIGNATURE_SCHEME_API_P256', message });
    expect(sig.signature).toMatch(/^[0-9a-f]{128}$/);
    expect(await webCryptoVerify(session.publicKeyUncompressed, hexToBytes(sig.signature), utf8ToBytes(message))).toBe(true);
    expect(verifyClientSignature(sig)).toBe(true);
  });

  it('given a client signature, when the message, key or scheme changes, then it does not verify (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (message, other) => {
        fc.pre(message !== other);
        const sig = createClientSignature({ privateKey: session.privateKey, message });
        expect(verifyClientSignature(sig)).toBe(true);
        expect(verifyClientSignature({ ...sig, message: other })).toBe(false);
        expect(verifyClientSignature({ ...sig, publicKey: enclave.publicKey })).toBe(false);
        expect(verifyClientSignature({ ...sig, scheme: 'X' as 'CLIENT_SIGNATURE_SCHEME_API_P256' })).toBe(false);
      }),
      { numRuns: 20 },
    );
    expect(verifyClientSignature(null as never)).toBe(false);
    expect(verifyClientSignature({ publicKey: 'zz', scheme: 'CLIENT_SIGNATURE_SCHEME_API_P256', message: '', signature: '00' })).toBe(false);
  });
});

describe('App Proofs', () => {
  it('given a payload, when signed, then the proof carries the encryption and signing keys (130 bytes) and a raw r||s signature that WebCrypto and Turnkey verify', async () => {
    const proof = signAppProof({ type: 'APP_PROOF_TYPE_ADDRESS_DERIVATION', address: '0xabc', timestampMs: '1' }, enclave.privateKey, encryptionKey);
    expect(proof.scheme).toBe('SIGNATURE_SCHEME_EPHEMERAL_KEY_P256');
    expect(proof.publicKey).toBe(encryptionKey + enclave.publicKeyUncompressed);
    expect(proof.signature).toMatch(/^[0-9a-f]{128}$/);
    expect(JSON.parse(proof.proofPayload)).toEqual({ type: 'APP_PROOF_TYPE_ADDRESS_DERIVATION', address: '0xabc', timestampMs: '1' });
    expect(await webCryptoVerify(enclave.publicKeyUncompressed, hexToBytes(proof.signature), utf8ToBytes(proof.proofPayload))).toBe(true);
    // Turnkey's own check of the signature and key layout (no boot proof needed for it).
    expect(() => verifyAppProofSignature(proof)).not.toThrow();
    expect(verifyAppProof(proof, enclave.publicKeyUncompressed)).toBe(true);
    expect(verifyAppProof(proof, enclave.publicKey)).toBe(true);
    // The encryption half is not the signer: pinning it verifies nothing.
    expect(verifyAppProof(proof, encryptionKey)).toBe(false);
  });

  it('given a proof of the earlier layout (signing key alone, DER signature), when verified against the pinned key, then it still verifies', async () => {
    const payload = '{"n":1}';
    const der = bytesToHex(p256.sign(utf8ToBytes(payload), hexToBytes(enclave.privateKey), { prehash: true, format: 'der' }));
    const legacy = { scheme: 'SIGNATURE_SCHEME_EPHEMERAL_KEY_P256' as const, publicKey: enclave.publicKeyUncompressed, proofPayload: payload, signature: der };
    expect(verifyAppProof(legacy, enclave.publicKeyUncompressed)).toBe(true);
    expect(verifyAppProof({ ...legacy, proofPayload: '{"n":2}' }, enclave.publicKeyUncompressed)).toBe(false);
  });

  it('given a proof, when its payload is altered or the pinned key differs, then it does not verify', () => {
    const proof = signAppProof({ n: 1 }, enclave.privateKey, encryptionKey);
    const attacker = generateP256KeyPair();
    expect(verifyAppProof({ ...proof, proofPayload: '{"n":2}' }, enclave.publicKeyUncompressed)).toBe(false);
    expect(verifyAppProof(proof, attacker.publicKeyUncompressed)).toBe(false);
    expect(verifyAppProof(signAppProof({ n: 1 }, attacker.privateKey, encryptionKey), enclave.publicKeyUncompressed)).toBe(false);
    expect(verifyAppProof({ ...proof, signature: 'zz' }, enclave.publicKeyUncompressed)).toBe(false);
    expect(verifyAppProof(null as never, enclave.publicKeyUncompressed)).toBe(false);
    expect(codeOf(() => verifyAppProof(proof, 'nope'))).toBe('ERR_INVALID_PUBLIC_KEY');
    expect(codeOf(() => signAppProof({}, '00', encryptionKey))).toBe('ERR_INVALID_PARAMETER');
  });
});
