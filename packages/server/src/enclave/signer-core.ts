/**
 * The enclave's CPU-bound steps that hold plaintext keys, shared by its worker threads
 * (signer-worker.ts) and its in-process fallback: open a sealed private key, sign the prepared
 * messages, zero the key; and make a new wallet (BIP39 mnemonic, PBKDF2 seed, BIP32 accounts),
 * sealing the mnemonic and each account's key before anything leaves. Nothing else holds them.
 */
import { type Curve, generateMnemonic, type HpkeRecipient, hpkeSeal } from '@walletkit/crypto';
import type { MnemonicLength } from '@walletkit/protocol';
import { type AccountSpec, deriveAccountKeys, type DerivedAccountPublic, mnemonicSeed, signMessages, type RawSignature } from './key-material.js';

/** A value sealed to the at-rest key (HPKE). */
export interface SealedValue {
  encappedPublic: string;
  ciphertext: string;
}

/** What to make: a wallet of this length with these accounts. */
export interface WalletJob {
  mnemonicLength: MnemonicLength;
  accounts: AccountSpec[];
}

/** A new wallet as it leaves the enclave: sealed mnemonic, accounts with public data and sealed keys. */
export interface MadeWallet {
  sealedMnemonic: SealedValue;
  accounts: Array<DerivedAccountPublic & { sealedPrivateKey: SealedValue }>;
}

/** A sealed key (HPKE to the at-rest key) and what to sign with it. */
export interface SignJob {
  sealedPrivateKey: { encappedPublic: string; ciphertext: string };
  curve: Curve;
  /** What `payloadDigest` prepared: 32-byte digests (secp256k1) or messages (ed25519). */
  messages: Uint8Array[];
}

/** A job of a signer thread (signer-worker.ts): a signature, or a new wallet. */
export type SignerJob = { sign: SignJob } | { wallet: WalletJob };

/**
 * Open, sign, zero.
 * @throws Error when the sealed key does not open (corrupt storage or another at-rest key)
 */
export async function signSealed(atRest: HpkeRecipient, job: SignJob): Promise<RawSignature[]> {
  const privateKey = await atRest.open(job.sealedPrivateKey);
  try {
    return signMessages(job.curve, privateKey, job.messages);
  } finally {
    privateKey.fill(0);
  }
}

/**
 * Generate, derive, seal, zero.
 * @example const wallet = await makeWallet(atRest, { mnemonicLength: 12, accounts });
 */
export async function makeWallet(atRest: HpkeRecipient, job: WalletJob): Promise<MadeWallet> {
  const mnemonic = generateMnemonic(job.mnemonicLength);
  const seal = (plaintext: Uint8Array) => hpkeSeal({ plaintext, receiverPublicKey: atRest.publicKey });
  let accounts: MadeWallet['accounts'] = [];
  if (job.accounts.length > 0) {
    const seed = mnemonicSeed(mnemonic);
    try {
      accounts = await sealedAccounts(seed, job.accounts, seal);
    } finally {
      seed.fill(0);
    }
  }
  return { sealedMnemonic: await seal(new TextEncoder().encode(mnemonic)), accounts };
}

/**
 * Derive `specs` from a BIP39 seed and seal each account's private key with `seal`; the plain
 * keys are zeroed before this returns. Shared by `makeWallet` and the enclave's own derivations.
 */
export async function sealedAccounts(
  seed: Uint8Array,
  specs: readonly AccountSpec[],
  seal: (plaintext: Uint8Array) => Promise<SealedValue>,
): Promise<MadeWallet['accounts']> {
  const keys = deriveAccountKeys(seed, specs);
  try {
    const out: MadeWallet['accounts'] = [];
    for (const k of keys) out.push({ address: k.address, publicKey: k.publicKey, sealedPrivateKey: await seal(k.privateKey) });
    return out;
  } finally {
    for (const k of keys) k.privateKey.fill(0);
  }
}
