import { p256 } from '@noble/curves/nist.js';
import {
  bytesToHex,
  bytesToUtf8,
  compressPublicKey,
  generateP256KeyPair,
  hexToBytes,
  hpkeOpen,
  hpkeSeal,
  signBundle,
  signJwt,
  utf8ToBytes,
} from '@walletkit/crypto';
import { describe, expect, it } from 'vitest';
import { rawSignatureToDer } from '../src/stampers/der';
import { verifySignedBundle } from '../src/webcrypto/bundle';
import { createHpkeTarget, hpkeOpenWith, hpkeSealTo } from '../src/webcrypto/hpke';
import { verifyEs256Jwt } from '../src/webcrypto/jwt';
import { derSignatureToRaw, uncompressedP256 } from '../src/webcrypto/p256';

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );

describe('WebCrypto P-256 helpers of the client', () => {
  it('given compressed keys, when expanded, then they equal the uncompressed form of the same point', () => {
    for (let i = 0; i < 20; i += 1) {
      const key = generateP256KeyPair();
      expect(bytesToHex(uncompressedP256(compressPublicKey('p256', key.publicKeyUncompressed)))).toBe(key.publicKeyUncompressed);
    }
    expect(() => uncompressedP256(`02${'ff'.repeat(32)}`)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_PUBLIC_KEY' }));
  });

  it('given DER signatures from noble, when converted to raw, then r || s round-trips and malformed DER is refused', () => {
    for (let i = 0; i < 20; i += 1) {
      const der = p256.sign(utf8ToBytes(`m${i}`), p256.utils.randomSecretKey(), { format: 'der' });
      const raw = derSignatureToRaw(der)!;
      expect(bytesToHex(rawSignatureToDer(raw))).toBe(bytesToHex(der));
    }
    expect(derSignatureToRaw(hexToBytes('3006020100020100'))).toBeUndefined();
    expect(derSignatureToRaw(hexToBytes('300602017f0201ff'))).toBeUndefined();
  });

  it('given an enclave-signed bundle, when verified against the pinned key (either form), then its data comes back; another signer is refused', async () => {
    const enclave = generateP256KeyPair();
    const bundle = JSON.stringify(signBundle({ targetPublic: 'ab' }, enclave.privateKey));
    expect(await verifySignedBundle(bundle, enclave.publicKeyUncompressed)).toEqual({ targetPublic: 'ab' });
    expect(await verifySignedBundle(bundle, compressPublicKey('p256', enclave.publicKeyUncompressed))).toEqual({ targetPublic: 'ab' });
    const forged = JSON.stringify(signBundle({ targetPublic: 'ab' }, generateP256KeyPair().privateKey));
    expect(await codeOf(verifySignedBundle(forged, enclave.publicKeyUncompressed))).toBe('ERR_INVALID_SIGNATURE');
    const tampered = JSON.stringify({ ...JSON.parse(bundle), data: bytesToHex(utf8ToBytes('{"targetPublic":"cd"}')) });
    expect(await codeOf(verifySignedBundle(tampered, enclave.publicKeyUncompressed))).toBe('ERR_INVALID_SIGNATURE');
    expect(await codeOf(verifySignedBundle('nope', enclave.publicKeyUncompressed))).toBe('ERR_INVALID_PARAMETER');
  });

  it('given an ES256 JWT, when verified, then its claims come back; a tampered or foreign token is refused', async () => {
    const enclave = generateP256KeyPair();
    const token = signJwt({ user_id: 'u', exp: 1 }, enclave.privateKey);
    expect(await verifyEs256Jwt(token, enclave.publicKeyUncompressed)).toEqual({ user_id: 'u', exp: 1 });
    const [h, , s] = token.split('.');
    const other = signJwt({ user_id: 'v', exp: 1 }, enclave.privateKey).split('.')[1];
    expect(await codeOf(verifyEs256Jwt(`${h}.${other}.${s}`, enclave.publicKeyUncompressed))).toBe('ERR_INVALID_SIGNATURE');
    expect(await codeOf(verifyEs256Jwt(token, generateP256KeyPair().publicKeyUncompressed))).toBe('ERR_INVALID_SIGNATURE');
  });

  it('given the wire HPKE suite, when the client seals or opens, then @walletkit/crypto interoperates both ways', async () => {
    const receiver = generateP256KeyPair();
    const sealed = await hpkeSealTo(utf8ToBytes('to the enclave'), compressPublicKey('p256', receiver.publicKeyUncompressed));
    expect(bytesToUtf8(await hpkeOpen({ ...sealed, receiverPrivateKey: receiver.privateKey }))).toBe('to the enclave');

    const target = await createHpkeTarget();
    const fromEnclave = await hpkeSeal({ plaintext: utf8ToBytes('mnemonic words'), receiverPublicKey: target.publicKey });
    expect(bytesToUtf8(await hpkeOpenWith(target, fromEnclave))).toBe('mnemonic words');
    const otherTarget = await createHpkeTarget();
    expect(await codeOf(hpkeOpenWith(otherTarget, fromEnclave))).toBe('ERR_INVALID_ENCRYPTED_BUNDLE');
  });
});
