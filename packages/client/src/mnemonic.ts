/**
 * Entry check of a typed recovery phrase (the secret frame's import form). It only catches typos
 * before anything is encrypted; the enclave checks the BIP39 wordlist and checksum again when it
 * decrypts the bundle.
 */

/** BIP39 phrase lengths (128 to 256 bits of entropy). */
export const MNEMONIC_WORD_COUNTS = [12, 15, 18, 21, 24] as const;

/**
 * Normalize a pasted recovery phrase (trim, lowercase, single spaces), or undefined when it
 * is not 12, 15, 18, 21 or 24 lowercase words.
 * @example normalizeMnemonic('  Abandon  abandon ... about\n') // 'abandon abandon ... about'
 */
export function normalizeMnemonic(value: string): string | undefined {
  const words = value.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (!(MNEMONIC_WORD_COUNTS as readonly number[]).includes(words.length)) return undefined;
  return words.every((w) => /^[a-z]+$/.test(w)) ? words.join(' ') : undefined;
}
