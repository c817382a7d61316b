/**
 * Lookups of ids named in parameters, always scoped to the target organization: an id of
 * another organization is reported exactly like an id that does not exist (404).
 */
import { and, eq, inArray } from 'drizzle-orm';
import { ApiError } from '../../errors.js';
import type { Tx } from '../../store/db.js';
import { privateKeys, users } from '../../store/schema.js';

/** The ids without repeats, in first-seen order. */
export function unique(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

/**
 * The distinct `userIds`, checked to be users of `organizationId`.
 * @throws ApiError ERR_USER_NOT_FOUND naming the first id that is not
 */
export async function requireUsers(tx: Tx, organizationId: string, userIds: readonly string[], field: string): Promise<string[]> {
  const ids = unique(userIds);
  if (ids.length === 0) return ids;
  const found = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.organizationId, organizationId), inArray(users.id, ids)));
  const known = new Set(found.map((r) => r.id));
  const missing = ids.find((id) => !known.has(id));
  if (missing !== undefined) throw new ApiError('ERR_USER_NOT_FOUND', `user ${missing} not found in this organization`, field);
  return ids;
}

/**
 * The distinct `privateKeyIds`, checked to be private keys of `organizationId`.
 * @throws ApiError ERR_PRIVATE_KEY_NOT_FOUND naming the first id that is not
 */
export async function requirePrivateKeys(tx: Tx, organizationId: string, privateKeyIds: readonly string[], field: string): Promise<string[]> {
  const ids = unique(privateKeyIds);
  if (ids.length === 0) return ids;
  const found = await tx
    .select({ id: privateKeys.id })
    .from(privateKeys)
    .where(and(eq(privateKeys.organizationId, organizationId), inArray(privateKeys.id, ids)));
  const known = new Set(found.map((r) => r.id));
  const missing = ids.find((id) => !known.has(id));
  if (missing !== undefined) throw new ApiError('ERR_PRIVATE_KEY_NOT_FOUND', `private key ${missing} not found in this organization`, field);
  return ids;
}

/**
 * Refuse an id that is both added and removed in one update (the outcome would be ambiguous).
 * @throws ApiError ERR_INVALID_PARAMETER
 */
export function assertDisjoint(add: readonly string[], remove: readonly string[], field: string): void {
  const removing = new Set(remove);
  const both = add.find((id) => removing.has(id));
  if (both !== undefined) throw new ApiError('ERR_INVALID_PARAMETER', `${both} is both added and removed`, field);
}
