/**
 * Which sub-organization of a parent holds a contact or credential (otp_login_v2,
 * oauth_login, account, signup_v2): the identity index `sub_org_identities`, which every
 * change to a sub-organization's users and credentials keeps in step (identities.ts).
 * Read-only: the activity re-checks what it needs.
 */
import { and, eq } from 'drizzle-orm';
import { compressPublicKey } from '@walletkit/crypto';
import { normalizeEmail, normalizeLookupPublicKey, type IdentityKind } from '../activity/operations/identities.js';
import type { Db } from '../store/db.js';
import { apiKeys, organizations, subOrganizationIdentities } from '../store/schema.js';

export type { IdentityKind };
export { oidcIdentityValue } from '../activity/operations/identities.js';

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
 * The sub-organization of `parentOrganizationId` holding the identity, or undefined. The
 * index holds verified contacts only (an unverified one is profile data), one
 * sub-organization per value (migration 0004 rebuilt it for older sub-organizations).
 * @example await findSubOrganization(db, orgId, 'EMAIL', 'a@example.com') // '9f1c...' | undefined
 */
export async function findSubOrganization(db: Db, parentOrganizationId: string, kind: IdentityKind, rawValue: string): Promise<string | undefined> {
  const value = normalizeIdentity(kind, rawValue);
  const [indexed] = await db
    .select({ id: subOrganizationIdentities.subOrganizationId })
    .from(subOrganizationIdentities)
    .where(
      and(
        eq(subOrganizationIdentities.parentOrganizationId, parentOrganizationId),
        eq(subOrganizationIdentities.kind, kind),
        eq(subOrganizationIdentities.value, value),
      ),
    );
  return indexed?.id;
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
