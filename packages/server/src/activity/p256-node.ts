import { createPrivateKey, createPublicKey, ECDH, sign, verify, type KeyObject } from 'node:crypto';
import type { NativeP256 } from '@walletkit/crypto';

// SPKI DER prefix of an uncompressed P-256 public key (RFC 5480).
const SPKI_P256_PREFIX = Buffer.from('3059301306072a8648ce3d020106082a8648ce3d030107034200', 'hex');
const cache = new Map<string, KeyObject>();
const CACHE_LIMIT = 10_000;

function keyObject(publicKeyHex: string): KeyObject {
  let key = cache.get(publicKeyHex);
  if (!key) {
    const uncompressed =
      publicKeyHex.length === 66
        ? (ECDH.convertKey(Buffer.from(publicKeyHex, 'hex'), 'prime256v1', undefined, undefined, 'uncompressed') as Buffer)
        : Buffer.from(publicKeyHex, 'hex');
    key = createPublicKey({ key: Buffer.concat([SPKI_P256_PREFIX, uncompressed]), format: 'der', type: 'spki' });
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(publicKeyHex, key);
  }
  return key;
}

/**
 * ECDSA-P256-SHA256 verification with node:crypto (about 25x faster than noble here).
 * Accepts high-S signatures, as WebCrypto produces them. Never throws.
 */
export function verifyP256Node(publicKeyHex: string, message: Uint8Array, derSignatureHex: string): boolean {
  try {
    if (!/^(02|03)[0-9a-f]{64}$|^04[0-9a-f]{128}$/i.test(publicKeyHex)) return false;
    return verify('sha256', message, { key: keyObject(publicKeyHex.toLowerCase()), dsaEncoding: 'der' }, Buffer.from(derSignatureHex, 'hex'));
  } catch {
    return false;
  }
}

// SEC1 DER of a P-256 private key around its 32 raw bytes (RFC 5915, no public key: node derives it).
const SEC1_HEAD = Buffer.from('30310201010420', 'hex');
const SEC1_TAIL = Buffer.from('a00a06082a8648ce3d030107', 'hex');
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

/**
 * `@walletkit/crypto`'s P-256 on node:crypto (installed by app.ts `build` with `useNativeP256`):
 * every stamp, bundle, JWT and App Proof the server signs or checks. Signatures are normalized
 * to low S, as noble makes them (verifiers that insist on low S accept them).
 */
export const nodeP256: NativeP256 = {
  sign(privateKey, message) {
    const key = createPrivateKey({ key: Buffer.concat([SEC1_HEAD, privateKey, SEC1_TAIL]), format: 'der', type: 'sec1' });
    const signature = sign('sha256', message, { key, dsaEncoding: 'ieee-p1363' });
    const s = BigInt(`0x${signature.subarray(32).toString('hex')}`);
    if (s > N / 2n) Buffer.from((N - s).toString(16).padStart(64, '0'), 'hex').copy(signature, 32);
    return new Uint8Array(signature);
  },
  verify(publicKeyHex, message, signature, format) {
    try {
      return verify('sha256', message, { key: keyObject(publicKeyHex), dsaEncoding: format === 'der' ? 'der' : 'ieee-p1363' }, signature);
    } catch {
      return false;
    }
  },
};
