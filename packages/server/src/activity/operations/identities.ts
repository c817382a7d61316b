/**
 * Sub-organization identities (store table sub_org_identities): every verified email
 * (lowercased), verified phone number, OIDC identity (`iss|sub|aud`), passkey credential id and non-session API public
 * key of a sub-organization's users, indexed under its parent. The primary key (parent, kind,
 * value) is what makes "one sub-organization per contact or identity" hold when signups race;
 * list_suborgs (the proxy's account lookup) reads it.
 *
 * The credential tables are the source of truth: `syncSubOrganizationIdentities` recomputes
 * the set of one sub-organization inside the activity's transaction, so adds, deletes and
 * changes (a new phone number) all go through one path.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { compressPublicKey } from '@walletkit/crypto';
import { ApiError } from '../../errors.js';
import type { Executor, Tx } from '../../store/db.js';
import { apiKeys, authenticators, oauthProviders, organizations, subOrganizationIdentities, users } from '../../store/schema.js';

/** Kinds stored in sub_org_identities.kind. */
export type IdentityKind = 'EMAIL' | 'PHONE_NUMBER' | 'OIDC' | 'CREDENTIAL_ID' | 'PUBLIC_KEY';

const NOUN: Record<IdentityKind, string> = {
  EMAIL: 'email address',
  PHONE_NUMBER: 'phone number',
  OIDC: 'OAuth identity (issuer, subject, audience)',
  CREDENTIAL_ID: 'passkey',
  PUBLIC_KEY: 'API public key',
};

/** Emails match case-insensitively (as contacts do within an organization). */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** The stored form of an OIDC identity. */
export const oidcIdentityValue = (id: { iss: string; sub: string; aud: string }): string => `${id.iss}|${id.sub}|${id.aud}`;

/**
 * An API public key as api_keys stores it: compressed lowercase hex for P-256 and secp256k1
 * (an uncompressed key is compressed, trying P-256 first), raw hex for ed25519.
 */
export function normalizeLookupPublicKey(publicKey: string): string {
  const key = publicKey.trim().toLowerCase();
  if (key.length !== 130) return key;
  for (const curve of ['p256', 'secp256k1'] as const) {
    try {
      return compressPublicKey(curve, key);
    } catch {
      // not a point of this curve: try the next
    }
  }
  return key;
}

const keyOf = (kind: string, value: string) => `${kind}\u0000${value}`;

/** The rows identities come from, in the shapes the sub-organization's tables are read in. */
export interface IdentitySources {
  /** Its users but proxies. */
  people: Array<{ email: string | null; phone: string | null; emailVerified: boolean; phoneVerified: boolean }>;
  /** Its API keys but session keys. */
  keys: Array<{ publicKey: string }>;
  passkeys: Array<{ credentialId: string }>;
  providers: Array<{ iss: string; sub: string; aud: string }>;
}

/** The identities of `sources`. */
function identitiesOf({ people, keys, passkeys, providers }: IdentitySources): Array<{ kind: IdentityKind; value: string }> {
  const out: Array<{ kind: IdentityKind; value: string }> = [];
  // A contact is an identity only once proven (or vouched for by the integrator): unverified
  // ones are profile data and route nobody's login here (SECURITY.md, "Identities").
  for (const p of people) {
    if (p.email && p.emailVerified) out.push({ kind: 'EMAIL', value: normalizeEmail(p.email) });
    if (p.phone && p.phoneVerified) out.push({ kind: 'PHONE_NUMBER', value: p.phone });
  }
  // Session keys (stamp_login, otp_login) are short-lived and re-registered: not identities.
  for (const k of keys) out.push({ kind: 'PUBLIC_KEY', value: k.publicKey });
  for (const a of passkeys) out.push({ kind: 'CREDENTIAL_ID', value: a.credentialId });
  for (const o of providers) out.push({ kind: 'OIDC', value: oidcIdentityValue(o) });
  return out;
}

/** Every identity the sub-organization's tables hold now. @internal exported for tests */
export async function currentIdentities(tx: Executor, organizationId: string): Promise<Array<{ kind: IdentityKind; value: string }>> {
  // One after another: a transaction is one connection, so parallel queries would only queue.
  const people = await tx
    .select({ email: users.userEmail, phone: users.userPhoneNumber, emailVerified: users.emailVerified, phoneVerified: users.phoneVerified })
    .from(users)
    .where(and(eq(users.organizationId, organizationId), eq(users.isProxy, false)));
  const keys = await tx
    .select({ publicKey: apiKeys.publicKey })
    .from(apiKeys)
    .where(and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.isSession, false)));
  const passkeys = await tx.select({ credentialId: authenticators.credentialId }).from(authenticators).where(eq(authenticators.organizationId, organizationId));
  const providers = await tx
    .select({ iss: oauthProviders.issuer, sub: oauthProviders.subject, aud: oauthProviders.audience })
    .from(oauthProviders)
    .where(eq(oauthProviders.organizationId, organizationId));
  return identitiesOf({ people, keys, passkeys, providers });
}

/**
 * A sub-organization inserted by the calling transaction, synced once after all its users: its
 * parent is known, it has no identity rows, and everything it holds is what the transaction wrote
 * (`sources`, added to by each insert), so none of it is read back.
 */
export interface CreatedSubOrganization {
  parent: string;
  sources: IdentitySources;
}

/**
 * Bring the identity rows of `organizationId` (when it is a sub-organization) in line with its
 * users and credentials; call it, in the activity's transaction, after any change to them.
 * A value another sub-organization of the same parent holds fails the activity. New rows are
 * inserted in one sorted statement, so racing transactions lock them in the same order.
 * With `created`, the organization was made by this transaction (create_sub_organization).
 * @example await syncSubOrganizationIdentities(ctx.tx, subOrganizationId);
 * @throws ApiError ERR_ALREADY_EXISTS
 */
export async function syncSubOrganizationIdentities(tx: Tx, organizationId: string, created?: CreatedSubOrganization): Promise<void> {
  let parent = created?.parent;
  if (parent === undefined) {
    const [org] = await tx.select({ parent: organizations.parentOrganizationId }).from(organizations).where(eq(organizations.id, organizationId));
    if (!org?.parent) return;
    parent = org.parent;
  }
  const current = created ? identitiesOf(created.sources) : await currentIdentities(tx, organizationId);
  const wanted = new Map(current.map((i) => [keyOf(i.kind, i.value), i]));
  // A sub-organization made in this transaction has no identity rows yet.
  const stored = created
    ? []
    : await tx
        .select({ kind: subOrganizationIdentities.kind, value: subOrganizationIdentities.value })
        .from(subOrganizationIdentities)
        .where(eq(subOrganizationIdentities.subOrganizationId, organizationId));
  const storedKeys = new Set(stored.map((s) => keyOf(s.kind, s.value)));
  for (const kind of new Set(stored.map((s) => s.kind))) {
    const gone = stored.filter((s) => s.kind === kind && !wanted.has(keyOf(s.kind, s.value))).map((s) => s.value);
    if (gone.length === 0) continue;
    await tx
      .delete(subOrganizationIdentities)
      .where(
        and(
          eq(subOrganizationIdentities.subOrganizationId, organizationId),
          eq(subOrganizationIdentities.kind, kind),
          inArray(subOrganizationIdentities.value, gone),
        ),
      );
  }
  const added = [...wanted.entries()]
    .filter(([k]) => !storedKeys.has(k))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, i]) => ({ parentOrganizationId: parent, kind: i.kind, value: i.value, subOrganizationId: organizationId }));
  if (added.length === 0) return;
  // DO NOTHING waits for a racing transaction holding the same value and skips it if that one
  // commits: the loser sees a missing row and fails cleanly instead of with a driver error.
  const inserted = await tx
    .insert(subOrganizationIdentities)
    .values(added)
    .onConflictDoNothing()
    .returning({ kind: subOrganizationIdentities.kind, value: subOrganizationIdentities.value });
  if (inserted.length === added.length) return;
  const done = new Set(inserted.map((i) => keyOf(i.kind, i.value)));
  const clash = added.find((a) => !done.has(keyOf(a.kind, a.value)))!;
  throw new ApiError('ERR_ALREADY_EXISTS', `another sub-organization of this organization already has this ${NOUN[clash.kind as IdentityKind]}`);
}
