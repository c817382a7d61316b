// HD key derivation from a BIP39 seed: secp256k1 by BIP32, ed25519 by SLIP-10.
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { HDKey } from '@scure/bip32';
import { assertBytes, assertObject, assertOneOf, plainBytes } from './assert.js';
import { CryptoError } from './errors.js';
import { decodePrivateKey, publicKeyOf } from './point.js';
import { parsePath } from './path.js';
import { slip10Ed25519 } from './slip10.js';

/**
 * Wallet-account curves of the wire.
 *
 * @example
 * ```ts
 * const curve: Curve = 'CURVE_SECP256K1';
 * ```
 */
export type Curve = 'CURVE_SECP256K1' | 'CURVE_ED25519';

/**
 * A derived key pair, raw bytes.
 *
 * @example
 * ```ts
 * const { privateKey, publicKey }: DerivedKey = deriveKey({ seed, curve: 'CURVE_ED25519', path: "m/44'/501'/0'/0'" });
 * ```
 */
export interface DerivedKey {
  /** 32-byte private key (secp256k1 scalar or ed25519 seed). */
  privateKey: Uint8Array<ArrayBuffer>;
  /** secp256k1: 33-byte compressed SEC1; ed25519: 32-byte raw key. */
  publicKey: Uint8Array<ArrayBuffer>;
}

const CURVES: readonly Curve[] = ['CURVE_SECP256K1', 'CURVE_ED25519'];

/** @internal asserts a wire curve name, `ERR_UNSUPPORTED_CURVE_FORMAT` otherwise. */
export function assertCurve(curve: unknown): Curve {
  return assertOneOf(curve, CURVES, 'curve', 'ERR_UNSUPPORTED_CURVE_FORMAT');
}

function bip32Secp256k1(seed: Uint8Array, path: readonly number[]): Uint8Array<ArrayBuffer> {
  let node: HDKey;
  try {
    node = HDKey.fromMasterSeed(seed);
    for (const index of path) node = node.deriveChild(index);
  } catch (cause) {
    throw new CryptoError('ERR_INVALID_PARAMETER', 'BIP32 derivation failed', { cause });
  }
  const privateKey = node.privateKey;
  if (!privateKey) throw new CryptoError('ERR_INVALID_PARAMETER', 'BIP32 derivation yielded no private key');
  const out = plainBytes(privateKey.slice());
  node.wipePrivateData();
  return out;
}

/**
 * Derives the key at a BIP32 path from a seed (16 to 64 bytes, usually the 64-byte BIP39
 * seed). secp256k1 follows BIP32; ed25519 follows SLIP-10, which allows hardened segments
 * only (`ERR_UNSUPPORTED_CURVE_FORMAT` otherwise).
 *
 * @example
 * ```ts
 * const { privateKey, publicKey } = deriveKey({ seed, curve: 'CURVE_ED25519', path: "m/44'/501'/0'/0'" });
 * ```
 */
export function deriveKey(params: { seed: Uint8Array; curve: Curve; path: string }): DerivedKey {
  assertObject(params, 'params');
  const { seed } = params;
  assertBytes(seed, 'seed');
  if (seed.length < 16 || seed.length > 64) throw new CryptoError('ERR_INVALID_PARAMETER', 'seed must be 16 to 64 bytes');
  const curve = assertCurve(params.curve);
  const path = parsePath(params.path);
  const privateKey = curve === 'CURVE_ED25519' ? slip10Ed25519(seed, path) : bip32Secp256k1(seed, path);
  return { privateKey, publicKey: publicKeyFromPrivate(curve, privateKey) };
}

/**
 * The public key of a wallet private key: compressed 33-byte SEC1 for secp256k1, raw
 * 32 bytes for ed25519. Throws `ERR_INVALID_PARAMETER` for an invalid private key.
 *
 * @example
 * ```ts
 * publicKeyFromPrivate('CURVE_SECP256K1', privateKey).length; // 33
 * ```
 */
export function publicKeyFromPrivate(curve: Curve, privateKey: Uint8Array): Uint8Array<ArrayBuffer> {
  if (assertCurve(curve) === 'CURVE_ED25519') return plainBytes(ed25519.getPublicKey(decodePrivateKey(privateKey)));
  return publicKeyOf(secp256k1, decodePrivateKey(privateKey, secp256k1), true);
}
