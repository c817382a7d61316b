/**
 * X-Stamp-Attested (decision 0020): Turnkey's attested stamp, as `@turnkey/core`'s
 * AttestedStamper sends it for `loginWithOtp` and `loginWithOauth`. The header is
 * base64url(JSON {publicKeyAttestation, scheme, publicKey, signature}): a P-256 signature (DER
 * hex, ECDSA-SHA256 over the raw body) by `publicKey`, and an attestation that binds that key to
 * an identity this server trusts:
 * - STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN: a verification token the enclave signed at
 *   verify_otp (a proven email or phone), whose `public_key` claim is the stamping key;
 * - STAMP_ATTESTED_SCHEME_P256_OIDC: an OIDC id token whose nonce is the SHA-256 hex of the
 *   stamping key (as oauth_login binds it).
 * Only stamp_login accepts it (plugin.ts): the identity names a user, not a credential of one,
 * so it may open a session and do nothing else. The user is the one of the sub-organization of
 * the target (or of the target itself when it is a sub-organization) that holds the verified
 * contact or the linked OIDC identity; stamp_login spends the verification token (sessions.ts).
 */
import { and, eq, sql } from 'drizzle-orm';
import { base64urlDecode, compressPublicKey } from '@walletkit/crypto';
import { ApiError } from '../errors.js';
import { verifyOidcToken } from '../oauth/oidc.js';
import { parseStrictJson } from '../request-body.js';
import type { Executor } from '../store/db.js';
import { oauthProviders, organizations, subOrganizationIdentities, users } from '../store/schema.js';
import type { Caller, Services } from './context.js';
import { normalizeEmail, oidcIdentityValue, type IdentityKind } from './operations/identities.js';
import { oauthNonces } from './operations/oauth-login.js';
import { verificationClaimsOf } from './operations/users-verification.js';
import { verifyP256Node } from './p256-node.js';

/** The two attestation schemes of Turnkey's AttestedStamper. */
export type AttestedScheme = 'STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN' | 'STAMP_ATTESTED_SCHEME_P256_OIDC';

const SCHEMES: readonly AttestedScheme[] = ['STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN', 'STAMP_ATTESTED_SCHEME_P256_OIDC'];
const FIELDS = ['publicKeyAttestation', 'scheme', 'publicKey', 'signature'] as const;

/** A decoded X-Stamp-Attested header (hex fields as sent). */
export interface AttestedStamp {
  publicKeyAttestation: string;
  scheme: AttestedScheme;
  publicKey: string;
  signature: string;
}

/** The attested credential of a caller: what stamp_login checks and spends. */
export interface AttestedCredential {
  kind: 'attested';
  scheme: AttestedScheme;
  /** Compressed lowercase hex of the stamping key (the key the attestation binds). */
  publicKey: string;
  /** The verification token's id (scheme P256_VERIFICATION_TOKEN): spent by the login. */
  verificationTokenId?: string;
}

/** Longer than any honest header: an id token of a few kB, base64url'd JSON around it. */
const MAX_HEADER_LENGTH = 32 * 1024;
const P256_KEY = /^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/;
/** A DER ECDSA-P256 signature is at most 72 bytes. */
const DER_SIGNATURE = /^([0-9a-fA-F]{2}){8,72}$/;

function malformed(message: string, cause?: unknown): ApiError {
  return new ApiError('ERR_STAMP_MALFORMED', message, undefined, cause === undefined ? undefined : { cause });
}

/**
 * Decode X-Stamp-Attested strictly: base64url of strict JSON (decision 0012: no repeated keys,
 * well-formed UTF-8), exactly the four fields, a known scheme, a P-256 key and a DER signature
 * in hex, a non-empty attestation.
 * @example parseAttestedStamp(req.headers['x-stamp-attested']) // { scheme: 'STAMP_ATTESTED_SCHEME_P256_OIDC', ... }
 * @throws ApiError ERR_STAMP_MALFORMED
 */
export function parseAttestedStamp(value: string): AttestedStamp {
  if (value.length === 0) throw malformed('X-Stamp-Attested is empty');
  if (value.length > MAX_HEADER_LENGTH) throw malformed('X-Stamp-Attested is too long');
  let json: unknown;
  try {
    json = parseStrictJson(base64urlDecode(value));
  } catch (cause) {
    throw malformed('X-Stamp-Attested is not base64url-encoded strict JSON', cause);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw malformed('X-Stamp-Attested is not a JSON object');
  const fields = json as Record<string, unknown>;
  const extra = Object.keys(fields).filter((k) => !(FIELDS as readonly string[]).includes(k));
  if (extra.length > 0) throw malformed(`X-Stamp-Attested has unexpected fields: ${extra.join(', ')}`);
  const { publicKeyAttestation, scheme, publicKey, signature } = fields;
  if (typeof publicKeyAttestation !== 'string' || publicKeyAttestation.length === 0) throw malformed('publicKeyAttestation must be a non-empty string');
  if (typeof scheme !== 'string' || !(SCHEMES as readonly string[]).includes(scheme)) throw malformed(`scheme must be one of ${SCHEMES.join(', ')}`);
  if (typeof publicKey !== 'string' || !P256_KEY.test(publicKey)) throw malformed('publicKey must be a P-256 public key in hex');
  if (typeof signature !== 'string' || !DER_SIGNATURE.test(signature)) throw malformed('signature must be a DER signature in hex');
  return { publicKeyAttestation, scheme: scheme as AttestedScheme, publicKey, signature };
}

/** What an attestation proves: a contact or an OIDC identity, and the token to spend. */
type AttestedIdentity =
  | { kind: 'EMAIL' | 'PHONE_NUMBER'; value: string; issuedFor: string; tokenId: string }
  | { kind: 'OIDC'; value: string; iss: string; sub: string; aud: string };

const ATTESTATION_FIELD = 'publicKeyAttestation';

/**
 * Verify the attestation and that it binds `publicKey` (compressed hex).
 * @throws ApiError ERR_VERIFICATION_TOKEN_INVALID | ERR_OIDC_TOKEN_INVALID | ERR_STAMP_INVALID
 */
async function verifyAttestation(services: Services, stamp: AttestedStamp, publicKey: string): Promise<AttestedIdentity> {
  if (stamp.scheme === 'STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN') {
    const claims = verificationClaimsOf(services.enclave, stamp.publicKeyAttestation, () => services.now().getTime(), ATTESTATION_FIELD);
    let bound: string | undefined;
    try {
      bound = claims.public_key === undefined ? undefined : compressPublicKey('p256', claims.public_key);
    } catch {
      bound = undefined;
    }
    if (bound === undefined) throw new ApiError('ERR_VERIFICATION_TOKEN_INVALID', 'the verification token is bound to no key', ATTESTATION_FIELD);
    if (bound !== publicKey) throw new ApiError('ERR_STAMP_INVALID', 'the stamping key is not the key the verification token is bound to');
    return claims.verification_type === 'OTP_TYPE_EMAIL'
      ? { kind: 'EMAIL', value: normalizeEmail(claims.contact), issuedFor: claims.organization_id, tokenId: claims.id }
      : { kind: 'PHONE_NUMBER', value: claims.contact.trim(), issuedFor: claims.organization_id, tokenId: claims.id };
  }
  const token = await verifyOidcToken(stamp.publicKeyAttestation, {
    config: services.config,
    enclave: services.enclave,
    fetch: services.fetch,
    now: services.now,
    field: ATTESTATION_FIELD,
  });
  // The nonce binds the token to the key (DESIGN section 2, "OAuth nonce"), as for oauth_login.
  if (token.nonce === undefined || !oauthNonces(stamp.publicKey).includes(token.nonce)) {
    throw new ApiError('ERR_OIDC_TOKEN_INVALID', 'the OIDC token nonce is not the SHA-256 of the stamping key', ATTESTATION_FIELD);
  }
  return { kind: 'OIDC', value: oidcIdentityValue(token), iss: token.iss, sub: token.sub, aud: token.aud };
}

const unknownIdentity = (what: string) => new ApiError('ERR_STAMP_KEY_UNKNOWN', `no user of this organization holds the ${what}`);

/** The sub-organization of `parent` whose identity index holds (kind, value). */
async function subOrganizationHolding(db: Executor, parent: string, kind: IdentityKind, value: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: subOrganizationIdentities.subOrganizationId })
    .from(subOrganizationIdentities)
    .where(
      and(eq(subOrganizationIdentities.parentOrganizationId, parent), eq(subOrganizationIdentities.kind, kind), eq(subOrganizationIdentities.value, value)),
    );
  return row?.id;
}

/** The user of `subOrganizationId` holding the identity: a verified contact, or the linked OIDC identity. */
async function userHolding(db: Executor, subOrganizationId: string, identity: AttestedIdentity): Promise<string | undefined> {
  if (identity.kind === 'OIDC') {
    const [provider] = await db
      .select({ userId: oauthProviders.userId })
      .from(oauthProviders)
      .where(
        and(
          eq(oauthProviders.organizationId, subOrganizationId),
          eq(oauthProviders.issuer, identity.iss),
          eq(oauthProviders.subject, identity.sub),
          eq(oauthProviders.audience, identity.aud),
        ),
      );
    return provider?.userId;
  }
  const match =
    identity.kind === 'EMAIL'
      ? and(sql`lower(${users.userEmail}) = ${identity.value}`, eq(users.emailVerified, true))
      : and(eq(users.userPhoneNumber, identity.value), eq(users.phoneVerified, true));
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.organizationId, subOrganizationId), eq(users.isProxy, false), match));
  return user?.id;
}

/**
 * Authenticate an X-Stamp-Attested request for `organizationId`: parse, verify the signature
 * over the raw body (before any lookup), verify the attestation and its binding to the key, then
 * resolve the user holding the attested identity. Reads only: the verification token is spent by
 * stamp_login inside the activity's transaction, so a refused login writes nothing.
 * @throws ApiError ERR_STAMP_MALFORMED | ERR_STAMP_INVALID | ERR_VERIFICATION_TOKEN_INVALID | ERR_OIDC_TOKEN_INVALID | ERR_STAMP_KEY_UNKNOWN
 */
export async function authenticateAttested(db: Executor, services: Services, value: string, rawBody: Uint8Array, organizationId: string): Promise<Caller> {
  const stamp = parseAttestedStamp(value);
  if (!verifyP256Node(stamp.publicKey.toLowerCase(), rawBody, stamp.signature)) throw new ApiError('ERR_STAMP_INVALID');
  // It verified, so it is a point of P-256.
  const publicKey = compressPublicKey('p256', stamp.publicKey);
  const identity = await verifyAttestation(services, stamp, publicKey);

  const [target] = await db
    .select({ id: organizations.id, parent: organizations.parentOrganizationId })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  // As for X-Stamp: an unknown organization is an unknown credential.
  if (!target) throw unknownIdentity(identity.kind === 'OIDC' ? 'OIDC identity' : 'verified contact');
  // The target's sub-organization holding the identity, or the target itself when it is a sub-organization.
  const held = await subOrganizationHolding(db, target.parent ?? target.id, identity.kind, identity.value);
  const subOrganizationId = target.parent === null ? held : held === target.id ? held : undefined;
  if (identity.kind !== 'OIDC') {
    // Issued by the proxy's organization (otp_init_v2), or by the sub-organization itself.
    const issuers = [target.id, target.parent, subOrganizationId].filter((id): id is string => typeof id === 'string');
    if (!issuers.includes(identity.issuedFor)) {
      throw new ApiError('ERR_VERIFICATION_TOKEN_INVALID', 'the verification token was issued for another organization', ATTESTATION_FIELD);
    }
  }
  const what = identity.kind === 'OIDC' ? 'OIDC identity' : identity.kind === 'EMAIL' ? 'verified email address' : 'verified phone number';
  if (subOrganizationId === undefined) throw unknownIdentity(what);
  const userId = await userHolding(db, subOrganizationId, identity);
  if (userId === undefined) throw unknownIdentity(what);
  const credential: AttestedCredential = {
    kind: 'attested',
    scheme: stamp.scheme,
    publicKey,
    ...(identity.kind !== 'OIDC' ? { verificationTokenId: identity.tokenId } : {}),
  };
  return { userId, organizationId: subOrganizationId, credential };
}
