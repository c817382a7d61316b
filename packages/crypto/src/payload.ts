// Turns a sign_raw_payload request (payload, encoding, hash function) into the exact bytes
// the key signs: a 32-byte digest for secp256k1, the message itself for ed25519.
import { assertObject, assertOneOf, assertString } from './assert.js';
import { assertCurve, type Curve } from './derive.js';
import { type Eip7702Authorization, hashEip7702Authorization } from './eip7702.js';
import { hashTypedData, type TypedData } from './eip712.js';
import { hexToBytes, utf8ToBytes } from './encoding.js';
import { CryptoError } from './errors.js';
import { sha256 } from './hash.js';
import { keccak256 } from './keccak.js';

/**
 * Payload encodings of the wire.
 *
 * @example
 * ```ts
 * const encoding: PayloadEncoding = 'PAYLOAD_ENCODING_HEXADECIMAL';
 * ```
 */
export type PayloadEncoding =
  | 'PAYLOAD_ENCODING_HEXADECIMAL'
  | 'PAYLOAD_ENCODING_TEXT_UTF8'
  | 'PAYLOAD_ENCODING_EIP712'
  | 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION';

/**
 * Hash functions of the wire.
 *
 * @example
 * ```ts
 * const hashFunction: HashFunction = 'HASH_FUNCTION_NO_OP';
 * ```
 */
export type HashFunction = 'HASH_FUNCTION_NO_OP' | 'HASH_FUNCTION_SHA256' | 'HASH_FUNCTION_KECCAK256' | 'HASH_FUNCTION_NOT_APPLICABLE';

/**
 * A payload to sign as the wire carries it.
 *
 * @example
 * ```ts
 * const request: PayloadRequest = { payload: '0xdeadbeef', encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_KECCAK256' };
 * ```
 */
export interface PayloadRequest {
  payload: string;
  encoding: PayloadEncoding;
  hashFunction: HashFunction;
}

const ENCODINGS: readonly PayloadEncoding[] = [
  'PAYLOAD_ENCODING_HEXADECIMAL',
  'PAYLOAD_ENCODING_TEXT_UTF8',
  'PAYLOAD_ENCODING_EIP712',
  'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION',
];
const HASH_FUNCTIONS: readonly HashFunction[] = ['HASH_FUNCTION_NO_OP', 'HASH_FUNCTION_SHA256', 'HASH_FUNCTION_KECCAK256', 'HASH_FUNCTION_NOT_APPLICABLE'];

function invalid(message: string, cause?: unknown): CryptoError {
  return new CryptoError('ERR_INVALID_PAYLOAD', message, cause === undefined ? undefined : { cause });
}

function parseJson(payload: string, what: string): unknown {
  try {
    return JSON.parse(payload);
  } catch (cause) {
    throw invalid(`payload is not ${what} JSON`, cause);
  }
}

/**
 * Structured encodings carry their own hash (EIP-712 / EIP-7702 digests). The payload is
 * always the JSON document, never a digest: KECCAK256 names the hash they use, NOT_APPLICABLE
 * and NO_OP say "nothing on top of it". NO_OP is what @turnkey/viem sends for signTypedData
 * and signAuthorization (docs/decisions/0014-transactions-server.md). SHA256 would be a
 * different digest than the one the standard defines, so it is refused.
 */
function structuredDigest(encoding: PayloadEncoding, payload: string, hashFunction: HashFunction): Uint8Array<ArrayBuffer> | undefined {
  if (encoding !== 'PAYLOAD_ENCODING_EIP712' && encoding !== 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION') return undefined;
  if (hashFunction === 'HASH_FUNCTION_SHA256') {
    throw invalid(
      `${encoding} is hashed as its standard defines (keccak256): use HASH_FUNCTION_KECCAK256, HASH_FUNCTION_NOT_APPLICABLE or HASH_FUNCTION_NO_OP`,
    );
  }
  if (encoding === 'PAYLOAD_ENCODING_EIP712') {
    return hashTypedData(parseJson(payload, 'EIP-712 typed-data') as TypedData);
  }
  const tuple = parseJson(payload, 'EIP-7702 authorization') as { address?: unknown; contractAddress?: unknown; [field: string]: unknown } | null;
  assertObject(tuple, 'authorization', 'ERR_INVALID_PAYLOAD');
  // viem names the delegate `contractAddress`; accept it as an alias of `address`.
  const address = tuple.address ?? tuple.contractAddress;
  return hashEip7702Authorization({ ...tuple, address } as Eip7702Authorization);
}

function decodeBytes(encoding: PayloadEncoding, payload: string): Uint8Array<ArrayBuffer> {
  if (encoding === 'PAYLOAD_ENCODING_TEXT_UTF8') return utf8ToBytes(payload);
  try {
    return hexToBytes(payload);
  } catch (cause) {
    throw invalid('payload is not hexadecimal', cause);
  }
}

/**
 * The bytes a key signs for a raw-payload request. secp256k1: a 32-byte digest —
 * NO_OP requires the decoded payload to already be 32 bytes, SHA256 / KECCAK256 hash it,
 * NOT_APPLICABLE is only valid with EIP712 / EIP7702. Those two hash themselves (the payload
 * is their JSON document) with KECCAK256, NOT_APPLICABLE or NO_OP alike. ed25519: the
 * decoded message as-is, with NOT_APPLICABLE or NO_OP only. Throws `ERR_INVALID_PAYLOAD`
 * for undecodable payloads and invalid combinations.
 *
 * @example
 * ```ts
 * payloadDigest({
 *   payload: 'hello',
 *   encoding: 'PAYLOAD_ENCODING_TEXT_UTF8',
 *   hashFunction: 'HASH_FUNCTION_KECCAK256',
 *   curve: 'CURVE_SECP256K1',
 * }); // keccak256('hello')
 * ```
 */
export function payloadDigest(params: PayloadRequest & { curve: Curve }): Uint8Array<ArrayBuffer> {
  const { bytes, keccak } = payloadToSign(params);
  return keccak ? keccak256(bytes) : bytes;
}

/**
 * {@link payloadDigest} with its last step left to the caller where that step is keccak-256 of the
 * decoded payload (secp256k1, HASH_FUNCTION_KECCAK256, a hexadecimal or UTF-8 payload): `keccak`
 * true says `bytes` are still to be hashed. It checks and refuses exactly what payloadDigest
 * does. A server hashes where it signs, on a worker thread instead of its event loop.
 *
 * @example
 * ```ts
 * payloadToSign({ payload: 'hello', encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', hashFunction: 'HASH_FUNCTION_KECCAK256', curve: 'CURVE_SECP256K1' });
 * // { bytes: utf8ToBytes('hello'), keccak: true }
 * ```
 */
export function payloadToSign(params: PayloadRequest & { curve: Curve }): { bytes: Uint8Array<ArrayBuffer>; keccak: boolean } {
  assertObject(params, 'params');
  const curve = assertCurve(params.curve);
  assertString(params.payload, 'payload', 'ERR_INVALID_PAYLOAD');
  const encoding = assertOneOf(params.encoding, ENCODINGS, 'encoding', 'ERR_INVALID_PAYLOAD');
  const hashFunction = assertOneOf(params.hashFunction, HASH_FUNCTIONS, 'hashFunction', 'ERR_INVALID_PAYLOAD');
  const { payload } = params;

  if (curve === 'CURVE_ED25519') {
    if (hashFunction !== 'HASH_FUNCTION_NOT_APPLICABLE' && hashFunction !== 'HASH_FUNCTION_NO_OP') {
      throw invalid('ed25519 signs the message itself: use HASH_FUNCTION_NOT_APPLICABLE');
    }
    if (encoding === 'PAYLOAD_ENCODING_EIP712' || encoding === 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION') {
      throw invalid(`${encoding} is an Ethereum encoding and is not valid for ed25519`);
    }
    return { bytes: decodeBytes(encoding, payload), keccak: false };
  }

  const structured = structuredDigest(encoding, payload, hashFunction);
  if (structured) return { bytes: structured, keccak: false };
  const bytes = decodeBytes(encoding, payload);
  switch (hashFunction) {
    case 'HASH_FUNCTION_NO_OP':
      if (bytes.length !== 32) throw invalid('HASH_FUNCTION_NO_OP requires a 32-byte payload for secp256k1');
      return { bytes, keccak: false };
    case 'HASH_FUNCTION_SHA256':
      return { bytes: sha256(bytes), keccak: false };
    case 'HASH_FUNCTION_KECCAK256':
      return { bytes, keccak: true };
    case 'HASH_FUNCTION_NOT_APPLICABLE':
      throw invalid('HASH_FUNCTION_NOT_APPLICABLE is only valid with EIP712 or EIP7702 payloads for secp256k1');
  }
}
