/**
 * The server's node:crypto P-256 (src/activity/p256-node.ts `nodeP256`), installed into
 * @walletkit/crypto by build(): its signatures are what noble makes (low S, verified by noble
 * with low S required), and JWTs, bundles and stamps made on either side verify on the other.
 */
import { randomBytes } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  compressPublicKey,
  generateP256KeyPair,
  p256PublicKey,
  uncompressPublicKey,
  parseApiKeyStamp,
  signBundle,
  signJwt,
  stampApiKey,
  useNativeP256,
  verifyApiKeyStamp,
  verifyBundle,
  verifyJwt,
} from '@walletkit/crypto';
import { keepOwnSigningKey, nodeP256 } from '../src/activity/p256-node';

/** The result of `fn`, or the error code it throws. */
function outcome(fn: () => string): string {
  try {
    return fn();
  } catch (err) {
    return `error ${(err as { code?: string }).code}`;
  }
}

describe('nodeP256', () => {
  afterEach(() => useNativeP256(undefined));

  it('given 200 messages, when signed natively, then every signature is low-S and noble verifies it (also with low S required), and a changed message fails', () => {
    const { privateKey, publicKey } = generateP256KeyPair();
    const key = Buffer.from(privateKey, 'hex');
    for (let i = 0; i < 200; i += 1) {
      const message = randomBytes(1 + (i % 90));
      const signature = nodeP256.sign(key, message);
      expect(signature).toHaveLength(64);
      expect(p256.verify(signature, message, Buffer.from(publicKey, 'hex'), { prehash: true, lowS: true })).toBe(true);
      expect(nodeP256.verify(publicKey, message, signature, 'compact')).toBe(true);
      message[0] = message[0]! ^ 1;
      expect(nodeP256.verify(publicKey, message, signature, 'compact')).toBe(false);
    }
  });

  it('given 100 private keys, when each signs natively, then noble verifies each with its public key; a key of the wrong length or outside [1, n - 1] is refused', () => {
    for (let i = 0; i < 100; i += 1) {
      const { privateKey, publicKey } = generateP256KeyPair();
      const message = randomBytes(40);
      const signature = nodeP256.sign(Buffer.from(privateKey, 'hex'), message);
      expect(p256.verify(signature, message, Buffer.from(publicKey, 'hex'), { prehash: true, lowS: true })).toBe(true);
    }
    const n = Buffer.from('ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551', 'hex');
    for (const bad of [Buffer.alloc(32), n, Buffer.alloc(32, 0xff), Buffer.alloc(31, 1), Buffer.alloc(33, 1)]) {
      expect(() => nodeP256.sign(bad, Buffer.from('message'))).toThrow();
    }
    // 1 and n - 1 are keys.
    const one = Buffer.alloc(32);
    one[31] = 1;
    const last = Buffer.from(n);
    last[31] = last[31]! - 1;
    for (const edge of [one, last]) {
      const signature = nodeP256.sign(edge, Buffer.from('message'));
      expect(p256.verify(signature, Buffer.from('message'), p256.getPublicKey(edge), { prehash: true, lowS: true })).toBe(true);
    }
  });

  it('given the public point with the private key (as a stamp derives it once), when signed natively, then noble verifies the signature; a point that is compressed, short or off the curve is refused', () => {
    for (let i = 0; i < 50; i += 1) {
      const { privateKey, publicKey, publicKeyUncompressed } = generateP256KeyPair();
      const message = randomBytes(40);
      const signature = nodeP256.sign(Buffer.from(privateKey, 'hex'), message, Buffer.from(publicKeyUncompressed, 'hex'));
      expect(p256.verify(signature, message, Buffer.from(publicKey, 'hex'), { prehash: true, lowS: true })).toBe(true);
    }
    const { privateKey, publicKey, publicKeyUncompressed } = generateP256KeyPair();
    const point = Buffer.from(publicKeyUncompressed, 'hex');
    const offCurve = Buffer.from(point);
    offCurve[64] = offCurve[64]! ^ 1;
    for (const bad of [Buffer.from(publicKey, 'hex'), point.subarray(0, 64), offCurve, Buffer.concat([Buffer.from([5]), point.subarray(1)])]) {
      expect(() => nodeP256.sign(Buffer.from(privateKey, 'hex'), Buffer.from('message'), bad)).toThrow();
    }
  });

  it('given a stamp made with the native P-256 installed, then it carries the compressed public key and noble verifies it', () => {
    useNativeP256(nodeP256);
    for (let i = 0; i < 20; i += 1) {
      const { privateKey, publicKey } = generateP256KeyPair();
      const body = JSON.stringify({ i });
      const stamp = stampApiKey(body, { privateKey, publicKey });
      expect(parseApiKeyStamp(stamp).publicKey).toBe(publicKey);
      useNativeP256(undefined);
      expect(verifyApiKeyStamp(new TextEncoder().encode(body), parseApiKeyStamp(stamp))).toBe(true);
      useNativeP256(nodeP256);
    }
  });

  it('given JWTs, bundles and stamps, when made with one implementation, then the other verifies them', () => {
    const { privateKey, publicKey } = generateP256KeyPair();
    const made: Array<{ jwt: string; bundle: ReturnType<typeof signBundle>; stamp: string; body: string }> = [];
    for (const nativeOn of [true, false]) {
      useNativeP256(nativeOn ? nodeP256 : undefined);
      const body = JSON.stringify({ n: randomBytes(8).toString('hex') });
      made.push({
        jwt: signJwt({ sub: 'x', exp: Math.floor(Date.now() / 1000) + 60 }, privateKey),
        bundle: signBundle({ a: 1 }, privateKey),
        stamp: stampApiKey(body, { privateKey, publicKey }),
        body,
      });
    }
    for (const nativeOn of [false, true]) {
      useNativeP256(nativeOn ? nodeP256 : undefined);
      for (const m of made) {
        expect(verifyJwt<{ sub: string }>(m.jwt, publicKey).sub).toBe('x');
        expect(() => verifyBundle(m.bundle, m.bundle.enclaveQuorumPublic)).not.toThrow();
        expect(verifyApiKeyStamp(new TextEncoder().encode(m.body), parseApiKeyStamp(m.stamp))).toBe(true);
      }
      expect(() => verifyJwt(`${made[0]!.jwt.slice(0, -4)}AAAA`, publicKey)).toThrow();
    }
  });

  it('given 100 private keys, when their public keys and key pairs are made natively, then they are what noble makes, compressed and not', () => {
    for (let i = 0; i < 100; i += 1) {
      const key = p256.utils.randomPrivateKey();
      const hex = Buffer.from(key).toString('hex');
      const expected = [Buffer.from(p256.getPublicKey(key, true)).toString('hex'), Buffer.from(p256.getPublicKey(key, false)).toString('hex')];
      expect([Buffer.from(nodeP256.publicKey!(key, true)).toString('hex'), Buffer.from(nodeP256.publicKey!(key, false)).toString('hex')]).toEqual(expected);
      useNativeP256(nodeP256);
      expect([p256PublicKey(hex, true), p256PublicKey(hex, false)]).toEqual(expected);
      useNativeP256(undefined);
    }
    useNativeP256(nodeP256);
    const pair = generateP256KeyPair();
    expect(pair.publicKey).toBe(Buffer.from(p256.getPublicKey(Buffer.from(pair.privateKey, 'hex'), true)).toString('hex'));
    expect(pair.publicKeyUncompressed).toBe(Buffer.from(p256.getPublicKey(Buffer.from(pair.privateKey, 'hex'), false)).toString('hex'));
  });

  it('given valid and invalid public keys, when re-encoded with the native P-256 installed, then every result and every refusal is what noble gives', () => {
    const valid = Array.from({ length: 20 }, () => generateP256KeyPair()).flatMap((k) => [k.publicKey, k.publicKeyUncompressed, k.publicKey.toUpperCase()]);
    const x = valid[1]!.slice(2, 66);
    const invalid = [
      '',
      '00',
      `04${x}${'00'.repeat(32)}`, // y wrong: off the curve
      `05${valid[1]!.slice(2)}`, // unknown prefix
      `04${'ff'.repeat(64)}`, // coordinates beyond the field
      valid[0]!.slice(0, 64), // truncated
      `${valid[0]!}00`, // too long
      'zz'.repeat(33), // not hex
      `0x${valid[0]!.slice(2)}`,
    ];
    for (const key of [...valid, ...invalid]) {
      const noble = [outcome(() => compressPublicKey('p256', key)), outcome(() => uncompressPublicKey('p256', key))];
      useNativeP256(nodeP256);
      const native = [outcome(() => compressPublicKey('p256', key)), outcome(() => uncompressPublicKey('p256', key))];
      useNativeP256(undefined);
      expect(native, key).toEqual(noble);
    }
    expect(invalid.map((k) => outcome(() => compressPublicKey('p256', k)))).toEqual(invalid.map(() => 'error ERR_INVALID_PUBLIC_KEY'));
  });

  it('given a signature, when verified natively against its signer and against keys that are not points of the curve, then only the signer verifies, in either encoding, and nothing throws', () => {
    const signer = generateP256KeyPair();
    const other = generateP256KeyPair();
    const message = randomBytes(32);
    const signature = nodeP256.sign(Buffer.from(signer.privateKey, 'hex'), message);
    const x = signer.publicKeyUncompressed.slice(2, 66);
    const y = signer.publicKeyUncompressed.slice(66);
    const p = 'ffffffff00000001000000000000000000000000ffffffffffffffffffffffff';
    const refused = [
      other.publicKey,
      other.publicKeyUncompressed,
      `04${x}${y.slice(0, -2)}${y.endsWith('00') ? '01' : '00'}`, // y changed: off the curve
      `04${p}${y}`, // x equal to the field's prime
      `04${'00'.repeat(64)}`, // the identity has no affine coordinates
      `05${x}${y}`, // unknown prefix
      `04${x}`, // truncated
      `${signer.publicKeyUncompressed}00`, // too long
      'zz'.repeat(33),
      '',
    ];
    for (let round = 0; round < 2; round += 1) {
      // The second round meets every key again in the key-object cache.
      expect(nodeP256.verify(signer.publicKey, message, signature, 'compact')).toBe(true);
      expect(nodeP256.verify(signer.publicKeyUncompressed, message, signature, 'compact')).toBe(true);
      for (const key of refused) expect(nodeP256.verify(key, message, signature, 'compact'), key).toBe(false);
    }
  });

  it('given the enclave signing key kept as a key object, when it signs, then its signatures verify like any other and other keys still sign', () => {
    const own = generateP256KeyPair();
    const other = generateP256KeyPair();
    keepOwnSigningKey(Buffer.from(own.privateKey, 'hex'));
    for (const k of [own, other]) {
      const message = randomBytes(40);
      const signature = nodeP256.sign(Buffer.from(k.privateKey, 'hex'), message);
      expect(p256.verify(signature, message, Buffer.from(k.publicKey, 'hex'), { prehash: true, lowS: true })).toBe(true);
    }
  });

  it('given the enclave signing key kept, when its public key is asked for, then it is what noble derives, in both encodings, a fresh copy each time, and other keys still derive theirs', () => {
    const own = generateP256KeyPair();
    const other = generateP256KeyPair();
    keepOwnSigningKey(Buffer.from(own.privateKey, 'hex'));
    for (const k of [own, other]) {
      const priv = Buffer.from(k.privateKey, 'hex');
      for (const compressed of [true, false]) {
        const got = nodeP256.publicKey?.(priv, compressed);
        expect(Buffer.from(got!).toString('hex')).toBe(Buffer.from(p256.getPublicKey(priv, compressed)).toString('hex'));
        got!.fill(0);
        expect(Buffer.from(nodeP256.publicKey!(priv, compressed)).toString('hex')).toBe(Buffer.from(p256.getPublicKey(priv, compressed)).toString('hex'));
      }
    }
    useNativeP256(nodeP256);
    const bundle = signBundle({ otpId: 'o' }, own.privateKey);
    expect(bundle.enclaveQuorumPublic).toBe(uncompressPublicKey('p256', own.publicKey));
    expect(verifyBundle(bundle, own.publicKey)).toEqual({ otpId: 'o' });
  });

  it('given the enclave key kept, when one of its signatures is checked again, then it still verifies, while a changed message or signature, the same bytes under another key or encoding, and anything after 1,100 other checks are each judged afresh', () => {
    const own = generateP256KeyPair();
    const other = generateP256KeyPair();
    keepOwnSigningKey(Buffer.from(own.privateKey, 'hex'));
    const ownHex = uncompressPublicKey('p256', own.publicKey);
    const message = new TextEncoder().encode('header.payload');
    const signature = nodeP256.sign(Buffer.from(own.privateKey, 'hex'), message);
    for (let i = 0; i < 3; i += 1) expect(nodeP256.verify(ownHex, message, signature, 'compact')).toBe(true);
    const changed = Uint8Array.from(message);
    changed[0] = changed[0]! ^ 1;
    expect(nodeP256.verify(ownHex, changed, signature, 'compact')).toBe(false);
    const flipped = Uint8Array.from(signature);
    flipped[63] = flipped[63]! ^ 1;
    expect(nodeP256.verify(ownHex, message, flipped, 'compact')).toBe(false);
    expect(nodeP256.verify(uncompressPublicKey('p256', other.publicKey), message, signature, 'compact')).toBe(false);
    expect(nodeP256.verify(ownHex, message, signature, 'der')).toBe(false);
    // A subarray of a larger buffer is judged by its own bytes only.
    const padded = new Uint8Array(message.length + 2);
    padded.set(message, 1);
    expect(nodeP256.verify(ownHex, padded.subarray(1, 1 + message.length), signature, 'compact')).toBe(true);
    expect(nodeP256.verify(ownHex, padded.subarray(0, message.length), signature, 'compact')).toBe(false);
    for (let i = 0; i < 1100; i += 1) {
      const m = new TextEncoder().encode(`other ${i}`);
      expect(nodeP256.verify(ownHex, m, nodeP256.sign(Buffer.from(own.privateKey, 'hex'), m), 'compact')).toBe(true);
    }
    expect(nodeP256.verify(ownHex, message, signature, 'compact')).toBe(true);
    expect(nodeP256.verify(ownHex, changed, signature, 'compact')).toBe(false);
  });
});
