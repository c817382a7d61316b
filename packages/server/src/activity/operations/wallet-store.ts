/**
 * Wallet and key persistence shared by the wallet, private key and signing handlers (and by
 * any handler that creates a wallet, e.g. create_sub_organization): input checks that cost
 * nothing before the enclave does work, and the inserts of wallets and their accounts.
 */
import { and, eq } from 'drizzle-orm';
import { HARDENED_OFFSET, parsePath, type Curve } from '@walletkit/crypto';
import type { AddressFormat, MnemonicLength, PathFormat } from '@walletkit/protocol';
import type { AccountSpec, Enclave, Sealed } from '../../enclave';
import { ApiError } from '../../errors';
import type { Tx } from '../../store/db';
import { newSortableId } from '../../store/ids';
import { users, walletAccounts, wallets } from '../../store/schema';

/** A wallet account as the wire asks for it (v1WalletAccountParams). */
export interface AccountParams {
  curve: Curve;
  pathFormat: PathFormat;
  path: string;
  addressFormat: AddressFormat;
}

/** What the helpers below need of an OperationContext. */
export interface StoreContext {
  tx: Tx;
  enclave: Enclave;
  organizationId: string;
  now: () => Date;
}

/** Address formats each curve supports (DESIGN: Ethereum/Solana plus raw SEC1 / raw ed25519 keys). */
const FORMATS: Record<Curve, readonly AddressFormat[]> = {
  CURVE_SECP256K1: ['ADDRESS_FORMAT_ETHEREUM', 'ADDRESS_FORMAT_COMPRESSED', 'ADDRESS_FORMAT_UNCOMPRESSED'],
  CURVE_ED25519: ['ADDRESS_FORMAT_SOLANA', 'ADDRESS_FORMAT_COMPRESSED'],
};

/** Throws ERR_UNSUPPORTED_CURVE_FORMAT unless `format` is an address format of `curve`. */
export function assertAddressFormat(curve: Curve, format: AddressFormat, field: string): void {
  if (!FORMATS[curve].includes(format)) {
    throw new ApiError('ERR_UNSUPPORTED_CURVE_FORMAT', `${format} is not an address format of ${curve}`, field);
  }
}

/**
 * Check accounts before any secret is opened: curve and address format combine, the path
 * parses as BIP32, and ed25519 paths are hardened only (SLIP-10 has no public derivation).
 */
export function assertAccounts(accounts: readonly AccountParams[], field = 'accounts'): void {
  accounts.forEach((account, i) => {
    const at = `${field}.${i}`;
    assertAddressFormat(account.curve, account.addressFormat, `${at}.addressFormat`);
    let indexes: number[];
    try {
      indexes = parsePath(account.path);
    } catch (cause) {
      throw new ApiError('ERR_INVALID_PARAMETER', `invalid BIP32 path "${account.path}"`, `${at}.path`, { cause });
    }
    if (account.curve === 'CURVE_ED25519' && indexes.some((index) => index < HARDENED_OFFSET)) {
      throw new ApiError('ERR_UNSUPPORTED_CURVE_FORMAT', 'ed25519 paths must be hardened in every segment', `${at}.path`);
    }
  });
}

/** Throws ERR_USER_NOT_FOUND unless `userId` is a user of the organization. */
export async function assertUserOf(tx: Tx, organizationId: string, userId: string, field = 'userId'): Promise<void> {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organizationId, organizationId)));
  if (!row) throw new ApiError('ERR_USER_NOT_FOUND', `no user ${userId} in this organization`, field);
}

/** Throws ERR_ALREADY_EXISTS when the organization already has a wallet of this name. */
export async function assertWalletNameFree(tx: Tx, organizationId: string, walletName: string): Promise<void> {
  const [row] = await tx
    .select({ id: wallets.id })
    .from(wallets)
    .where(and(eq(wallets.organizationId, organizationId), eq(wallets.name, walletName)));
  if (row) throw new ApiError('ERR_ALREADY_EXISTS', `a wallet named "${walletName}" already exists`, 'walletName');
}

/** Identity of an account within its wallet: the unique (path, curve, addressFormat). */
const accountKey = (a: AccountParams) => `${a.curve}|${a.addressFormat}|${a.path}`;

/** The accounts without repeats, first occurrence kept (repeats would derive the same address). */
export function uniqueAccounts(accounts: readonly AccountParams[]): AccountParams[] {
  const seen = new Map<string, AccountParams>();
  for (const account of accounts) if (!seen.has(accountKey(account))) seen.set(accountKey(account), account);
  return [...seen.values()];
}

const specOf = (a: AccountParams): AccountSpec => ({ curve: a.curve, path: a.path, addressFormat: a.addressFormat });

/**
 * Derive `accounts` of a stored wallet (one unseal) and, when `persist`, store the new ones.
 * An account the wallet already has is not stored twice; its (deterministic, hence equal)
 * address is returned like the others. Addresses come back in request order.
 */
export async function deriveAndStoreAccounts(
  ctx: StoreContext,
  wallet: { id: string; sealedMnemonic: Sealed },
  accounts: readonly AccountParams[],
  persist: boolean,
): Promise<string[]> {
  assertAccounts(accounts);
  const unique = uniqueAccounts(accounts);
  const derived = await ctx.enclave.deriveWalletAccounts(wallet.sealedMnemonic, unique.map(specOf));
  if (persist) await insertAccounts(ctx, wallet.id, unique, derived);
  const byKey = new Map(unique.map((a, i) => [accountKey(a), derived[i]!.address]));
  return accounts.map((a) => byKey.get(accountKey(a))!);
}

async function insertAccounts(
  ctx: StoreContext,
  walletId: string,
  unique: readonly AccountParams[],
  derived: ReadonlyArray<{ address: string; publicKey: string }>,
): Promise<void> {
  if (unique.length === 0) return;
  const now = ctx.now();
  await ctx.tx
    .insert(walletAccounts)
    .values(
      unique.map((a, i) => ({
        id: newSortableId(),
        organizationId: ctx.organizationId,
        walletId,
        curve: a.curve,
        pathFormat: a.pathFormat,
        path: a.path,
        addressFormat: a.addressFormat,
        address: derived[i]!.address,
        publicKey: derived[i]!.publicKey,
        createdAt: now,
      })),
    )
    // Existing accounts stay as they are (same derivation, same address).
    .onConflictDoNothing();
}

/**
 * Create a wallet with accounts in the context's organization: a new BIP39 mnemonic, or an
 * imported one already opened and sealed by the enclave (`imported`).
 * @example const { walletId, addresses } = await createWalletRecord(ctx, { walletName: 'Main', accounts, mnemonicLength: 12 });
 */
export async function createWalletRecord(
  ctx: StoreContext,
  params: { walletName: string; accounts: readonly AccountParams[]; mnemonicLength?: MnemonicLength },
  imported?: (specs: AccountSpec[]) => Promise<{ sealedMnemonic: Sealed; mnemonicLength: number; accounts: Array<{ address: string; publicKey: string }> }>,
): Promise<{ walletId: string; addresses: string[] }> {
  assertAccounts(params.accounts);
  await assertWalletNameFree(ctx.tx, ctx.organizationId, params.walletName);
  const unique = uniqueAccounts(params.accounts);
  const specs = unique.map(specOf);
  const made = imported ? await imported(specs) : await ctx.enclave.createWallet(params.mnemonicLength ?? 12, specs);
  const mnemonicLength = 'mnemonicLength' in made ? made.mnemonicLength : (params.mnemonicLength ?? 12);
  const walletId = newSortableId();
  const now = ctx.now();
  await ctx.tx.insert(wallets).values({
    id: walletId,
    organizationId: ctx.organizationId,
    name: params.walletName,
    mnemonicEncrypted: made.sealedMnemonic,
    mnemonicLength,
    imported: imported !== undefined,
    exported: false,
    createdAt: now,
    updatedAt: now,
  });
  await insertAccounts(ctx, walletId, unique, made.accounts);
  const byKey = new Map(unique.map((a, i) => [accountKey(a), made.accounts[i]!.address]));
  return { walletId, addresses: params.accounts.map((a) => byKey.get(accountKey(a))!) };
}
