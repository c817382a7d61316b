// Passkey stamps, header X-Stamp-WebAuthn (DESIGN section 2): plain JSON of base64url
// strings. The WebAuthn challenge is the UTF-8 bytes of the lowercase hex SHA-256 of the
// body, so the body is bound to the assertion. Signature verification against the stored
// credential is the server's job (it holds the COSE key); this file parses and binds.
import { base64urlDecode, bytesToUtf8, equalBytes, utf8ToBytes } from './encoding.js';
import { CryptoError } from './errors.js';
import { sha256Hex } from './hash.js';
import type { ParseStampOptions } from './stamp.js';

/**
 * A decoded X-Stamp-WebAuthn header: base64url strings as sent by the client.
 *
 * @example
 * ```ts
 * const stamp: WebAuthnStamp = parseWebAuthnStamp(header);
 * ```
 */
export interface WebAuthnStamp {
  authenticatorData: string;
  clientDataJson: string;
  credentialId: string;
  signature: string;
}

const FIELDS = ['authenticatorData', 'clientDataJson', 'credentialId', 'signature'] as const;
const MAX_STAMP_LENGTH = 16_384;

function malformed(message: string, cause?: unknown): CryptoError {
  return new CryptoError('ERR_STAMP_MALFORMED', message, cause === undefined ? undefined : { cause });
}

/**
 * Decodes an `X-Stamp-WebAuthn` header: a JSON object with base64url string fields
 * `authenticatorData`, `clientDataJson`, `credentialId` and `signature`. Throws
 * `ERR_STAMP_MALFORMED` for anything else.
 *
 * @example
 * ```ts
 * const stamp = parseWebAuthnStamp(request.headers['x-stamp-webauthn']);
 * stamp.credentialId; // look the authenticator up by this
 * ```
 */
export function parseWebAuthnStamp(header: string, opts?: ParseStampOptions): WebAuthnStamp {
  if (typeof header !== 'string' || header.length === 0) throw malformed('WebAuthn stamp header is missing');
  if (header.length > MAX_STAMP_LENGTH) throw malformed('WebAuthn stamp header is too long');
  let json: unknown;
  try {
    json = opts?.parseJson ? opts.parseJson(utf8ToBytes(header)) : JSON.parse(header);
  } catch (cause) {
    throw malformed('WebAuthn stamp is not JSON', cause);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw malformed('WebAuthn stamp is not a JSON object');
  }
  const record = json as Record<string, unknown>;
  const out = {} as WebAuthnStamp;
  for (const field of FIELDS) {
    const value = record[field];
    if (typeof value !== 'string' || value.length === 0) throw malformed(`WebAuthn stamp.${field} must be a string`);
    try {
      base64urlDecode(value);
    } catch (cause) {
      throw malformed(`WebAuthn stamp.${field} is not base64url`, cause);
    }
    out[field] = value;
  }
  return out;
}

/**
 * The WebAuthn challenge string for a request body: lowercase hex SHA-256 of the body. The
 * authenticator signs over its UTF-8 bytes, so `clientDataJSON.challenge` is
 * `base64url(utf8(webAuthnChallengeForBody(body)))`.
 *
 * @example
 * ```ts
 * const challenge = utf8ToBytes(webAuthnChallengeForBody(body));
 * await navigator.credentials.get({ publicKey: { challenge, rpId } });
 * ```
 */
export function webAuthnChallengeForBody(body: string | Uint8Array): string {
  return sha256Hex(body);
}

/**
 * Checks that a WebAuthn stamp is bound to `body`: its clientDataJSON parses, has type
 * `webauthn.get`, and its challenge is the body's challenge. Returns `false` (never throws)
 * for any mismatch or malformed data. The assertion signature itself is verified separately.
 *
 * @example
 * ```ts
 * if (!checkWebAuthnStampChallenge(rawBody, stamp)) throw new Error('stamp is for another body');
 * ```
 */
export function checkWebAuthnStampChallenge(body: string | Uint8Array, stamp: WebAuthnStamp): boolean {
  const expected = utf8ToBytes(webAuthnChallengeForBody(body));
  try {
    const clientData: unknown = JSON.parse(bytesToUtf8(base64urlDecode(stamp.clientDataJson)));
    if (typeof clientData !== 'object' || clientData === null) return false;
    const { type, challenge } = clientData as Record<string, unknown>;
    if (type !== 'webauthn.get' || typeof challenge !== 'string') return false;
    return equalBytes(base64urlDecode(challenge), expected);
  } catch {
    return false;
  }
}
