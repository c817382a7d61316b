import { describe, expect, it } from 'vitest';
import { bytesToHex, generateMnemonic, mnemonicToSeed, validateMnemonic, type MnemonicWordCount } from '../src/index';
import { codeOf } from './support';

// Trezor's reference vectors (trezor/python-mnemonic vectors.json, english, passphrase "TREZOR").
const TREZOR = [
  {
    mnemonic: 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
    seed: 'c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04',
  },
  {
    mnemonic: 'legal winner thank year wave sausage worth useful legal winner thank yellow',
    seed: '2e8905819b8723fe2c1d161860e5ee1830318dbf49a83bd451cfb8440c28bd6fa457fe1296106559a3c80937a1c1069be3a3a5bd381ee6260e8d9739fce1f607',
  },
  {
    mnemonic: 'letter advice cage absurd amount doctor acoustic avoid letter advice cage above',
    seed: 'd71de856f81a8acc65e6fc851a38d4d7ec216fd0796d0a6827a3ad6ed5511a30fa280f12eb2e47ed2ac03b5c462a0358d18d69fe4f985ec81778c1b370b652a8',
  },
  {
    mnemonic: 'zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong',
    seed: 'ac27495480225222079d7be181583751e86f571027b0497b5b5d11218e0a8a13332572917f0f8e5a589620c6f15b11c61dee327651a14c34e18231052e48c069',
  },
  {
    mnemonic:
      'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon art',
    seed: 'bda85446c68413707090a52022edd26a1c9462295029f2e60cd7c4f2bbd3097170af7a4d73245cafa9c3cca8d561a7c3de6f5d4a10be8ed2a5e608d68f92fcc8',
  },
];

describe('BIP39', () => {
  it.each(TREZOR)('given Trezor vector "$mnemonic", when seeded with passphrase TREZOR, then the published seed comes out', ({ mnemonic, seed }) => {
    expect(validateMnemonic(mnemonic)).toBe(true);
    expect(bytesToHex(mnemonicToSeed(mnemonic, 'TREZOR'))).toBe(seed);
  });

  it.each([12, 15, 18, 21, 24] as MnemonicWordCount[])('given %i words requested, then a valid mnemonic of that length is generated', (n) => {
    const m = generateMnemonic(n);
    expect(m.split(' ')).toHaveLength(n);
    expect(validateMnemonic(m)).toBe(true);
    expect(mnemonicToSeed(m)).toHaveLength(64);
  });

  it('given a bad checksum, unknown word or wrong word count, then validation fails and seeding throws ERR_INVALID_PARAMETER', () => {
    const bad = [
      'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon',
      'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon zzz',
      'abandon abandon about',
      '',
    ];
    for (const m of bad) {
      expect(validateMnemonic(m)).toBe(false);
      expect(codeOf(() => mnemonicToSeed(m))).toBe('ERR_INVALID_PARAMETER');
    }
    expect(validateMnemonic(5 as unknown as string)).toBe(false);
    expect(codeOf(() => generateMnemonic(13 as MnemonicWordCount))).toBe('ERR_INVALID_PARAMETER');
  });
});
