// clientSignature (DESIGN section 2): proves the holder of a P-256 key approved a message,
// e.g. the use of a verification token at login. Signature is raw r || s over SHA-256.
import { p256 } from '@noble/curves/nist.js';
import { assertObject, assertString } from './assert.js';
import { ecdsaSign, ecdsaVerify } from './ecdsa.js';
import { bytesToHex, hexToBytes, isHex, utf8ToBytes } from './encoding.js';
import { decodePrivateKey, publicKeyOf } from './point.js';

/**
 * A client signature as carried on the wire.
 *
 * @example
 * ```ts
 * const sig: ClientSignature = createClientSignature({ privateKey, message });
 * ```
 */
export interface ClientSignature {
  /** Compressed P-256 public key, hex. */
  publicKey: string;
  scheme: 'CLIENT_SIGNATURE_SCHEME_API_P256';
  /** The signed text (a JSON token-usage document). */
  message: string;
  /** Raw r || s (64 bytes) hex, ECDSA-P256 over SHA-256 of the UTF-8 message. */
  signature: string;
}

/**
 * Signs `message` with a P-256 private key (hex) as a client signature.
 *
 * @example
 * ```ts
 * const message = JSON.stringify({ login: { tokenId } });
 * const clientSignature = createClientSignature({ privateKey: sessionKey.privateKey, message });
 * ```
 */
export function createClientSignature(params: { privateKey: string; message: string }): ClientSignature {
  assertObject(params, 'params');
  assertString(params.privateKey, 'privateKey');
  assertString(params.message, 'message');
  const privateKey = decodePrivateKey(params.privateKey, p256);
  return {
    publicKey: bytesToHex(publicKeyOf(p256, privateKey, true)),
    scheme: 'CLIENT_SIGNATURE_SCHEME_API_P256',
    message: params.message,
    signature: bytesToHex(ecdsaSign(p256, privateKey, utf8ToBytes(params.message), 'compact')),
  };
}

/**
 * Verifies a client signature against its own `publicKey`. Callers must still check that
 * key is the one they expect and that the message says what they expect. Returns `false`
 * (never throws) for anything malformed.
 *
 * @example
 * ```ts
 * if (!verifyClientSignature(body.clientSignature) || body.clientSignature.publicKey !== body.publicKey) reject();
 * ```
 */
export function verifyClientSignature(sig: ClientSignature): boolean {
  if (typeof sig !== 'object' || sig === null) return false;
  const { publicKey, scheme, message, signature } = sig;
  if (scheme !== 'CLIENT_SIGNATURE_SCHEME_API_P256' || typeof message !== 'string') return false;
  if (typeof publicKey !== 'string' || !isHex(signature, 64)) return false;
  return ecdsaVerify(p256, publicKey, utf8ToBytes(message), hexToBytes(signature), 'compact');
}
