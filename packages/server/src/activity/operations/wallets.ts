/**
 * HD wallets: create (BIP39), derive more accounts, export the mnemonic or one account's key
 * to a caller's target key, and import a mnemonic through an enclave-signed import bundle.
 */
import { and, eq } from 'drizzle-orm';
import { checksumAddress, type Curve } from '@walletkit/crypto';
import { ApiError } from '../../errors.js';
import type { Executor, Tx } from '../../store/db.js';
import { walletAccounts, wallets } from '../../store/schema.js';
import type { HandlerTable, OperationContext, PrefetchTable } from '../context.js';
import { claimExportTarget } from './export-targets.js';
import {
  assertUserOf,
  createWalletRecord,
  type DerivedBefore,
  deriveAndStoreAccounts,
  deriveBefore,
  type ImportedWallet,
  importBefore,
  type PreparedWallet,
  prepareWallet,
} from './wallet-records.js';

type WalletRow = typeof wallets.$inferSelect;

/** The wallet `walletId` of the organization, if it has one (in a transaction, or without one for a prefetcher). */
async function findWallet(db: Executor, organizationId: string, walletId: string): Promise<WalletRow | undefined> {
  const [row] = await db
    .select()
    .from(wallets)
    .where(and(eq(wallets.id, walletId), eq(wallets.organizationId, organizationId)));
  return row;
}

/** The wallet `walletId` of the target organization, or ERR_WALLET_NOT_FOUND (404). */
export async function requireWallet(tx: Tx, organizationId: string, walletId: string): Promise<WalletRow> {
  const row = await findWallet(tx, organizationId, walletId);
  if (!row) throw new ApiError('ERR_WALLET_NOT_FOUND', `no wallet ${walletId} in this organization`, 'walletId');
  return row;
}

/**
 * Ethereum addresses match in any letter case (stored EIP-55); raw hex keys are stored in
 * lowercase; anything else (Solana base58) is case-sensitive.
 * @example canonicalAddress('0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359') // '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359'
 */
export function canonicalAddress(address: string): string {
  if (/^0x[0-9a-fA-F]{40}$/.test(address)) return checksumAddress(address);
  if (/^[0-9a-fA-F]+$/.test(address) && (address.length === 66 || address.length === 130 || address.length === 64)) return address.toLowerCase();
  return address;
}

async function markWalletExported(ctx: OperationContext, walletId: string): Promise<void> {
  await ctx.tx.update(wallets).set({ exported: true, updatedAt: ctx.now() }).where(eq(wallets.id, walletId));
}

/**
 * The enclave's work is done before the transaction: a new wallet's mnemonic and accounts
 * (wallet-records.ts prepareWallet), more accounts of a stored wallet (deriveBefore), an imported
 * mnemonic opened and derived (importBefore). Undefined when it could not be done; the handler
 * then does it in the transaction, as an approval (which runs no prefetcher) does.
 */
export const walletPrefetchers = {
  create_wallet: (params, ctx) => prepareWallet(ctx.enclave, params.accounts, params.mnemonicLength),
  create_wallet_accounts: (params, ctx) => deriveBefore(ctx.enclave, params.accounts, () => findWallet(ctx.db, ctx.organizationId, params.walletId)),
  import_wallet: (params, ctx) =>
    importBefore(ctx.enclave, {
      encryptedBundle: params.encryptedBundle,
      organizationId: ctx.organizationId,
      userId: params.userId,
      accounts: params.accounts,
    }),
} satisfies PrefetchTable;

export const walletHandlers = {
  /** A new BIP39 wallet (default 12 words) with its accounts derived and stored. */
  create_wallet: async (params, ctx) =>
    createWalletRecord(ctx.tx, ctx.enclave, {
      organizationId: ctx.organizationId,
      walletName: params.walletName,
      accounts: params.accounts,
      ...(params.mnemonicLength !== undefined ? { mnemonicLength: params.mnemonicLength } : {}),
      now: ctx.now(),
      prepared: ctx.prefetched as PreparedWallet | undefined,
    }),

  /** Spec B. `persist: false` derives and returns addresses without storing them. */
  create_wallet_accounts: async (params, ctx) => {
    const wallet = await requireWallet(ctx.tx, ctx.organizationId, params.walletId);
    const addresses = await deriveAndStoreAccounts(
      { tx: ctx.tx, enclave: ctx.enclave, organizationId: ctx.organizationId, now: ctx.now() },
      { id: wallet.id, sealedMnemonic: wallet.mnemonicEncrypted },
      params.accounts,
      params.persist ?? true,
      ctx.prefetched as DerivedBefore | undefined,
    );
    return { addresses };
  },

  /** The mnemonic, HPKE-encrypted to `targetPublicKey` in an enclave-signed bundle. */
  export_wallet: async (params, ctx) => {
    if (params.language !== undefined && params.language !== 'MNEMONIC_LANGUAGE_ENGLISH') {
      throw new ApiError('ERR_INVALID_PARAMETER', 'only MNEMONIC_LANGUAGE_ENGLISH is supported', 'language');
    }
    const wallet = await requireWallet(ctx.tx, ctx.organizationId, params.walletId);
    await claimExportTarget(ctx, params.targetPublicKey);
    const exportBundle = await ctx.enclave.exportWallet(wallet.mnemonicEncrypted, params.targetPublicKey, ctx.organizationId);
    await markWalletExported(ctx, wallet.id);
    return { walletId: wallet.id, exportBundle };
  },

  /** One account's raw private key, HPKE-encrypted to `targetPublicKey`; marks its wallet exported. */
  export_wallet_account: async (params, ctx) => {
    const [row] = await ctx.tx
      .select({ account: walletAccounts, sealedMnemonic: wallets.mnemonicEncrypted })
      .from(walletAccounts)
      .innerJoin(wallets, eq(wallets.id, walletAccounts.walletId))
      .where(and(eq(walletAccounts.organizationId, ctx.organizationId), eq(walletAccounts.address, canonicalAddress(params.address))))
      .limit(1);
    if (!row) throw new ApiError('ERR_WALLET_ACCOUNT_NOT_FOUND', `no wallet account ${params.address} in this organization`, 'address');
    const { account } = row;
    await claimExportTarget(ctx, params.targetPublicKey);
    const exportBundle = await ctx.enclave.exportWalletAccount(
      row.sealedMnemonic,
      { curve: account.curve as Curve, path: account.path },
      params.targetPublicKey,
      ctx.organizationId,
    );
    await markWalletExported(ctx, account.walletId);
    return { address: account.address, exportBundle };
  },

  /** The enclave-signed import bundle whose target key the client encrypts the mnemonic to. */
  init_import_wallet: async (params, ctx) => {
    await assertUserOf(ctx.tx, ctx.organizationId, params.userId);
    return { importBundle: ctx.enclave.initImport(ctx.organizationId, params.userId) };
  },

  /** A wallet from a mnemonic encrypted to the user's import target; marked imported. */
  import_wallet: async (params, ctx) => {
    await assertUserOf(ctx.tx, ctx.organizationId, params.userId);
    return createWalletRecord(ctx.tx, ctx.enclave, {
      organizationId: ctx.organizationId,
      walletName: params.walletName,
      accounts: params.accounts,
      now: ctx.now(),
      imported: async (specs) => {
        // Opened before the transaction from these same parameters (importBefore), unless it could not be.
        const before = ctx.prefetched as ImportedWallet | undefined;
        return before ?? ctx.enclave.importWallet(params.encryptedBundle, ctx.organizationId, params.userId, specs);
      },
    });
  },
} satisfies HandlerTable;
