import { Type } from '@sinclair/typebox';
import { defineOperation, Obj, Enum } from '../descriptor.js';
import { MNEMONIC_LANGUAGES } from '../enums.js';
import { Address, Bundle, Id, MAX_ITEMS, Name, PublicKeyHex } from '../fields.js';
import { MnemonicLengthField, WalletAccountList, WalletAccountParams } from '../params.js';

/**
 * Extra (Turnkey ACTIVITY_TYPE_CREATE_WALLET): create an HD wallet (BIP39 seed) and derive
 * the listed accounts.
 * @example { walletName: 'Main', accounts: [{ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }] }
 */
export const createWallet = defineOperation({
  name: 'create_wallet',
  spec: false,
  parameters: Obj({
    walletName: Name,
    accounts: WalletAccountList,
    mnemonicLength: Type.Optional(MnemonicLengthField),
  }),
  result: Obj({ walletId: Type.String(), addresses: Type.Array(Type.String()) }),
});

/**
 * Spec B: derive more accounts of a wallet. `persist` is optional (Turnkey default true);
 * false returns the addresses without storing the accounts.
 * @example { walletId, accounts: [{ curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' }] }
 */
export const createWalletAccounts = defineOperation({
  name: 'create_wallet_accounts',
  spec: true,
  parameters: Obj({
    walletId: Id,
    accounts: Type.Array(WalletAccountParams, { minItems: 1, maxItems: MAX_ITEMS }),
    persist: Type.Optional(Type.Boolean()),
  }),
  result: Obj({ addresses: Type.Array(Type.String()) }),
});

/**
 * Extra (Turnkey ACTIVITY_TYPE_EXPORT_WALLET): export the mnemonic, HPKE-encrypted to
 * `targetPublicKey`.
 * @example { walletId, targetPublicKey: '04ab...' } // -> { walletId, exportBundle }
 */
export const exportWallet = defineOperation({
  name: 'export_wallet',
  spec: false,
  parameters: Obj({
    walletId: Id,
    targetPublicKey: PublicKeyHex,
    language: Type.Optional(Enum(MNEMONIC_LANGUAGES)),
  }),
  result: Obj({ walletId: Type.String(), exportBundle: Type.String() }),
});

/**
 * Extra (Turnkey ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT): export one account's private key.
 * @example { address: '0xAbC...', targetPublicKey: '04ab...' } // -> { address, exportBundle }
 */
export const exportWalletAccount = defineOperation({
  name: 'export_wallet_account',
  spec: false,
  parameters: Obj({ address: Address, targetPublicKey: PublicKeyHex }),
  result: Obj({ address: Type.String(), exportBundle: Type.String() }),
});

/**
 * Extra (Turnkey ACTIVITY_TYPE_INIT_IMPORT_WALLET): start a wallet import.
 * @example { userId } // -> { importBundle }
 */
export const initImportWallet = defineOperation({
  name: 'init_import_wallet',
  spec: false,
  parameters: Obj({ userId: Id }),
  result: Obj({ importBundle: Type.String() }),
});

/**
 * Extra (Turnkey ACTIVITY_TYPE_IMPORT_WALLET): finish a wallet import with the mnemonic
 * encrypted to the import bundle's target key.
 * @example { userId, walletName: 'Imported', encryptedBundle, accounts: [] }
 */
export const importWallet = defineOperation({
  name: 'import_wallet',
  spec: false,
  parameters: Obj({
    userId: Id,
    walletName: Name,
    encryptedBundle: Bundle,
    accounts: WalletAccountList,
  }),
  result: Obj({ walletId: Type.String(), addresses: Type.Array(Type.String()) }),
});
