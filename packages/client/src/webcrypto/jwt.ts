// ES256 compact JWS verification through WebCrypto (session JWTs): raw r || s, base64url.
import { base64urlDecode, bytesToUtf8, utf8ToBytes } from '@walletkit/crypto';
import { WalletKitError } from '../errors.js';
import { verifyP256 } from './p256.js';

const MAX_TOKEN_LENGTH = 16_384;

function segment(part: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(bytesToUtf8(base64urlDecode(part)));
  } catch (cause) {
    throw new WalletKitError('ERR_INVALID_SIGNATURE', `JWT ${what} is not base64url JSON`, { cause });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new WalletKitError('ERR_INVALID_SIGNATURE', `JWT ${what} is not an object`);
  return value as Record<string, unknown>;
}

/**
 * Checks an ES256 JWT's `alg` and signature against a P-256 public key (hex) and returns its
 * claims; the caller judges `exp` against its own clock. `ERR_INVALID_SIGNATURE` when the token
 * is malformed, not ES256 or badly signed; `ERR_INVALID_PUBLIC_KEY` for a bad key.
 *
 * @example
 * ```ts
 * const { exp, public_key } = await verifyEs256Jwt<{ exp: number; public_key: string }>(session, enclavePublicKey);
 * ```
 */
export async function verifyEs256Jwt<T = Record<string, unknown>>(token: string, publicKeyHex: string): Promise<T> {
  const parts = typeof token === 'string' && token.length <= MAX_TOKEN_LENGTH ? token.split('.') : [];
  if (parts.length !== 3 || parts.some((p) => p.length === 0)) throw new WalletKitError('ERR_INVALID_SIGNATURE', 'JWT must be a compact JWS');
  const [head, payload, sig] = parts as [string, string, string];
  const header: { alg?: unknown } = segment(head, 'header');
  if (header.alg !== 'ES256') throw new WalletKitError('ERR_INVALID_SIGNATURE', 'JWT alg must be ES256');
  let signature: Uint8Array;
  try {
    signature = base64urlDecode(sig);
  } catch (cause) {
    throw new WalletKitError('ERR_INVALID_SIGNATURE', 'JWT signature is not base64url', { cause });
  }
  if (!(await verifyP256(publicKeyHex, utf8ToBytes(`${head}.${payload}`), signature))) {
    throw new WalletKitError('ERR_INVALID_SIGNATURE', 'JWT signature is invalid');
  }
  return segment(payload, 'payload') as T;
}
