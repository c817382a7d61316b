/**
 * Opening sealed values inside the enclave for one call (index.ts): a value sealed at rest, and the
 * private key of one account of a sealed wallet (one unseal, BIP39's seed, one derivation), each
 * zeroed after use. Only the enclave imports this module.
 */
import type { Curve } from '@walletkit/crypto';
import { ApiError } from '../errors.js';
import type { AtRestKey } from './at-rest.js';
import { mnemonicSeed } from './key-material.js';
import { derivePrivateKeyNative as derivePrivateKey } from './native-derive.js';
import type { Sealed } from './types.js';

/**
 * Open a value sealed at rest; failure means corrupt storage or the wrong key: a 500.
 * @throws ApiError ERR_INTERNAL
 */
export async function unsealed(atRest: AtRestKey, sealed: Sealed): Promise<Uint8Array> {
  try {
    return await atRest.open(sealed);
  } catch (cause) {
    throw new ApiError('ERR_INTERNAL', 'a sealed value does not open with the at-rest key', undefined, { cause });
  }
}

/**
 * Run `use` with the private key of one account of a sealed wallet (one unseal), zeroed after.
 * @example await withAccountKey(atRest, sealedMnemonic, { curve: 'CURVE_SECP256K1', path: "m/44'/60'/0'/0/0" }, (key) => atRest.seal(key));
 */
export async function withAccountKey<T>(
  atRest: AtRestKey,
  sealedMnemonic: Sealed,
  account: { curve: Curve; path: string },
  use: (privateKey: Uint8Array) => T | Promise<T>,
): Promise<T> {
  const bytes = await unsealed(atRest, sealedMnemonic);
  const mnemonic = new TextDecoder().decode(bytes);
  bytes.fill(0);
  const seed = mnemonicSeed(mnemonic);
  let privateKey: Uint8Array;
  try {
    privateKey = derivePrivateKey(seed, account.curve, account.path);
  } finally {
    seed.fill(0);
  }
  try {
    return await use(privateKey);
  } finally {
    privateKey.fill(0);
  }
}
