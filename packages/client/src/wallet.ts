import { bytesToHex, bytesToUtf8, hashPersonalMessage, hashTypedData, utf8ToBytes, type TypedData } from '@walletkit/crypto';
import type { ParamsOf, QueryResponseOf, ResultOf } from '@walletkit/protocol';
import type { ActivityClient } from './activity-client';
import { toWalletKitError } from './errors';
import { createPasskeyRegistration, type PasskeyRegistrationOptions } from './passkey-registration';
import { verifySignedBundle } from './webcrypto/bundle';
import { createHpkeTarget, hpkeOpenWith, hpkeSealTo, type HpkeTarget } from './webcrypto/hpke';

/** One Ethereum account at m/44'/60'/0'/0/`index`, the kit's default. */
export function ethereumAccount(index = 0): ParamsOf<'create_wallet'>['accounts'][number] {
  return { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: `m/44'/60'/0'/0/${index}`, addressFormat: 'ADDRESS_FORMAT_ETHEREUM' };
}

/**
 * Wallet actions of the logged-in user. Signing hashes locally and asks the server to sign the
 * digest (NO_OP); exports and imports are decrypted and encrypted only in the browser.
 *
 * @example
 * ```ts
 * const { addresses } = await kit.wallet.createWallet({ walletName: 'Main' });
 * const signature = await kit.wallet.signMessage({ address: addresses[0]!, message: 'hello' });
 * ```
 */
export interface WalletActions {
  listWallets(): Promise<QueryResponseOf<'list_wallets'>['wallets']>;
  listAccounts(walletId?: string): Promise<QueryResponseOf<'list_wallet_accounts'>['accounts']>;
  /** Creates a wallet; one Ethereum account unless `accounts` says otherwise. */
  createWallet(params: { walletName: string; accounts?: ParamsOf<'create_wallet'>['accounts']; mnemonicLength?: ParamsOf<'create_wallet'>['mnemonicLength'] }): Promise<ResultOf<'create_wallet'>>;
  createAccounts(params: ParamsOf<'create_wallet_accounts'>): Promise<ResultOf<'create_wallet_accounts'>>;
  /** EIP-191 personal_sign: `0x` r || s || v (v = 27 or 28). */
  signMessage(params: { address: string; message: string | Uint8Array }): Promise<string>;
  /** EIP-712 eth_signTypedData_v4: `0x` r || s || v (v = 27 or 28). */
  signTypedData(params: { address: string; typedData: TypedData }): Promise<string>;
  /** The wallet's mnemonic, decrypted here with a one-time key that is then dropped. */
  exportWallet(params: { walletId: string }): Promise<string>;
  /** The account's private key (hex), decrypted here with a one-time key. */
  exportAccount(params: { address: string }): Promise<string>;
  /** Imports a mnemonic, encrypted here to the enclave's signed import target. */
  importWallet(params: { mnemonic: string; walletName: string; accounts?: ParamsOf<'import_wallet'>['accounts'] }): Promise<ResultOf<'import_wallet'>>;
  /** Registers a new passkey for the user (WebAuthn registration, then create_authenticators). */
  addPasskey(params: PasskeyRegistrationOptions & { authenticatorName: string }): Promise<ResultOf<'create_authenticators'>>;
}

/**
 * Creates the {@link WalletActions} over an activity client.
 *
 * @example
 * ```ts
 * const wallet = createWalletActions({ activity, enclavePublicKey, userId: () => session.current()!.userId });
 * ```
 */
export function createWalletActions(deps: { activity: ActivityClient; enclavePublicKey: string; userId: () => string }): WalletActions {
  const { activity } = deps;

  async function signDigest(address: string, digest: Uint8Array): Promise<string> {
    const { signatures } = await activity.submit('sign_raw_payloads', {
      signWith: address,
      payloads: [bytesToHex(digest)],
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    });
    const sig = signatures[0]!;
    const v = 27 + Number.parseInt(sig.v, 16);
    return `0x${sig.r.padStart(64, '0')}${sig.s.padStart(64, '0')}${v.toString(16)}`;
  }

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
    listWallets: async () => (await activity.query('list_wallets', {})).wallets,
    listAccounts: async (walletId) => (await activity.query('list_wallet_accounts', walletId ? { walletId } : {})).accounts,
    createWallet: ({ walletName, accounts, mnemonicLength }) =>
      activity.submit('create_wallet', { walletName, accounts: accounts ?? [ethereumAccount(0)], ...(mnemonicLength ? { mnemonicLength } : {}) }),
    createAccounts: (params) => activity.submit('create_wallet_accounts', params),
    signMessage: ({ address, message }) => signDigest(address, hashPersonalMessage(message)),
    signTypedData: ({ address, typedData }) => signDigest(address, hashTypedData(typedData)),
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
    async addPasskey({ authenticatorName, ...opts }) {
      const registration = await createPasskeyRegistration(opts);
      return activity.submit('create_authenticators', {
        userId: deps.userId(),
        authenticators: [{ authenticatorName, challenge: registration.challenge, attestation: registration.attestation }],
      });
    },
  };
}
