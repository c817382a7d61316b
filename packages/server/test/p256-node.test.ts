/**
 * The server's node:crypto P-256 (src/activity/p256-node.ts `nodeP256`), installed into
 * @walletkit/crypto by build(): its signatures are what noble makes (low S, verified by noble
 * with low S required), and JWTs, bundles and stamps made on either side verify on the other.
 */
import { randomBytes } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  generateP256KeyPair,
  parseApiKeyStamp,
  signBundle,
  signJwt,
  stampApiKey,
  useNativeP256,
  verifyApiKeyStamp,
  verifyBundle,
  verifyJwt,
} from '@walletkit/crypto';
import { nodeP256 } from '../src/activity/p256-node';

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
});
