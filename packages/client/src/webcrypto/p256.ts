// P-256 through WebCrypto (DESIGN section 5: the kit ships no P-256 arithmetic of its own).
// Points travel as hex, compressed (02/03 || x) or uncompressed (04 || x || y); WebCrypto
// imports only the uncompressed form in every browser, so compressed points are expanded here.
import { hexToBytes } from '@walletkit/crypto';
import { WalletKitError } from '../errors.js';

/** P-256 field prime and curve constant b (SEC 2, section 2.4.2); a = -3. */
const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;

/** `globalThis.crypto.subtle`, or `ERR_KEY_STORAGE_UNAVAILABLE` outside a secure context. @internal */
export function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new WalletKitError('ERR_KEY_STORAGE_UNAVAILABLE', 'WebCrypto is unavailable (a secure context is required)');
  return s;
}

function modPow(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = base % P;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
  }
  return result;
}

const toBigInt = (bytes: Uint8Array): bigint => BigInt(`0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('') || '0'}`);

/**
 * The 65-byte uncompressed form of a P-256 public key given as hex (compressed or not).
 * Throws `ERR_INVALID_PUBLIC_KEY` when it is not a point of the curve (uncompressed points are
 * checked by WebCrypto on import).
 *
 * @example
 * ```ts
 * uncompressedP256('02' + x).length; // 65
 * ```
 */
export function uncompressedP256(publicKeyHex: string): Uint8Array<ArrayBuffer> {
  let bytes: Uint8Array;
  try {
    bytes = hexToBytes(publicKeyHex);
  } catch (cause) {
    throw new WalletKitError('ERR_INVALID_PUBLIC_KEY', 'public key is not hex', { cause });
  }
  if (bytes.length === 65 && bytes[0] === 0x04) return new Uint8Array(bytes);
  if (bytes.length !== 33 || (bytes[0] !== 0x02 && bytes[0] !== 0x03)) {
    throw new WalletKitError('ERR_INVALID_PUBLIC_KEY', 'public key must be a 33- or 65-byte SEC1 point');
  }
  const x = toBigInt(bytes.subarray(1));
  const rhs = (((x * x) % P) * x - 3n * x + B) % P;
  const rhsMod = (rhs + P) % P;
  let y = modPow(rhsMod, (P + 1n) / 4n);
  if (x >= P || (y * y) % P !== rhsMod) throw new WalletKitError('ERR_INVALID_PUBLIC_KEY', 'public key is not on P-256');
  if ((y & 1n) !== BigInt(bytes[0]! & 1)) y = P - y;
  const out = new Uint8Array(65);
  out[0] = 0x04;
  out.set(bytes.subarray(1), 1);
  out.set(hexToBytes(y.toString(16).padStart(64, '0')), 33);
  return out;
}

/**
 * Converts a DER ECDSA signature (SEQUENCE of two INTEGERs, RFC 3279) to raw `r || s`
 * (64 bytes) as WebCrypto verifies it; undefined when it is not strict DER for P-256.
 *
 * @example
 * ```ts
 * derSignatureToRaw(hexToBytes(bundle.dataSignature))?.length; // 64
 * ```
 */
export function derSignatureToRaw(der: Uint8Array): Uint8Array<ArrayBuffer> | undefined {
  if (der.length < 8 || der[0] !== 0x30 || der[1] !== der.length - 2) return undefined;
  const out = new Uint8Array(64);
  let offset = 2;
  for (let i = 0; i < 2; i += 1) {
    if (der[offset] !== 0x02) return undefined;
    const length = der[offset + 1]!;
    const start = offset + 2;
    if (length === 0 || length > 33 || start + length > der.length) return undefined;
    let value = der.subarray(start, start + length);
    if (value[0]! & 0x80) return undefined; // negative
    if (value[0] === 0 && (length === 1 || !(value[1]! & 0x80))) return undefined; // non-minimal
    if (value[0] === 0) value = value.subarray(1);
    if (value.length > 32) return undefined;
    out.set(value, i * 32 + 32 - value.length);
    offset = start + length;
  }
  return offset === der.length ? out : undefined;
}

/**
 * ECDSA-P256-SHA256 verification of a raw `r || s` signature over `message` with a public key
 * (hex, compressed or not). High-S signatures verify, as on the server. Throws
 * `ERR_INVALID_PUBLIC_KEY` for a bad key.
 *
 * @example
 * ```ts
 * await verifyP256(enclavePublicKey, utf8ToBytes(`${head}.${payload}`), base64urlDecode(sig)); // true
 * ```
 */
export async function verifyP256(publicKeyHex: string, message: Uint8Array, rawSignature: Uint8Array): Promise<boolean> {
  const point = uncompressedP256(publicKeyHex);
  let key: CryptoKey;
  try {
    key = await subtle().importKey('raw', point, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
  } catch (cause) {
    throw new WalletKitError('ERR_INVALID_PUBLIC_KEY', 'public key is not on P-256', { cause });
  }
  if (rawSignature.length !== 64) return false;
  return subtle().verify({ name: 'ECDSA', hash: 'SHA-256' }, key, new Uint8Array(rawSignature), new Uint8Array(message));
}
