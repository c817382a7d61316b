/**
 * More accounts of a stored wallet, and the accounts of an imported one, are derived on a signer
 * thread (`Enclave.deriveWalletAccounts`, signer-core.ts `deriveSealed`, decision 0022): BIP39's
 * PBKDF2 and BIP32 stay off the event loop. With a thread and in-process (0 threads) the
 * addresses are @walletkit/crypto's reference derivation of the phrase, and each sealed account
 * key signs as that address.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { recoverAddress } from 'viem';
import { bytesToHex, deriveAccount, hpkeSeal, mnemonicToSeed, utf8ToBytes, verifyBundle } from '@walletkit/crypto';
import { loadConfig } from '../src/config';
import { Enclave } from '../src/enclave';
import type { AccountSpec } from '../src/enclave/key-material';
import { openTestStore, type TestStore } from './support/stores';

const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const eth = (i: number): AccountSpec => ({ curve: 'CURVE_SECP256K1', path: `m/44'/60'/0'/0/${i}`, addressFormat: 'ADDRESS_FORMAT_ETHEREUM' });
const SOLANA: AccountSpec = { curve: 'CURVE_ED25519', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' };
const reference = (spec: AccountSpec) => deriveAccount({ seed: mnemonicToSeed(ABANDON), ...spec }).address;

describe.each([1, 0])('wallet accounts derived with %i signer threads', (threads) => {
  let store: TestStore;
  let enclave: Enclave;
  let jobs: ReturnType<typeof vi.spyOn>;

  beforeAll(async () => {
    store = await openTestStore('pglite');
    const config = loadConfig(
      {},
      { port: 0, logLevel: 'silent', masterKey: randomBytes(32).toString('hex'), dataDir: '/nonexistent-test-dir', signerThreads: threads },
    );
    enclave = await Enclave.open(store, config);
    jobs = vi.spyOn((enclave as unknown as { signer: { deriveAccounts: (job: unknown) => Promise<unknown> } }).signer, 'deriveAccounts');
  });
  afterAll(async () => {
    jobs.mockRestore();
    await enclave.close();
    await store.dispose();
  });

  it('given a phrase imported and more accounts of it, when derived, then each derivation is one signer job, the addresses are the reference ones and the sealed keys sign', async () => {
    const { targetPublic } = verifyBundle<{ targetPublic: string }>(enclave.initImport('org', 'user'), enclave.signingPublicKey);
    const bundle = JSON.stringify(await hpkeSeal({ plaintext: utf8ToBytes(ABANDON), receiverPublicKey: targetPublic }));
    jobs.mockClear();

    const imported = await enclave.importWallet(bundle, 'org', 'user', [eth(0), SOLANA]);
    expect(imported.mnemonicLength).toBe(12);
    expect(imported.accounts.map((a) => a.address)).toEqual([reference(eth(0)), reference(SOLANA)]);
    const more = await enclave.deriveWalletAccounts(imported.sealedMnemonic, [eth(1), eth(2)]);
    expect(more.map((a) => a.address)).toEqual([reference(eth(1)), reference(eth(2))]);
    expect(more.map((a) => a.address)).toEqual(['0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0', '0xb6716976A3ebe8D39aCEB04372f22Ff8e6802D7A']);
    expect(jobs).toHaveBeenCalledTimes(2);
    expect(await enclave.deriveWalletAccounts(imported.sealedMnemonic, [])).toEqual([]);
    expect(jobs).toHaveBeenCalledTimes(2);

    // The sealed key of account 1 signs as its address.
    const digest = randomBytes(32);
    const [signature] = await enclave.signMessages({ kind: 'privateKey', sealedPrivateKey: more[0]!.sealedPrivateKey, curve: 'CURVE_SECP256K1' }, [digest]);
    const hex = `0x${signature!.r}${signature!.s}${Number(signature!.v) === 0 ? '1b' : '1c'}` as const;
    expect(await recoverAddress({ hash: `0x${bytesToHex(digest)}`, signature: hex })).toBe(more[0]!.address);
  });

  it('given a sealed mnemonic that does not open, when accounts are derived, then it is ERR_INTERNAL and nothing else', async () => {
    await expect(enclave.deriveWalletAccounts('not sealed' as never, [eth(0)])).rejects.toMatchObject({ code: 'ERR_INTERNAL' });
  });
});
