/**
 * Which sub-organization of a parent holds a contact or credential (otp_login_v2,
 * oauth_login, account, signup_v2). The identity index `sub_org_identities` answers first;
 * sub-organizations created before it, or by the integrator's own create_sub_organization,
 * are found through their users' records. Read-only: the activity re-checks what it needs.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { compressPublicKey } from '@walletkit/crypto';
import { normalizeEmail, normalizeLookupPublicKey, type IdentityKind } from '../activity/operations/identities';
import type { Db } from '../store/db';
import { apiKeys, authenticators, oauthProviders, organizations, subOrganizationIdentities, users } from '../store/schema';

export type { IdentityKind };
export { oidcIdentityValue } from '../activity/operations/identities';

/** The normalized value sub_org_identities stores (lowercased email, compressed hex key, others as given). */
export function normalizeIdentity(kind: IdentityKind, value: string): string {
  switch (kind) {
    case 'EMAIL':
      return normalizeEmail(value);
    case 'PUBLIC_KEY':
      return normalizeLookupPublicKey(value);
    default:
      return value.trim();
  }
}

/**
 * The sub-organization of `parentOrganizationId` holding the identity, or undefined. When
 * several hold it (possible only for sub-organizations created outside the proxy), the
 * oldest wins, so the answer is stable.
 * @example await findSubOrganization(db, orgId, 'EMAIL', 'a@example.com') // '9f1c...' | undefined
 */
export async function findSubOrganization(db: Db, parentOrganizationId: string, kind: IdentityKind, rawValue: string): Promise<string | undefined> {
  const value = normalizeIdentity(kind, rawValue);
  const [indexed] = await db
    .select({ id: subOrganizationIdentities.subOrganizationId })
    .from(subOrganizationIdentities)
    .where(and(eq(subOrganizationIdentities.parentOrganizationId, parentOrganizationId), eq(subOrganizationIdentities.kind, kind), eq(subOrganizationIdentities.value, value)));
  if (indexed) return indexed.id;
  return findByRecords(db, parentOrganizationId, kind, value);
}

async function findByRecords(db: Db, parent: string, kind: IdentityKind, value: string): Promise<string | undefined> {
  const child = eq(organizations.parentOrganizationId, parent);
  const first = async (table: typeof users | typeof oauthProviders | typeof authenticators | typeof apiKeys, match: ReturnType<typeof eq>) => {
    const [row] = await db
      .select({ id: organizations.id })
      .from(table)
      .innerJoin(organizations, eq(organizations.id, table.organizationId))
      .where(and(child, match))
      .orderBy(asc(organizations.createdAt), asc(organizations.id))
      .limit(1);
    return row?.id;
  };
  switch (kind) {
    case 'EMAIL':
      return first(users, sql`lower(${users.userEmail}) = ${value}` as unknown as ReturnType<typeof eq>);
    case 'PHONE_NUMBER':
      return first(users, eq(users.userPhoneNumber, value));
    case 'CREDENTIAL_ID':
      return first(authenticators, eq(authenticators.credentialId, value));
    case 'PUBLIC_KEY':
      // Session keys are not identities (they come and go with logins), as in sub_org_identities.
      return first(apiKeys, and(eq(apiKeys.publicKey, value), eq(apiKeys.isSession, false)) as ReturnType<typeof eq>);
    case 'OIDC': {
      const [iss, sub, aud] = splitOidc(value);
      if (iss === undefined) return undefined;
      return first(oauthProviders, and(eq(oauthProviders.issuer, iss), eq(oauthProviders.subject, sub!), eq(oauthProviders.audience, aud!)) as ReturnType<typeof eq>);
    }
  }
}

/** Whether an uncompressed hex key is a point of `curve`. */
function onCurve(curve: 'p256' | 'secp256k1', key: string): boolean {
  try {
    compressPublicKey(curve, key);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a PUBLIC_KEY lookup is for a secp256k1 key (an external wallet's): an uncompressed
 * key on secp256k1 and not on P-256, or a key a sub-organization of the parent registered
 * with curve API_KEY_CURVE_SECP256K1. A compressed key nobody registered names no curve (its
 * x fits either), so it is not one; its signup_v2 is checked by curveType instead.
 * @example await isSecp256k1LookupKey(db, orgId, '04' + x + y) // true for a secp256k1 point
 */
export async function isSecp256k1LookupKey(db: Db, parentOrganizationId: string, rawValue: string): Promise<boolean> {
  const raw = rawValue.trim().toLowerCase();
  if (raw.length === 130 && onCurve('secp256k1', raw) && !onCurve('p256', raw)) return true;
  const value = normalizeIdentity('PUBLIC_KEY', raw);
  const [row] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .innerJoin(organizations, eq(organizations.id, apiKeys.organizationId))
    .where(
      and(
        eq(organizations.parentOrganizationId, parentOrganizationId),
        eq(apiKeys.publicKey, value),
        eq(apiKeys.curve, 'API_KEY_CURVE_SECP256K1'),
        eq(apiKeys.isSession, false),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Split `iss|sub|aud`; the issuer is a URL and the audience a client id, so the subject is the middle. */
function splitOidc(value: string): [string, string, string] | [undefined] {
  const firstBar = value.indexOf('|');
  const lastBar = value.lastIndexOf('|');
  if (firstBar <= 0 || lastBar <= firstBar) return [undefined];
  return [value.slice(0, firstBar), value.slice(firstBar + 1, lastBar), value.slice(lastBar + 1)];
}
