import { bytesToHex, decodeJwt, utf8ToBytes, type ClientSignature } from '@walletkit/crypto';
import { signWithSessionKey, type SessionKey } from './stampers/session-key.js';

/** What a verification token is being used for. */
export type TokenUsage = 'USAGE_TYPE_LOGIN' | 'USAGE_TYPE_SIGNUP';

/**
 * The clientSignature proving that the key bound at `otp_verify_v2` approves this use of the
 * verification token: message `{"type":<usage>,"tokenId":<token id>}`, signature raw r || s hex
 * (ECDSA-P256 over SHA-256 of the message) by the non-extractable session key.
 *
 * @example
 * ```ts
 * const clientSignature = await createTokenClientSignature({ key, verificationToken, usage: 'USAGE_TYPE_LOGIN' });
 * await proxy.otpLogin({ verificationToken, publicKey: key.publicKey, clientSignature });
 * ```
 */
export async function createTokenClientSignature(params: { key: SessionKey; verificationToken: string; usage: TokenUsage }): Promise<ClientSignature> {
  const tokenId = decodeJwt<{ id: string }>(params.verificationToken).id;
  const message = JSON.stringify({ type: params.usage, tokenId });
  const signature = await signWithSessionKey(params.key, utf8ToBytes(message));
  return { publicKey: params.key.publicKey, scheme: 'CLIENT_SIGNATURE_SCHEME_API_P256', message, signature: bytesToHex(signature) };
}
