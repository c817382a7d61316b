/**
 * Users and their credentials: create_users, update_user_phone_number, create/delete of API
 * keys, passkeys and OAuth providers, and create_sub_organization (a new end-user
 * organization with its root users, credentials and optional wallet, atomically). Every id is
 * looked up inside the target organization; everything runs in the activity's transaction.
 * A removal or contact change by the end user that would leave no way to sign in is refused
 * (sign-in-methods.ts).
 */
import { and, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { ParamsOf } from '@walletkit/protocol';
import { ApiError } from '../../errors.js';
import { newId } from '../../store/ids.js';
import { apiKeys, authenticators, oauthProviders, organizations, rootQuorumMembers, userTagMembers, userTags, users } from '../../store/schema.js';
import type { HandlerTable, OperationContext, PrefetchTable } from '../context.js';
import { syncSubOrganizationIdentities } from './identities.js';
import { insertApiKeys, insertAuthenticators, insertOauthProviders, type NewOrganization, newOrganization, requireUser } from './users-credentials.js';
import {
  callerVouchesForContacts,
  checkClientSignature,
  organizationAndParent,
  useVerificationToken,
  type VerificationClaims,
  type VerifiedToken,
  verifyVerificationToken,
} from './users-verification.js';
import { assertKeepsSignInMethod } from './sign-in-methods.js';
import { createWalletRecord, type PreparedWallet, prepareWallet } from './wallet-store.js';

type UserInput = ParamsOf<'create_users'>['users'][number];
type RootUserInput = ParamsOf<'create_sub_organization'>['rootUsers'][number];

/** Contacts are unique per organization (DESIGN section 3), emails case-insensitively. */
async function assertContactsFree(
  ctx: OperationContext,
  organizationId: string,
  user: { email?: string | undefined; phone?: string | undefined; exceptUserId?: string },
  field: string,
) {
  const matches = [
    ...(user.email !== undefined ? [sql`lower(${users.userEmail}) = ${user.email.toLowerCase()}`] : []),
    ...(user.phone !== undefined ? [eq(users.userPhoneNumber, user.phone)] : []),
  ];
  if (matches.length === 0) return;
  const rows = await ctx.tx
    .select({ id: users.id, email: users.userEmail, phone: users.userPhoneNumber })
    .from(users)
    .where(and(eq(users.organizationId, organizationId), or(...matches), user.exceptUserId !== undefined ? ne(users.id, user.exceptUserId) : undefined));
  const [row] = rows;
  if (!row) return;
  if (user.email !== undefined && row.email?.toLowerCase() === user.email.toLowerCase()) {
    throw new ApiError('ERR_ALREADY_EXISTS', `another user of the organization has the email ${user.email}`, `${field}userEmail`);
  }
  throw new ApiError('ERR_ALREADY_EXISTS', `another user of the organization has the phone number ${user.phone}`, `${field}userPhoneNumber`);
}

/** Insert one user with its credentials; `field` prefixes error fields, e.g. `users.0.`. */
async function insertUser(
  ctx: OperationContext,
  organizationId: string,
  input: RootUserInput | UserInput,
  field: string,
  verified: { email: boolean; phone: boolean } = { email: false, phone: false },
  opts: {
    syncIdentities?: boolean;
    /**
     * The organization was made by this transaction (create_sub_organization): its only users are
     * this request's, whose contacts assertDistinctContacts has compared, and its credentials so far.
     */
    newOrganization?: NewOrganization;
  } = {},
): Promise<string> {
  if (!opts.newOrganization) await assertContactsFree(ctx, organizationId, { email: input.userEmail, phone: input.userPhoneNumber }, field);
  const userId = newId();
  const now = ctx.now();
  const contacts = { email: input.userEmail ?? null, phone: input.userPhoneNumber ?? null, emailVerified: verified.email, phoneVerified: verified.phone };
  await ctx.tx.insert(users).values({
    id: userId,
    organizationId,
    userName: input.userName,
    userEmail: contacts.email,
    userPhoneNumber: contacts.phone,
    emailVerified: contacts.emailVerified,
    phoneVerified: contacts.phoneVerified,
    createdAt: now,
    updatedAt: now,
  });
  opts.newOrganization?.sources.people.push(contacts);
  const target = { organizationId, userId };
  // The identities (credentials and contacts) are synced once, after all of them are stored.
  const inserts = { syncIdentities: false, ...(opts.newOrganization ? { newOrganization: opts.newOrganization } : {}) };
  await insertApiKeys(ctx, target, input.apiKeys, `${field}apiKeys`, inserts);
  await insertAuthenticators(ctx, target, input.authenticators, `${field}authenticators`, inserts);
  await insertOauthProviders(ctx, target, input.oauthProviders, `${field}oauthProviders`, inserts);
  if (opts.syncIdentities !== false) await syncSubOrganizationIdentities(ctx.tx, organizationId);
  return userId;
}

async function tagUser(ctx: OperationContext, userId: string, tagIds: string[], field: string): Promise<void> {
  const wanted = [...new Set(tagIds)];
  if (wanted.length === 0) return;
  const found = await ctx.tx
    .select({ id: userTags.id })
    .from(userTags)
    .where(and(eq(userTags.organizationId, ctx.organizationId), inArray(userTags.id, wanted)));
  const missing = wanted.find((id) => !found.some((f) => f.id === id));
  if (missing !== undefined) throw new ApiError('ERR_USER_TAG_NOT_FOUND', `no user tag ${missing} in this organization`, field);
  await ctx.tx.insert(userTagMembers).values(wanted.map((tagId) => ({ tagId, userId })));
}

/** Refuse the same contact twice in one request, before any row is written. */
function assertDistinctContacts(list: Array<{ userEmail?: string; userPhoneNumber?: string }>, field: string): void {
  const emails = new Set<string>();
  const phones = new Set<string>();
  list.forEach((u, i) => {
    const email = u.userEmail?.toLowerCase();
    if (email !== undefined && emails.has(email)) throw new ApiError('ERR_ALREADY_EXISTS', `email ${u.userEmail} is given twice`, `${field}.${i}.userEmail`);
    if (u.userPhoneNumber !== undefined && phones.has(u.userPhoneNumber)) {
      throw new ApiError('ERR_ALREADY_EXISTS', `phone number ${u.userPhoneNumber} is given twice`, `${field}.${i}.userPhoneNumber`);
    }
    if (email !== undefined) emails.add(email);
    if (u.userPhoneNumber !== undefined) phones.add(u.userPhoneNumber);
  });
}

/**
 * Which root users' contacts are verified: every given one when the caller vouches (the
 * integrator), else only the one a verification token proves.
 */
function verifiedContacts(rootUsers: RootUserInput[], claims: VerificationClaims | undefined, vouched: boolean): Array<{ email: boolean; phone: boolean }> {
  const flags = rootUsers.map((u) => ({ email: vouched && u.userEmail !== undefined, phone: vouched && u.userPhoneNumber !== undefined }));
  if (!claims) return flags;
  const index = rootUsers.findIndex((u) =>
    claims.verification_type === 'OTP_TYPE_EMAIL' ? u.userEmail?.toLowerCase() === claims.contact.toLowerCase() : u.userPhoneNumber === claims.contact,
  );
  if (index < 0) throw new ApiError('ERR_VERIFICATION_TOKEN_INVALID', "the verification token's contact is not a root user's", 'verificationToken');
  if (claims.verification_type === 'OTP_TYPE_EMAIL') flags[index]!.email = true;
  else flags[index]!.phone = true;
  return flags;
}

/**
 * Set or clear one contact of a user. Verified when a verification token proves exactly this
 * value (single use) or the caller vouches for it (the integrator); unverified otherwise, so a
 * contact typed by anybody else never becomes a login identity. A verified value another
 * sub-organization already holds is refused (ERR_ALREADY_EXISTS) by the identity index.
 */
async function updateContact(
  ctx: OperationContext,
  userId: string,
  change: { kind: 'email' | 'phone'; value: string | undefined; verificationToken: string | undefined },
): Promise<{ userId: string }> {
  const user = await requireUser(ctx.tx, ctx.organizationId, userId);
  const { kind, value } = change;
  const organizationIds = await organizationAndParent(ctx.tx, ctx.organizationId, ctx.caller);
  let verified = value !== undefined && (await callerVouchesForContacts(ctx, organizationIds[1]));
  if (change.verificationToken !== undefined) {
    if (value === undefined)
      throw new ApiError(
        'ERR_INVALID_PARAMETER',
        `a verification token cannot verify an empty ${kind === 'email' ? 'email' : 'phone number'}`,
        'verificationToken',
      );
    // A user changing their own contact spends a token bound to a key (otp_verify_v2 with the
    // session's public key) only with a request that key stamped: a leaked token does not verify
    // that contact on anybody else's account. Administrators acting on another user, and the
    // integrator (who may vouch for contacts without any token), are not held to it.
    await useVerificationToken(ctx, change.verificationToken, {
      organizationIds,
      type: kind === 'email' ? 'OTP_TYPE_EMAIL' : 'OTP_TYPE_SMS',
      contact: value,
      stampedByBoundKey: !verified && ctx.caller.userId === user.id,
    });
    verified = true;
  }
  if (value !== undefined) await assertContactsFree(ctx, ctx.organizationId, { [kind]: value, exceptUserId: user.id }, '');
  const set =
    kind === 'email'
      ? { userEmail: value ?? null, emailVerified: verified, updatedAt: ctx.now() }
      : { userPhoneNumber: value ?? null, phoneVerified: verified, updatedAt: ctx.now() };
  await ctx.tx
    .update(users)
    .set(set)
    .where(and(eq(users.id, user.id), eq(users.organizationId, ctx.organizationId)));
  // Clearing or replacing a verified contact without proof may leave no way to sign in.
  await assertKeepsSignInMethod(ctx, user.id, kind === 'email' ? 'userEmail' : 'userPhoneNumber');
  await syncSubOrganizationIdentities(ctx.tx, ctx.organizationId);
  return { userId: user.id };
}

/** What a signup made and checked before its transaction: its wallet, its client signature (on a signing thread) and its verification token. */
interface SignupPrefetch {
  wallet: PreparedWallet | undefined;
  clientSignature: boolean | undefined;
  token: VerifiedToken | undefined;
}

/** A signup's wallet is made, and its client signature and token checked, before the transaction (wallet-records.ts prepareWallet). */
export const userPrefetchers = {
  create_sub_organization: async (params, ctx): Promise<SignupPrefetch> => {
    // All three on the signer threads at once; the token is spent in the transaction (useVerificationToken).
    const [wallet, clientSignature, token] = await Promise.all([
      params.wallet ? prepareWallet(ctx.enclave, params.wallet.accounts, params.wallet.mnemonicLength) : undefined,
      params.clientSignature ? ctx.enclave.checkClientSignature(params.clientSignature) : undefined,
      params.verificationToken !== undefined ? verifyVerificationToken(ctx.enclave, params.verificationToken, () => ctx.now().getTime()) : undefined,
    ]);
    return { wallet, clientSignature, token };
  },
} satisfies PrefetchTable;

export const userHandlers = {
  /** Create users with their API keys, passkeys, OAuth providers and tags. */
  create_users: async (params, ctx) => {
    assertDistinctContacts(params.users, 'users');
    const vouched = await callerVouchesForContacts(ctx, (await organizationAndParent(ctx.tx, ctx.organizationId, ctx.caller))[1]);
    const userIds: string[] = [];
    for (const [i, user] of params.users.entries()) {
      const userId = await insertUser(ctx, ctx.organizationId, user, `users.${i}.`, {
        email: vouched && user.userEmail !== undefined,
        phone: vouched && user.userPhoneNumber !== undefined,
      });
      await tagUser(ctx, userId, user.userTags, `users.${i}.userTags`);
      userIds.push(userId);
    }
    return { userIds };
  },

  /**
   * Spec B: set (or clear with '') a user's phone number. With a verification token (an SMS
   * OTP proof for exactly this number, single use), or set by the integrator, the number is
   * stored as verified (and becomes a login identity); otherwise it is profile data.
   */
  update_user_phone_number: async (params, ctx) => {
    const phone = params.userPhoneNumber === '' ? undefined : params.userPhoneNumber;
    return updateContact(ctx, params.userId, { kind: 'phone', value: phone, verificationToken: params.verificationToken });
  },

  /** Turnkey's update_user_email: the same rules for the email (an email OTP proof). */
  update_user_email: async (params, ctx) => {
    const email = params.userEmail === '' ? undefined : params.userEmail;
    return updateContact(ctx, params.userId, { kind: 'email', value: email, verificationToken: params.verificationToken });
  },

  create_api_keys: async (params, ctx) => {
    await requireUser(ctx.tx, ctx.organizationId, params.userId);
    const apiKeyIds = await insertApiKeys(ctx, { organizationId: ctx.organizationId, userId: params.userId }, params.apiKeys, 'apiKeys');
    return { apiKeyIds };
  },

  delete_api_keys: async (params, ctx) => {
    await requireUser(ctx.tx, ctx.organizationId, params.userId);
    const ids = [...new Set(params.apiKeyIds)];
    const scope = and(eq(apiKeys.organizationId, ctx.organizationId), eq(apiKeys.userId, params.userId), inArray(apiKeys.id, ids));
    const found = await ctx.tx.select({ id: apiKeys.id }).from(apiKeys).where(scope);
    const missing = ids.find((id) => !found.some((f) => f.id === id));
    if (missing !== undefined) throw new ApiError('ERR_API_KEY_NOT_FOUND', `user ${params.userId} has no API key ${missing}`, 'apiKeyIds');
    await ctx.tx.delete(apiKeys).where(scope);
    await assertKeepsSignInMethod(ctx, params.userId, 'apiKeyIds');
    await syncSubOrganizationIdentities(ctx.tx, ctx.organizationId);
    return { apiKeyIds: ids };
  },

  create_authenticators: async (params, ctx) => {
    await requireUser(ctx.tx, ctx.organizationId, params.userId);
    const authenticatorIds = await insertAuthenticators(
      ctx,
      { organizationId: ctx.organizationId, userId: params.userId },
      params.authenticators,
      'authenticators',
    );
    return { authenticatorIds };
  },

  delete_authenticators: async (params, ctx) => {
    await requireUser(ctx.tx, ctx.organizationId, params.userId);
    const ids = [...new Set(params.authenticatorIds)];
    const scope = and(eq(authenticators.organizationId, ctx.organizationId), eq(authenticators.userId, params.userId), inArray(authenticators.id, ids));
    const found = await ctx.tx.select({ id: authenticators.id }).from(authenticators).where(scope);
    const missing = ids.find((id) => !found.some((f) => f.id === id));
    if (missing !== undefined) throw new ApiError('ERR_AUTHENTICATOR_NOT_FOUND', `user ${params.userId} has no authenticator ${missing}`, 'authenticatorIds');
    await ctx.tx.delete(authenticators).where(scope);
    await assertKeepsSignInMethod(ctx, params.userId, 'authenticatorIds');
    await syncSubOrganizationIdentities(ctx.tx, ctx.organizationId);
    return { authenticatorIds: ids };
  },

  create_oauth_providers: async (params, ctx) => {
    await requireUser(ctx.tx, ctx.organizationId, params.userId);
    const providerIds = await insertOauthProviders(ctx, { organizationId: ctx.organizationId, userId: params.userId }, params.oauthProviders, 'oauthProviders');
    return { providerIds };
  },

  delete_oauth_providers: async (params, ctx) => {
    await requireUser(ctx.tx, ctx.organizationId, params.userId);
    const ids = [...new Set(params.providerIds)];
    const scope = and(eq(oauthProviders.organizationId, ctx.organizationId), eq(oauthProviders.userId, params.userId), inArray(oauthProviders.id, ids));
    const found = await ctx.tx.select({ id: oauthProviders.id }).from(oauthProviders).where(scope);
    const missing = ids.find((id) => !found.some((f) => f.id === id));
    if (missing !== undefined) throw new ApiError('ERR_OAUTH_PROVIDER_NOT_FOUND', `user ${params.userId} has no OAuth provider ${missing}`, 'providerIds');
    await ctx.tx.delete(oauthProviders).where(scope);
    await assertKeepsSignInMethod(ctx, params.userId, 'providerIds');
    await syncSubOrganizationIdentities(ctx.tx, ctx.organizationId);
    return { providerIds: ids };
  },

  /**
   * A sub-organization of the target organization (one per end user): root users with their
   * credentials, the root quorum, optionally a wallet; a verification token marks the matching
   * root user's contact verified and a client signature binds the request to the token's key.
   */
  create_sub_organization: async (params, ctx) => {
    if (params.rootQuorumThreshold > params.rootUsers.length) {
      throw new ApiError(
        'ERR_INVALID_QUORUM',
        `rootQuorumThreshold ${params.rootQuorumThreshold} exceeds the ${params.rootUsers.length} root users`,
        'rootQuorumThreshold',
      );
    }
    const [parent] = await ctx.tx.select().from(organizations).where(eq(organizations.id, ctx.organizationId));
    if (!parent) throw new ApiError('ERR_ORGANIZATION_NOT_FOUND', `organization ${ctx.organizationId} not found`, 'organizationId');
    // Stamps reach one level up only (authenticate.ts), so sub-organizations do not nest.
    if (parent.parentOrganizationId !== null) throw new ApiError('ERR_PERMISSION_DENIED', 'a sub-organization cannot create sub-organizations');
    assertDistinctContacts(params.rootUsers, 'rootUsers');
    const subOrganizationId = newId();
    let claims: VerificationClaims | undefined;
    if (params.verificationToken !== undefined) {
      // One login of this new sub-organization may follow with the same token (decision 0020).
      const verified = (ctx.prefetched as SignupPrefetch | undefined)?.token;
      claims = await useVerificationToken(ctx, params.verificationToken, {
        organizationIds: [ctx.organizationId],
        use: { purpose: 'signup', subOrganizationId },
        ...(verified ? { verified } : {}),
      });
    }
    if (params.clientSignature !== undefined) {
      if (!claims) throw new ApiError('ERR_INVALID_PARAMETER', 'clientSignature binds a verificationToken, which is missing', 'clientSignature');
      checkClientSignature(params.clientSignature, claims, 'USAGE_TYPE_SIGNUP', (ctx.prefetched as SignupPrefetch | undefined)?.clientSignature);
    } else if (claims?.public_key !== undefined) {
      // A token bound to a key at verify (every otp_verify_v2 token) is spent only by that key:
      // whoever merely saw the token cannot sign up with the contact it proves.
      throw new ApiError(
        'ERR_CLIENT_SIGNATURE_INVALID',
        'this verification token is bound to a key: sign its use with it (clientSignature)',
        'clientSignature',
      );
    }
    // The new sub-organization's parent is the target: the integrator calling vouches.
    const verified = verifiedContacts(params.rootUsers, claims, await callerVouchesForContacts(ctx, ctx.organizationId));
    const now = ctx.now();
    await ctx.tx.insert(organizations).values({
      id: subOrganizationId,
      name: params.subOrganizationName,
      parentOrganizationId: ctx.organizationId,
      rootQuorumThreshold: params.rootQuorumThreshold,
      createdAt: now,
      updatedAt: now,
    });
    const rootUserIds: string[] = [];
    // Nothing of the new organization exists but what this request writes: its checks need no reads.
    const made = newOrganization(ctx.organizationId);
    for (const [i, user] of params.rootUsers.entries()) {
      rootUserIds.push(await insertUser(ctx, subOrganizationId, user, `rootUsers.${i}.`, verified[i], { syncIdentities: false, newOrganization: made }));
    }
    // Once for all root users; the new organization has no identity rows yet.
    await syncSubOrganizationIdentities(ctx.tx, subOrganizationId, made);
    await ctx.tx.insert(rootQuorumMembers).values(rootUserIds.map((userId) => ({ organizationId: subOrganizationId, userId })));
    if (params.rootUserTag !== undefined) {
      // signup_v2's `userTag`: a tag of the new organization holding its root users, for the integrator's policies.
      const tagId = newId();
      await ctx.tx.insert(userTags).values({ id: tagId, organizationId: subOrganizationId, name: params.rootUserTag, createdAt: now, updatedAt: now });
      await ctx.tx.insert(userTagMembers).values(rootUserIds.map((userId) => ({ tagId, userId })));
    }
    if (!params.wallet) return { subOrganizationId, rootUserIds };
    const wallet = await createWalletRecord(ctx.tx, ctx.enclave, {
      organizationId: subOrganizationId,
      walletName: params.wallet.walletName,
      accounts: params.wallet.accounts,
      ...(params.wallet.mnemonicLength !== undefined ? { mnemonicLength: params.wallet.mnemonicLength } : {}),
      now,
      fieldPrefix: 'wallet.',
      prepared: (ctx.prefetched as SignupPrefetch | undefined)?.wallet,
      newOrganization: true,
    });
    return { subOrganizationId, wallet, rootUserIds };
  },
} satisfies HandlerTable;
