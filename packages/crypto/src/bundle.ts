// Enclave-signed bundles (DESIGN "Signed bundles"): OTP targets, exports, imports. The data
// is hex of UTF-8 JSON; the signature is ECDSA-P256 over SHA-256 of those bytes. Clients pin
// the enclave key and refuse any other.
import { p256 } from '@noble/curves/nist.js';
import { assertObject, assertString } from './assert.js';
import { ecdsaSign, ecdsaVerify } from './ecdsa.js';
import { bytesToHex, bytesToUtf8, hexToBytes, isHex, utf8ToBytes } from './encoding.js';
import { CryptoError } from './errors.js';
import { decodePrivateKey, decodePublicKey, publicKeyOf } from './point.js';

/**
 * A signed bundle as carried on the wire (often as its JSON text).
 *
 * @example
 * ```ts
 * const bundle: SignedBundle = JSON.parse(otpEncryptionTargetBundle);
 * ```
 */
export interface SignedBundle {
  version: 'v1.0.0';
  /** Hex of a UTF-8 JSON document. */
  data: string;
  /** DER hex ECDSA-P256 over SHA-256 of the `data` bytes. */
  dataSignature: string;
  /** The signer's uncompressed P-256 public key, hex. */
  enclaveQuorumPublic: string;
}

/**
 * Signs a JSON document as a v1.0.0 bundle with the enclave's P-256 key (hex).
 *
 * @example
 * ```ts
 * const bundle = signBundle({ targetPublic, organizationId, otpId }, enclavePrivateKey);
 * JSON.stringify(bundle); // the otpEncryptionTargetBundle
 * ```
 */
export function signBundle(data: object, signingPrivateKey: string): SignedBundle {
  if (typeof data !== 'object' || data === null) throw new CryptoError('ERR_INVALID_PARAMETER', 'data must be an object');
  assertString(signingPrivateKey, 'signingPrivateKey');
  const privateKey = decodePrivateKey(signingPrivateKey, p256);
  const bytes = utf8ToBytes(JSON.stringify(data));
  return {
    version: 'v1.0.0',
    data: bytesToHex(bytes),
    dataSignature: bytesToHex(ecdsaSign(p256, privateKey, bytes, 'der')),
    enclaveQuorumPublic: bytesToHex(publicKeyOf(p256, privateKey, false)),
  };
}

function parseBundle(bundle: SignedBundle | string): SignedBundle {
  let value: unknown = bundle;
  if (typeof bundle === 'string') {
    try {
      value = JSON.parse(bundle);
    } catch (cause) {
      throw new CryptoError('ERR_INVALID_PARAMETER', 'bundle is not JSON', { cause });
    }
  }
  assertObject(value, 'bundle');
  const { version, data, dataSignature, enclaveQuorumPublic } = value;
  if (version !== 'v1.0.0') throw new CryptoError('ERR_INVALID_PARAMETER', 'unsupported bundle version');
  if (!isHex(data) || !isHex(dataSignature) || typeof enclaveQuorumPublic !== 'string') {
    throw new CryptoError('ERR_INVALID_PARAMETER', 'bundle fields must be hex strings');
  }
  return { version, data, dataSignature, enclaveQuorumPublic };
}

/**
 * Verifies a signed bundle (object or JSON text) against the pinned enclave key and returns
 * its parsed data. Throws `ERR_INVALID_SIGNATURE` when the bundle names another key or the
 * signature fails, `ERR_INVALID_PARAMETER` when it is not a v1.0.0 bundle of JSON data, and
 * `ERR_INVALID_PUBLIC_KEY` when the pinned key itself is invalid.
 *
 * @example
 * ```ts
 * const { targetPublic } = verifyBundle<{ targetPublic: string }>(otpEncryptionTargetBundle, enclavePublicKey);
 * ```
 */
export function verifyBundle<T = unknown>(bundle: SignedBundle | string, pinnedPublicKey: string): T {
  assertString(pinnedPublicKey, 'pinnedPublicKey', 'ERR_INVALID_PUBLIC_KEY');
  const pinned = decodePublicKey(p256, pinnedPublicKey);
  const parsed = parseBundle(bundle);
  let signer: ReturnType<typeof decodePublicKey>;
  try {
    signer = decodePublicKey(p256, parsed.enclaveQuorumPublic);
  } catch (cause) {
    throw new CryptoError('ERR_INVALID_SIGNATURE', 'bundle signer key is invalid', { cause });
  }
  if (!signer.equals(pinned)) {
    throw new CryptoError('ERR_INVALID_SIGNATURE', 'bundle is signed by a key other than the pinned enclave key');
  }
  const bytes = hexToBytes(parsed.data);
  if (!ecdsaVerify(p256, pinned.toBytes(false), bytes, hexToBytes(parsed.dataSignature), 'der')) {
    throw new CryptoError('ERR_INVALID_SIGNATURE', 'bundle signature is invalid');
  }
  try {
    return JSON.parse(bytesToUtf8(bytes)) as T;
  } catch (cause) {
    throw new CryptoError('ERR_INVALID_PARAMETER', 'bundle data is not UTF-8 JSON', { cause });
  }
}
