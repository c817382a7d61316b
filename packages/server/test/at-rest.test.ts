/**
 * The at-rest key (enclave/at-rest.ts, decision 0022 "Sealed at rest with AES-256-GCM"): what the
 * enclave seals for itself is AES-256-GCM under a key derived from the at-rest private key; values
 * sealed before with HPKE, and callers' secrets encrypted to the at-rest public key, still open;
 * anything altered, malformed or sealed under another key fails to open. Keys stored with HPKE
 * sign without a gap and are stored sealed again at their first signature.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { keccak256, recoverAddress, toHex, type Hex } from 'viem';
import { generateP256KeyPair, hpkeSeal } from '@walletkit/crypto';
import { AtRestKey, isAeadSealed } from '../src/enclave/at-rest';
import type { AeadSealed, HpkeSealed } from '../src/enclave/types';
import { privateKeys, walletAccounts } from '../src/store/schema';
import { startTestServer, type TestServer } from './support/harness';
import { openSealedBytes } from './support/sealed';
import { storeKinds } from './support/stores';

const flipHex = (hex: string, at: number) => hex.slice(0, at) + (hex[at] === '0' ? '1' : '0') + hex.slice(at + 1);

describe('AtRestKey', () => {
  let atRest: AtRestKey;
  let privateKey: string;
  beforeAll(async () => {
    privateKey = generateP256KeyPair().privateKey;
    atRest = await AtRestKey.of(privateKey);
  });

  it('seals with AES-256-GCM: a 12-byte nonce, the ciphertext with its 16-byte tag, a fresh nonce each time, and opens what it sealed', async () => {
    const plaintext = randomBytes(32);
    const a = atRest.seal(plaintext);
    const b = atRest.seal(plaintext);
    expect(isAeadSealed(a)).toBe(true);
    expect(a.nonce).toMatch(/^[0-9a-f]{24}$/);
    expect(a.ciphertext).toMatch(/^[0-9a-f]{96}$/);
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.ciphertext).not.toBe(b.ciphertext);
    expect(JSON.stringify(a)).not.toContain(plaintext.toString('hex'));
    expect(Buffer.from(await atRest.open(a))).toEqual(plaintext);
    expect(Buffer.from(await atRest.open(b))).toEqual(plaintext);
  });

  it('opens values sealed with HPKE to its public key (older values, callers` secrets)', async () => {
    const plaintext = randomBytes(40);
    const sealed = await hpkeSeal({ plaintext, receiverPublicKey: atRest.publicKey });
    expect(isAeadSealed(sealed)).toBe(false);
    expect(Buffer.from(await atRest.open(sealed))).toEqual(plaintext);
  });

  it('refuses any altered, malformed or foreign value (a throw, never other bytes)', async () => {
    const sealed = atRest.seal(randomBytes(32));
    const other = await AtRestKey.of(generateP256KeyPair().privateKey);
    const bad: Array<[string, AeadSealed | HpkeSealed]> = [
      ['a flipped ciphertext byte', { ...sealed, ciphertext: flipHex(sealed.ciphertext, 3) }],
      ['a flipped tag byte', { ...sealed, ciphertext: flipHex(sealed.ciphertext, sealed.ciphertext.length - 2) }],
      ['a flipped nonce byte', { ...sealed, nonce: flipHex(sealed.nonce, 0) }],
      ['a truncated ciphertext', { ...sealed, ciphertext: sealed.ciphertext.slice(0, 40) }],
      ['no ciphertext', { ...sealed, ciphertext: '' }],
      ['a short nonce', { ...sealed, nonce: sealed.nonce.slice(2) }],
      ['a nonce that is not hex', { ...sealed, nonce: 'zz'.repeat(12) }],
      ['another value`s nonce', { ...sealed, nonce: atRest.seal(randomBytes(32)).nonce }],
      ['an HPKE value that is garbage', { encappedPublic: `04${'11'.repeat(64)}`, ciphertext: '00'.repeat(48) }],
    ];
    for (const [what, value] of bad) {
      await expect(atRest.open(value), what).rejects.toThrow();
    }
    await expect(other.open(sealed), 'another at-rest key').rejects.toThrow();
  });
});

const ETH = { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' } as const;

describe.each(storeKinds)('keys sealed with HPKE before: %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.dispose());

  /** The HPKE form of a stored value, as this server sealed it before AES-256-GCM. */
  const asHpke = async (sealed: AeadSealed | HpkeSealed) =>
    hpkeSeal({ plaintext: await openSealedBytes(server, sealed), receiverPublicKey: server.enclave.encryptionPublicKey });

  it('given wallet accounts and private keys stored with HPKE, when they sign, then the signatures are right, the keys are stored again with AES-256-GCM, and they open to the same key', async () => {
    const [address] = (await server.client.run('create_wallet', { walletName: 'old', accounts: [ETH] })).addresses as [string];
    const { privateKeys: made } = await server.client.run('create_private_keys', {
      privateKeys: [{ privateKeyName: 'old key', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] }],
    });
    const keyAddress = made[0]!.addresses[0]!.address;
    const accountSealed = async () => (await server.store.db.select().from(walletAccounts).where(eq(walletAccounts.address, address)))[0]!.privateKeyEncrypted!;
    const keySealed = async () => (await server.store.db.select().from(privateKeys).where(eq(privateKeys.id, made[0]!.privateKeyId)))[0]!.privateKeyEncrypted;
    const accountKey = Buffer.from(await openSealedBytes(server, await accountSealed()));
    const privateKey = Buffer.from(await openSealedBytes(server, await keySealed()));
    expect(isAeadSealed(await accountSealed())).toBe(true);
    await server.store.db
      .update(walletAccounts)
      .set({ privateKeyEncrypted: await asHpke(await accountSealed()) })
      .where(eq(walletAccounts.address, address));
    await server.store.db
      .update(privateKeys)
      .set({ privateKeyEncrypted: await asHpke(await keySealed()) })
      .where(eq(privateKeys.id, made[0]!.privateKeyId));
    expect(isAeadSealed(await accountSealed())).toBe(false);

    for (const [signWith, expected] of [
      [address, address],
      [made[0]!.privateKeyId, keyAddress],
    ] as const) {
      for (let round = 0; round < 2; round++) {
        const hash = keccak256(toHex(randomBytes(16)));
        const { signatures } = await server.client.run('sign_raw_payloads', {
          signWith,
          payloads: [hash],
          encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
          hashFunction: 'HASH_FUNCTION_NO_OP',
        });
        const sig = signatures[0]!;
        expect(await recoverAddress({ hash: hash as Hex, signature: { r: `0x${sig.r}`, s: `0x${sig.s}`, yParity: Number.parseInt(sig.v, 16) } })).toBe(
          expected,
        );
      }
    }
    expect(isAeadSealed(await accountSealed())).toBe(true);
    expect(isAeadSealed(await keySealed())).toBe(true);
    expect(Buffer.from(await openSealedBytes(server, await accountSealed()))).toEqual(accountKey);
    expect(Buffer.from(await openSealedBytes(server, await keySealed()))).toEqual(privateKey);
  });
});
