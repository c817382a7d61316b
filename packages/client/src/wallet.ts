import { bytesToHex, bytesToUtf8, utf8ToBytes } from '@walletkit/crypto';
import type { ParamsOf, QueryResponseOf, ResultOf } from '@walletkit/protocol';
import type { ActivityClient } from './activity-client.js';
import type { Confirmer } from './confirm.js';
import { toWalletKitError } from './errors.js';
import { createEthereumActions, type EthereumActions } from './ethereum/actions.js';
import { createChainRegistry, type ChainRegistry } from './ethereum/chains.js';
import { createPasskeyRegistration, type PasskeyRegistrationOptions } from './passkey-registration.js';
import { verifySignedBundle } from './webcrypto/bundle.js';
import { createHpkeTarget, hpkeOpenWith, hpkeSealTo, type HpkeTarget } from './webcrypto/hpke.js';
import { createSolanaActions, type SolanaActions } from './solana/actions.js';

/** One Ethereum account at m/44'/60'/0'/0/`index`, the kit's default. */
export function ethereumAccount(index = 0): ParamsOf<'create_wallet'>['accounts'][number] {
  return { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: `m/44'/60'/0'/0/${index}`, addressFormat: 'ADDRESS_FORMAT_ETHEREUM' };
}

/**
 * One Solana account at m/44'/501'/`index`'/0' (the path Phantom and Solflare derive).
 * @example await kit.wallet.createWallet({ walletName: 'Main', accounts: [ethereumAccount(0), solanaAccount(0)] });
 */
export function solanaAccount(index = 0): ParamsOf<'create_wallet'>['accounts'][number] {
  return { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: `m/44'/501'/${index}'/0'`, addressFormat: 'ADDRESS_FORMAT_SOLANA' };
}

/**
 * Wallet actions of the logged-in user: wallets and accounts, Ethereum and Solana signing
 * (every signature asks the kit's Confirmer first; `{ confirm: false }` skips it for one call),
 * exports and imports (decrypted and encrypted only in the browser).
 *
 * @example
 * ```ts
 * const { addresses } = await kit.wallet.createWallet({ walletName: 'Main' });
 * const signature = await kit.wallet.signMessage({ address: addresses[0]!, message: 'hello' });
 * const hash = await kit.wallet.sendTransaction({ address: addresses[0]!, transaction: { to, value: 10n ** 16n } });
 * ```
 */
export interface WalletActions extends EthereumActions, SolanaActions {
  listWallets(): Promise<QueryResponseOf<'list_wallets'>['wallets']>;
  listAccounts(walletId?: string): Promise<QueryResponseOf<'list_wallet_accounts'>['accounts']>;
  /** Creates a wallet; one Ethereum account unless `accounts` says otherwise. */
  createWallet(params: {
    walletName: string;
    accounts?: ParamsOf<'create_wallet'>['accounts'] | undefined;
    mnemonicLength?: ParamsOf<'create_wallet'>['mnemonicLength'] | undefined;
  }): Promise<ResultOf<'create_wallet'>>;
  createAccounts(params: ParamsOf<'create_wallet_accounts'>): Promise<ResultOf<'create_wallet_accounts'>>;
  /** The wallet's mnemonic, decrypted here with a one-time key that is then dropped. */
  exportWallet(params: { walletId: string }): Promise<string>;
  /** The account's private key (hex), decrypted here with a one-time key. */
  exportAccount(params: { address: string }): Promise<string>;
  /** Imports a mnemonic, encrypted here to the enclave's signed import target. */
  importWallet(params: {
    mnemonic: string;
    walletName: string;
    accounts?: ParamsOf<'import_wallet'>['accounts'] | undefined;
  }): Promise<ResultOf<'import_wallet'>>;
  /** The export bundle of a wallet's mnemonic, encrypted to `targetPublicKey` (a secret frame's key); App Proof verified. */
  exportWalletBundle(params: { walletId: string; targetPublicKey: string }): Promise<string>;
  /** The export bundle of one account's private key, encrypted to `targetPublicKey`. */
  exportAccountBundle(params: { address: string; targetPublicKey: string }): Promise<string>;
  /** The export bundle of an imported (or created) private key, encrypted to `targetPublicKey`. */
  exportPrivateKeyBundle(params: { privateKeyId: string; targetPublicKey: string }): Promise<string>;
  /** The user's private keys (imported keys: each with its addresses). */
  listPrivateKeys(): Promise<QueryResponseOf<'list_private_keys'>['privateKeys']>;
  /** Starts an import: the enclave-signed bundle carrying the key a secret frame encrypts to. */
  initImport(params: { secret: 'mnemonic' | 'privateKey' }): Promise<string>;
  /** Finishes a wallet import with the ciphertext a secret frame produced. */
  importWalletEncrypted(params: {
    walletName: string;
    encryptedBundle: string;
    accounts?: ParamsOf<'import_wallet'>['accounts'] | undefined;
  }): Promise<ResultOf<'import_wallet'>>;
  /** Finishes a private key import (secp256k1, Ethereum address) with a secret frame's ciphertext. */
  importPrivateKeyEncrypted(params: { privateKeyName: string; encryptedBundle: string }): Promise<ResultOf<'import_private_key'>>;
  /** Registers a new passkey for the user (WebAuthn registration, then create_authenticators). */
  addPasskey(params: PasskeyRegistrationOptions & { authenticatorName: string }): Promise<ResultOf<'create_authenticators'>>;
}

/**
 * Creates the {@link WalletActions} over an activity client.
 *
 * @example
 * ```ts
 * const wallet = createWalletActions({ activity, enclavePublicKey, userId: () => session.current()!.userId, chains, confirm });
 * ```
 */
export function createWalletActions(deps: {
  activity: ActivityClient;
  enclavePublicKey: string;
  userId: () => string;
  /** The kit's chains; none when absent (transactions then need complete fields and cannot be sent). */
  chains?: ChainRegistry;
  confirm?: Confirmer | undefined;
}): WalletActions {
  const { activity } = deps;
  const chains = deps.chains ?? createChainRegistry({ fetch: () => Promise.reject(new Error('no chain')) });

  /** Verifies an export bundle against the pinned enclave key and opens it with the one-time `target`. */
  async function openExport(exportBundle: string, target: HpkeTarget): Promise<Uint8Array> {
    try {
      const data = await verifySignedBundle<{ encappedPublic: string; ciphertext: string }>(exportBundle, deps.enclavePublicKey);
      return await hpkeOpenWith(target, { encappedPublic: data.encappedPublic, ciphertext: data.ciphertext });
    } catch (error) {
      throw toWalletKitError(error, 'ERR_INVALID_ENCRYPTED_BUNDLE');
    }
  }

  return {
    ...createEthereumActions({ activity, chains, confirm: deps.confirm }),
    ...createSolanaActions({ activity, confirm: deps.confirm }),
    listWallets: async () => (await activity.query('list_wallets', {})).wallets,
    listAccounts: async (walletId) => (await activity.query('list_wallet_accounts', walletId ? { walletId } : {})).accounts,
    createWallet: ({ walletName, accounts, mnemonicLength }) =>
      activity.submit('create_wallet', { walletName, accounts: accounts ?? [ethereumAccount(0)], ...(mnemonicLength ? { mnemonicLength } : {}) }),
    createAccounts: (params) => activity.submit('create_wallet_accounts', params),
    async exportWallet({ walletId }) {
      const target = await createHpkeTarget();
      const { exportBundle } = await activity.submit('export_wallet', { walletId, targetPublicKey: target.publicKey });
      return bytesToUtf8(await openExport(exportBundle, target));
    },
    async exportAccount({ address }) {
      const target = await createHpkeTarget();
      const { exportBundle } = await activity.submit('export_wallet_account', { address, targetPublicKey: target.publicKey });
      return bytesToHex(await openExport(exportBundle, target));
    },
    async importWallet({ mnemonic, walletName, accounts }) {
      const userId = deps.userId();
      const { importBundle } = await activity.submit('init_import_wallet', { userId });
      let encryptedBundle: string;
      try {
        const { targetPublic } = await verifySignedBundle<{ targetPublic: string }>(importBundle, deps.enclavePublicKey);
        encryptedBundle = JSON.stringify(await hpkeSealTo(utf8ToBytes(mnemonic), targetPublic));
      } catch (error) {
        throw toWalletKitError(error, 'ERR_INVALID_SIGNATURE');
      }
      return activity.submit('import_wallet', { userId, walletName, encryptedBundle, accounts: accounts ?? [ethereumAccount(0)] });
    },
    exportWalletBundle: async ({ walletId, targetPublicKey }) => (await activity.submit('export_wallet', { walletId, targetPublicKey })).exportBundle,
    exportAccountBundle: async ({ address, targetPublicKey }) => (await activity.submit('export_wallet_account', { address, targetPublicKey })).exportBundle,
    exportPrivateKeyBundle: async ({ privateKeyId, targetPublicKey }) =>
      (await activity.submit('export_private_key', { privateKeyId, targetPublicKey })).exportBundle,
    listPrivateKeys: async () => (await activity.query('list_private_keys', {})).privateKeys,
    async initImport({ secret }) {
      const userId = deps.userId();
      const op = secret === 'mnemonic' ? 'init_import_wallet' : 'init_import_private_key';
      return (await activity.submit(op, { userId })).importBundle;
    },
    importWalletEncrypted: ({ walletName, encryptedBundle, accounts }) =>
      activity.submit('import_wallet', { userId: deps.userId(), walletName, encryptedBundle, accounts: accounts ?? [ethereumAccount(0)] }),
    importPrivateKeyEncrypted: ({ privateKeyName, encryptedBundle }) =>
      activity.submit('import_private_key', {
        userId: deps.userId(),
        privateKeyName,
        encryptedBundle,
        curve: 'CURVE_SECP256K1',
        addressFormats: ['ADDRESS_FORMAT_ETHEREUM'],
      }),
    async addPasskey({ authenticatorName, ...opts }) {
      const registration = await createPasskeyRegistration(opts);
      return activity.submit('create_authenticators', {
        userId: deps.userId(),
        authenticators: [{ authenticatorName, challenge: registration.challenge, attestation: registration.attestation }],
      });
    },
  };
}
