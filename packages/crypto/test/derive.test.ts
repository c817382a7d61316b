import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { bytesToHex, deriveAccount, deriveKey, hexToBytes, HARDENED_OFFSET, mnemonicToSeed, parsePath, publicKeyFromPrivate } from '../src/index';
import { codeOf } from './support';

const SEED_1 = '000102030405060708090a0b0c0d0e0f';
const SEED_2 = 'fffcf9f6f3f0edeae7e4e1dedbd8d5d2cfccc9c6c3c0bdbab7b4b1aeaba8a5a29f9c999693908d8a8784817e7b7875726f6c696663605d5a5754514e4b484542';

// BIP32 test vectors 1 and 2 (private keys; identical to SLIP-10's secp256k1 vectors).
const BIP32 = [
  {
    seed: SEED_1,
    path: 'm',
    key: 'e8f32e723decf4051aefac8e2c93c9c5b214313817cdb01a1494b917c8436b35',
    pub: '0339a36013301597daef41fbe593a02cc513d0b55527ec2df1050e2e8ff49c85c2',
  },
  { seed: SEED_1, path: "m/0'", key: 'edb2e14f9ee77d26dd93b4ecede8d16ed408ce149b6cd80b0715a2d911a0afea' },
  { seed: SEED_1, path: "m/0'/1", key: '3c6cb8d0f6a264c91ea8b5030fadaa8e538b020f0a387421a12de9319dc93368' },
  { seed: SEED_1, path: "m/0'/1/2'", key: 'cbce0d719ecf7431d88e6a89fa1483e02e35092af60c042b1df2ff59fa424dca' },
  { seed: SEED_1, path: "m/0'/1/2'/2", key: '0f479245fb19a38a1954c5c7c0ebab2f9bdfd96a17563ef28a6a4b1a2a764ef4' },
  { seed: SEED_1, path: "m/0'/1/2'/2/1000000000", key: '471b76e389e528d6de6d816857e012c5455051cad6660850e58372a6c3e6e7c8' },
  { seed: SEED_2, path: 'm', key: '4b03d6fc340455b363f51020ad3ecca4f0850280cf436c70c727923f6db46c3e' },
  { seed: SEED_2, path: 'm/0', key: 'abe74a98f6c7eabee0428f53798f0ab8aa1bd37873999041703c742f15ac7e1e' },
  { seed: SEED_2, path: "m/0/2147483647'", key: '877c779ad9687164e9c2f4f0f4ff0340814392330693ce95a58fe18fd52e6e93' },
  { seed: SEED_2, path: "m/0/2147483647'/1", key: '704addf544a06e5ee4bea37098463c23613da32020d604506da8c0518e1da4b7' },
  { seed: SEED_2, path: "m/0/2147483647'/1/2147483646'", key: 'f1c7c871a54a804afe328b4c83a1c33b8e5ff48f5087273f04efa83b247d6a2d' },
  { seed: SEED_2, path: "m/0/2147483647'/1/2147483646'/2", key: 'bb7d39bdb83ecf58f2fd82b6d918341cbef428661ef01ab97c28a4842125ac23' },
];

// SLIP-10 ed25519 test vectors 1 and 2 (public keys without SLIP-10's 00 prefix).
const SLIP10 = [
  {
    seed: SEED_1,
    path: 'm',
    key: '2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7',
    pub: 'a4b2856bfec510abab89753fac1ac0e1112364e7d250545963f135f2a33188ed',
  },
  {
    seed: SEED_1,
    path: "m/0'",
    key: '68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3',
    pub: '8c8a13df77a28f3445213a0f432fde644acaa215fc72dcdf300d5efaa85d350c',
  },
  {
    seed: SEED_1,
    path: "m/0'/1'",
    key: 'b1d0bad404bf35da785a64ca1ac54b2617211d2777696fbffaf208f746ae84f2',
    pub: '1932a5270f335bed617d5b935c80aedb1a35bd9fc1e31acafd5372c30f5c1187',
  },
  {
    seed: SEED_1,
    path: "m/0'/1'/2'",
    key: '92a5b23c0b8a99e37d07df3fb9966917f5d06e02ddbd909c7e184371463e9fc9',
    pub: 'ae98736566d30ed0e9d2f4486a64bc95740d89c7db33f52121f8ea8f76ff0fc1',
  },
  {
    seed: SEED_1,
    path: "m/0'/1'/2'/2'",
    key: '30d1dc7e5fc04c31219ab25a27ae00b50f6fd66622f6e9c913253d6511d1e662',
    pub: '8abae2d66361c879b900d204ad2cc4984fa2aa344dd7ddc46007329ac76c429c',
  },
  {
    seed: SEED_1,
    path: "m/0'/1'/2'/2'/1000000000'",
    key: '8f94d394a8e8fd6b1bc2f3f49f5c47e385281d5c17e65324b0f62483e37e8793',
    pub: '3c24da049451555d51a7014a37337aa4e12d41e485abccfa46b47dfb2af54b7a',
  },
  {
    seed: SEED_2,
    path: 'm',
    key: '171cb88b1b3c1db25add599712e36245d75bc65a1a5c9e18d76f9f2b1eab4012',
    pub: '8fe9693f8fa62a4305a140b9764c5ee01e455963744fe18204b4fb948249308a',
  },
  {
    seed: SEED_2,
    path: "m/0'",
    key: '1559eb2bbec5790b0c65d8693e4d0875b1747f4970ae8b650486ed7470845635',
    pub: '86fab68dcb57aa196c77c5f264f215a112c22a912c10d123b0d03c3c28ef1037',
  },
  {
    seed: SEED_2,
    path: "m/0'/2147483647'",
    key: 'ea4f5bfe8694d8bb74b7b59404632fd5968b774ed545e810de9c32a4fb4192f4',
    pub: '5ba3b9ac6e90e83effcd25ac4e58a1365a9e35a3d3ae5eb07b9e4d90bcf7506d',
  },
  {
    seed: SEED_2,
    path: "m/0'/2147483647'/1'",
    key: '3757c7577170179c7868353ada796c839135b3d30554bbb74a4b1e4a5a58505c',
    pub: '2e66aa57069c86cc18249aecf5cb5a9cebbfd6fadeab056254763874a9352b45',
  },
  {
    seed: SEED_2,
    path: "m/0'/2147483647'/1'/2147483646'",
    key: '5837736c89570de861ebc173b1086da4f505d4adb387c6a1b1342d5e4ac9ec72',
    pub: 'e33c0f7d81d843c572275f287498e8d408654fdf0d1e065b84e2e6f157aab09b',
  },
  {
    seed: SEED_2,
    path: "m/0'/2147483647'/1'/2147483646'/2'",
    key: '551d333177df541ad876a60ea71f00447931c0a9da16f227c11ea080d7391b8d',
    pub: '47150c75db263559a70d5778bf36abbab30fb061ad69f69ece61a72b0cfa4fc0',
  },
];

const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

describe('BIP32 (secp256k1)', () => {
  it.each(BIP32)(
    'given seed $seed, when deriving $path, then the published private key comes out and the public key matches it',
    ({ seed, path, key, pub }) => {
      const derived = deriveKey({ seed: hexToBytes(seed), curve: 'CURVE_SECP256K1', path });
      expect(bytesToHex(derived.privateKey)).toBe(key);
      expect(derived.publicKey).toHaveLength(33);
      expect(privateKeyToAccount(`0x${key}`).publicKey.slice(4, 68)).toBe(bytesToHex(derived.publicKey.subarray(1)));
      if (pub) expect(bytesToHex(derived.publicKey)).toBe(pub);
    },
  );

  it("given Trezor BIP39 vector 0 (passphrase TREZOR), when deriving m, then the key inside Trezor's published root xprv comes out", () => {
    // vectors.json lists the root as an xprv: base58check(version 4 | depth 1 | parent 4 |
    // child 4 | chain code 32 | 0x00 | key 32).
    const xprv = createBase58check(nobleSha256).decode(
      'xprv9s21ZrQH143K3h3fDYiay8mocZ3afhfULfb5GX8kCBdno77K4HiA15Tg23wpbeF1pLfs1c5SPmYHrEpTuuRhxMwvKDwqdKiGJS9XFKzUsAF',
    );
    expect(xprv).toHaveLength(78);
    const root = deriveKey({ seed: mnemonicToSeed(ABANDON, 'TREZOR'), curve: 'CURVE_SECP256K1', path: 'm' });
    expect(bytesToHex(root.privateKey)).toBe(bytesToHex(xprv.subarray(46)));
  });
});

describe('SLIP-10 (ed25519)', () => {
  it.each(SLIP10)('given seed $seed, when deriving $path, then the published private and public keys come out', ({ seed, path, key, pub }) => {
    const derived = deriveKey({ seed: hexToBytes(seed), curve: 'CURVE_ED25519', path });
    expect(bytesToHex(derived.privateKey)).toBe(key);
    expect(bytesToHex(derived.publicKey)).toBe(pub);
    expect(bytesToHex(ed25519.getPublicKey(derived.privateKey))).toBe(pub);
  });

  it('given a non-hardened segment, when deriving ed25519, then ERR_UNSUPPORTED_CURVE_FORMAT', () => {
    expect(codeOf(() => deriveKey({ seed: hexToBytes(SEED_1), curve: 'CURVE_ED25519', path: "m/44'/501'/0'/0" }))).toBe('ERR_UNSUPPORTED_CURVE_FORMAT');
  });
});

describe('well-known wallet accounts from the "abandon ... about" mnemonic', () => {
  const seed = mnemonicToSeed(ABANDON);

  it("given m/44'/60'/0'/0/0, then the Ethereum account is 0x9858EfFD232B4033E47d90003D41EC34EcaEda94", () => {
    const account = deriveAccount({ seed, curve: 'CURVE_SECP256K1', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' });
    expect(account.address).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
    expect(bytesToHex(account.privateKey)).toBe('1ab42cc412b618bdea3a599e3c9bae199ebf030895b039e9db1e30dafb12b727');
    expect(privateKeyToAccount(`0x${bytesToHex(account.privateKey)}`).address).toBe(account.address);
    expect(account.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
  });

  it("given m/44'/501'/0'/0', then the Solana account is HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk", () => {
    const account = deriveAccount({ seed, curve: 'CURVE_ED25519', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' });
    expect(account.address).toBe('HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk');
    expect(account.publicKey).toHaveLength(64);
  });
});

describe('paths and inputs', () => {
  it('given BIP32 paths, then they parse to child numbers with hardened offsets', () => {
    expect(parsePath('m')).toEqual([]);
    expect(parsePath("m/44'/60'/0'/0/0")).toEqual([44 + HARDENED_OFFSET, 60 + HARDENED_OFFSET, HARDENED_OFFSET, 0, 0]);
    expect(parsePath('m/0h/1H/2147483647')).toEqual([HARDENED_OFFSET, 1 + HARDENED_OFFSET, 2147483647]);
  });

  it.each(['', 'M/0', '/0', 'm/', 'm//0', "m/01'", 'm/-1', 'm/2147483648', "m/1''", 'm/0x1', "m/44'/60'/0'/0/0/", 'm/1.5', `m${'/0'.repeat(256)}`, "44'/60'"])(
    'given the path %j, then ERR_INVALID_PARAMETER',
    (path) => {
      expect(codeOf(() => parsePath(path))).toBe('ERR_INVALID_PARAMETER');
    },
  );

  it('given a bad seed, curve or private key, then coded errors', () => {
    expect(codeOf(() => deriveKey({ seed: new Uint8Array(15), curve: 'CURVE_SECP256K1', path: 'm' }))).toBe('ERR_INVALID_PARAMETER');
    expect(codeOf(() => deriveKey({ seed: new Uint8Array(65), curve: 'CURVE_SECP256K1', path: 'm' }))).toBe('ERR_INVALID_PARAMETER');
    expect(codeOf(() => deriveKey({ seed: hexToBytes(SEED_1), curve: 'CURVE_P256' as 'CURVE_ED25519', path: 'm' }))).toBe('ERR_UNSUPPORTED_CURVE_FORMAT');
    expect(codeOf(() => publicKeyFromPrivate('CURVE_SECP256K1', new Uint8Array(32)))).toBe('ERR_INVALID_PARAMETER');
    expect(codeOf(() => publicKeyFromPrivate('CURVE_ED25519', new Uint8Array(31)))).toBe('ERR_INVALID_PARAMETER');
    expect(publicKeyFromPrivate('CURVE_ED25519', hexToBytes(SLIP10[0]!.key))).toEqual(hexToBytes(SLIP10[0]!.pub));
  });
});
