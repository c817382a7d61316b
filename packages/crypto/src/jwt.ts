// ES256 compact JWS (RFC 7515 / RFC 7518 section 3.4) for verification tokens and session
// JWTs: signature is raw r || s (64 bytes), base64url, over the ASCII "header.payload".
import { p256 } from '@noble/curves/nist.js';
import { assertObject, assertString } from './assert.js';
import { ecdsaSign, ecdsaVerify } from './ecdsa.js';
import { base64urlDecode, base64urlEncode, bytesToUtf8, utf8ToBytes } from './encoding.js';
import { CryptoError } from './errors.js';
import { decodePrivateKey, decodePublicKey } from './point.js';

/**
 * Options of {@link verifyJwt}.
 *
 * @example
 * ```ts
 * verifyJwt(token, publicKey, { now: () => clock.now() } satisfies VerifyJwtOptions);
 * ```
 */
export interface VerifyJwtOptions {
  /** Clock in milliseconds since the epoch; defaults to `Date.now`. */
  now?: (() => number) | undefined;
}

const MAX_TOKEN_LENGTH = 16_384;

function invalid(message: string, cause?: unknown): CryptoError {
  return new CryptoError('ERR_JWT_INVALID', message, cause === undefined ? undefined : { cause });
}

/** A decoded JOSE header or claims set: a JSON object, with the members this module reads named. */
type JwtObject<K extends string> = { [P in K]?: unknown } & Record<string, unknown>;

function decodeSegment(segment: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(bytesToUtf8(base64urlDecode(segment)));
  } catch (cause) {
    throw invalid(`JWT ${what} is not base64url JSON`, cause);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(`JWT ${what} is not an object`);
  return value as Record<string, unknown>;
}

function split(token: string): [string, string, string] {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) throw invalid('JWT must be a compact JWS string');
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => p.length === 0)) throw invalid('JWT must have three non-empty parts');
  return parts as [string, string, string];
}

/**
 * The last pinned key decoded, as uncompressed bytes: a verifier checks every token against the
 * same key, and decoding (a point check) costs more here than the rest of a JWT but the signature.
 */
let lastPinned: { hex: string; bytes: Uint8Array } | undefined;

function pinnedKey(publicKeyHex: string): Uint8Array {
  if (lastPinned?.hex !== publicKeyHex) lastPinned = { hex: publicKeyHex, bytes: decodePublicKey(p256, publicKeyHex).toBytes(false) };
  return lastPinned.bytes;
}

/**
 * Signs claims as an ES256 JWT with a P-256 private key (hex). The header is
 * `{alg: 'ES256', typ: 'JWT'}` plus `kid` when given.
 *
 * @example
 * ```ts
 * const token = signJwt(
 *   { user_id, organization_id, public_key, session_type: 'SESSION_TYPE_READ_WRITE', exp: Math.floor(Date.now() / 1000) + 900 },
 *   enclavePrivateKey,
 *   { kid: 'enclave-1' },
 * );
 * ```
 */
export function signJwt(claims: Record<string, unknown>, privateKeyHex: string, header?: { kid?: string | undefined }): string {
  assertObject(claims, 'claims');
  assertString(privateKeyHex, 'privateKeyHex');
  const privateKey = decodePrivateKey(privateKeyHex, p256);
  const head: { alg: string; typ: string; kid?: string } = { alg: 'ES256', typ: 'JWT' };
  if (header?.kid !== undefined) {
    assertString(header.kid, 'header.kid');
    head.kid = header.kid;
  }
  const signingInput = `${base64urlEncode(utf8ToBytes(JSON.stringify(head)))}.${base64urlEncode(utf8ToBytes(JSON.stringify(claims)))}`;
  const signature = ecdsaSign(p256, privateKey, utf8ToBytes(signingInput), 'compact');
  return `${signingInput}.${base64urlEncode(signature)}`;
}

/**
 * Decodes a JWT's claims without verifying anything (e.g. to read `exp` client-side).
 * Throws `ERR_JWT_INVALID` when it is not a compact JWS with a JSON object payload.
 *
 * @example
 * ```ts
 * const { exp } = decodeJwt<{ exp: number }>(session.token);
 * ```
 */
export function decodeJwt<T = Record<string, unknown>>(token: string): T {
  const [, payload] = split(token);
  return decodeSegment(payload, 'payload') as T;
}

/**
 * Verifies an ES256 JWT with a P-256 public key (compressed or uncompressed hex) and returns
 * its claims. Throws `ERR_JWT_INVALID` for a malformed token, another `alg`, a bad
 * signature, a non-numeric `exp`/`nbf` or an `nbf` in the future; `ERR_JWT_EXPIRED` when
 * `exp` (seconds) is at or before now. The signature is checked before expiry.
 *
 * @example
 * ```ts
 * const claims = verifyJwt<{ public_key: string }>(verificationToken, enclavePublicKey);
 * ```
 */
export function verifyJwt<T = Record<string, unknown>>(token: string, publicKeyHex: string, opts?: VerifyJwtOptions): T {
  assertString(publicKeyHex, 'publicKeyHex', 'ERR_INVALID_PUBLIC_KEY');
  const publicKey = pinnedKey(publicKeyHex);
  const [head, payload, sig] = split(token);
  const header: JwtObject<'alg'> = decodeSegment(head, 'header');
  if (header.alg !== 'ES256') throw invalid('JWT alg must be ES256');
  let signature: Uint8Array;
  try {
    signature = base64urlDecode(sig);
  } catch (cause) {
    throw invalid('JWT signature is not base64url', cause);
  }
  if (!ecdsaVerify(p256, publicKey, utf8ToBytes(`${head}.${payload}`), signature, 'compact')) {
    throw invalid('JWT signature is invalid');
  }
  const claims = decodeSegment(payload, 'payload');
  checkJwtTimes(claims, (opts?.now ?? Date.now)());
  return claims as T;
}

/**
 * The time checks of {@link verifyJwt} alone, on claims whose signature was verified before (a
 * verifier that remembers the tokens it verified checks their times again at each use). Throws
 * `ERR_JWT_EXPIRED` when `exp` (seconds) is at or before `nowMs`, `ERR_JWT_INVALID` for a
 * non-numeric `exp`/`nbf` or an `nbf` after it.
 *
 * @example
 * ```ts
 * checkJwtTimes(rememberedClaims, Date.now());
 * ```
 */
export function checkJwtTimes(claims: Record<string, unknown>, nowMs: number): void {
  const { exp, nbf } = claims as JwtObject<'exp' | 'nbf'>;
  const nowSeconds = nowMs / 1000;
  if (exp !== undefined) {
    if (typeof exp !== 'number' || !Number.isFinite(exp)) throw invalid('JWT exp must be a number');
    if (exp <= nowSeconds) throw new CryptoError('ERR_JWT_EXPIRED', 'JWT has expired');
  }
  if (nbf !== undefined) {
    if (typeof nbf !== 'number' || !Number.isFinite(nbf)) throw invalid('JWT nbf must be a number');
    if (nbf > nowSeconds) throw invalid('JWT is not valid yet');
  }
}
