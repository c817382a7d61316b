/**
 * Standalone private keys: create, export to a caller's target key, and import through an
 * enclave-signed import bundle.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Curve } from '@walletkit/crypto';
import type { AddressFormat } from '@walletkit/protocol';
import { ApiError } from '../../errors.js';
import type { Tx } from '../../store/db.js';
import { newSortableId } from '../../store/ids.js';
import { privateKeyTagMembers, privateKeyTags, privateKeys } from '../../store/schema.js';
import { claimExportTarget } from './export-targets.js';
import type { Sealed } from '../../enclave/index.js';
import type { HandlerTable, OperationContext, PrefetchTable } from '../context.js';
import { assertAddressFormat, assertUserOf } from './wallet-records.js';

type PrivateKeyRow = typeof privateKeys.$inferSelect;

/** The private key `privateKeyId` of the organization, or ERR_PRIVATE_KEY_NOT_FOUND (404). */
export async function requirePrivateKey(tx: Tx, organizationId: string, privateKeyId: string): Promise<PrivateKeyRow> {
  const [row] = await tx
    .select()
    .from(privateKeys)
    .where(and(eq(privateKeys.id, privateKeyId), eq(privateKeys.organizationId, organizationId)));
  if (!row) throw new ApiError('ERR_PRIVATE_KEY_NOT_FOUND', `no private key ${privateKeyId} in this organization`, 'privateKeyId');
  return row;
}

/** The formats without repeats, each checked to be an address format of `curve`. */
function checkFormats(curve: Curve, formats: readonly AddressFormat[], field: string): AddressFormat[] {
  const unique = [...new Set(formats)];
  for (const format of unique) assertAddressFormat(curve, format, field);
  return unique;
}

/** Throws ERR_ALREADY_EXISTS when a name repeats in the request or is taken in the organization. */
async function assertNamesFree(tx: Tx, organizationId: string, names: readonly string[], field: string): Promise<void> {
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  if (repeated !== undefined) throw new ApiError('ERR_ALREADY_EXISTS', `private key name "${repeated}" repeats`, field);
  const taken = await tx
    .select({ name: privateKeys.name })
    .from(privateKeys)
    .where(and(eq(privateKeys.organizationId, organizationId), inArray(privateKeys.name, [...names])));
  if (taken[0]) throw new ApiError('ERR_ALREADY_EXISTS', `a private key named "${taken[0].name}" already exists`, field);
}

/** Throws ERR_PRIVATE_KEY_TAG_NOT_FOUND unless every tag id is a private key tag of the organization. */
async function assertTags(tx: Tx, organizationId: string, tagIds: readonly string[], field: string): Promise<void> {
  if (tagIds.length === 0) return;
  const found = await tx
    .select({ id: privateKeyTags.id })
    .from(privateKeyTags)
    .where(and(eq(privateKeyTags.organizationId, organizationId), inArray(privateKeyTags.id, [...tagIds])));
  const known = new Set(found.map((r) => r.id));
  const missing = tagIds.find((id) => !known.has(id));
  if (missing !== undefined) throw new ApiError('ERR_PRIVATE_KEY_TAG_NOT_FOUND', `no private key tag ${missing} in this organization`, field);
}

async function insertPrivateKey(
  ctx: OperationContext,
  key: { name: string; curve: Curve; sealed: PrivateKeyRow['privateKeyEncrypted']; publicKey: string; formats: AddressFormat[]; imported: boolean },
): Promise<{ privateKeyId: string; addresses: Array<{ format: AddressFormat; address: string }> }> {
  const addresses = ctx.enclave.addressesOf(key.curve, key.publicKey, key.formats);
  const privateKeyId = newSortableId();
  const now = ctx.now();
  await ctx.tx.insert(privateKeys).values({
    id: privateKeyId,
    organizationId: ctx.organizationId,
    name: key.name,
    curve: key.curve,
    privateKeyEncrypted: key.sealed,
    publicKey: key.publicKey,
    addresses,
    imported: key.imported,
    exported: false,
    createdAt: now,
    updatedAt: now,
  });
  return { privateKeyId, addresses };
}

/** A key made or opened by the enclave before the activity's transaction. */
type KeyBefore = { sealedPrivateKey: Sealed; publicKey: string };

/**
 * The enclave's work is done before the transaction: new keys generated and sealed, an imported
 * key opened and sealed again. Undefined when it could not be done (the handler then does it in
 * the transaction, as an approval, which runs no prefetcher, does, and refuses what it refuses).
 */
export const privateKeyPrefetchers = {
  create_private_keys: (params, ctx): Promise<KeyBefore[] | undefined> =>
    Promise.all(params.privateKeys.map((k) => ctx.enclave.createPrivateKey(k.curve))).catch(() => undefined),
  import_private_key: (params, ctx): Promise<KeyBefore | undefined> =>
    ctx.enclave.importPrivateKey(params.encryptedBundle, ctx.organizationId, params.userId, params.curve).catch(() => undefined),
} satisfies PrefetchTable;

export const privateKeyHandlers = {
  /** New random keys with their addresses; tags are attached when given. */
  create_private_keys: async (params, ctx) => {
    const formats = params.privateKeys.map((k, i) => checkFormats(k.curve, k.addressFormats, `privateKeys.${i}.addressFormats`));
    await assertNamesFree(
      ctx.tx,
      ctx.organizationId,
      params.privateKeys.map((k) => k.privateKeyName),
      'privateKeys',
    );
    for (const [i, k] of params.privateKeys.entries()) {
      await assertTags(ctx.tx, ctx.organizationId, k.privateKeyTags, `privateKeys.${i}.privateKeyTags`);
    }
    const before = ctx.prefetched as KeyBefore[] | undefined;
    const created = [];
    for (const [i, k] of params.privateKeys.entries()) {
      const { sealedPrivateKey, publicKey } = before?.[i] ?? (await ctx.enclave.createPrivateKey(k.curve));
      const key = await insertPrivateKey(ctx, {
        name: k.privateKeyName,
        curve: k.curve,
        sealed: sealedPrivateKey,
        publicKey,
        formats: formats[i]!,
        imported: false,
      });
      const tags = [...new Set(k.privateKeyTags)];
      if (tags.length > 0) {
        await ctx.tx.insert(privateKeyTagMembers).values(tags.map((tagId) => ({ tagId, privateKeyId: key.privateKeyId })));
      }
      created.push(key);
    }
    return { privateKeys: created };
  },

  /** Spec B: the raw key, HPKE-encrypted to `targetPublicKey`; marks the key exported. */
  export_private_key: async (params, ctx) => {
    const key = await requirePrivateKey(ctx.tx, ctx.organizationId, params.privateKeyId);
    await claimExportTarget(ctx, params.targetPublicKey);
    const exportBundle = await ctx.enclave.exportPrivateKey(key.privateKeyEncrypted, params.targetPublicKey, ctx.organizationId);
    await ctx.tx.update(privateKeys).set({ exported: true, updatedAt: ctx.now() }).where(eq(privateKeys.id, key.id));
    return { privateKeyId: key.id, exportBundle };
  },

  /** Spec B: the enclave-signed import bundle whose target key the client encrypts the key to. */
  init_import_private_key: async (params, ctx) => {
    await assertUserOf(ctx.tx, ctx.organizationId, params.userId);
    return { importBundle: ctx.enclave.initImport(ctx.organizationId, params.userId) };
  },

  /** A key encrypted to the user's import target (32 raw bytes; ed25519 also seed || public). */
  import_private_key: async (params, ctx) => {
    await assertUserOf(ctx.tx, ctx.organizationId, params.userId);
    const formats = checkFormats(params.curve, params.addressFormats, 'addressFormats');
    await assertNamesFree(ctx.tx, ctx.organizationId, [params.privateKeyName], 'privateKeyName');
    const { sealedPrivateKey, publicKey } =
      (ctx.prefetched as KeyBefore | undefined) ??
      (await ctx.enclave.importPrivateKey(params.encryptedBundle, ctx.organizationId, params.userId, params.curve));
    return insertPrivateKey(ctx, { name: params.privateKeyName, curve: params.curve, sealed: sealedPrivateKey, publicKey, formats, imported: true });
  },
} satisfies HandlerTable;
