/**
 * Wallet creation for other handlers (create_sub_organization): re-exported from
 * wallet-records.ts, where the wallet handlers' shared persistence lives.
 */
export { createWalletRecord, type AccountParams, type ImportedMnemonic, type PreparedWallet, prepareWallet } from './wallet-records.js';
