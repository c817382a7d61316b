/**
 * Writing a user's credentials (API keys, passkeys, OAuth providers), shared by create_users,
 * create_sub_organization, the create_* credential operations, stamp_login and recover_user.
 * Each credential is checked before it is written and is unique within its organization, so
 * a stamp always resolves to exactly one user.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { compressPublicKey, formatAddress, hexToBytes } from '@walletkit/crypto';
import type { ApiKeyCurve, ParamsOf } from '@walletkit/protocol';
import { ApiError } from '../../errors.js';
import type { OidcIdentity } from '@walletkit/protocol';
import { verifyOidcToken } from '../../oauth/oidc.js';
import { type Tx, violationDetail } from '../../store/db.js';
import { newId } from '../../store/ids.js';
import { sendWithNext } from '../../store/round-trips.js';
import { type Placeholders, statement } from '../../store/statements.js';
import { apiKeys, authenticators, oauthProviders, users } from '../../store/schema.js';
import type { OperationContext } from '../context.js';
import { type CreatedSubOrganization, syncSubOrganizationIdentities } from './identities.js';
import { relyingPartyFor, verifyPasskeyAttestation, type AuthenticatorInput } from '../webauthn.js';

type ApiKeyInput = ParamsOf<'create_api_keys'>['apiKeys'][number];
type OauthProviderInput = ParamsOf<'create_oauth_providers'>['oauthProviders'][number];

/** Where new credentials go. */
export interface CredentialOwner {
  organizationId: string;
  userId: string;
}

/**
 * Where a list sits in the parameters, for error fields in the dotted form of schema errors:
 * `'apiKeys'` names items `apiKeys.<i>`; a function names them itself (e.g.
 * `() => 'authenticator'` for a single item).
 */
export type ListField = string | ((index: number) => string);

function itemField(list: ListField, index: number, sub?: string): string {
  const item = typeof list === 'string' ? `${list}.${index}` : list(index);
  if (sub === undefined) return item;
  return item === '' ? sub : `${item}.${sub}`;
}

/** Longest lifetime of an API key or session: ten years, far beyond any sane expiry. */
const MAX_EXPIRATION_SECONDS = 10 * 365 * 24 * 3600;

/**
 * The user `userId` of `organizationId`; another organization's user is reported as missing.
 * @throws ApiError ERR_USER_NOT_FOUND
 */
export async function requireUser(tx: Tx, organizationId: string, userId: string, field = 'userId') {
  const [user] = await tx
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organizationId, organizationId)));
  if (!user) throw new ApiError('ERR_USER_NOT_FOUND', `user ${userId} not found in this organization`, field);
  return user;
}

/**
 * A public key in the form stamps carry and authenticate.ts looks up: compressed SEC1 hex for
 * P-256 and secp256k1 (uncompressed input is accepted and compressed), raw 32-byte hex for
 * ed25519; lowercase. @throws ApiError ERR_INVALID_PUBLIC_KEY
 */
export function normalizeApiPublicKey(curve: ApiKeyCurve, publicKey: string, field: string): string {
  try {
    if (curve === 'API_KEY_CURVE_ED25519') {
      const key = publicKey.toLowerCase();
      formatAddress({ curve: 'CURVE_ED25519', publicKey: hexToBytes(key), addressFormat: 'ADDRESS_FORMAT_COMPRESSED' });
      return key;
    }
    return compressPublicKey(curve === 'API_KEY_CURVE_P256' ? 'p256' : 'secp256k1', publicKey);
  } catch (cause) {
    throw new ApiError('ERR_INVALID_PUBLIC_KEY', `publicKey is not a valid ${curve.replace('API_KEY_CURVE_', '')} public key`, field, { cause });
  }
}

/** Expiry instant of `expirationSeconds` (decimal string) from `now`; null when absent. */
export function expiryOf(expirationSeconds: string | undefined, now: Date, field: string): Date | null {
  if (expirationSeconds === undefined) return null;
  const seconds = Number(expirationSeconds);
  if (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > MAX_EXPIRATION_SECONDS) {
    throw new ApiError('ERR_INVALID_PARAMETER', `expirationSeconds must be between 1 and ${MAX_EXPIRATION_SECONDS}`, field);
  }
  return new Date(now.getTime() + seconds * 1000);
}

/**
 * What an organization made by this transaction (create_sub_organization) holds so far, and its
 * parent (for the identity sync): it has nothing but what the request writes, so the inserts
 * below check clashes against its `sources` instead of reading back their own rows, and add what
 * they insert.
 */
export type NewOrganization = CreatedSubOrganization;

export const newOrganization = (parent: string): NewOrganization => ({ parent, sources: { people: [], keys: [], passkeys: [], providers: [] } });

/** The (iss, sub, aud) key of an OIDC identity, as the clash checks compare them. */
const oidcKey = (id: { iss: string; sub: string; aud: string }): string => JSON.stringify([id.iss, id.sub, id.aud]);

/** The refusal of a public key another API key of the organization holds (insertApiKeys; sessions.ts `openSession`). */
export function apiKeyTaken(field: string): ApiError {
  return new ApiError('ERR_ALREADY_EXISTS', 'this public key is already an API key in the organization', field);
}

/**
 * Insert API keys of a user (never session keys: sessions.ts writes those); returns their ids in order.
 * @throws ApiError ERR_INVALID_PUBLIC_KEY | ERR_INVALID_PARAMETER | ERR_ALREADY_EXISTS (key already registered in the organization)
 */
export async function insertApiKeys(
  ctx: OperationContext,
  owner: CredentialOwner,
  keys: ApiKeyInput[],
  field: ListField,
  opts: {
    syncIdentities?: boolean;
    newOrganization?: NewOrganization;
  } = {},
): Promise<string[]> {
  if (keys.length === 0) return [];
  const now = ctx.now();
  const rows = keys.map((k, i) => ({
    id: newId(),
    organizationId: owner.organizationId,
    userId: owner.userId,
    name: k.apiKeyName,
    publicKey: normalizeApiPublicKey(k.curveType, k.publicKey, itemField(field, i, 'publicKey')),
    curve: k.curveType,
    expiresAt: expiryOf(k.expirationSeconds, now, itemField(field, i, 'expirationSeconds')),
    isSession: false,
    createdAt: now,
  }));
  const publicKeys = rows.map((r) => r.publicKey);
  const repeated = publicKeys.findIndex((pk, i) => publicKeys.indexOf(pk) !== i);
  if (repeated >= 0) throw new ApiError('ERR_ALREADY_EXISTS', 'the same public key is given twice', itemField(field, repeated, 'publicKey'));
  const taken =
    (opts.newOrganization ? publicKeys.filter((pk) => opts.newOrganization!.sources.keys.some((k) => k.publicKey === pk)) : undefined) ??
    (
      await ctx.tx
        .select({ publicKey: apiKeys.publicKey })
        .from(apiKeys)
        .where(and(eq(apiKeys.organizationId, owner.organizationId), inArray(apiKeys.publicKey, publicKeys)))
    ).map((r) => r.publicKey);
  if (taken.length > 0) {
    const i = publicKeys.indexOf(taken[0]!);
    throw apiKeyTaken(itemField(field, i, 'publicKey'));
  }
  // With the transaction's next statement (store/round-trips.ts): nothing reads its answer, and a
  // key taken meanwhile (another writer committed it after the check above; never for a new
  // organization, which nobody else writes yet) fails that statement and the transaction, refused
  // as the check above refuses it: the key's field, read from the violation's row.
  if (!opts.newOrganization) {
    ctx.refuseViolation('api_keys_org_public_key_uq', (violation) => {
      const detail = violationDetail(violation) ?? '';
      const i = publicKeys.findIndex((pk) => detail.includes(pk));
      // Without a detail naming it (a driver that drops it): the list, or its one key.
      const named = i >= 0 || publicKeys.length === 1 || typeof field !== 'string';
      return apiKeyTaken(named ? itemField(field, Math.max(i, 0), 'publicKey') : field);
    });
  }
  await sendWithNext(ctx.tx, rows.length === 1 ? insertApiKey.bind(rows[0]!) : ctx.tx.insert(apiKeys).values(rows));
  // A new organization's keys are its users': its identities, and what a later key is checked against.
  opts.newOrganization?.sources.keys.push(...rows.map((r) => ({ publicKey: r.publicKey })));
  if (opts.syncIdentities !== false) await syncSubOrganizationIdentities(ctx.tx, owner.organizationId);
  return rows.map((r) => r.id);
}

/** One API key's INSERT (a session's, most often), built once (store/statements.ts). */
const insertApiKey = statement(
  'api_key_insert',
  (
    db,
    p: Placeholders<
      Required<Pick<typeof apiKeys.$inferInsert, 'id' | 'organizationId' | 'userId' | 'name' | 'publicKey' | 'curve' | 'expiresAt' | 'isSession' | 'createdAt'>>
    >,
  ) =>
    db.insert(apiKeys).values({
      id: p('id'),
      organizationId: p('organizationId'),
      userId: p('userId'),
      name: p('name'),
      publicKey: p('publicKey'),
      curve: p('curve'),
      expiresAt: p('expiresAt'),
      isSession: p('isSession'),
      createdAt: p('createdAt'),
    }),
);

/**
 * Verify the attestations and insert the passkeys of a user; returns their ids in order.
 * @throws ApiError ERR_INVALID_ATTESTATION | ERR_ALREADY_EXISTS (credential id already registered in the organization)
 */
export async function insertAuthenticators(
  ctx: OperationContext,
  owner: CredentialOwner,
  inputs: AuthenticatorInput[],
  field: ListField,
  opts: { syncIdentities?: boolean; newOrganization?: NewOrganization } = {},
): Promise<string[]> {
  if (inputs.length === 0) return [];
  const passkeys = [];
  const relyingParty = await relyingPartyFor(ctx.tx, owner.organizationId, ctx.config);
  for (const [i, input] of inputs.entries()) passkeys.push(await verifyPasskeyAttestation(input, ctx.config, itemField(field, i), relyingParty));
  const credentialIds = passkeys.map((p) => p.credentialId);
  const repeated = credentialIds.findIndex((id, i) => credentialIds.indexOf(id) !== i);
  if (repeated >= 0) throw new ApiError('ERR_ALREADY_EXISTS', 'the same passkey is given twice', itemField(field, repeated, 'attestation.credentialId'));
  const taken = opts.newOrganization
    ? credentialIds.filter((id) => opts.newOrganization!.sources.passkeys.some((p) => p.credentialId === id))
    : (
        await ctx.tx
          .select({ credentialId: authenticators.credentialId })
          .from(authenticators)
          .where(and(eq(authenticators.organizationId, owner.organizationId), inArray(authenticators.credentialId, credentialIds)))
      ).map((r) => r.credentialId);
  if (taken.length > 0) {
    const i = credentialIds.indexOf(taken[0]!);
    throw new ApiError('ERR_ALREADY_EXISTS', 'this passkey is already registered in the organization', itemField(field, i, 'attestation.credentialId'));
  }
  const now = ctx.now();
  const rows = passkeys.map((p) => ({ id: newId(), organizationId: owner.organizationId, userId: owner.userId, ...p, createdAt: now }));
  await ctx.tx.insert(authenticators).values(rows);
  opts.newOrganization?.sources.passkeys.push(...credentialIds.map((credentialId) => ({ credentialId })));
  if (opts.syncIdentities !== false) await syncSubOrganizationIdentities(ctx.tx, owner.organizationId);
  return rows.map((r) => r.id);
}

/**
 * Resolve each entry's identity (a verified `oidcToken`, or `oidcClaims` vouched for by the
 * authorized caller) and link it to the user; returns the provider ids in order.
 * @throws ApiError ERR_OIDC_TOKEN_INVALID | ERR_ALREADY_EXISTS (identity already linked in the organization)
 */
export async function insertOauthProviders(
  ctx: OperationContext,
  owner: CredentialOwner,
  inputs: OauthProviderInput[],
  field: ListField,
  opts: { syncIdentities?: boolean; newOrganization?: NewOrganization } = {},
): Promise<string[]> {
  if (inputs.length === 0) return [];
  const identities: OidcIdentity[] = [];
  for (const [i, p] of inputs.entries()) {
    // Only the identity is kept: a linked provider is matched on (iss, sub, aud) at login.
    identities.push('oidcToken' in p ? await verifyOidcToken(p.oidcToken, { ...ctx, field: itemField(field, i, 'oidcToken') }) : { ...p.oidcClaims });
  }
  const keys = identities.map(oidcKey);
  const repeated = keys.findIndex((k, i) => keys.indexOf(k) !== i);
  if (repeated >= 0) throw new ApiError('ERR_ALREADY_EXISTS', 'the same OIDC identity is given twice', itemField(field, repeated));
  const linked = opts.newOrganization
    ? new Set(opts.newOrganization.sources.providers.map(oidcKey))
    : await linkedIdentities(ctx, owner.organizationId, identities);
  const clash = keys.findIndex((k) => linked.has(k));
  if (clash >= 0) throw new ApiError('ERR_ALREADY_EXISTS', 'this OIDC identity is already linked to a user of the organization', itemField(field, clash));
  const now = ctx.now();
  const rows = identities.map((id, i) => ({
    id: newId(),
    organizationId: owner.organizationId,
    userId: owner.userId,
    providerName: inputs[i]!.providerName,
    issuer: id.iss,
    audience: id.aud,
    subject: id.sub,
    createdAt: now,
  }));
  await ctx.tx.insert(oauthProviders).values(rows);
  opts.newOrganization?.sources.providers.push(...rows.map((r) => ({ iss: r.issuer, sub: r.subject, aud: r.audience })));
  if (opts.syncIdentities !== false) await syncSubOrganizationIdentities(ctx.tx, owner.organizationId);
  return rows.map((r) => r.id);
}

/** The (iss, sub, aud) identities among `identities` already linked to a user of the organization. */
async function linkedIdentities(ctx: OperationContext, organizationId: string, identities: OidcIdentity[]): Promise<Set<string>> {
  const existing = await ctx.tx
    .select({ iss: oauthProviders.issuer, sub: oauthProviders.subject, aud: oauthProviders.audience })
    .from(oauthProviders)
    .where(
      and(
        eq(oauthProviders.organizationId, organizationId),
        inArray(
          oauthProviders.subject,
          identities.map((id) => id.sub),
        ),
      ),
    );
  return new Set(existing.map(oidcKey));
}
