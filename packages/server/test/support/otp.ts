/**
 * The client side of the OTP flow, as an end user's browser does it: check the signed target
 * bundle against the pinned enclave key, HPKE-encrypt `{otp_code, public_key}` to it, sign the
 * token usage for login. Plus reading codes out of delivered text and capturing log lines.
 */
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { createClientSignature, decodeJwt, hpkeSeal, utf8ToBytes, verifyBundle, type ClientSignature } from '@walletkit/crypto';

/** The data of an OTP encryption target bundle. */
export interface OtpTarget {
  targetPublic: string;
  organizationId: string;
  otpId: string;
}

/** Verify the bundle against the pinned enclave key and read its data. */
export function otpTargetOf(bundle: string, enclavePublicKey: string): OtpTarget {
  return verifyBundle<OtpTarget>(bundle, enclavePublicKey);
}

/** `encryptedOtpBundle` for verify_otp: the code and the client key, HPKE to `targetPublic`. */
export async function encryptOtpAttempt(targetPublic: string, code: string, clientPublicKey: string): Promise<string> {
  const sealed = await hpkeSeal({ plaintext: utf8ToBytes(JSON.stringify({ otp_code: code, public_key: clientPublicKey })), receiverPublicKey: targetPublic });
  return JSON.stringify(sealed);
}

/** The login client signature over a verification token (DESIGN section 2). */
export function loginSignature(privateKey: string, verificationToken: string, usage = 'USAGE_TYPE_LOGIN'): ClientSignature {
  const { id } = decodeJwt<{ id: string }>(verificationToken);
  return createClientSignature({ privateKey, message: JSON.stringify({ type: usage, tokenId: id }) });
}

/** The code in a delivered message: the first 6-9 character token of digits/uppercase letters. */
export function codeIn(text: string): string {
  const match = /(?:^|\s)([0-9A-Z]{6,9})(?=\s|$)/m.exec(text);
  if (!match) throw new Error(`no code in message: ${text.slice(0, 200)}`);
  return match[1]!;
}

/**
 * Capture every log line the app writes from now on (the root logger and its per-request
 * children share the destination stream, which pino reads from the instance on each write).
 */
export function captureLogs(app: FastifyInstance): string[] {
  const lines: string[] = [];
  (app.log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] = { write: (line: string) => void lines.push(line) };
  return lines;
}
