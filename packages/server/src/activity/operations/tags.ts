/**
 * User tags and private key tags (spec B). Tag names are unique per organization and kind;
 * every user or private key named must belong to the target organization. Membership changes
 * of one update are atomic (one transaction per activity).
 */
import { and, eq, inArray, ne } from 'drizzle-orm';
import { ApiError } from '../../errors.js';
import type { Tx } from '../../store/db.js';
import { newId } from '../../store/ids.js';
import { privateKeyTagMembers, privateKeyTags, userTagMembers, userTags } from '../../store/schema.js';
import type { HandlerTable } from '../context.js';
import { assertDisjoint, requirePrivateKeys, requireUsers, unique } from './scoped.js';

async function assertUserTagNameFree(tx: Tx, organizationId: string, name: string, field: string, exceptId?: string): Promise<void> {
  const clash = await tx
    .select({ id: userTags.id })
    .from(userTags)
    .where(and(eq(userTags.organizationId, organizationId), eq(userTags.name, name), exceptId ? ne(userTags.id, exceptId) : undefined));
  if (clash.length > 0) throw new ApiError('ERR_ALREADY_EXISTS', `a user tag named '${name}' already exists`, field);
}

async function assertKeyTagNameFree(tx: Tx, organizationId: string, name: string, field: string, exceptId?: string): Promise<void> {
  const clash = await tx
    .select({ id: privateKeyTags.id })
    .from(privateKeyTags)
    .where(and(eq(privateKeyTags.organizationId, organizationId), eq(privateKeyTags.name, name), exceptId ? ne(privateKeyTags.id, exceptId) : undefined));
  if (clash.length > 0) throw new ApiError('ERR_ALREADY_EXISTS', `a private key tag named '${name}' already exists`, field);
}

/** Handlers of the user tag and private key tag operations. */
export const tagHandlers = {
  create_user_tag: async (params, ctx) => {
    await assertUserTagNameFree(ctx.tx, ctx.organizationId, params.userTagName, 'userTagName');
    const userIds = await requireUsers(ctx.tx, ctx.organizationId, params.userIds, 'userIds');
    const now = ctx.now();
    const userTagId = newId();
    await ctx.tx.insert(userTags).values({ id: userTagId, organizationId: ctx.organizationId, name: params.userTagName, createdAt: now, updatedAt: now });
    if (userIds.length > 0) await ctx.tx.insert(userTagMembers).values(userIds.map((userId) => ({ tagId: userTagId, userId })));
    return { userTagId, userIds };
  },

  update_user_tag: async (params, ctx) => {
    const [tag] = await ctx.tx
      .select()
      .from(userTags)
      .where(and(eq(userTags.id, params.userTagId), eq(userTags.organizationId, ctx.organizationId)));
    if (!tag) throw new ApiError('ERR_USER_TAG_NOT_FOUND', `user tag ${params.userTagId} not found`, 'userTagId');
    assertDisjoint(params.addUserIds, params.removeUserIds, 'removeUserIds');
    const name = params.newUserTagName ?? tag.name;
    if (name !== tag.name) await assertUserTagNameFree(ctx.tx, ctx.organizationId, name, 'newUserTagName', tag.id);
    const add = await requireUsers(ctx.tx, ctx.organizationId, params.addUserIds, 'addUserIds');
    const remove = await requireUsers(ctx.tx, ctx.organizationId, params.removeUserIds, 'removeUserIds');
    // Adding a member twice or removing a non-member is a no-op, not an error.
    if (add.length > 0)
      await ctx.tx
        .insert(userTagMembers)
        .values(add.map((userId) => ({ tagId: tag.id, userId })))
        .onConflictDoNothing();
    if (remove.length > 0) await ctx.tx.delete(userTagMembers).where(and(eq(userTagMembers.tagId, tag.id), inArray(userTagMembers.userId, remove)));
    await ctx.tx.update(userTags).set({ name, updatedAt: ctx.now() }).where(eq(userTags.id, tag.id));
    return { userTagId: tag.id };
  },

  delete_user_tags: async (params, ctx) => {
    const ids = unique(params.userTagIds);
    const found = await ctx.tx
      .select({ id: userTags.id })
      .from(userTags)
      .where(and(eq(userTags.organizationId, ctx.organizationId), inArray(userTags.id, ids)));
    const known = new Set(found.map((t) => t.id));
    const missing = ids.find((id) => !known.has(id));
    if (missing !== undefined) throw new ApiError('ERR_USER_TAG_NOT_FOUND', `user tag ${missing} not found`, 'userTagIds');
    const members = await ctx.tx.select({ userId: userTagMembers.userId }).from(userTagMembers).where(inArray(userTagMembers.tagId, ids));
    await ctx.tx.delete(userTagMembers).where(inArray(userTagMembers.tagId, ids));
    await ctx.tx.delete(userTags).where(inArray(userTags.id, ids));
    return { userTagIds: ids, userIds: unique(members.map((m) => m.userId)) };
  },

  create_private_key_tag: async (params, ctx) => {
    await assertKeyTagNameFree(ctx.tx, ctx.organizationId, params.privateKeyTagName, 'privateKeyTagName');
    const privateKeyIds = await requirePrivateKeys(ctx.tx, ctx.organizationId, params.privateKeyIds, 'privateKeyIds');
    const now = ctx.now();
    const privateKeyTagId = newId();
    await ctx.tx
      .insert(privateKeyTags)
      .values({ id: privateKeyTagId, organizationId: ctx.organizationId, name: params.privateKeyTagName, createdAt: now, updatedAt: now });
    if (privateKeyIds.length > 0) {
      await ctx.tx.insert(privateKeyTagMembers).values(privateKeyIds.map((privateKeyId) => ({ tagId: privateKeyTagId, privateKeyId })));
    }
    return { privateKeyTagId, privateKeyIds };
  },

  update_private_key_tag: async (params, ctx) => {
    const [tag] = await ctx.tx
      .select()
      .from(privateKeyTags)
      .where(and(eq(privateKeyTags.id, params.privateKeyTagId), eq(privateKeyTags.organizationId, ctx.organizationId)));
    if (!tag) throw new ApiError('ERR_PRIVATE_KEY_TAG_NOT_FOUND', `private key tag ${params.privateKeyTagId} not found`, 'privateKeyTagId');
    assertDisjoint(params.addPrivateKeyIds, params.removePrivateKeyIds, 'removePrivateKeyIds');
    const name = params.newPrivateKeyTagName ?? tag.name;
    if (name !== tag.name) await assertKeyTagNameFree(ctx.tx, ctx.organizationId, name, 'newPrivateKeyTagName', tag.id);
    const add = await requirePrivateKeys(ctx.tx, ctx.organizationId, params.addPrivateKeyIds, 'addPrivateKeyIds');
    const remove = await requirePrivateKeys(ctx.tx, ctx.organizationId, params.removePrivateKeyIds, 'removePrivateKeyIds');
    if (add.length > 0) {
      await ctx.tx
        .insert(privateKeyTagMembers)
        .values(add.map((privateKeyId) => ({ tagId: tag.id, privateKeyId })))
        .onConflictDoNothing();
    }
    if (remove.length > 0) {
      await ctx.tx.delete(privateKeyTagMembers).where(and(eq(privateKeyTagMembers.tagId, tag.id), inArray(privateKeyTagMembers.privateKeyId, remove)));
    }
    await ctx.tx.update(privateKeyTags).set({ name, updatedAt: ctx.now() }).where(eq(privateKeyTags.id, tag.id));
    return { privateKeyTagId: tag.id };
  },
} satisfies HandlerTable;
