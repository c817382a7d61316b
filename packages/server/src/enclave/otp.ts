/**
 * One-time codes inside the enclave boundary (DESIGN section 2, "Signed bundles"; issue 3).
 *
 * Each code gets a fresh P-256 HPKE target key. Its private key is sealed to the at-rest key
 * and also keys the code's HMAC, so the database holds neither the code nor anything that
 * lets an attacker with a dump brute-force the small code space. The client encrypts
 * `{"otp_code", "public_key"}` to the target. The Enclave (index.ts `issueOtp`,
 * `checkOtpAttempt`) generates and opens the target keys and calls these helpers with them.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { compressPublicKey, hpkeOpen } from '@walletkit/crypto';
import type { Sealed } from './types.js';

/** Digits only. */
export const NUMERIC_ALPHABET = '0123456789';
/**
 * Uppercase letters and digits without the look-alikes 0/O, 1/I/L (31 symbols): codes are
 * read off a phone and typed by hand. Verification upper-cases what the client sends.
 */
export const ALPHANUMERIC_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/**
 * A code of `length` symbols from a CSPRNG. `randomInt` draws by rejection sampling, so every
 * symbol is uniform (no modulo bias).
 * @example generateOtpCode(6, false) // '493027'
 */
export function generateOtpCode(length: number, alphanumeric: boolean): string {
  if (!Number.isInteger(length) || length < 6 || length > 9) throw new RangeError('OTP length must be 6 to 9');
  const alphabet = alphanumeric ? ALPHANUMERIC_ALPHABET : NUMERIC_ALPHABET;
  let code = '';
  for (let i = 0; i < length; i += 1) code += alphabet[randomInt(alphabet.length)];
  return code;
}

/** Codes compare case-insensitively (the alphanumeric alphabet is uppercase only). */
function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}

/** HMAC-SHA256 of the code, keyed by the per-code target private key, bound to the OTP id. */
function codeMac(targetPrivateKeyHex: string, otpId: string, code: string): Buffer {
  return createHmac('sha256', Buffer.from(targetPrivateKeyHex, 'hex'))
    .update(`walletkit-otp-code|${otpId}|${normalizeCode(code)}`)
    .digest();
}

/** What init_otp stores and returns; `code` goes to delivery only, never to a reply or log. */
export interface IssuedOtp {
  code: string;
  codeMac: string;
  targetPublicKey: string;
  sealedTargetKey: Sealed;
  /** JSON of the enclave-signed bundle `{targetPublic, organizationId, otpId}`. */
  otpEncryptionTargetBundle: string;
}

/**
 * A code for `otpId` and its MAC under the code's target private key (the Enclave seals the key
 * and signs the bundle).
 * @example const { code, codeMac } = issueOtpWith(target, { otpId, length: 6, alphanumeric: false });
 */
export function issueOtpWith(
  target: { privateKey: string },
  input: { otpId: string; length: number; alphanumeric: boolean },
): { code: string; codeMac: string } {
  const code = generateOtpCode(input.length, input.alphanumeric);
  return { code, codeMac: codeMac(target.privateKey, input.otpId, code).toString('hex') };
}

/** Parse `encryptedOtpBundle` (JSON `{encappedPublic, ciphertext}`); undefined when malformed. */
export function parseEncryptedOtpBundle(value: string): { encappedPublic: string; ciphertext: string } | undefined {
  try {
    const parsed = JSON.parse(value) as { encappedPublic?: unknown; ciphertext?: unknown } | null;
    if (typeof parsed?.encappedPublic === 'string' && typeof parsed.ciphertext === 'string') {
      return { encappedPublic: parsed.encappedPublic, ciphertext: parsed.ciphertext };
    }
  } catch {
    // malformed JSON
  }
  return undefined;
}

/**
 * Open a verify attempt with the code's target private key and check its code in constant
 * time. Every failure (wrong target key, tampered ciphertext, bad document, bad client key,
 * wrong code) is the same `undefined`, so callers cannot leak which one happened.
 * @returns the client's compressed P-256 public key when the code is right, else undefined
 */
export async function checkOtpAttemptWith(
  targetPrivateKey: string,
  input: { otpId: string; codeMac: string; encrypted: { encappedPublic: string; ciphertext: string } },
): Promise<string | undefined> {
  let plaintext: Uint8Array;
  try {
    plaintext = await hpkeOpen({ ...input.encrypted, receiverPrivateKey: targetPrivateKey });
  } catch {
    return undefined;
  }
  let doc: { otp_code?: unknown; public_key?: unknown };
  try {
    doc = JSON.parse(new TextDecoder().decode(plaintext)) as typeof doc;
  } catch {
    return undefined;
  } finally {
    plaintext.fill(0);
  }
  if (typeof doc !== 'object' || doc === null || typeof doc.otp_code !== 'string' || typeof doc.public_key !== 'string') return undefined;
  let clientKey: string;
  try {
    clientKey = compressPublicKey('p256', doc.public_key);
  } catch {
    return undefined;
  }
  const expected = Buffer.from(input.codeMac, 'hex');
  const actual = codeMac(targetPrivateKey, input.otpId, doc.otp_code);
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? clientKey : undefined;
}
