/**
 * The enclave: the only module that sees plaintext key material (DESIGN section 3).
 *
 * Seeds, private keys and client secrets leave it only as HPKE ciphertext to the at-rest
 * key (`Sealed`), or HPKE-encrypted to a caller's target key inside a signed bundle (export).
 * Everything decrypted here lives in memory for the duration of one call.
 */
import { createHmac, pbkdf2Sync } from 'node:crypto';
import {
  deriveAccount,
  generateMnemonic,
  hpkeOpen,
  hpkeSeal,
  p256PublicKey,
  publicKeyFromPrivate,
  signAppProof,
  signBundle,
  signJwt,
  signRawPayload,
  validateMnemonic,
  verifyJwt,
  formatAddress,
  type AppProof,
  type Curve,
  type SignedBundle,
} from '@walletkit/crypto';
import type { AddressFormat, HashFunction, PayloadEncoding } from '@walletkit/protocol';
import { ApiError } from '../errors';
import type { Store } from '../store/db';
import { resolveMasterKey } from './master-key';
import { loadOrCreateKeyPair, type EnclaveKeyPair } from './keystore';

/** HPKE ciphertext to the at-rest key, as stored in `*_encrypted` columns. */
export interface Sealed {
  encappedPublic: string;
  ciphertext: string;
}

export interface AccountSpec {
  curve: Curve;
  path: string;
  addressFormat: AddressFormat;
}

export interface RawSignature {
  r: string;
  s: string;
  v: string;
}

const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const utf8 = new TextEncoder();

/** BIP39 seed with native PBKDF2 (same result as the spec's algorithm, far faster than JS). */
function mnemonicSeed(mnemonic: string): Uint8Array {
  return pbkdf2Sync(utf8.encode(mnemonic.normalize('NFKD')), utf8.encode('mnemonic'), 2048, 64, 'sha512');
}

function parseEncryptedBundle(value: string): Sealed {
  try {
    const parsed = JSON.parse(value) as Partial<Sealed>;
    if (typeof parsed.encappedPublic === 'string' && typeof parsed.ciphertext === 'string') {
      return { encappedPublic: parsed.encappedPublic, ciphertext: parsed.ciphertext };
    }
  } catch {
    // fall through
  }
  throw new ApiError('ERR_INVALID_ENCRYPTED_BUNDLE', 'encrypted bundle must be JSON {encappedPublic, ciphertext}');
}

export class Enclave {
  private constructor(
    private readonly atRest: EnclaveKeyPair,
    private readonly signing: EnclaveKeyPair,
  ) {}

  /** Load (or create on first start) the at-rest and signing keys sealed in the store. */
  static async open(store: Store, opts: { masterKey: string | undefined; dataDir: string; databaseUrl: string | undefined }): Promise<Enclave> {
    const master = resolveMasterKey(opts);
    const atRest = await loadOrCreateKeyPair(store, master, 'at-rest');
    const signing = await loadOrCreateKeyPair(store, master, 'signing');
    master.fill(0);
    return new Enclave(atRest, signing);
  }

  /** Uncompressed P-256 hex of the key that signs bundles, tokens, sessions and App Proofs. */
  get signingPublicKey(): string {
    return this.signing.publicKeyUncompressed;
  }

  /** Uncompressed P-256 hex callers encrypt secrets to (OAuth 2.0 client secrets). */
  get encryptionPublicKey(): string {
    return this.atRest.publicKeyUncompressed;
  }

  private seal(plaintext: Uint8Array): Promise<Sealed> {
    return hpkeSeal({ plaintext, receiverPublicKey: this.atRest.publicKeyUncompressed });
  }

  private async unseal(sealed: Sealed): Promise<Uint8Array> {
    return hpkeOpen({ ...sealed, receiverPrivateKey: this.atRest.privateKey });
  }

  private async seedOf(sealedMnemonic: Sealed): Promise<Uint8Array> {
    const mnemonic = new TextDecoder().decode(await this.unseal(sealedMnemonic));
    return mnemonicSeed(mnemonic);
  }

  // ---- wallets ---------------------------------------------------------------------------

  /** Generate a BIP39 wallet; only its sealed mnemonic leaves the enclave. */
  async createWallet(mnemonicLength: 12 | 15 | 18 | 21 | 24): Promise<{ sealedMnemonic: Sealed }> {
    return { sealedMnemonic: await this.seal(utf8.encode(generateMnemonic(mnemonicLength))) };
  }

  /** Derive public data (address, public key) of accounts of a sealed wallet. */
  async deriveWalletAccounts(sealedMnemonic: Sealed, accounts: AccountSpec[]): Promise<Array<{ address: string; publicKey: string }>> {
    const seed = await this.seedOf(sealedMnemonic);
    try {
      return accounts.map((a) => {
        const d = deriveAccount({ seed, curve: a.curve, path: a.path, addressFormat: a.addressFormat });
        d.privateKey.fill(0);
        return { address: d.address, publicKey: d.publicKey };
      });
    } finally {
      seed.fill(0);
    }
  }

  /** Sign payloads with the key of one wallet account. */
  async signWithWalletAccount(
    sealedMnemonic: Sealed,
    account: AccountSpec,
    request: { payloads: string[]; encoding: PayloadEncoding; hashFunction: HashFunction },
  ): Promise<RawSignature[]> {
    const seed = await this.seedOf(sealedMnemonic);
    const d = deriveAccount({ seed, curve: account.curve, path: account.path, addressFormat: account.addressFormat });
    seed.fill(0);
    try {
      return request.payloads.map((payload) =>
        signRawPayload({ curve: account.curve, privateKey: d.privateKey, payload, encoding: request.encoding, hashFunction: request.hashFunction }),
      );
    } finally {
      d.privateKey.fill(0);
    }
  }

  /** Export bundle of a wallet's mnemonic, HPKE-encrypted to the caller's target key. */
  async exportWallet(sealedMnemonic: Sealed, targetPublicKey: string, organizationId: string): Promise<string> {
    const mnemonic = await this.unseal(sealedMnemonic);
    return this.exportBundle(mnemonic, targetPublicKey, organizationId);
  }

  /** Export bundle of one wallet account's private key (hex of the raw key, Turnkey's format). */
  async exportWalletAccount(sealedMnemonic: Sealed, account: AccountSpec, targetPublicKey: string, organizationId: string): Promise<string> {
    const seed = await this.seedOf(sealedMnemonic);
    const d = deriveAccount({ seed, curve: account.curve, path: account.path, addressFormat: account.addressFormat });
    seed.fill(0);
    return this.exportBundle(d.privateKey, targetPublicKey, organizationId);
  }

  // ---- private keys ----------------------------------------------------------------------

  /** Generate a standalone private key on a curve. */
  async createPrivateKey(curve: Curve): Promise<{ sealedPrivateKey: Sealed; publicKey: string }> {
    const privateKey = globalThis.crypto.getRandomValues(new Uint8Array(32));
    if (curve === 'CURVE_SECP256K1') {
      // A random 32-byte string is a valid secp256k1 scalar except with negligible probability; publicKeyFromPrivate asserts it.
    }
    const publicKey = Buffer.from(publicKeyFromPrivate(curve, privateKey)).toString('hex');
    const sealedPrivateKey = await this.seal(privateKey);
    privateKey.fill(0);
    return { sealedPrivateKey, publicKey };
  }

  /** Addresses of a public key in the requested formats. */
  addressesOf(curve: Curve, publicKeyHex: string, formats: AddressFormat[]): Array<{ format: AddressFormat; address: string }> {
    const publicKey = Buffer.from(publicKeyHex, 'hex');
    return formats.map((format) => ({ format, address: formatAddress({ curve, publicKey, addressFormat: format }) }));
  }

  async signWithPrivateKey(
    sealedPrivateKey: Sealed,
    curve: Curve,
    request: { payloads: string[]; encoding: PayloadEncoding; hashFunction: HashFunction },
  ): Promise<RawSignature[]> {
    const privateKey = await this.unseal(sealedPrivateKey);
    try {
      return request.payloads.map((payload) =>
        signRawPayload({ curve, privateKey, payload, encoding: request.encoding, hashFunction: request.hashFunction }),
      );
    } finally {
      privateKey.fill(0);
    }
  }

  async exportPrivateKey(sealedPrivateKey: Sealed, targetPublicKey: string, organizationId: string): Promise<string> {
    return this.exportBundle(await this.unseal(sealedPrivateKey), targetPublicKey, organizationId);
  }

  private async exportBundle(plaintext: Uint8Array, targetPublicKey: string, organizationId: string): Promise<string> {
    try {
      const { encappedPublic, ciphertext } = await hpkeSeal({ plaintext, receiverPublicKey: targetPublicKey });
      return JSON.stringify(signBundle({ encappedPublic, ciphertext, organizationId }, this.signing.privateKey));
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_INVALID_PUBLIC_KEY' || (err as { code?: string }).code === 'ERR_INVALID_PARAMETER') {
        throw new ApiError('ERR_INVALID_PUBLIC_KEY', 'targetPublicKey is not a P-256 public key', 'targetPublicKey', { cause: err });
      }
      throw err;
    } finally {
      plaintext.fill(0);
    }
  }

  // ---- import ----------------------------------------------------------------------------

  /**
   * The import target key of (organization, user): derived from the at-rest key so that no
   * extra secret is stored and any instance can open what a client encrypted to it.
   */
  private importTargetPrivateKey(organizationId: string, userId: string): string {
    for (let counter = 0; ; counter += 1) {
      const candidate = createHmac('sha256', Buffer.from(this.atRest.privateKey, 'hex'))
        .update(`walletkit-import-target|${organizationId}|${userId}|${counter}`)
        .digest();
      const scalar = BigInt('0x' + candidate.toString('hex'));
      if (scalar > 0n && scalar < P256_ORDER) return candidate.toString('hex');
    }
  }

  /** Signed import bundle `{targetPublic, organizationId, userId}` (DESIGN section 2). */
  initImport(organizationId: string, userId: string): string {
    const targetPublic = p256PublicKey(this.importTargetPrivateKey(organizationId, userId), false);
    return JSON.stringify(signBundle({ targetPublic, organizationId, userId }, this.signing.privateKey));
  }

  private async openImport(encryptedBundle: string, organizationId: string, userId: string): Promise<Uint8Array> {
    const bundle = parseEncryptedBundle(encryptedBundle);
    try {
      return await hpkeOpen({ ...bundle, receiverPrivateKey: this.importTargetPrivateKey(organizationId, userId) });
    } catch (cause) {
      throw new ApiError('ERR_INVALID_ENCRYPTED_BUNDLE', 'the import bundle does not decrypt for this user', 'encryptedBundle', { cause });
    }
  }

  /** Open a mnemonic a client encrypted to its import target; re-seal it at rest. */
  async importWallet(encryptedBundle: string, organizationId: string, userId: string): Promise<{ sealedMnemonic: Sealed; mnemonicLength: number }> {
    const bytes = await this.openImport(encryptedBundle, organizationId, userId);
    const mnemonic = new TextDecoder().decode(bytes).trim().split(/\s+/).join(' ');
    bytes.fill(0);
    if (!validateMnemonic(mnemonic)) throw new ApiError('ERR_INVALID_PARAMETER', 'the imported mnemonic is not a valid BIP39 mnemonic', 'encryptedBundle');
    return { sealedMnemonic: await this.seal(utf8.encode(mnemonic)), mnemonicLength: mnemonic.split(' ').length };
  }

  /** Open a raw private key a client encrypted to its import target; re-seal it at rest. */
  async importPrivateKey(encryptedBundle: string, organizationId: string, userId: string, curve: Curve): Promise<{ sealedPrivateKey: Sealed; publicKey: string }> {
    const privateKey = await this.openImport(encryptedBundle, organizationId, userId);
    try {
      if (privateKey.length !== 32) throw new ApiError('ERR_INVALID_PARAMETER', 'the imported private key must be 32 bytes', 'encryptedBundle');
      let publicKey: string;
      try {
        publicKey = Buffer.from(publicKeyFromPrivate(curve, privateKey)).toString('hex');
      } catch (cause) {
        throw new ApiError('ERR_INVALID_PARAMETER', 'the imported private key is not valid on this curve', 'encryptedBundle', { cause });
      }
      return { sealedPrivateKey: await this.seal(privateKey), publicKey };
    } finally {
      privateKey.fill(0);
    }
  }

  // ---- secrets ---------------------------------------------------------------------------

  /**
   * Accept a secret a caller HPKE-encrypted to `encryptionPublicKey` (JSON {encappedPublic,
   * ciphertext}); it is checked to decrypt, then stored as sent.
   */
  async acceptCallerSecret(encrypted: string, field: string): Promise<Sealed> {
    const sealed = parseEncryptedBundle(encrypted);
    try {
      const plaintext = await this.unseal(sealed);
      const empty = plaintext.length === 0;
      plaintext.fill(0);
      if (empty) throw new ApiError('ERR_INVALID_PARAMETER', `${field} decrypts to an empty secret`, field);
    } catch (cause) {
      if (cause instanceof ApiError) throw cause;
      throw new ApiError('ERR_INVALID_ENCRYPTED_BUNDLE', `${field} does not decrypt to the enclave encryption key`, field, { cause });
    }
    return sealed;
  }

  /** Seal a secret given in plaintext inside the server process (proxy API keys). */
  sealSecret(plaintext: Uint8Array): Promise<Sealed> {
    return this.seal(plaintext);
  }

  /** Decrypt a sealed secret for one outbound use (e.g. an OAuth token request). */
  async revealSecret(sealed: Sealed): Promise<string> {
    const bytes = await this.unseal(sealed);
    const value = new TextDecoder().decode(bytes);
    bytes.fill(0);
    return value;
  }

  // ---- signatures ------------------------------------------------------------------------

  /** ES256 JWT by the enclave signing key (sessions, verification tokens, issued OIDC tokens). */
  signJwt(claims: Record<string, unknown>): string {
    return signJwt(claims, this.signing.privateKey, { kid: this.keyId });
  }

  verifyJwt<T>(token: string, now?: () => number): T {
    return verifyJwt<T>(token, this.signing.publicKeyUncompressed, now ? { now } : undefined);
  }

  signBundle(data: object): SignedBundle {
    return signBundle(data, this.signing.privateKey);
  }

  signAppProof(payload: object): AppProof {
    return signAppProof(payload, this.signing.privateKey);
  }

  /** Stable key id of the signing key, for JWT headers and the JWKS. */
  get keyId(): string {
    return this.signing.publicKey.slice(2, 18);
  }

  /** The signing key as a public JWK (for /.well-known/jwks.json). */
  signingJwk(): Record<string, string> {
    const raw = Buffer.from(this.signing.publicKeyUncompressed, 'hex');
    return {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33, 65).toString('base64url'),
      alg: 'ES256',
      use: 'sig',
      kid: this.keyId,
    };
  }
}
