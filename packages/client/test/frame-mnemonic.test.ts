/**
 * The secret frame's phrase check (src/frame): the BIP-39 English list it checks words against
 * (`@walletkit/crypto`'s, the one its checksum check uses) is the published one (an independent
 * copy and the list file's SHA-256), and a typed phrase is
 * accepted when BIP-39 accepts it, or refused with exactly what is wrong: the unknown word (and
 * its likely intended word), the word count, or the checksum. Its messages in the kit's languages.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { english, generateMnemonic, mnemonicToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { BIP39_ENGLISH } from '@walletkit/crypto';
import { frameLocale, frameMessage } from '../src/frame/messages';
import { checkMnemonic } from '../src/frame/mnemonic-check';

const ABANDON = `${'abandon '.repeat(11)}about`;

describe('the frame’s BIP-39 word list', () => {
  it('given the list, when compared, then it is the published English list word for word (bip-0039/english.txt)', () => {
    expect(BIP39_ENGLISH).toEqual(english);
    // SHA-256 of english.txt as published in bitcoin/bips (one word per line).
    expect(
      createHash('sha256')
        .update(`${BIP39_ENGLISH.join('\n')}\n`)
        .digest('hex'),
    ).toBe('2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda');
  });
});

describe('checkMnemonic', () => {
  it('given a valid phrase typed with capitals, extra spaces and line breaks, when checked, then it is accepted as the enclave takes it', () => {
    expect(checkMnemonic(`  Abandon ${'abandon  '.repeat(10)}\nABOUT \n`)).toEqual({ ok: true, phrase: ABANDON });
  });

  it('given random valid phrases of every length, when checked, then each is accepted unchanged and derives the same account', () => {
    fc.assert(
      fc.property(fc.constantFrom(128, 160, 192, 224, 256), (strength) => {
        const phrase = generateMnemonic(english, strength);
        const check = checkMnemonic(phrase);
        expect(check).toEqual({ ok: true, phrase });
        if (check.ok) expect(mnemonicToAccount(check.phrase).address).toBe(mnemonicToAccount(phrase).address);
      }),
      { numRuns: 25 },
    );
  });

  it('given a misspelled word, when checked, then its position and spelling are said, with the listed word it shares four letters with', () => {
    expect(checkMnemonic(ABANDON.replace(/about$/, 'abuot'))).toEqual({ ok: false, problem: 'unknownWord', word: 'abuot', position: 12 });
    expect(checkMnemonic(`abandon abandn ${'abandon '.repeat(9)}about`)).toEqual({
      ok: false,
      problem: 'unknownWord',
      word: 'abandn',
      position: 2,
      suggestion: 'abandon',
    });
    // The first unknown word comes first, even when the count is wrong too.
    expect(checkMnemonic('zebra x1 abandon')).toEqual({ ok: false, problem: 'unknownWord', word: 'x1', position: 2 });
  });

  it('given listed words in a wrong number, when checked, then the count is said', () => {
    expect(checkMnemonic('abandon '.repeat(11))).toEqual({ ok: false, problem: 'wordCount', count: 11 });
    expect(checkMnemonic(`${ABANDON} abandon`)).toEqual({ ok: false, problem: 'wordCount', count: 13 });
  });

  it('given twelve listed words whose checksum fails (a word swapped for another listed word), when checked, then the checksum is said', () => {
    expect(checkMnemonic('abandon '.repeat(12))).toEqual({ ok: false, problem: 'checksum' });
    expect(checkMnemonic(ABANDON.replace(/about$/, 'above'))).toEqual({ ok: false, problem: 'checksum' });
  });

  it('given nothing typed, when checked, then it says so', () => {
    expect(checkMnemonic(' \n ')).toEqual({ ok: false, problem: 'empty' });
  });
});

describe('the frame’s messages', () => {
  it('given a language tag, when resolved, then a shipped language or English', () => {
    expect(['de-AT', 'ar', 'JA', 'pt-BR', undefined, 7].map(frameLocale)).toEqual(['de', 'ar', 'ja', 'en', 'en', 'en']);
  });

  it('given placeholders, when said in German, Japanese and Arabic, then each language fills them in its own sentence', () => {
    expect(frameMessage('de', 'phraseUnknownWordSuggest', { position: 2, word: 'abandn', suggestion: 'abandon' })).toBe(
      'Wort 2, „abandn“, gehört nicht zu den Wörtern einer Wiederherstellungsphrase. Meintest du „abandon“?',
    );
    expect(frameMessage('ja', 'phraseWordCount', { count: 11 })).toBe('このフレーズは 11 単語です。リカバリーフレーズは 12、15、18、21、または24単語です。');
    expect(frameMessage('ar', 'phraseUnknownWord', { position: 3, word: 'xyz' })).toContain('«xyz»');
    expect(frameMessage('en', 'phraseChecksum')).toMatch(/^Every word is valid, but the phrase does not check out/);
  });
});
