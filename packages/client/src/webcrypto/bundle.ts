// Enclave-signed bundles (DESIGN "Signed bundles") verified through WebCrypto: the same checks
// and error codes as @walletkit/crypto's verifyBundle, without P-256 arithmetic in the bundle.
import { bytesToHex, bytesToUtf8, hexToBytes } from '@walletkit/crypto';
import { WalletKitError } from '../errors.js';
import { derSignatureToRaw, uncompressedP256, verifyP256 } from './p256.js';

const HEX = /^(?:[0-9a-fA-F]{2})*$/;

function parseBundle(bundle: string): { data: string; dataSignature: string; enclaveQuorumPublic: string } {
  let value: unknown;
  try {
    value = JSON.parse(bundle);
  } catch (cause) {
    throw new WalletKitError('ERR_INVALID_PARAMETER', 'bundle is not JSON', { cause });
  }
  const { version, data, dataSignature, enclaveQuorumPublic } = (value ?? {}) as Record<string, unknown>;
  if (typeof value !== 'object' || value === null || version !== 'v1.0.0') {
    throw new WalletKitError('ERR_INVALID_PARAMETER', 'unsupported bundle version');
  }
  if (typeof data !== 'string' || !HEX.test(data) || typeof dataSignature !== 'string' || !HEX.test(dataSignature) || typeof enclaveQuorumPublic !== 'string') {
    throw new WalletKitError('ERR_INVALID_PARAMETER', 'bundle fields must be hex strings');
  }
  return { data, dataSignature, enclaveQuorumPublic };
}

/**
 * Verifies a signed bundle (JSON text) against the pinned enclave key and returns its parsed
 * data. `ERR_INVALID_SIGNATURE` when the bundle names another key or the signature fails,
 * `ERR_INVALID_PARAMETER` when it is not a v1.0.0 bundle of JSON data, `ERR_INVALID_PUBLIC_KEY`
 * when the pinned key itself is invalid.
 *
 * @example
 * ```ts
 * const { targetPublic } = await verifySignedBundle<{ targetPublic: string }>(otpEncryptionTargetBundle, enclavePublicKey);
 * ```
 */
export async function verifySignedBundle<T = unknown>(bundle: string, pinnedPublicKey: string): Promise<T> {
  const pinned = bytesToHex(uncompressedP256(pinnedPublicKey));
  const parsed = parseBundle(bundle);
  let signer: string;
  try {
    signer = bytesToHex(uncompressedP256(parsed.enclaveQuorumPublic));
  } catch (cause) {
    throw new WalletKitError('ERR_INVALID_SIGNATURE', 'bundle signer key is invalid', { cause });
  }
  if (signer !== pinned) throw new WalletKitError('ERR_INVALID_SIGNATURE', 'bundle is signed by a key other than the pinned enclave key');
  const bytes = hexToBytes(parsed.data);
  const signature = derSignatureToRaw(hexToBytes(parsed.dataSignature));
  if (!signature || !(await verifyP256(pinned, bytes, signature))) {
    throw new WalletKitError('ERR_INVALID_SIGNATURE', 'bundle signature is invalid');
  }
  try {
    return JSON.parse(bytesToUtf8(bytes)) as T;
  } catch (cause) {
    throw new WalletKitError('ERR_INVALID_PARAMETER', 'bundle data is not UTF-8 JSON', { cause });
  }
}
