import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createClientSignature, generateP256KeyPair, hexToBytes, signAppProof, utf8ToBytes, verifyAppProof, verifyClientSignature } from '../src/index';
import { derToRaw, webCryptoVerify } from './webcrypto';
import { codeOf } from './support';

const session = generateP256KeyPair();
const enclave = generateP256KeyPair();

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
  it('given a payload, when signed, then the proof names the uncompressed key and WebCrypto verifies the DER signature', async () => {
    const proof = signAppProof({ type: 'APP_PROOF_TYPE_ADDRESS_DERIVATION', address: '0xabc' }, enclave.privateKey);
    expect(proof.scheme).toBe('SIGNATURE_SCHEME_EPHEMERAL_KEY_P256');
    expect(proof.publicKey).toBe(enclave.publicKeyUncompressed);
    expect(JSON.parse(proof.proofPayload)).toEqual({ type: 'APP_PROOF_TYPE_ADDRESS_DERIVATION', address: '0xabc' });
    expect(await webCryptoVerify(enclave.publicKeyUncompressed, derToRaw(proof.signature), utf8ToBytes(proof.proofPayload))).toBe(true);
    expect(verifyAppProof(proof, enclave.publicKeyUncompressed)).toBe(true);
    expect(verifyAppProof(proof, enclave.publicKey)).toBe(true);
  });

  it('given a proof, when its payload is altered or the pinned key differs, then it does not verify', () => {
    const proof = signAppProof({ n: 1 }, enclave.privateKey);
    const attacker = generateP256KeyPair();
    expect(verifyAppProof({ ...proof, proofPayload: '{"n":2}' }, enclave.publicKeyUncompressed)).toBe(false);
    expect(verifyAppProof(proof, attacker.publicKeyUncompressed)).toBe(false);
    expect(verifyAppProof(signAppProof({ n: 1 }, attacker.privateKey), enclave.publicKeyUncompressed)).toBe(false);
    expect(verifyAppProof({ ...proof, signature: 'zz' }, enclave.publicKeyUncompressed)).toBe(false);
    expect(verifyAppProof(null as never, enclave.publicKeyUncompressed)).toBe(false);
    expect(codeOf(() => verifyAppProof(proof, 'nope'))).toBe('ERR_INVALID_PUBLIC_KEY');
    expect(codeOf(() => signAppProof({}, '00'))).toBe('ERR_INVALID_PARAMETER');
  });
});
