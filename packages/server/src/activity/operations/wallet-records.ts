/**
 * Wallet and key persistence shared by the wallet, private key and signing handlers and by
 * create_sub_organization (users.ts, through wallet-store.ts): input checks that cost
 * nothing before the enclave does work, and the inserts of wallets and their accounts.
 */
import { and, eq } from 'drizzle-orm';
import { HARDENED_OFFSET, parsePath, type Curve } from '@walletkit/crypto';
import type { AddressFormat, MnemonicLength, PathFormat } from '@walletkit/protocol';
import type { AccountSpec, DerivedAccount, Enclave, Sealed } from '../../enclave/index.js';
import { ApiError } from '../../errors.js';
import type { Tx } from '../../store/db.js';
import { newSortableId } from '../../store/ids.js';
import { users, walletAccounts, wallets } from '../../store/schema.js';

/** A wallet account as the wire asks for it (v1WalletAccountParams). */
export interface AccountParams {
  curve: Curve;
  pathFormat: PathFormat;
  path: string;
  addressFormat: AddressFormat;
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
export async function assertWalletNameFree(tx: Tx, organizationId: string, walletName: string, field = 'walletName'): Promise<void> {
  const [row] = await tx
    .select({ id: wallets.id })
    .from(wallets)
    .where(and(eq(wallets.organizationId, organizationId), eq(wallets.name, walletName)));
  if (row) throw new ApiError('ERR_ALREADY_EXISTS', `a wallet named "${walletName}" already exists`, field);
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

/** What a prefetcher derives for `accounts`: their specs without repeats, or undefined when they do not check out (the handler then refuses them). */
function specsOfValid(accounts: readonly AccountParams[]): AccountSpec[] | undefined {
  try {
    assertAccounts(accounts);
  } catch {
    return undefined;
  }
  return uniqueAccounts(accounts).map(specOf);
}

/** Where accounts are stored: the organization, the transaction and the clock reading. */
export interface AccountTarget {
  tx: Tx;
  organizationId: string;
  now: Date;
}

/**
 * Derive `accounts` of a stored wallet (one unseal) and, when `persist`, store the new ones.
 * An account the wallet already has is not stored twice; its (deterministic, hence equal)
 * address is returned like the others. Addresses come back in request order.
 */
export async function deriveAndStoreAccounts(
  target: AccountTarget & { enclave: Enclave },
  wallet: { id: string; sealedMnemonic: Sealed },
  accounts: readonly AccountParams[],
  persist: boolean,
  before?: DerivedBefore,
): Promise<string[]> {
  assertAccounts(accounts);
  const unique = uniqueAccounts(accounts);
  // A wallet's mnemonic never changes: accounts derived before the transaction from the same wallet are these.
  const derived = before?.walletId === wallet.id ? before.accounts : await target.enclave.deriveWalletAccounts(wallet.sealedMnemonic, unique.map(specOf));
  if (persist) await insertAccounts(target, wallet.id, unique, derived);
  return inRequestOrder(accounts, unique, derived);
}

/** Accounts of a stored wallet derived before the activity's transaction (`deriveBefore`), in `uniqueAccounts` order. */
export interface DerivedBefore {
  walletId: string;
  accounts: DerivedAccount[];
}

/**
 * The enclave's work for create_wallet_accounts (one unseal, PBKDF2, BIP32, a seal per account),
 * done by its prefetcher from the wallet `lookup` reads without a lock, so that it holds no
 * transaction. Undefined when the accounts do not check out or the wallet is not found: the
 * handler refuses them as before.
 */
export async function deriveBefore(
  enclave: Enclave,
  accounts: readonly AccountParams[],
  lookup: () => Promise<{ id: string; mnemonicEncrypted: Sealed } | undefined>,
): Promise<DerivedBefore | undefined> {
  const specs = specsOfValid(accounts);
  if (!specs) return undefined;
  const wallet = await lookup();
  if (!wallet) return undefined;
  const derived = await enclave.deriveWalletAccounts(wallet.mnemonicEncrypted, specs).catch(() => undefined);
  return derived ? { walletId: wallet.id, accounts: derived } : undefined;
}

/** The imported wallet of import_wallet, opened and derived before the transaction (its prefetcher). */
export async function importBefore(
  enclave: Enclave,
  input: { encryptedBundle: string; organizationId: string; userId: string; accounts: readonly AccountParams[] },
): Promise<ImportedWallet | undefined> {
  const specs = specsOfValid(input.accounts);
  return specs ? enclave.importWallet(input.encryptedBundle, input.organizationId, input.userId, specs).catch(() => undefined) : undefined;
}

function inRequestOrder(accounts: readonly AccountParams[], unique: readonly AccountParams[], derived: ReadonlyArray<{ address: string }>): string[] {
  const byKey = new Map(unique.map((a, i) => [accountKey(a), derived[i]!.address]));
  return accounts.map((a) => byKey.get(accountKey(a))!);
}

async function insertAccounts(target: AccountTarget, walletId: string, unique: readonly AccountParams[], derived: readonly DerivedAccount[]): Promise<void> {
  if (unique.length === 0) return;
  await target.tx
    .insert(walletAccounts)
    .values(
      unique.map((a, i) => ({
        id: newSortableId(),
        organizationId: target.organizationId,
        walletId,
        curve: a.curve,
        pathFormat: a.pathFormat,
        path: a.path,
        addressFormat: a.addressFormat,
        address: derived[i]!.address,
        publicKey: derived[i]!.publicKey,
        privateKeyEncrypted: derived[i]!.sealedPrivateKey,
        createdAt: target.now,
      })),
    )
    // Existing accounts stay as they are (same derivation, same address).
    .onConflictDoNothing();
}

/** A mnemonic opened from an import bundle and re-sealed by the enclave, with its accounts. */
export type ImportedMnemonic = (specs: AccountSpec[]) => Promise<ImportedWallet>;

/** What the enclave makes of an imported mnemonic: sealed again, with its accounts. */
export interface ImportedWallet {
  sealedMnemonic: Sealed;
  mnemonicLength: number;
  accounts: DerivedAccount[];
}

/** A new wallet's sealed mnemonic and derived accounts, made before the activity's transaction. */
export interface PreparedWallet {
  sealedMnemonic: Sealed;
  mnemonicLength: number;
  specs: AccountSpec[];
  accounts: DerivedAccount[];
}

/**
 * The enclave's work for a new wallet (BIP39 entropy, PBKDF2, BIP32, sealing), done by an
 * operation's prefetcher so that it holds no transaction; `createWalletRecord` then only
 * inserts. Undefined when the accounts do not check out: the handler refuses them as before.
 * @example prefetch: (params, ctx) => prepareWallet(ctx.enclave, params.accounts, params.mnemonicLength)
 */
export async function prepareWallet(
  enclave: Enclave,
  accounts: readonly AccountParams[],
  mnemonicLength: MnemonicLength = 12,
): Promise<PreparedWallet | undefined> {
  const specs = specsOfValid(accounts);
  if (!specs) return undefined;
  return { ...(await enclave.createWallet(mnemonicLength, specs)), mnemonicLength, specs };
}

/** Whether a prepared wallet was made for exactly these accounts and length. */
function preparedFits(prepared: PreparedWallet, mnemonicLength: number, specs: readonly AccountSpec[]): boolean {
  return (
    prepared.mnemonicLength === mnemonicLength &&
    prepared.specs.length === specs.length &&
    prepared.specs.every((a, i) => a.curve === specs[i]!.curve && a.path === specs[i]!.path && a.addressFormat === specs[i]!.addressFormat)
  );
}

/**
 * Create a wallet with accounts in `organizationId`: a new BIP39 mnemonic (default 12 words),
 * or, with `imported`, one the enclave opened from an import bundle. Checks the accounts and
 * the name first; field names in errors start with `fieldPrefix` (e.g. `wallet.`).
 * @example const { walletId, addresses } = await createWalletRecord(ctx.tx, ctx.enclave, { organizationId, walletName: 'Main', accounts, now: ctx.now() });
 */
export async function createWalletRecord(
  tx: Tx,
  enclave: Enclave,
  input: {
    organizationId: string;
    walletName: string;
    accounts: readonly AccountParams[];
    mnemonicLength?: MnemonicLength;
    now: Date;
    fieldPrefix?: string;
    imported?: ImportedMnemonic;
    /** The new mnemonic and its accounts, made before the transaction (`prepareWallet`). */
    prepared?: PreparedWallet | undefined;
    /** The organization was made by this transaction: it has no wallet whose name could clash. */
    newOrganization?: boolean;
  },
): Promise<{ walletId: string; addresses: string[] }> {
  const prefix = input.fieldPrefix ?? '';
  assertAccounts(input.accounts, `${prefix}accounts`);
  if (input.newOrganization !== true) await assertWalletNameFree(tx, input.organizationId, input.walletName, `${prefix}walletName`);
  const unique = uniqueAccounts(input.accounts);
  const specs = unique.map(specOf);
  const mnemonicLength = input.mnemonicLength ?? 12;
  const prepared = input.prepared && !input.imported && preparedFits(input.prepared, mnemonicLength, specs) ? input.prepared : undefined;
  const made = input.imported ? await input.imported(specs) : (prepared ?? { ...(await enclave.createWallet(mnemonicLength, specs)), mnemonicLength });
  const walletId = newSortableId();
  await tx.insert(wallets).values({
    id: walletId,
    organizationId: input.organizationId,
    name: input.walletName,
    mnemonicEncrypted: made.sealedMnemonic,
    mnemonicLength: made.mnemonicLength,
    imported: input.imported !== undefined,
    exported: false,
    createdAt: input.now,
    updatedAt: input.now,
  });
  await insertAccounts({ tx, organizationId: input.organizationId, now: input.now }, walletId, unique, made.accounts);
  return { walletId, addresses: inRequestOrder(input.accounts, unique, made.accounts) };
}
