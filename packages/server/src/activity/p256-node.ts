import { createPublicKey, ECDH, verify, type KeyObject } from 'node:crypto';

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
