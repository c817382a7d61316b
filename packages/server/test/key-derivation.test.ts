/**
 * The enclave derives wallet accounts with node's HMAC-SHA512 and libsecp256k1
 * (`deriveAccountKeys`, through `native-derive.ts`); @walletkit/crypto's `deriveAccount`
 * (@scure/bip32 and noble) is the reference. Both must give the same private key, public key and address for every curve,
 * address format and path shape, or a wallet made on the server would not be the wallet its
 * phrase restores anywhere else.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bytesToHex, deriveAccount, mnemonicToSeed, type Curve } from '@walletkit/crypto';
import type { AddressFormat } from '@walletkit/protocol';
import { type AccountSpec, deriveAccountKeys } from '../src/enclave/key-material';

const HARDENED = 0x80000000;

/** A random path of 1 to 6 segments; ed25519 paths are hardened only (SLIP-10). */
function randomPath(curve: Curve): string {
  const segments = Array.from({ length: randomInt(1, 7) }, () => {
    const index = randomInt(0, 2 ** 31 - 1);
    return curve === 'CURVE_ED25519' || randomInt(0, 2) === 0 ? `${index}'` : `${index}`;
  });
  return `m/${segments.join('/')}`;
}

const FORMATS: Record<Curve, AddressFormat[]> = {
  CURVE_SECP256K1: ['ADDRESS_FORMAT_ETHEREUM', 'ADDRESS_FORMAT_COMPRESSED', 'ADDRESS_FORMAT_UNCOMPRESSED'],
  CURVE_ED25519: ['ADDRESS_FORMAT_SOLANA', 'ADDRESS_FORMAT_COMPRESSED'],
};

function reference(seed: Uint8Array, spec: AccountSpec) {
  const a = deriveAccount({ seed, curve: spec.curve, path: spec.path, addressFormat: spec.addressFormat });
  return { address: a.address, publicKey: a.publicKey, privateKey: bytesToHex(a.privateKey) };
}

describe('wallet account derivation in the enclave', () => {
  it('given random seeds and paths on both curves in every address format, when derived by the enclave and by @walletkit/crypto, then keys and addresses are the same', () => {
    for (let i = 0; i < 60; i++) {
      const seed = new Uint8Array(randomBytes(64));
      const specs: AccountSpec[] = (['CURVE_SECP256K1', 'CURVE_ED25519'] as const).flatMap((curve) =>
        FORMATS[curve].map((addressFormat) => ({ curve, addressFormat, path: randomPath(curve) })),
      );
      const got = deriveAccountKeys(seed, specs).map((a) => ({ address: a.address, publicKey: a.publicKey, privateKey: bytesToHex(a.privateKey) }));
      expect(got).toEqual(specs.map((spec) => reference(seed, spec)));
    }
  });

  it("given the phrase of Hardhat's dev accounts, when its standard Ethereum and Solana paths are derived, then the known addresses come back", () => {
    const seed = mnemonicToSeed('test test test test test test test test test test test junk');
    const [eth0, eth1, sol] = deriveAccountKeys(seed, [
      { curve: 'CURVE_SECP256K1', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
      { curve: 'CURVE_SECP256K1', path: "m/44'/60'/0'/0/1", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
      { curve: 'CURVE_ED25519', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' },
    ]);
    expect(eth0!.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(bytesToHex(eth0!.privateKey)).toBe('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
    expect(eth1!.address).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    expect(sol!.address).toBe(reference(seed, { curve: 'CURVE_ED25519', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' }).address);
  });

  it('given a path with a segment past 2^31, when derived, then the account is refused as invalid input naming the account, not a server error', () => {
    const seed = new Uint8Array(randomBytes(64));
    const specs: AccountSpec[] = [
      { curve: 'CURVE_SECP256K1', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
      { curve: 'CURVE_SECP256K1', path: `m/${HARDENED * 2}`, addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
    ];
    expect(() => deriveAccountKeys(seed, specs)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_PARAMETER', field: 'accounts.1', status: 400 }));
  });
});
