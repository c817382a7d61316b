import { createECDH, createPrivateKey, createPublicKey, ECDH, sign, verify, type KeyObject } from 'node:crypto';
import type { NativeP256 } from '@walletkit/crypto';

const cache = new Map<string, KeyObject>();
const CACHE_LIMIT = 10_000;

/**
 * A verifying key object for a P-256 public key (hex, compressed or not), kept for its next use
 * (at most CACHE_LIMIT, oldest out first). Built from its coordinates as a JWK: about 110 µs here,
 * against about 240 µs from SPKI DER, where OpenSSL 3's decoder framework costs as much as the
 * point's own checks (which both forms make: a point off the curve is refused). A key is built
 * anew for each session's or user's first request, so this is the cost of every cache miss.
 */
function keyObject(publicKeyHex: string): KeyObject {
  let key = cache.get(publicKeyHex);
  if (!key) {
    const uncompressed =
      publicKeyHex.length === 66
        ? (ECDH.convertKey(Buffer.from(publicKeyHex, 'hex'), 'prime256v1', undefined, undefined, 'uncompressed') as Buffer)
        : Buffer.from(publicKeyHex, 'hex');
    if (uncompressed.length !== 65 || uncompressed[0] !== 4) throw new Error('not an uncompressed P-256 point');
    const x = uncompressed.subarray(1, 33).toString('base64url');
    const y = uncompressed.subarray(33).toString('base64url');
    key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x, y }, format: 'jwk' });
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

const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

/**
 * `@walletkit/crypto`'s P-256 on node:crypto (installed by app.ts `build` with `useNativeP256`):
 * every stamp, bundle, JWT and App Proof the server signs or checks. Signatures are normalized
 * to low S, as noble makes them (verifiers that insist on low S accept them).
 */
/**
 * Private keys of the server's own identity (the enclave signing key), kept as key objects for the
 * life of the process, with their public points: they live in memory that long anyway, a key
 * object costs about 200 µs to build and a public point about 100 µs to derive (every bundle and
 * App Proof names its signer's). No other key is kept: a user's or the proxy's key is built, used
 * once and dropped.
 */
const ownKeys = new Map<string, { key: KeyObject; uncompressed: Uint8Array; compressed: Uint8Array }>();

/** Keep `privateKey` (32 bytes) ready to sign (the enclave's own signing key only). */
export function keepOwnSigningKey(privateKey: Uint8Array): void {
  const ecdh = ecdhOf(privateKey);
  const uncompressed = new Uint8Array(ecdh.getPublicKey());
  const compressed = new Uint8Array(ecdh.getPublicKey(undefined, 'compressed'));
  ownKeys.set(view(privateKey).toString('hex'), { key: keyObjectOf(privateKey, uncompressed), uncompressed, compressed });
  ownPublicKeys.add(view(uncompressed).toString('hex'));
}

/** A Buffer over the same memory as `bytes` (no copy). */
function view(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** An ECDH holding `privateKey`: its public point in either encoding. */
function ecdhOf(privateKey: Uint8Array): ECDH {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(privateKey);
  return ecdh;
}

/** Uncompressed hex of each own key's public point (as JWTs and bundles are verified against it). */
const ownPublicKeys = new Set<string>();

/**
 * Signatures by an own key that verified, as `format, signature, message` in one string (exact
 * bytes, no digest: nothing else can match an entry), at most VERIFIED_LIMIT, oldest out first.
 * A login checks its verification token twice (the sub-organization lookup, then otp_login); the
 * second check is then a lookup. Only successes are kept, and only of the server's own key.
 */
const verifiedOwn = new Set<string>();
const VERIFIED_LIMIT = 1024;

const latin1 = (bytes: Uint8Array): string => view(bytes).toString('latin1');

/** The kept entry of an own key, or undefined (no lookup at all while none is kept). */
function ownKeyOf(privateKey: Uint8Array): { key: KeyObject; uncompressed: Uint8Array; compressed: Uint8Array } | undefined {
  if (ownKeys.size === 0 || privateKey.length !== 32) return undefined;
  return ownKeys.get(view(privateKey).toString('hex'));
}

/**
 * A signing key object for a P-256 private key (the enclave's own, kept; any other, used once). Built from
 * its coordinates as a JWK, with the public point from `ECDH` unless the caller derived it already
 * (`point`, uncompressed, as a stamp does): about 195 µs on the Xeon VM with the derivation, about
 * 115 µs without, against about 260 µs from SEC1 DER (OpenSSL 3's decoders). It refuses a scalar
 * that is not in [1, n - 1], which the DER path accepted (a zero key would have signed).
 */
function keyObjectOf(privateKey: Uint8Array, point?: Uint8Array): KeyObject {
  if (privateKey.length !== 32) throw new Error('a P-256 private key is 32 bytes');
  let xy = point;
  if (xy === undefined) xy = ecdhOf(privateKey).getPublicKey();
  else if (xy.length !== 65 || xy[0] !== 4) throw new Error('a P-256 public point is 65 bytes, uncompressed');
  const coordinates = view(xy);
  const d = view(privateKey).toString('base64url');
  return createPrivateKey({
    key: { kty: 'EC', crv: 'P-256', d, x: coordinates.subarray(1, 33).toString('base64url'), y: coordinates.subarray(33).toString('base64url') },
    format: 'jwk',
  });
}

function signingKeyOf(privateKey: Uint8Array, point?: Uint8Array): KeyObject {
  return ownKeyOf(privateKey)?.key ?? keyObjectOf(privateKey, point);
}

export const nodeP256: NativeP256 = {
  sign(privateKey, message, publicKey) {
    const key = signingKeyOf(privateKey, publicKey);
    const signature = sign('sha256', message, { key, dsaEncoding: 'ieee-p1363' });
    const s = BigInt(`0x${signature.subarray(32).toString('hex')}`);
    if (s > N / 2n) Buffer.from((N - s).toString(16).padStart(64, '0'), 'hex').copy(signature, 32);
    return new Uint8Array(signature);
  },
  verify(publicKeyHex, message, signature, format) {
    const own = ownPublicKeys.size > 0 && ownPublicKeys.has(publicKeyHex);
    const seen = own ? `${format}:${latin1(signature)}:${latin1(message)}` : undefined;
    if (seen !== undefined && verifiedOwn.has(seen)) return true;
    let valid: boolean;
    try {
      valid = verify('sha256', message, { key: keyObject(publicKeyHex), dsaEncoding: format === 'der' ? 'der' : 'ieee-p1363' }, signature);
    } catch {
      return false;
    }
    if (valid && seen !== undefined) {
      if (verifiedOwn.size >= VERIFIED_LIMIT) verifiedOwn.delete(verifiedOwn.values().next().value as string);
      verifiedOwn.add(seen);
    }
    return valid;
  },
  publicKey(privateKey, compressed) {
    const own = ownKeyOf(privateKey);
    if (own) return (compressed ? own.compressed : own.uncompressed).slice();
    return new Uint8Array(ecdhOf(privateKey).getPublicKey(undefined, compressed ? 'compressed' : 'uncompressed'));
  },
  convertPublicKey(publicKey, compressed) {
    // OpenSSL decodes the point and refuses one off the curve (and the 1-byte identity).
    if (publicKey.length !== 33 && publicKey.length !== 65) throw new Error('a P-256 public key is 33 or 65 bytes');
    return new Uint8Array(ECDH.convertKey(publicKey, 'prime256v1', undefined, undefined, compressed ? 'compressed' : 'uncompressed') as Buffer);
  },
};
