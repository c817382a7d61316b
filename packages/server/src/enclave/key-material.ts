/**
 * Plaintext key arithmetic of the enclave: seeds, HD derivation, raw signatures and the
 * parsing of imported secrets. Only enclave/index.ts imports this file; every function
 * here receives or returns plaintext, and callers zero the bytes they hold afterwards.
 */
import { pbkdf2Sync } from 'node:crypto';
import { bytesToHex, formatAddress, hexToBytes, publicKeyFromPrivate, signRawPayload, validateMnemonic, type Curve } from '@walletkit/crypto';
import type { AddressFormat } from '@walletkit/protocol';
import { pointCompress } from 'tiny-secp256k1';
import { ApiError, asApiError } from '../errors.js';
import { derivePrivateKeyNative, secp256k1PublicKey } from './native-derive.js';

/** One account to derive from a wallet seed. */
export interface AccountSpec {
  curve: Curve;
  path: string;
  addressFormat: AddressFormat;
}

/** The public half of a derived account. */
export interface DerivedAccountPublic {
  address: string;
  /** secp256k1: compressed SEC1 hex; ed25519: raw 32-byte hex. */
  publicKey: string;
}

/** A raw signature in the wire's `{r, s, v}` shape (lowercase hex). */
export interface RawSignature {
  r: string;
  s: string;
  v: string;
}

const utf8 = new TextEncoder();

/**
 * Re-throw a crypto error caused by caller input as the ApiError of the same code (4xx),
 * naming `field`; anything uncoded stays an internal error.
 */
export function inputError(err: unknown, field?: string): ApiError {
  if (err instanceof ApiError) return err;
  const mapped = asApiError(err);
  return mapped.status < 500 ? new ApiError(mapped.code, mapped.message, field, { cause: err }) : mapped;
}

/** BIP39 seed with native PBKDF2 (the BIP39 algorithm, far faster than the JS one). */
export function mnemonicSeed(mnemonic: string): Uint8Array {
  return pbkdf2Sync(utf8.encode(mnemonic.normalize('NFKD')), utf8.encode('mnemonic'), 2048, 64, 'sha512');
}

/**
 * Addresses, public keys and private keys of `specs` under one seed. The caller seals each
 * private key and zeroes it; on an error, the keys derived so far are zeroed here.
 *
 * The keys come from `derivePrivateKeyNative` and public keys from libsecp256k1
 * (@walletkit/crypto's `deriveAccount` goes through @scure/bip32, which computes a public key
 * in JS at every level: a third of a signup's CPU). `key-derivation.test.ts` holds both to the
 * same accounts.
 */
export function deriveAccountKeys(seed: Uint8Array, specs: readonly AccountSpec[]): Array<DerivedAccountPublic & { privateKey: Uint8Array }> {
  const out: Array<DerivedAccountPublic & { privateKey: Uint8Array }> = [];
  try {
    for (const [i, spec] of specs.entries()) {
      let privateKey: Uint8Array | undefined;
      try {
        privateKey = derivePrivateKeyNative(seed, spec.curve, spec.path);
        const { publicKey, forAddress } = publicKeyOfDerived(spec.curve, privateKey);
        const address = formatAddress({ curve: spec.curve, publicKey: forAddress, addressFormat: spec.addressFormat });
        out.push({ address, publicKey: bytesToHex(publicKey), privateKey });
      } catch (err) {
        privateKey?.fill(0);
        const coded = inputError(err);
        throw coded.status < 500 ? new ApiError(coded.code, coded.message, `accounts.${i}`, { cause: err }) : coded;
      }
    }
    return out;
  } catch (err) {
    for (const a of out) a.privateKey.fill(0);
    throw err;
  }
}

/**
 * The stored public key of a derived private key (compressed SEC1 for secp256k1, raw for
 * ed25519) and the key its address is made from (secp256k1: uncompressed, so formatting an
 * address decompresses no point in JS).
 */
function publicKeyOfDerived(curve: Curve, privateKey: Uint8Array): { publicKey: Uint8Array; forAddress: Uint8Array } {
  if (curve !== 'CURVE_SECP256K1') {
    const publicKey = publicKeyFromPrivate(curve, privateKey);
    return { publicKey, forAddress: publicKey };
  }
  const uncompressed = secp256k1PublicKey(privateKey, false);
  return { publicKey: pointCompress(uncompressed, true), forAddress: uncompressed };
}

/**
 * Sign messages prepared by `payloadDigest` (32-byte digests for secp256k1, the message for
 * ed25519): as hex with NO_OP they are signed exactly as given, so no payload is hashed twice.
 * `keccak`: the messages are `payloadToSign`'s, still to be hashed with keccak-256 (secp256k1):
 * signRawPayload's own HASH_FUNCTION_KECCAK256 hashes them here, on the signer thread, instead of
 * on the event loop.
 */
export function signMessages(curve: Curve, privateKey: Uint8Array, messages: readonly Uint8Array[], keccak = false): RawSignature[] {
  return messages.map((message) =>
    signRawPayload({
      curve,
      privateKey,
      payload: bytesToHex(message),
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: keccak ? 'HASH_FUNCTION_KECCAK256' : 'HASH_FUNCTION_NO_OP',
    }),
  );
}

/** A fresh random private key valid on `curve`, with its public key (hex). */
export function newPrivateKey(curve: Curve): { privateKey: Uint8Array; publicKey: string } {
  for (;;) {
    const privateKey = globalThis.crypto.getRandomValues(new Uint8Array(32));
    try {
      return { privateKey, publicKey: bytesToHex(publicKeyFromPrivate(curve, privateKey)) };
    } catch {
      // A secp256k1 scalar >= n: probability ~2^-128; draw again.
      privateKey.fill(0);
    }
  }
}

/** Addresses of a public key (hex) in `formats`; a bad pairing is ERR_UNSUPPORTED_CURVE_FORMAT. */
export function addressesOf(curve: Curve, publicKeyHex: string, formats: readonly AddressFormat[]): Array<{ format: AddressFormat; address: string }> {
  const publicKey = hexToBytes(publicKeyHex);
  return formats.map((format) => {
    try {
      return { format, address: formatAddress({ curve, publicKey, addressFormat: format }) };
    } catch (err) {
      throw inputError(err, 'addressFormats');
    }
  });
}

/**
 * The mnemonic inside an import bundle: whitespace collapsed and lowercased (BIP39 words
 * are lowercase), then checked against the English list and checksum.
 */
export function parseImportedMnemonic(bytes: Uint8Array): string {
  const mnemonic = new TextDecoder().decode(bytes).trim().toLowerCase().split(/\s+/).join(' ');
  if (!validateMnemonic(mnemonic)) {
    throw new ApiError('ERR_INVALID_PARAMETER', 'the imported mnemonic is not a valid English BIP39 mnemonic', 'encryptedBundle');
  }
  return mnemonic;
}

/**
 * The 32-byte private key inside an import bundle. ed25519 also accepts the 64-byte
 * `seed || publicKey` form of Solana keypairs when its second half matches the seed.
 * Returns the key and its public key; the input bytes are left to the caller to zero.
 */
export function parseImportedPrivateKey(bytes: Uint8Array, curve: Curve): { privateKey: Uint8Array; publicKey: string } {
  let privateKey = bytes;
  if (curve === 'CURVE_ED25519' && bytes.length === 64) privateKey = bytes.subarray(0, 32);
  if (privateKey.length !== 32) {
    throw new ApiError('ERR_INVALID_PARAMETER', 'the imported private key must be 32 bytes', 'encryptedBundle');
  }
  let publicKey: string;
  try {
    publicKey = bytesToHex(publicKeyFromPrivate(curve, privateKey));
  } catch (cause) {
    throw new ApiError('ERR_INVALID_PARAMETER', `the imported private key is not valid on ${curve}`, 'encryptedBundle', { cause });
  }
  if (bytes.length === 64 && bytesToHex(bytes.subarray(32)) !== publicKey) {
    throw new ApiError('ERR_INVALID_PARAMETER', 'the 64-byte ed25519 key does not end with its public key', 'encryptedBundle');
  }
  return { privateKey: privateKey.slice(), publicKey };
}
