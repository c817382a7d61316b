/**
 * At least one way to sign in (issue 15): an end user managing their own account (linking,
 * unlinking, removing a passkey, changing a contact, revoking keys) may never leave it with no
 * way back in. The client kit refuses first; this is the check a stamped request cannot bypass.
 * The integrator acting for the user (a user of the parent organization other than the proxy)
 * is not held to it, as in Turnkey.
 */
import { and, count, eq, isNull } from 'drizzle-orm';
import { ApiError } from '../../errors.js';
import { apiKeys, authenticators, oauthProviders, users } from '../../store/schema.js';
import type { OperationContext } from '../context.js';
import { callerVouchesForContacts, organizationAndParent } from './users-verification.js';

/**
 * How many ways `userId` has to sign in now (in the activity's transaction, so after its
 * changes): a verified email, a verified phone number, each linked OAuth provider, each passkey,
 * each non-session API key that does not expire (an external wallet's key; a signup's short-lived
 * key is not a way back in, its private key is dropped at once).
 */
export async function signInMethodCount(ctx: OperationContext, userId: string): Promise<number> {
  const scope = (table: typeof authenticators | typeof oauthProviders | typeof apiKeys) =>
    and(eq(table.organizationId, ctx.organizationId), eq(table.userId, userId));
  const [user] = await ctx.tx
    .select({ email: users.userEmail, emailVerified: users.emailVerified, phone: users.userPhoneNumber, phoneVerified: users.phoneVerified })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organizationId, ctx.organizationId)));
  if (!user) return 0;
  const [passkeys] = await ctx.tx.select({ n: count() }).from(authenticators).where(scope(authenticators));
  const [providers] = await ctx.tx.select({ n: count() }).from(oauthProviders).where(scope(oauthProviders));
  const [keys] = await ctx.tx
    .select({ n: count() })
    .from(apiKeys)
    .where(and(scope(apiKeys), eq(apiKeys.isSession, false), isNull(apiKeys.expiresAt)));
  const contacts = (user.email !== null && user.emailVerified ? 1 : 0) + (user.phone !== null && user.phoneVerified ? 1 : 0);
  return contacts + Number(passkeys?.n ?? 0) + Number(providers?.n ?? 0) + Number(keys?.n ?? 0);
}

/**
 * Refuse the activity (its transaction rolls back) when it left an end user of a
 * sub-organization with no way to sign in. Call it after the change, in the same transaction.
 * A top-level organization's users sign in with API keys managed by their own administrators,
 * and the integrator may do what Turnkey lets it do: neither is checked.
 * @example await assertKeepsSignInMethod(ctx, params.userId);
 * @throws ApiError ERR_LAST_SIGN_IN_METHOD
 */
export async function assertKeepsSignInMethod(ctx: OperationContext, userId: string, field?: string): Promise<void> {
  const [, parent] = await organizationAndParent(ctx.tx, ctx.organizationId, ctx.caller);
  if (parent === undefined || (await callerVouchesForContacts(ctx, parent))) return;
  if ((await signInMethodCount(ctx, userId)) > 0) return;
  throw new ApiError(
    'ERR_LAST_SIGN_IN_METHOD',
    'this would leave the user with no way to sign in (no verified email or phone, OAuth provider, passkey or lasting API key): add another one first',
    field,
  );
}
