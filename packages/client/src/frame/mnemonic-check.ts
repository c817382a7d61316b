/**
 * The secret frame's check of a typed recovery phrase, before anything is encrypted: the words
 * against the BIP-39 English list and the phrase's checksum, so the user hears exactly what is
 * wrong where they typed it (the enclave checks again when it opens the bundle).
 */
import { BIP39_ENGLISH, validateMnemonic } from '@walletkit/crypto';
import { MNEMONIC_WORD_COUNTS } from '../mnemonic.js';

/** What is wrong with a phrase, or the phrase as the enclave takes it. */
export type MnemonicCheck =
  | { ok: true; phrase: string }
  /** Nothing typed. */
  | { ok: false; problem: 'empty' }
  /** Word `position` (1-based) is not a BIP-39 word; `suggestion` is the listed word sharing its first four letters. */
  | { ok: false; problem: 'unknownWord'; word: string; position: number; suggestion?: string | undefined }
  /** Every word is listed but there are `count` of them (a phrase has 12, 15, 18, 21 or 24). */
  | { ok: false; problem: 'wordCount'; count: number }
  /** Every word is listed and the count is right, but the checksum fails: a word is mistyped as another listed word, or out of order. */
  | { ok: false; problem: 'checksum' };

const WORDS = new Set(BIP39_ENGLISH);
const BY_PREFIX = new Map(BIP39_ENGLISH.map((w) => [w.slice(0, 4), w]));

/**
 * Check a typed or pasted recovery phrase (case, spacing and line breaks do not matter).
 * @example checkMnemonic('abandon '.repeat(11) + 'about') // { ok: true, phrase: 'abandon abandon … about' }
 * @example checkMnemonic('abandon '.repeat(11) + 'abuot') // { ok: false, problem: 'unknownWord', word: 'abuot', position: 12 }
 * @example checkMnemonic('abandon '.repeat(12)) // { ok: false, problem: 'checksum' }
 */
export function checkMnemonic(input: string): MnemonicCheck {
  const words = input.normalize('NFKD').trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { ok: false, problem: 'empty' };
  const unknown = words.findIndex((w) => !WORDS.has(w));
  if (unknown >= 0) {
    const word = words[unknown]!;
    const suggestion = word.length >= 4 ? BY_PREFIX.get(word.slice(0, 4)) : undefined;
    return { ok: false, problem: 'unknownWord', word, position: unknown + 1, ...(suggestion ? { suggestion } : {}) };
  }
  if (!(MNEMONIC_WORD_COUNTS as readonly number[]).includes(words.length)) return { ok: false, problem: 'wordCount', count: words.length };
  const phrase = words.join(' ');
  return validateMnemonic(phrase) ? { ok: true, phrase } : { ok: false, problem: 'checksum' };
}
