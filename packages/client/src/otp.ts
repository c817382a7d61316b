import { utf8ToBytes } from '@walletkit/crypto';
import { toWalletKitError } from './errors.js';
import { verifySignedBundle } from './webcrypto/bundle.js';
import { hpkeSealTo } from './webcrypto/hpke.js';

/**
 * The OTP code sealed for `otp_verify_v2`: verifies the target bundle's signature against the
 * pinned enclave key first (anything else is refused with `ERR_INVALID_SIGNATURE`), then
 * HPKE-encrypts the UTF-8 JSON `{"otp_code","public_key"}` to its `targetPublic` (DESIGN
 * section 2). Returns the `encryptedOtpBundle` text.
 *
 * @example
 * ```ts
 * const encryptedOtpBundle = await encryptOtpCode({ bundle: otpEncryptionTargetBundle, code: '123456', publicKey: key.publicKey, enclavePublicKey });
 * await proxy.otpVerify({ otpId, encryptedOtpBundle });
 * ```
 */
export async function encryptOtpCode(params: { bundle: string; code: string; publicKey: string; enclavePublicKey: string }): Promise<string> {
  let target: { targetPublic?: unknown };
  try {
    target = await verifySignedBundle<{ targetPublic?: unknown }>(params.bundle, params.enclavePublicKey);
  } catch (error) {
    throw toWalletKitError(error, 'ERR_INVALID_SIGNATURE');
  }
  if (typeof target.targetPublic !== 'string') throw toWalletKitError(new Error('bundle has no targetPublic'), 'ERR_INVALID_PARAMETER');
  const plaintext = utf8ToBytes(JSON.stringify({ otp_code: params.code, public_key: params.publicKey }));
  try {
    return JSON.stringify(await hpkeSealTo(plaintext, target.targetPublic));
  } catch (error) {
    throw toWalletKitError(error, 'ERR_INVALID_PUBLIC_KEY');
  }
}
