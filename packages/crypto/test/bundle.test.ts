import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bytesToHex,
  bytesToUtf8,
  compressPublicKey,
  generateP256KeyPair,
  hexToBytes,
  signBundle,
  utf8ToBytes,
  verifyBundle,
  type SignedBundle,
} from '../src/index';
import { derToRaw, webCryptoVerify } from './webcrypto';
import { codeOf } from './support';

const enclave = generateP256KeyPair();
const DATA = { targetPublic: generateP256KeyPair().publicKeyUncompressed, organizationId: 'org-1', otpId: 'otp-1' };

describe('signed bundles', () => {
  it('given OTP target data, when signed, then the bundle has the v1.0.0 wire shape and WebCrypto verifies the signature over the data bytes', async () => {
    const bundle = signBundle(DATA, enclave.privateKey);
    expect(Object.keys(bundle)).toEqual(['version', 'data', 'dataSignature', 'enclaveQuorumPublic']);
    expect(bundle.version).toBe('v1.0.0');
    expect(JSON.parse(bytesToUtf8(hexToBytes(bundle.data)))).toEqual(DATA);
    expect(bundle.enclaveQuorumPublic).toBe(enclave.publicKeyUncompressed);
    expect(await webCryptoVerify(enclave.publicKeyUncompressed, derToRaw(bundle.dataSignature), hexToBytes(bundle.data))).toBe(true);
  });

  it('given a bundle as object or JSON text, when verified against the pinned key (uncompressed or compressed), then the data comes back', () => {
    const bundle = signBundle(DATA, enclave.privateKey);
    expect(verifyBundle(bundle, enclave.publicKeyUncompressed)).toEqual(DATA);
    expect(verifyBundle<typeof DATA>(JSON.stringify(bundle), compressPublicKey('p256', enclave.publicKeyUncompressed)).otpId).toBe('otp-1');
  });

  it('given a bundle, when any byte of data or signature is changed, then verification throws ERR_INVALID_SIGNATURE (property)', () => {
    const bundle = signBundle(DATA, enclave.privateKey);
    fc.assert(
      fc.property(fc.constantFrom<'data' | 'dataSignature'>('data', 'dataSignature'), fc.nat(), fc.integer({ min: 1, max: 255 }), (field, at, flip) => {
        const bytes = hexToBytes(bundle[field]);
        bytes[at % bytes.length]! ^= flip;
        const tampered: SignedBundle = { ...bundle, [field]: bytesToHex(bytes) };
        expect(codeOf(() => verifyBundle(tampered, enclave.publicKeyUncompressed))).toBe('ERR_INVALID_SIGNATURE');
      }),
      { numRuns: 60 },
    );
  });

  it('given a validly signed bundle from another key, when verified against the pinned key, then ERR_INVALID_SIGNATURE (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.string()), (data) => {
        const attacker = generateP256KeyPair();
        const forged = signBundle(data, attacker.privateKey);
        expect(verifyBundle(forged, attacker.publicKeyUncompressed)).toEqual(data);
        expect(codeOf(() => verifyBundle(forged, enclave.publicKeyUncompressed))).toBe('ERR_INVALID_SIGNATURE');
        // Swapping in the pinned key's name does not help: the signature no longer matches.
        expect(codeOf(() => verifyBundle({ ...forged, enclaveQuorumPublic: enclave.publicKeyUncompressed }, enclave.publicKeyUncompressed))).toBe(
          'ERR_INVALID_SIGNATURE',
        );
      }),
      { numRuns: 15 },
    );
  });

  it('given malformed bundles or pins, then coded errors', () => {
    const bundle = signBundle(DATA, enclave.privateKey);
    expect(codeOf(() => verifyBundle('{not json', enclave.publicKeyUncompressed))).toBe('ERR_INVALID_PARAMETER');
    expect(codeOf(() => verifyBundle({ ...bundle, version: 'v2' as 'v1.0.0' }, enclave.publicKeyUncompressed))).toBe('ERR_INVALID_PARAMETER');
    expect(codeOf(() => verifyBundle({ ...bundle, data: 'xyz' }, enclave.publicKeyUncompressed))).toBe('ERR_INVALID_PARAMETER');
    expect(codeOf(() => verifyBundle({ ...bundle, enclaveQuorumPublic: 'abcd' }, enclave.publicKeyUncompressed))).toBe('ERR_INVALID_SIGNATURE');
    expect(codeOf(() => verifyBundle(bundle, '04abcd'))).toBe('ERR_INVALID_PUBLIC_KEY');
    expect(codeOf(() => signBundle(DATA, 'nothex'))).toBe('ERR_INVALID_PARAMETER');
    expect(codeOf(() => signBundle(null as unknown as object, enclave.privateKey))).toBe('ERR_INVALID_PARAMETER');
  });

  it('given a validly signed bundle whose data is not JSON, when verified, then ERR_INVALID_PARAMETER', async () => {
    const { p256 } = await import('@noble/curves/nist.js');
    const data = utf8ToBytes('not json');
    const dataSignature = bytesToHex(p256.sign(data, hexToBytes(enclave.privateKey), { format: 'der' }));
    const bundle: SignedBundle = { version: 'v1.0.0', data: bytesToHex(data), dataSignature, enclaveQuorumPublic: enclave.publicKeyUncompressed };
    expect(codeOf(() => verifyBundle(bundle, enclave.publicKeyUncompressed))).toBe('ERR_INVALID_PARAMETER');
  });
});
