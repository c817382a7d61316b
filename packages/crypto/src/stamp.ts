// API-key stamps, header X-Stamp (DESIGN section 2): base64url(JSON {publicKey, scheme,
// signature}) over the exact raw request body. Verification works on the bytes received,
// never on a re-serialization.
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { assertBytes, assertObject, assertOneOf, assertString } from './assert.js';
import { ecdsaSign, ecdsaVerify, verifyP256Der } from './ecdsa.js';
import { hashPersonalMessage } from './eip191.js';
import { base64urlDecode, base64urlEncode, bytesToHex, bytesToUtf8, hexToBytes, isHex, utf8ToBytes } from './encoding.js';
import { CryptoError } from './errors.js';
import { compressPublicKey, type WeierstrassCurve } from './keys.js';
import { decodePrivateKey, publicKeyOf } from './point.js';

/**
 * The three API-key stamp schemes of the wire.
 *
 * @example
 * ```ts
 * const scheme: StampScheme = 'SIGNATURE_SCHEME_TK_API_ED25519';
 * ```
 */
export type StampScheme = 'SIGNATURE_SCHEME_TK_API_P256' | 'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191' | 'SIGNATURE_SCHEME_TK_API_ED25519';

/**
 * A decoded X-Stamp header; hex fields as sent by the client.
 *
 * @example
 * ```ts
 * const stamp: ParsedStamp = parseApiKeyStamp(header);
 * ```
 */
export interface ParsedStamp {
  publicKey: string;
  scheme: StampScheme;
  signature: string;
}

/**
 * The key that stamps a request.
 *
 * @example
 * ```ts
 * const key: StampKey = { privateKey, publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256' };
 * stampApiKey(body, key);
 * ```
 */
export interface StampKey {
  /** 32-byte private key, hex. */
  privateKey: string;
  /** Optional public key, hex; when given it must match `privateKey` (it is checked). */
  publicKey?: string;
  /** Defaults to `SIGNATURE_SCHEME_TK_API_P256`. */
  scheme?: StampScheme;
}

/**
 * Options of {@link verifyApiKeyStamp}.
 *
 * @example
 * ```ts
 * verifyApiKeyStamp(rawBody, stamp, { verifyP256: nodeVerifier } satisfies VerifyStampOptions);
 * ```
 */
export interface VerifyStampOptions {
  /**
   * P-256 verifier to use instead of the built-in noble one (e.g. node:crypto on a server).
   * Same contract as {@link verifyP256Der}: public key hex, message bytes, DER signature hex.
   */
  verifyP256?: (publicKeyHex: string, message: Uint8Array, derSignatureHex: string) => boolean;
}

const SCHEMES: readonly StampScheme[] = ['SIGNATURE_SCHEME_TK_API_P256', 'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191', 'SIGNATURE_SCHEME_TK_API_ED25519'];

/** A stamp is a few hundred characters; anything far larger is not a stamp. */
const MAX_STAMP_LENGTH = 4096;

function bodyBytes(body: string | Uint8Array): Uint8Array {
  if (typeof body === 'string') return utf8ToBytes(body);
  assertBytes(body, 'body');
  return body;
}

/** Private key -> (public key as carried in the stamp, signature over the body). */
interface StampSigner {
  /** The public key as the stamp carries it, and the key as the signature may use it (ECDSA: the uncompressed point). */
  publicKey(privateKey: Uint8Array): { stamped: Uint8Array; point?: Uint8Array };
  sameKey(given: string, derived: Uint8Array): boolean;
  sign(privateKey: Uint8Array, body: Uint8Array, point?: Uint8Array): Uint8Array;
  privateKey(hex: string): Uint8Array;
}

/** The compressed SEC1 form of an uncompressed point (x with the parity of y). */
function compressedOf(point: Uint8Array): Uint8Array {
  const compressed = point.slice(0, 33);
  compressed[0] = 2 + (point[64]! & 1);
  return compressed;
}

function ecdsaSigner(name: WeierstrassCurve, curve: typeof p256, digest: (body: Uint8Array) => Uint8Array, prehash: boolean): StampSigner {
  return {
    privateKey: (hex) => decodePrivateKey(hex, curve),
    // The point is derived once (natively for P-256 when installed) for the stamp and the signature.
    publicKey: (privateKey) => {
      const point = publicKeyOf(curve, privateKey, false);
      return { stamped: compressedOf(point), point };
    },
    // One spelling per point: the compressed form (a native one for P-256 when installed).
    sameKey: (given, derived) => compressPublicKey(name, given) === bytesToHex(derived),
    sign: (privateKey, body, point) => ecdsaSign(curve, privateKey, digest(body), 'der', prehash, point),
  };
}

function signerOf(scheme: StampScheme): StampSigner {
  switch (scheme) {
    case 'SIGNATURE_SCHEME_TK_API_P256':
      return ecdsaSigner('p256', p256, (body) => body, true);
    case 'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191':
      return ecdsaSigner('secp256k1', secp256k1, hashPersonalMessage, false);
    case 'SIGNATURE_SCHEME_TK_API_ED25519':
      return {
        privateKey: (hex) => decodePrivateKey(hex),
        publicKey: (privateKey) => ({ stamped: ed25519.getPublicKey(privateKey) }),
        sameKey: (given, derived) => given.toLowerCase() === bytesToHex(derived),
        sign: (privateKey, body) => ed25519.sign(body, privateKey),
      };
  }
}

/**
 * Stamps a request body: signs the exact body bytes and returns the `X-Stamp` header value.
 * P-256 (default): ECDSA-SHA256, DER hex, compressed public key. secp256k1 EIP-191: ECDSA
 * over the personal_sign digest of the body, DER hex, compressed key. ed25519: 64-byte
 * signature hex, raw 32-byte key.
 *
 * @example
 * ```ts
 * const body = JSON.stringify({ type: 'ACTIVITY_TYPE_CREATE_WALLET', ... });
 * const stamp = stampApiKey(body, { privateKey, publicKey });
 * await fetch(url, { method: 'POST', body, headers: { 'X-Stamp': stamp } });
 * ```
 */
export function stampApiKey(body: string | Uint8Array, key: StampKey): string {
  const bytes = bodyBytes(body);
  assertObject(key, 'key');
  const scheme = assertOneOf(key.scheme ?? 'SIGNATURE_SCHEME_TK_API_P256', SCHEMES, 'key.scheme');
  const signer = signerOf(scheme);
  const privateKey = signer.privateKey(key.privateKey);
  const { stamped: publicKey, point } = signer.publicKey(privateKey);
  if (key.publicKey !== undefined) {
    assertString(key.publicKey, 'key.publicKey');
    let matches = false;
    try {
      matches = signer.sameKey(key.publicKey, publicKey);
    } catch {
      matches = false;
    }
    if (!matches) throw new CryptoError('ERR_INVALID_PARAMETER', 'key.publicKey does not match key.privateKey');
  }
  return encodeApiKeyStamp({ publicKey: bytesToHex(publicKey), scheme, signature: bytesToHex(signer.sign(privateKey, bytes, point)) });
}

/**
 * The X-Stamp header value of a stamp's fields: base64url of their JSON, in Turnkey's order (the
 * inverse of {@link parseApiKeyStamp}).
 * @example const header = encodeApiKeyStamp({ publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature });
 */
export function encodeApiKeyStamp(stamp: ParsedStamp): string {
  return base64urlEncode(utf8ToBytes(JSON.stringify({ publicKey: stamp.publicKey, scheme: stamp.scheme, signature: stamp.signature })));
}

function malformed(message: string, cause?: unknown): CryptoError {
  return new CryptoError('ERR_STAMP_MALFORMED', message, cause === undefined ? undefined : { cause });
}

/** Options of {@link parseApiKeyStamp} and `parseWebAuthnStamp`. */
export interface ParseStampOptions {
  /**
   * Parses the header's JSON bytes (X-Stamp: base64url-decoded; X-Stamp-WebAuthn: its UTF-8)
   * instead of `JSON.parse` (a server holding headers to stricter rules, such as refusing a
   * repeated key, parses them once with its own parser). Whatever it throws makes the stamp
   * malformed.
   */
  parseJson?: (bytes: Uint8Array) => unknown;
}

/**
 * Decodes an `X-Stamp` header. Throws `ERR_STAMP_MALFORMED` for anything that is not
 * base64url of a JSON object with exactly hex `publicKey`, a known `scheme` and hex
 * `signature`.
 * Does not verify anything: pass the result to {@link verifyApiKeyStamp}.
 *
 * @example
 * ```ts
 * const stamp = parseApiKeyStamp(request.headers['x-stamp']);
 * stamp.scheme; // 'SIGNATURE_SCHEME_TK_API_P256'
 * ```
 */
export function parseApiKeyStamp(header: string, opts?: ParseStampOptions): ParsedStamp {
  if (typeof header !== 'string' || header.length === 0) throw malformed('stamp header is missing');
  if (header.length > MAX_STAMP_LENGTH) throw malformed('stamp header is too long');
  let json: unknown;
  try {
    const bytes = base64urlDecode(header);
    json = opts?.parseJson ? opts.parseJson(bytes) : JSON.parse(bytesToUtf8(bytes));
  } catch (cause) {
    throw malformed('stamp is not base64url-encoded JSON', cause);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw malformed('stamp is not a JSON object');
  const fields = json as Record<string, unknown>;
  const extra = Object.keys(fields).filter((k) => k !== 'publicKey' && k !== 'scheme' && k !== 'signature');
  if (extra.length > 0) throw malformed(`stamp has unexpected fields: ${extra.join(', ')}`);
  const { publicKey, scheme, signature } = fields;
  if (!isHex(publicKey) || publicKey.length === 0) throw malformed('stamp.publicKey must be hex');
  if (!isHex(signature) || signature.length === 0) throw malformed('stamp.signature must be hex');
  if (typeof scheme !== 'string' || !(SCHEMES as readonly string[]).includes(scheme)) {
    throw malformed('stamp.scheme is not a supported signature scheme');
  }
  return { publicKey, scheme: scheme as StampScheme, signature };
}

/**
 * Verifies a parsed API-key stamp over the raw body bytes received. Returns `false` for any
 * bad signature, key or encoding; it never throws on them. P-256 uses `opts.verifyP256` when
 * given (e.g. node:crypto), else {@link verifyP256Der}.
 *
 * @example
 * ```ts
 * const ok = verifyApiKeyStamp(rawBody, parseApiKeyStamp(header));
 * if (!ok) reply.code(401);
 * ```
 */
export function verifyApiKeyStamp(body: Uint8Array, stamp: ParsedStamp, opts?: VerifyStampOptions): boolean {
  assertBytes(body, 'body');
  assertObject(stamp, 'stamp');
  const { publicKey, scheme, signature } = stamp;
  if (!isHex(publicKey) || !isHex(signature)) return false;
  try {
    switch (scheme) {
      case 'SIGNATURE_SCHEME_TK_API_P256':
        return (opts?.verifyP256 ?? verifyP256Der)(publicKey, body, signature) === true;
      case 'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191':
        return ecdsaVerify(secp256k1, publicKey, hashPersonalMessage(body), hexToBytes(signature), 'der', false);
      case 'SIGNATURE_SCHEME_TK_API_ED25519':
        if (publicKey.length !== 64 || signature.length !== 128) return false;
        return ed25519.verify(hexToBytes(signature), body, hexToBytes(publicKey), { zip215: false });
      default:
        return false;
    }
  } catch {
    return false;
  }
}
