/**
 * The enclave: the only module that sees plaintext key material (DESIGN section 3).
 *
 * Seeds, private keys and client secrets leave it only sealed under the at-rest key (`Sealed`:
 * AES-256-GCM, or HPKE as callers encrypt to it; at-rest.ts, decision 0025), or HPKE-encrypted to
 * a caller's target key inside a signed bundle (export).
 * Everything decrypted here lives in memory for the duration of one call and is zeroed after
 * use where we hold the bytes. Key arithmetic lives in ./key-material.ts and ./native-derive.ts,
 * opening sealed values and one account's key in ./account-key.ts, export and import bundles in ./transfer.ts, API keys and stamps in ./api-key-stamps.ts.
 */
import { signAppProof, verifyJwt, type AppProof, type ClientSignature, type Curve } from '@walletkit/crypto';
import type { AddressFormat, MnemonicLength } from '@walletkit/protocol';
import { ApiError } from '../errors.js';
import { installNativeCrypto, keepOwnSigningKey } from '../native-crypto.js';
import type { Store } from '../store/db.js';
import type { StampProof } from '../activity/stamp-check.js';
import {
  addressesOf,
  newPrivateKey,
  parseImportedMnemonic,
  parseImportedPrivateKey,
  signMessages,
  type AccountSpec,
  type RawSignature,
} from './key-material.js';
import { exchangeAuthorizationCode, fetchProviderUser, type ProviderEndpoints, type ProviderUser } from '../oauth/code-exchange.js';
import { resolveMasterKey } from './master-key.js';
import type { IssuedOtp } from './otp.js';
import { loadOrCreateKeyPair, publicJwk, type EnclaveKeyPair } from './keystore.js';
import { AtRestKey } from './at-rest.js';
import { unsealed, withAccountKey } from './account-key.js';
import { acceptCallerSecret, exportBundle, exportTarget, importBundle, openImportBundle } from './transfer.js';
import { ApiKeyStamps } from './api-key-stamps.js';
import { defaultSignerThreads, SignerPool } from './signer-pool.js';
import { type OpenedAttempt, type OwnSigningKey, signOwnJwt } from './signer-core.js';
import { VerifiedTokens } from './verified-tokens.js';
import type { DerivedAccount, Sealed, SigningKey } from './types.js';

export type { AccountSpec, DerivedAccountPublic, RawSignature } from './key-material.js';
export type { DerivedAccount, Sealed, SigningKey } from './types.js';
export { exportTarget } from './transfer.js';

const utf8 = new TextEncoder();

export class Enclave {
  /** API keys sealed here, the stamps they sign (or passes in-process) and every request's stamp check (api-key-stamps.ts). */
  readonly stamps: ApiKeyStamps;
  /** Tokens of its own checked on the signer threads and remembered (verified-tokens.ts). */
  private readonly tokens: VerifiedTokens;

  private constructor(
    private readonly atRest: EnclaveKeyPair,
    private readonly signing: EnclaveKeyPair,
    /** The signing key as the signer threads and this enclave sign with it, and its key id. */
    private readonly own: OwnSigningKey,
    /** The at-rest key prepared once for sealing and opening (at-rest.ts; its import costs more than a decryption). */
    private readonly atRestRecipient: AtRestKey,
    /** Worker threads that open sealed keys and sign (signer-pool.ts). */
    private readonly signer: SignerPool,
  ) {
    this.stamps = new ApiKeyStamps(atRestRecipient, signer);
    this.tokens = new VerifiedTokens((job) => signer.verifyJwt(job));
  }

  /**
   * Load (or create on first start) the at-rest and signing keys sealed in the store, and start
   * `signerThreads` signing threads (default: one per core beside the event loop's; 0 signs
   * in-process) and, with any, the stamp-check threads beside them (signer-pool.ts).
   */
  static async open(
    store: Store,
    opts: { masterKey: string | undefined; dataDir: string; databaseUrl: string | undefined; signerThreads?: number | undefined },
  ): Promise<Enclave> {
    // HPKE on node:crypto before the at-rest recipient is prepared (build() runs after this).
    installNativeCrypto();
    const master = resolveMasterKey(opts);
    const atRest = await loadOrCreateKeyPair(store, master, 'at-rest');
    const signing = await loadOrCreateKeyPair(store, master, 'signing');
    master.fill(0);
    // Its tokens, bundles and App Proofs sign with a key object built once.
    keepOwnSigningKey(Buffer.from(signing.privateKey, 'hex'));
    const recipient = await AtRestKey.of(atRest.privateKey);
    // Its key id: the compressed public key's hex, first 8 bytes of x (JWT headers, the JWKS).
    const own = { privateKey: signing.privateKey, publicKey: signing.publicKeyUncompressed, keyId: signing.publicKey.slice(2, 18) };
    const signer = new SignerPool(atRest.privateKey, recipient, own, opts.signerThreads ?? defaultSignerThreads());
    return new Enclave(atRest, signing, own, recipient, signer);
  }

  /** Stop the signing threads. */
  close(): Promise<void> {
    return this.signer.close();
  }

  /**
   * Whether a client signature signs its message with its own key (false for anything malformed,
   * never a throw), checked on the signing threads like a stamp: public data only. An activity's
   * prefetch asks it before the transaction opens (otp_login, a signup with a verification token).
   */
  async checkClientSignature(signature: ClientSignature): Promise<boolean> {
    return (await this.clientSignatureKey(signature)) !== undefined;
  }

  /**
   * {@link checkClientSignature} that also gives the key that signed, compressed: what
   * `normalizeApiPublicKey` makes of it, without a second decompression on the event loop
   * (otp_login's session key is that key).
   * @returns the compressed P-256 key when the signature verifies, else undefined
   */
  async clientSignatureKey(signature: ClientSignature): Promise<string | undefined> {
    return (await this.signer.clientSignatureKey(signature)) ?? undefined;
  }

  /** Uncompressed P-256 hex of the key that signs bundles, tokens, sessions and App Proofs. */
  get signingPublicKey(): string {
    return this.signing.publicKeyUncompressed;
  }

  /** Uncompressed P-256 hex callers encrypt secrets to (OAuth 2.0 client secrets). */
  get encryptionPublicKey(): string {
    return this.atRest.publicKeyUncompressed;
  }

  private readonly seal = (plaintext: Uint8Array): Sealed => this.atRestRecipient.seal(plaintext);

  /** Open a value sealed at rest; failure means corrupt storage or the wrong key: a 500 (account-key.ts). */
  private unseal(sealed: Sealed): Promise<Uint8Array> {
    return unsealed(this.atRestRecipient, sealed);
  }

  // ---- wallets ---------------------------------------------------------------------------

  /**
   * Generate a BIP39 wallet and derive `accounts` from it before sealing (no second unseal);
   * only the sealed mnemonic, each account's sealed private key and public data leave the enclave.
   * @example const { sealedMnemonic, accounts } = await enclave.createWallet(12, [{ curve: 'CURVE_SECP256K1', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }]);
   */
  async createWallet(mnemonicLength: MnemonicLength, accounts: readonly AccountSpec[] = []): Promise<{ sealedMnemonic: Sealed; accounts: DerivedAccount[] }> {
    // On a signer thread (signer-core.ts makeWallet): PBKDF2 and BIP32 stay off the event loop.
    return this.signer.makeWallet({ mnemonicLength, accounts: [...accounts] });
  }

  /**
   * Derive accounts of a sealed wallet (public data and each sealed private key): one unseal, and
   * BIP39's PBKDF2 and BIP32 on a signer thread (signer-core.ts `deriveSealed`), off the event loop.
   */
  async deriveWalletAccounts(sealedMnemonic: Sealed, accounts: readonly AccountSpec[]): Promise<DerivedAccount[]> {
    if (accounts.length === 0) return [];
    try {
      return await this.signer.deriveAccounts({ sealedMnemonic, accounts: [...accounts] });
    } catch (cause) {
      throw new ApiError('ERR_INTERNAL', "the wallet's accounts could not be derived from its sealed mnemonic", undefined, { cause });
    }
  }

  /**
   * The sealed private key of one account of a sealed wallet, for accounts stored before keys
   * were sealed per account (they sign through their mnemonic until then).
   */
  async sealAccountKey(sealedMnemonic: Sealed, account: { curve: Curve; path: string }): Promise<Sealed> {
    return this.withAccountKey(sealedMnemonic, account, (privateKey) => this.seal(privateKey));
  }

  /** A value sealed with HPKE (before AES-256-GCM: at-rest.ts), sealed again with AES-256-GCM; the plaintext is zeroed. */
  async sealAgain(sealed: Sealed): Promise<Sealed> {
    const bytes = await this.unseal(sealed);
    try {
      return this.seal(bytes);
    } finally {
      bytes.fill(0);
    }
  }

  /** Run `use` with the private key of one account of a sealed wallet (one unseal), zeroed after (account-key.ts). */
  private withAccountKey<T>(sealedMnemonic: Sealed, account: { curve: Curve; path: string }, use: (privateKey: Uint8Array) => T | Promise<T>): Promise<T> {
    return withAccountKey(this.atRestRecipient, sealedMnemonic, account, use);
  }

  /** Export bundle of a wallet's mnemonic (UTF-8), HPKE-encrypted to the caller's target key. */
  async exportWallet(sealedMnemonic: Sealed, targetPublicKey: string, organizationId: string): Promise<string> {
    const target = exportTarget(targetPublicKey);
    return exportBundle(this.signing.privateKey, await this.unseal(sealedMnemonic), target, organizationId);
  }

  /** Export bundle of one wallet account's raw 32-byte private key (Turnkey's format). */
  async exportWalletAccount(sealedMnemonic: Sealed, account: { curve: Curve; path: string }, targetPublicKey: string, organizationId: string): Promise<string> {
    const target = exportTarget(targetPublicKey);
    return this.withAccountKey(sealedMnemonic, account, (privateKey) => exportBundle(this.signing.privateKey, privateKey, target, organizationId));
  }

  // ---- private keys ----------------------------------------------------------------------

  /** Generate a standalone private key on a curve; returns it sealed, with its public key. */
  async createPrivateKey(curve: Curve): Promise<{ sealedPrivateKey: Sealed; publicKey: string }> {
    const { privateKey, publicKey } = newPrivateKey(curve);
    try {
      return { sealedPrivateKey: await this.seal(privateKey), publicKey };
    } finally {
      privateKey.fill(0);
    }
  }

  /** Addresses of a public key (hex) in the requested formats (no secret involved). */
  addressesOf(curve: Curve, publicKeyHex: string, formats: readonly AddressFormat[]): Array<{ format: AddressFormat; address: string }> {
    return addressesOf(curve, publicKeyHex, formats);
  }

  /** Export bundle of a private key's raw bytes, HPKE-encrypted to the caller's target key. */
  async exportPrivateKey(sealedPrivateKey: Sealed, targetPublicKey: string, organizationId: string): Promise<string> {
    const target = exportTarget(targetPublicKey);
    return exportBundle(this.signing.privateKey, await this.unseal(sealedPrivateKey), target, organizationId);
  }

  // ---- signing ---------------------------------------------------------------------------

  /**
   * Sign messages prepared by crypto's `payloadDigest` (validate payloads before calling, so
   * a bad request costs no unseal). Exactly one unseal and at most one derivation per call.
   * `keccak`: the messages are `payloadToSign`'s, hashed with keccak-256 where they are signed.
   * @example await enclave.signMessages({ kind: 'privateKey', sealedPrivateKey, curve: 'CURVE_SECP256K1' }, [digest])
   */
  async signMessages(key: SigningKey, messages: readonly Uint8Array[], stamp?: StampProof, keccak = false): Promise<RawSignature[]> {
    if (key.kind === 'privateKey') {
      // A request's stamp not yet checked goes with the job, which checks it before opening the key.
      const check = stamp?.forSignJob();
      let signatures: RawSignature[] | null;
      try {
        signatures = await this.signer.sign({
          sealedPrivateKey: key.sealedPrivateKey,
          curve: key.curve,
          messages: [...messages],
          ...(keccak ? { keccak: true as const } : {}),
          ...(check ? { stamp: check } : {}),
        });
      } catch (cause) {
        throw new ApiError('ERR_INTERNAL', 'a sealed key does not open or sign', undefined, { cause });
      }
      if (check) stamp!.record(signatures !== null);
      if (signatures === null) throw new ApiError('ERR_STAMP_INVALID');
      return signatures;
    }
    await stamp?.settle();
    // An account stored before its key was sealed on its own (migration 0007): through its mnemonic.
    return this.withAccountKey(key.sealedMnemonic, key, (privateKey) => signMessages(key.curve, privateKey, messages, keccak));
  }

  // ---- import ----------------------------------------------------------------------------

  /** Signed import bundle `{targetPublic, organizationId, userId}` (DESIGN section 2). */
  initImport(organizationId: string, userId: string): string {
    return importBundle(this.atRest.privateKey, this.signing.privateKey, organizationId, userId);
  }

  /** Open a mnemonic a client encrypted to its import target, derive `accounts`, re-seal it at rest. */
  async importWallet(
    encryptedBundle: string,
    organizationId: string,
    userId: string,
    accounts: readonly AccountSpec[] = [],
  ): Promise<{ sealedMnemonic: Sealed; mnemonicLength: number; accounts: DerivedAccount[] }> {
    const mnemonic = await openImportBundle(this.atRest.privateKey, encryptedBundle, organizationId, userId, parseImportedMnemonic);
    // Sealed first: the derivation runs on a signer thread from the sealed mnemonic, as for a stored wallet.
    const sealedMnemonic = await this.seal(utf8.encode(mnemonic));
    return { sealedMnemonic, mnemonicLength: mnemonic.split(' ').length, accounts: await this.deriveWalletAccounts(sealedMnemonic, accounts) };
  }

  /** Open a raw private key a client encrypted to its import target; re-seal it at rest. */
  async importPrivateKey(
    encryptedBundle: string,
    organizationId: string,
    userId: string,
    curve: Curve,
  ): Promise<{ sealedPrivateKey: Sealed; publicKey: string }> {
    const { privateKey, publicKey } = await openImportBundle(this.atRest.privateKey, encryptedBundle, organizationId, userId, (bytes) =>
      parseImportedPrivateKey(bytes, curve),
    );
    try {
      return { sealedPrivateKey: this.seal(privateKey), publicKey };
    } finally {
      privateKey.fill(0);
    }
  }

  // ---- secrets ---------------------------------------------------------------------------

  /**
   * Accept a secret a caller encrypted to `encryptionPublicKey` (HPKE bundle or Turnkey's
   * quorum-key envelope: transfer.ts); the plaintext never leaves the call.
   * @throws ApiError ERR_INVALID_ENCRYPTED_BUNDLE | ERR_INVALID_PARAMETER (empty secret)
   */
  acceptCallerSecret(encrypted: string, field: string): Promise<Sealed> {
    return acceptCallerSecret(encrypted, field, this.atRest, this.atRestRecipient, this.seal);
  }

  /**
   * The OAuth 2.0 login of a provider user: exchange the authorization code with the client
   * secret sealed at rest (opened for this exchange only) and read the provider's user. Neither
   * the secret nor the provider's access token leaves this call.
   * @example const user = await enclave.oauth2Login(credential.clientSecretEncrypted, fetch, endpoints, { clientId, code, redirectUri, codeVerifier });
   * @throws ApiError ERR_INVALID_PARAMETER (invalid_grant) | ERR_OAUTH_EXCHANGE_FAILED
   */
  async oauth2Login(
    sealedClientSecret: Sealed,
    fetchFn: typeof fetch,
    endpoints: ProviderEndpoints,
    input: { clientId: string; code: string; redirectUri: string; codeVerifier: string },
  ): Promise<ProviderUser> {
    const bytes = await this.unseal(sealedClientSecret);
    const clientSecret = new TextDecoder().decode(bytes);
    bytes.fill(0);
    const accessToken = await exchangeAuthorizationCode(fetchFn, endpoints, { ...input, clientSecret });
    return fetchProviderUser(fetchFn, endpoints, accessToken);
  }

  // ---- one-time codes (./otp.ts) ------------------------------------------------------------

  /**
   * Issue a code: the code (for delivery only), its MAC, a per-code target key generated and
   * sealed here, and the signed encryption target bundle.
   * @example const issued = await enclave.issueOtp({ otpId, organizationId, length: 6, alphanumeric: false });
   */
  issueOtp(input: { otpId: string; organizationId: string; length: number; alphanumeric: boolean }): Promise<IssuedOtp> {
    // All of it on a signer thread, the bundle's signature too (decision 0029).
    return this.signer.issueOtp({ otpId: input.otpId, organizationId: input.organizationId, length: input.length, alphanumeric: input.alphanumeric });
  }

  /**
   * Open a verify attempt with the code's sealed target key and check its code in constant time,
   * on a signer thread; when the code is right and `token` is given, the verification token of
   * those claims bound to the attempt's client key (`public_key`) is signed there too.
   * @returns the client's compressed P-256 public key (and the token) when the code is right, else undefined
   */
  async checkOtpAttempt(input: {
    otpId: string;
    sealedTargetKey: Sealed;
    codeMac: string;
    encrypted: { encappedPublic: string; ciphertext: string };
    token?: Record<string, unknown>;
  }): Promise<OpenedAttempt | undefined> {
    let opened: OpenedAttempt | null;
    try {
      opened = await this.signer.checkOtpAttempt(input);
    } catch (cause) {
      throw new ApiError('ERR_INTERNAL', 'a sealed value does not open with the at-rest key', undefined, { cause });
    }
    // Signed by the thread just now: its next check (the proxy's account lookup) is its times alone.
    if (opened?.verificationToken !== undefined) this.tokens.signed(opened.verificationToken);
    return opened ?? undefined;
  }

  // ---- signatures ------------------------------------------------------------------------

  /** ES256 JWT by the enclave signing key (sessions, verification tokens, issued OIDC tokens). */
  signJwt(claims: Record<string, unknown>): string {
    return signOwnJwt(this.own, claims);
  }

  verifyJwt<T>(token: string, now?: () => number): T {
    return verifyJwt<T>(token, this.own.publicKey, now ? { now } : undefined);
  }

  /**
   * {@link signJwt} on a signer thread, for a caller that has other work meanwhile (a session's
   * statements) or nothing to hold the event loop for (decision 0029).
   */
  signJwtOnThread(claims: Record<string, unknown>): Promise<string> {
    return this.signer.signJwt(claims);
  }

  /**
   * {@link verifyJwt} with the signature checked on a signer thread, once per token: a token that
   * verified is remembered and its next check here is its times alone, at `now`
   * (verified-tokens.ts). An OTP login's token is checked by the proxy's account lookup, then by
   * otp_login (decision 0029).
   * @throws CryptoError ERR_JWT_INVALID | ERR_JWT_EXPIRED, as verifyJwt
   */
  verifyJwtOnThread<T>(token: string, now: () => number): Promise<T> {
    return this.tokens.verify<T>(token, now);
  }

  signAppProof(payload: object): AppProof {
    return signAppProof(payload, this.signing.privateKey, this.atRest.publicKeyUncompressed);
  }

  /** Stable key id of the signing key, for JWT headers and the JWKS. */
  get keyId(): string {
    return this.own.keyId;
  }

  /** The signing key as a public JWK (for /.well-known/jwks.json). */
  signingJwk(): Record<string, string> {
    return publicJwk(this.signing, this.keyId);
  }
}
