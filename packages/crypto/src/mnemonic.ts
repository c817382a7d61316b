// BIP39 mnemonics over the English wordlist.
import { generateMnemonic as bip39Generate, mnemonicToSeedSync, validateMnemonic as bip39Validate } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { assertString, plainBytes } from './assert.js';
import { CryptoError } from './errors.js';

/**
 * BIP39 mnemonic lengths: 128 to 256 bits of entropy in steps of 32.
 *
 * @example
 * ```ts
 * const words: MnemonicWordCount = 24;
 * generateMnemonic(words);
 * ```
 */
export type MnemonicWordCount = 12 | 15 | 18 | 21 | 24;

/**
 * The BIP39 English word list (bip-0039/english.txt: 2048 words, in order), the one every
 * function here uses. BIP39 words are unique in their first four letters.
 *
 * @example
 * ```ts
 * BIP39_ENGLISH.indexOf('abandon'); // 0
 * ```
 */
export const BIP39_ENGLISH: readonly string[] = wordlist;

const STRENGTH: Record<MnemonicWordCount, number> = { 12: 128, 15: 160, 18: 192, 21: 224, 24: 256 };

/**
 * Generates a random English BIP39 mnemonic of `wordCount` words (default 12).
 *
 * @example
 * ```ts
 * generateMnemonic(24).split(' ').length; // 24
 * ```
 */
export function generateMnemonic(wordCount: MnemonicWordCount = 12): string {
  const strength = STRENGTH[wordCount];
  if (strength === undefined) throw new CryptoError('ERR_INVALID_PARAMETER', 'wordCount must be 12, 15, 18, 21 or 24');
  return bip39Generate(wordlist, strength);
}

/**
 * True when `mnemonic` is an English BIP39 mnemonic with a valid checksum.
 *
 * @example
 * ```ts
 * validateMnemonic('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'); // true
 * ```
 */
export function validateMnemonic(mnemonic: string): boolean {
  if (typeof mnemonic !== 'string') return false;
  return bip39Validate(mnemonic, wordlist);
}

/**
 * The 64-byte BIP39 seed of a mnemonic (PBKDF2-HMAC-SHA512, 2048 rounds, salt
 * "mnemonic" + passphrase, NFKD). Synchronous. Throws `ERR_INVALID_PARAMETER` when the
 * mnemonic is not valid English BIP39, so a typo never silently yields another wallet.
 *
 * @example
 * ```ts
 * const seed = mnemonicToSeed(mnemonic);
 * deriveAccount({ seed, curve: 'CURVE_SECP256K1', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' });
 * ```
 */
export function mnemonicToSeed(mnemonic: string, passphrase = ''): Uint8Array<ArrayBuffer> {
  assertString(mnemonic, 'mnemonic');
  assertString(passphrase, 'passphrase');
  if (!validateMnemonic(mnemonic)) throw new CryptoError('ERR_INVALID_PARAMETER', 'invalid BIP39 mnemonic');
  return plainBytes(mnemonicToSeedSync(mnemonic, passphrase));
}
