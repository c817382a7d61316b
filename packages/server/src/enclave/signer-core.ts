/**
 * The enclave's CPU-bound steps that hold plaintext keys, shared by its worker threads
 * (signer-worker.ts) and its in-process fallback: open a sealed private key, sign the prepared
 * messages, zero the key; make a new wallet (BIP39 mnemonic, PBKDF2 seed, BIP32 accounts) or
 * derive more accounts of a stored one, sealing the mnemonic and each account's key before
 * anything leaves. Nothing else holds them.
 */
import {
  type ClientSignature,
  compressPublicKey,
  CryptoError,
  type Curve,
  generateMnemonic,
  generateP256KeyPair,
  signBundle,
  signJwt,
  stampApiKey,
  verifyClientSignature,
  verifyJwt,
} from '@walletkit/crypto';
import type { MnemonicLength } from '@walletkit/protocol';
import { type AccountSpec, deriveAccountKeys, type DerivedAccountPublic, mnemonicSeed, signMessages, type RawSignature } from './key-material.js';
import { checkStamp, type StampCheckJob } from '../activity/stamp-check.js';
import type { AtRestKey } from './at-rest.js';
import type { Sealed } from './types.js';
import { checkOtpAttemptWith, type IssuedOtp, issueOtpWith } from './otp.js';

/** A value sealed at rest (types.ts: AES-256-GCM, or HPKE for older values and callers' secrets). */
export type SealedValue = Sealed;

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

/** More accounts of a stored wallet: its sealed mnemonic and what to derive. */
export interface DeriveJob {
  sealedMnemonic: SealedValue;
  accounts: AccountSpec[];
}

/** A sealed key (HPKE to the at-rest key) and what to sign with it. */
export interface SignJob {
  sealedPrivateKey: Sealed;
  curve: Curve;
  /** What `payloadDigest` prepared: 32-byte digests (secp256k1) or messages (ed25519). */
  messages: Uint8Array[];
  /** The messages are `payloadToSign`'s, to be hashed with keccak-256 here before signing. */
  keccak?: true;
  /** The request's X-Stamp, when still unchecked: checked first; the key is opened only if it holds. */
  stamp?: StampCheckJob;
}

/** A request body to stamp with a sealed API key (the proxy's): its X-Stamp header comes back. */
export interface StampJob {
  sealedPrivateKey: SealedValue;
  publicKey: string;
  body: string;
}

/**
 * The enclave's own signing key, as the jobs that sign in its name use it (verification tokens,
 * sessions, code bundles) and the key id its JWTs name; its public key checks the tokens it signed.
 */
export interface OwnSigningKey {
  privateKey: string;
  /** Uncompressed hex. */
  publicKey: string;
  keyId: string;
}

/** What a signer thread, or the in-process fallback, holds: the at-rest key and the enclave's signing key. */
export interface SignerKeys {
  atRest: AtRestKey;
  own: OwnSigningKey;
}

/** A one-time code to issue for `otpId` of `organizationId` (otp.ts `issueOtpWith`), its target bundle signed. */
export interface OtpIssueJob {
  otpId: string;
  organizationId: string;
  length: number;
  alphanumeric: boolean;
}

/** A verify attempt to open with the code's sealed target key (otp.ts `checkOtpAttemptWith`). */
export interface OtpAttemptJob {
  otpId: string;
  sealedTargetKey: SealedValue;
  codeMac: string;
  encrypted: { encappedPublic: string; ciphertext: string };
  /**
   * The claims of the verification token to sign when the code is right, but the client key the
   * attempt names (`public_key`, added here): the token leaves signed, or not at all.
   */
  token?: Record<string, unknown>;
}

/** A right attempt: the client's compressed key and, when the job asked for it, the verification token bound to it. */
export interface OpenedAttempt {
  clientKey: string;
  verificationToken?: string;
}

/** A JWT to check against the enclave's own key at `nowMs` (signature, shape, times). */
export interface JwtCheckJob {
  token: string;
  nowMs: number;
}

/** A JWT's claims when it verified, else the code of its refusal (an error text never leaves a thread). */
export type JwtChecked = { claims: Record<string, unknown> } | { refused: 'ERR_JWT_EXPIRED' | 'ERR_JWT_INVALID' };

/**
 * A job of a signer thread (signer-worker.ts): a signature, a new wallet, a stamp by a sealed key,
 * a one-time code issued or an attempt checked. Every one opens or makes a secret that never
 * leaves the job but as ciphertext (or, for a code, to its delivery). The enclave's own signatures
 * (`jwt`: sessions; a code's bundle and a right attempt's verification token in `otp` and
 * `attempt`) and the jobs without a secret, a request's X-Stamp checked (`check`), a client
 * signature checked (`client`) and a token of the enclave's checked (`verify`), share the threads
 * instead of waking threads of their own or taking the event loop (decisions 0022, 0029).
 */
export type SignerJob =
  | { check: StampCheckJob }
  | { sign: SignJob }
  | { wallet: WalletJob }
  | { derive: DeriveJob }
  | { stamp: StampJob }
  | { otp: OtpIssueJob }
  | { attempt: OtpAttemptJob }
  | { client: ClientSignature }
  | { jwt: Record<string, unknown> }
  | { verify: JwtCheckJob };

/** Run any job with the thread's keys (the worker's and the in-process fallback's one dispatch). */
export function runSignerJob(keys: SignerKeys, job: SignerJob): Promise<unknown> {
  const { atRest, own } = keys;
  if ('check' in job) return Promise.resolve(checkStamp(job.check));
  if ('sign' in job) return signSealed(atRest, job.sign);
  if ('wallet' in job) return makeWallet(atRest, job.wallet);
  if ('derive' in job) return deriveSealed(atRest, job.derive);
  if ('stamp' in job) return stampSealed(atRest, job.stamp);
  if ('otp' in job) return issueCode(keys, job.otp);
  if ('client' in job) return Promise.resolve(clientSignatureKey(job.client));
  if ('jwt' in job) return Promise.resolve(signOwnJwt(own, job.jwt));
  if ('verify' in job) return Promise.resolve(checkOwnJwt(own, job.verify));
  return checkAttempt(keys, job.attempt);
}

/**
 * The key that made a client signature, compressed, when the signature verifies; else null. The
 * check has just proved the key a point of the curve, so its caller needs no second check of it
 * (a login's session key is that key: decision 0029).
 */
export function clientSignatureKey(signature: ClientSignature): string | null {
  if (!verifyClientSignature(signature)) return null;
  // A key a signature verified with is a point of the curve written as 02|03 x or 04 x y: its
  // compressed form is read off the text, with no second decompression.
  const key = signature.publicKey.toLowerCase();
  if (key.length === 66) return key;
  if (key.length === 130 && key.startsWith('04')) return `${Number.parseInt(key.slice(-1), 16) % 2 === 0 ? '02' : '03'}${key.slice(2, 66)}`;
  try {
    return compressPublicKey('p256', key);
  } catch {
    return null;
  }
}

/** An ES256 JWT of `claims` by the enclave's signing key, naming its key id. */
export function signOwnJwt(own: OwnSigningKey, claims: Record<string, unknown>): string {
  return signJwt(claims, own.privateKey, { kid: own.keyId });
}

/** A token checked against the enclave's signing key: its claims, or the code of its refusal. */
export function checkOwnJwt(own: OwnSigningKey, job: JwtCheckJob): JwtChecked {
  try {
    return { claims: verifyJwt<Record<string, unknown>>(job.token, own.publicKey, { now: () => job.nowMs }) };
  } catch (err) {
    if (err instanceof CryptoError && err.code === 'ERR_JWT_EXPIRED') return { refused: 'ERR_JWT_EXPIRED' };
    if (err instanceof CryptoError) return { refused: 'ERR_JWT_INVALID' };
    throw err;
  }
}

/** The private key text of a sealed API key (hex of 32 bytes, as createSealedApiKey stores it). */
async function openApiKey(atRest: AtRestKey, sealed: SealedValue): Promise<string> {
  const bytes = await atRest.open(sealed);
  const privateKey = new TextDecoder().decode(bytes);
  bytes.fill(0);
  // Anything else is corrupt storage.
  if (!/^[0-9a-fA-F]{64}$/.test(privateKey)) throw new Error('a sealed API key is not a P-256 private key');
  return privateKey;
}

/** Open the key, stamp the body, drop the key. */
export async function stampSealed(atRest: AtRestKey, job: StampJob): Promise<string> {
  return stampApiKey(job.body, { privateKey: await openApiKey(atRest, job.sealedPrivateKey), publicKey: job.publicKey });
}

/**
 * A fresh target key pair for the code, the code and its MAC, the target's private key sealed, and
 * the target bundle `{targetPublic, organizationId, otpId}` signed by the enclave.
 */
export async function issueCode(keys: SignerKeys, job: OtpIssueJob): Promise<IssuedOtp> {
  const target = generateP256KeyPair();
  const issued = issueOtpWith(target, job);
  const sealedTargetKey = keys.atRest.seal(new TextEncoder().encode(target.privateKey));
  const targetPublicKey = target.publicKeyUncompressed;
  const bundle = signBundle({ targetPublic: targetPublicKey, organizationId: job.organizationId, otpId: job.otpId }, keys.own.privateKey);
  return { ...issued, targetPublicKey, sealedTargetKey, otpEncryptionTargetBundle: JSON.stringify(bundle) };
}

/**
 * The client's compressed key when the attempt holds the right code, with the verification token
 * the job asked for bound to it; null for any wrong attempt (every failure alike).
 */
export async function checkAttempt(keys: SignerKeys, job: OtpAttemptJob): Promise<OpenedAttempt | null> {
  const targetPrivateKey = await openApiKey(keys.atRest, job.sealedTargetKey);
  const clientKey = await checkOtpAttemptWith(targetPrivateKey, job);
  if (clientKey === undefined) return null;
  return job.token ? { clientKey, verificationToken: signOwnJwt(keys.own, { ...job.token, public_key: clientKey }) } : { clientKey };
}

/**
 * Check the request's stamp if the job carries one, then open, sign, zero. Null when that stamp
 * does not sign its body (nothing was opened).
 * @throws Error when the sealed key does not open (corrupt storage or another at-rest key)
 */
export async function signSealed(atRest: AtRestKey, job: SignJob): Promise<RawSignature[] | null> {
  if (job.stamp && !checkStamp(job.stamp)) return null;
  const privateKey = await atRest.open(job.sealedPrivateKey);
  try {
    return signMessages(job.curve, privateKey, job.messages, job.keccak === true);
  } finally {
    privateKey.fill(0);
  }
}

/**
 * Generate, derive, seal, zero.
 * @example const wallet = await makeWallet(atRest, { mnemonicLength: 12, accounts });
 */
export async function makeWallet(atRest: AtRestKey, job: WalletJob): Promise<MadeWallet> {
  const mnemonic = generateMnemonic(job.mnemonicLength);
  const accounts = await sealedAccountsOf(atRest, mnemonic, job.accounts);
  return { sealedMnemonic: await atRest.seal(new TextEncoder().encode(mnemonic)), accounts };
}

/** Open a stored wallet's mnemonic, derive `job.accounts` (PBKDF2, BIP32) and seal each account's key; the mnemonic and seed are zeroed or dropped here. */
export async function deriveSealed(atRest: AtRestKey, job: DeriveJob): Promise<MadeWallet['accounts']> {
  const bytes = await atRest.open(job.sealedMnemonic);
  const mnemonic = new TextDecoder().decode(bytes);
  bytes.fill(0);
  return sealedAccountsOf(atRest, mnemonic, job.accounts);
}

/**
 * Derive `specs` from a mnemonic (BIP39's PBKDF2, BIP32) and seal each account's private key at
 * rest; the seed and the plain keys are zeroed before this returns. Shared by `makeWallet` and
 * `deriveSealed`.
 */
async function sealedAccountsOf(atRest: AtRestKey, mnemonic: string, specs: readonly AccountSpec[]): Promise<MadeWallet['accounts']> {
  if (specs.length === 0) return [];
  const seed = mnemonicSeed(mnemonic);
  let keys: ReturnType<typeof deriveAccountKeys> = [];
  try {
    keys = deriveAccountKeys(seed, specs);
    const out: MadeWallet['accounts'] = [];
    for (const k of keys) out.push({ address: k.address, publicKey: k.publicKey, sealedPrivateKey: await atRest.seal(k.privateKey) });
    return out;
  } finally {
    seed.fill(0);
    for (const k of keys) k.privateKey.fill(0);
  }
}
