/**
 * Reads of wallets, wallet accounts and private keys, shaped like Turnkey's v1Wallet,
 * v1WalletAccount and v1PrivateKey (timestamps ISO 8601). Everything is scoped to the
 * target organization; an id of another organization is a 404 like an unknown one.
 */
import { and, asc, desc, eq, gt, inArray, lt, type SQL } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { PrivateKeyRecord, WalletAccountRecord, WalletRecord } from '@walletkit/protocol';
import type { Pagination } from '@walletkit/protocol';
import { ApiError } from '../../errors.js';
import type { Db } from '../../store/db.js';
import { privateKeyTagMembers, privateKeys, walletAccounts, wallets } from '../../store/schema.js';
import { canonicalAddress } from '../operations/wallets.js';
import type { QueryTable } from './context.js';

type WalletRow = typeof wallets.$inferSelect;
type AccountRow = typeof walletAccounts.$inferSelect;
type PrivateKeyRow = typeof privateKeys.$inferSelect;
type Wallet = Static<typeof WalletRecord>;
type Account = Static<typeof WalletAccountRecord>;
type PrivateKey = Static<typeof PrivateKeyRecord>;

/** Wallet row -> v1Wallet. */
export function walletRecord(row: WalletRow): Wallet {
  return {
    walletId: row.id,
    walletName: row.name,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    exported: row.exported,
    imported: row.imported,
  };
}

/** Wallet account row -> v1WalletAccount; accounts never change, so updatedAt = createdAt. */
export function walletAccountRecord(row: AccountRow, wallet?: WalletRow): Account {
  return {
    walletAccountId: row.id,
    organizationId: row.organizationId,
    walletId: row.walletId,
    curve: row.curve as Account['curve'],
    pathFormat: row.pathFormat as Account['pathFormat'],
    path: row.path,
    addressFormat: row.addressFormat as Account['addressFormat'],
    address: row.address,
    publicKey: row.publicKey,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.createdAt.toISOString(),
    ...(wallet ? { walletDetails: walletRecord(wallet) } : {}),
  };
}

/** Private key row (+ its tag ids) -> v1PrivateKey; the sealed key never leaves the server. */
export function privateKeyRecord(row: PrivateKeyRow, tagIds: string[]): PrivateKey {
  return {
    privateKeyId: row.id,
    publicKey: row.publicKey,
    privateKeyName: row.name,
    curve: row.curve as PrivateKey['curve'],
    addresses: row.addresses.map((a) => ({ format: a.format as PrivateKey['addresses'][number]['format'], address: a.address })),
    privateKeyTags: tagIds,
    exported: row.exported,
    imported: row.imported,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function walletOf(db: Db, organizationId: string, walletId: string): Promise<WalletRow> {
  const [row] = await db
    .select()
    .from(wallets)
    .where(and(eq(wallets.id, walletId), eq(wallets.organizationId, organizationId)));
  if (!row) throw new ApiError('ERR_WALLET_NOT_FOUND', `no wallet ${walletId} in this organization`, 'walletId');
  return row;
}

async function tagIdsOf(db: Db, privateKeyIds: string[]): Promise<Map<string, string[]>> {
  const byKey = new Map<string, string[]>(privateKeyIds.map((id) => [id, []]));
  if (privateKeyIds.length === 0) return byKey;
  const rows = await db
    .select()
    .from(privateKeyTagMembers)
    .where(inArray(privateKeyTagMembers.privateKeyId, privateKeyIds))
    .orderBy(asc(privateKeyTagMembers.tagId));
  for (const row of rows) byKey.get(row.privateKeyId)?.push(row.tagId);
  return byKey;
}

/**
 * One page of accounts in creation order (ids are UUID v7, so id order is creation order):
 * `after` -> the next `limit` after that id; `before` -> the `limit` just before it.
 */
async function accountPage(db: Db, where: SQL | undefined, pagination: Static<typeof Pagination> | undefined): Promise<AccountRow[]> {
  const limit = Number(pagination?.limit ?? '10');
  const conditions = [where];
  if (pagination?.after !== undefined) conditions.push(gt(walletAccounts.id, pagination.after));
  if (pagination?.before !== undefined) conditions.push(lt(walletAccounts.id, pagination.before));
  const backwards = pagination?.before !== undefined && pagination.after === undefined;
  const rows = await db
    .select()
    .from(walletAccounts)
    .where(and(...conditions))
    .orderBy(backwards ? desc(walletAccounts.id) : asc(walletAccounts.id))
    .limit(limit);
  return backwards ? rows.reverse() : rows;
}

export const walletQueries = {
  list_wallets: async (_request, ctx) => {
    const rows = await ctx.db.select().from(wallets).where(eq(wallets.organizationId, ctx.organizationId)).orderBy(asc(wallets.createdAt), asc(wallets.id));
    return { wallets: rows.map(walletRecord) };
  },

  get_wallet: async (request, ctx) => ({ wallet: walletRecord(await walletOf(ctx.db, ctx.organizationId, request.walletId)) }),

  /** Accounts of one wallet, or of the whole organization without `walletId`; paginated (default 10). */
  list_wallet_accounts: async (request, ctx) => {
    const wallet = request.walletId !== undefined ? await walletOf(ctx.db, ctx.organizationId, request.walletId) : undefined;
    const where = wallet ? eq(walletAccounts.walletId, wallet.id) : eq(walletAccounts.organizationId, ctx.organizationId);
    const rows = await accountPage(ctx.db, where, request.paginationOptions);
    if (!request.includeWalletDetails) return { accounts: rows.map((row) => walletAccountRecord(row)) };
    const walletIds = [...new Set(rows.map((r) => r.walletId))];
    const walletRows = wallet ? [wallet] : walletIds.length > 0 ? await ctx.db.select().from(wallets).where(inArray(wallets.id, walletIds)) : [];
    const byId = new Map(walletRows.map((w) => [w.id, w]));
    return { accounts: rows.map((row) => walletAccountRecord(row, byId.get(row.walletId))) };
  },

  /**
   * One account of a wallet by address (any letter case for Ethereum), path, or both (Turnkey's
   * get_wallet_account). Neither is a 400; no such account, or a wallet of another organization, a 404.
   */
  get_wallet_account: async (request, ctx) => {
    const { address, path } = request;
    if (address === undefined && path === undefined) throw new ApiError('ERR_INVALID_PARAMETER', 'give the address or the path of the account', 'address');
    const wallet = await walletOf(ctx.db, ctx.organizationId, request.walletId);
    const [row] = await ctx.db
      .select()
      .from(walletAccounts)
      .where(
        and(
          eq(walletAccounts.walletId, wallet.id),
          address !== undefined ? eq(walletAccounts.address, canonicalAddress(address)) : undefined,
          path !== undefined ? eq(walletAccounts.path, path) : undefined,
        ),
      )
      .orderBy(asc(walletAccounts.id))
      .limit(1);
    const field = address !== undefined ? 'address' : 'path';
    if (!row) throw new ApiError('ERR_WALLET_ACCOUNT_NOT_FOUND', `wallet ${wallet.id} has no account with this ${field}`, field);
    return { account: walletAccountRecord(row) };
  },

  get_private_key: async (request, ctx) => {
    const [row] = await ctx.db
      .select()
      .from(privateKeys)
      .where(and(eq(privateKeys.id, request.privateKeyId), eq(privateKeys.organizationId, ctx.organizationId)));
    if (!row) throw new ApiError('ERR_PRIVATE_KEY_NOT_FOUND', `no private key ${request.privateKeyId} in this organization`, 'privateKeyId');
    const tags = await tagIdsOf(ctx.db, [row.id]);
    return { privateKey: privateKeyRecord(row, tags.get(row.id) ?? []) };
  },

  list_private_keys: async (_request, ctx) => {
    const rows = await ctx.db
      .select()
      .from(privateKeys)
      .where(eq(privateKeys.organizationId, ctx.organizationId))
      .orderBy(asc(privateKeys.createdAt), asc(privateKeys.id));
    const tags = await tagIdsOf(
      ctx.db,
      rows.map((r) => r.id),
    );
    return { privateKeys: rows.map((row) => privateKeyRecord(row, tags.get(row.id) ?? [])) };
  },
} satisfies QueryTable;
