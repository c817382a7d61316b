/**
 * Reads of the authentication proxy: get_auth_proxy_config (never the sealed key) and
 * list_suborgs (Turnkey's get_sub_org_ids), which is also the proxy's account lookup. Identities
 * come from sub_org_identities (see operations/identities.ts); user names, sub-organization
 * names and wallet addresses, which are not unique, from their own tables. The proofs the proxy
 * passes on (`verificationToken`, `oidcToken`) are verified here before the reply says anything.
 */
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { QueryRequestOf } from '@walletkit/protocol';
import { ApiError } from '../../errors.js';
import { verifyOidcToken } from '../../oauth/oidc.js';
import { proxyConfigOfOrganization } from '../../store/proxy-configs.js';
import { apiKeys, organizations, subOrganizationIdentities, usedVerificationTokens, users, walletAccounts } from '../../store/schema.js';
import { type Placeholders, statement } from '../../store/statements.js';
import { normalizeEmail, normalizeLookupPublicKey, oidcIdentityValue, type IdentityKind } from '../operations/identities.js';
import { type VerificationClaims, verificationClaimsOnThread } from '../operations/users-verification.js';
import type { QueryContext, QueryTable } from './context.js';

type Request = QueryRequestOf<'list_suborgs'>;

/** An identity as sub_org_identities stores it. */
interface Identity {
  kind: IdentityKind;
  value: string;
}

/**
 * The identity filters (the rest match other tables: filterCondition), each with the stored kind
 * and normalized value it matches. An OIDC token must verify (issuer keys, expiry): an unverified
 * one would let anyone probe identities.
 */
const IDENTITY_FILTERS = {
  EMAIL: (value: string): Identity => ({ kind: 'EMAIL', value: normalizeEmail(value) }),
  PHONE_NUMBER: (value: string): Identity => ({ kind: 'PHONE_NUMBER', value: value.trim() }),
  CREDENTIAL_ID: (value: string): Identity => ({ kind: 'CREDENTIAL_ID', value: value.trim() }),
  PUBLIC_KEY: (value: string): Identity => ({ kind: 'PUBLIC_KEY', value: normalizeLookupPublicKey(value) }),
  OIDC_TOKEN: async (value: string, ctx: QueryContext): Promise<Identity> => {
    const token = await verifyOidcToken(value, { config: ctx.config, enclave: ctx.enclave, fetch: ctx.fetch, now: ctx.now, field: 'filterValue' });
    return { kind: 'OIDC', value: oidcIdentityValue(token) };
  },
};

function isIdentityFilter(filterType: Request['filterType']): filterType is keyof typeof IDENTITY_FILTERS {
  return filterType !== undefined && Object.hasOwn(IDENTITY_FILTERS, filterType);
}

/** The stored kind and normalized value an identity filter matches. @throws ApiError ERR_INVALID_REQUEST for another filter */
async function identityOf(filterType: Request['filterType'], value: string, ctx: QueryContext): Promise<Identity> {
  if (!isIdentityFilter(filterType)) throw new ApiError('ERR_INVALID_REQUEST', `unsupported filterType ${String(filterType)}`, 'filterType');
  return IDENTITY_FILTERS[filterType](value, ctx);
}

/**
 * Sub-organizations of `parent` with the identity (`kind`, `value`): values or placeholders.
 * Driven by the identity's primary key (parent, kind, value): one index lookup however many
 * sub-organizations the parent has (a correlated EXISTS walked all of them).
 */
function identityIn(parent: unknown, kind: unknown, value: unknown): SQL {
  return sql`${organizations.id} in (select ${subOrganizationIdentities.subOrganizationId} from ${subOrganizationIdentities}
    where ${subOrganizationIdentities.parentOrganizationId} = ${parent}
    and ${subOrganizationIdentities.kind} = ${kind} and ${subOrganizationIdentities.value} = ${value})`;
}

/** Whether the verification token `tokenId` was used (a value or a placeholder; NULL: false). */
function tokenUsed(tokenId: unknown): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${usedVerificationTokens} where ${usedVerificationTokens.tokenId} = ${tokenId})`;
}

/** The condition on `organizations` a filter puts (the sub-organizations of the target are implied). */
async function filterCondition(request: Request, ctx: QueryContext): Promise<SQL | undefined> {
  const { filterType, filterValue } = request;
  if (filterType === undefined && filterValue === undefined) return undefined;
  if (filterType === undefined) throw new ApiError('ERR_INVALID_REQUEST', 'filterValue needs a filterType', 'filterType');
  if (filterValue === undefined) throw new ApiError('ERR_INVALID_REQUEST', 'filterType needs a filterValue', 'filterValue');
  switch (filterType) {
    case 'USERNAME':
      return sql`exists (select 1 from ${users} where ${users.organizationId} = ${organizations.id} and ${users.userName} = ${filterValue})`;
    case 'NAME':
      return eq(organizations.name, filterValue);
    case 'WALLET_ACCOUNT_ADDRESS': {
      const address = filterValue.trim();
      // Ethereum addresses match in any letter case (checksummed or not); others exactly (base58 is case-sensitive).
      const matches = /^0x[0-9a-fA-F]{40}$/.test(address)
        ? sql`lower(${walletAccounts.address}) = ${address.toLowerCase()}`
        : eq(walletAccounts.address, address);
      return sql`exists (select 1 from ${walletAccounts} where ${walletAccounts.organizationId} = ${organizations.id} and ${matches})`;
    }
    default: {
      const { kind, value } = await identityOf(filterType, filterValue, ctx);
      if (request.apiKeyCurve !== undefined) {
        if (kind !== 'PUBLIC_KEY') throw new ApiError('ERR_INVALID_REQUEST', 'apiKeyCurve goes with a PUBLIC_KEY filter', 'apiKeyCurve');
        return sql`${organizations.id} in (select ${apiKeys.organizationId} from ${apiKeys} where ${apiKeys.publicKey} = ${value}
          and ${apiKeys.curve} = ${request.apiKeyCurve} and not ${apiKeys.isSession})`;
      }
      return identityIn(ctx.organizationId, kind, value);
    }
  }
}

/** Whether a verification token was used, built once (store/statements.ts). */
const usedToken = statement('verification_token_used', (db, p: Placeholders<{ tokenId: string }>) =>
  db
    .select({ id: usedVerificationTokens.tokenId })
    .from(usedVerificationTokens)
    .where(eq(usedVerificationTokens.tokenId, p('tokenId'))),
);

/**
 * The verification token of a lookup, verified (signature, expiry, shape) before anything is
 * read, so a forged one costs no database work; undefined without one. Its signature is checked
 * on a signer thread and remembered, so the login that spends it next checks its times alone
 * (`Enclave.verifyJwtOnThread`).
 * @throws ApiError ERR_VERIFICATION_TOKEN_INVALID
 */
async function tokenClaimsOf(request: Request, ctx: QueryContext): Promise<VerificationClaims | undefined> {
  if (request.verificationToken === undefined) return undefined;
  return verificationClaimsOnThread(ctx.enclave, request.verificationToken, () => ctx.now().getTime(), 'verificationToken');
}

/**
 * Check the proofs of a lookup: each given one verifies, is of the target organization (or of a
 * sub-organization found), is not used yet (a verification token: `used`, read with the lookup
 * when it found a row, else here), and for an EMAIL or PHONE_NUMBER filter proves that very
 * contact.
 * @throws ApiError ERR_VERIFICATION_TOKEN_INVALID | ERR_OIDC_TOKEN_INVALID
 */
async function checkProofs(
  request: Request,
  ctx: QueryContext,
  found: string[],
  claims: VerificationClaims | undefined,
  used: boolean | undefined,
): Promise<void> {
  const contact = request.filterType === 'EMAIL' || request.filterType === 'PHONE_NUMBER' ? request.filterValue : undefined;
  if (claims !== undefined) {
    const field = 'verificationToken';
    if (claims.organization_id !== ctx.organizationId && !found.includes(claims.organization_id)) {
      throw new ApiError('ERR_VERIFICATION_TOKEN_INVALID', 'the verification token was issued for another organization', field);
    }
    // A used token proves nothing any more (single use): it must not keep answering lookups.
    if (used ?? (await usedToken.run(ctx.db, { tokenId: claims.id })).length > 0) {
      throw new ApiError('ERR_VERIFICATION_TOKEN_INVALID', 'the verification token has already been used', field);
    }
    if (contact !== undefined) {
      const kind = request.filterType === 'EMAIL' ? 'EMAIL' : 'PHONE_NUMBER';
      const wanted = kind === 'EMAIL' ? 'OTP_TYPE_EMAIL' : 'OTP_TYPE_SMS';
      const same = kind === 'EMAIL' ? normalizeEmail(claims.contact) === normalizeEmail(contact) : claims.contact.trim() === contact.trim();
      if (claims.verification_type !== wanted || !same)
        throw new ApiError('ERR_VERIFICATION_TOKEN_INVALID', 'the verification token was issued for another contact', field);
    }
  }
  if (request.oidcToken !== undefined) {
    const field = 'oidcToken';
    const identity = await verifyOidcToken(request.oidcToken, { config: ctx.config, enclave: ctx.enclave, fetch: ctx.fetch, now: ctx.now, field });
    if (contact !== undefined) {
      const proves =
        request.filterType === 'EMAIL' &&
        identity.emailVerified === true &&
        identity.email !== undefined &&
        normalizeEmail(identity.email) === normalizeEmail(contact);
      if (!proves) throw new ApiError('ERR_OIDC_TOKEN_INVALID', 'the OIDC token does not prove this contact (a verified email equal to filterValue)', field);
    }
  }
}

/**
 * list_suborgs by an identity (the proxy's account lookup at every login: EMAIL, PHONE_NUMBER,
 * CREDENTIAL_ID, OIDC_TOKEN, PUBLIC_KEY), first page forward: the statement `list_suborgs`
 * builds for it, built once (store/statements.ts). `tokenId` NULL when no verification token
 * came (`used` is then false: `= NULL` matches nothing).
 */
const byIdentity = statement(
  'suborgs_by_identity',
  (db, p: Placeholders<{ organizationId: string; kind: IdentityKind; value: string; tokenId: string | null; limit: number }>) =>
    db
      .select({ id: organizations.id, used: tokenUsed(p('tokenId')) })
      .from(organizations)
      .where(and(eq(organizations.parentOrganizationId, p('organizationId')), identityIn(p('organizationId'), p('kind'), p('value'))))
      .orderBy(asc(organizations.createdAt), asc(organizations.id))
      .limit(p('limit')),
);

/** The (created at, id) position of a page cursor: a sub-organization of the target. @throws ApiError ERR_INVALID_PARAMETER */
async function cursorOf(ctx: QueryContext, id: string, field: string): Promise<SQL> {
  const [row] = await ctx.db
    .select({ createdAt: organizations.createdAt })
    .from(organizations)
    .where(and(eq(organizations.id, id), eq(organizations.parentOrganizationId, ctx.organizationId)));
  if (!row) throw new ApiError('ERR_INVALID_PARAMETER', `${id} is not a sub-organization of this organization`, field);
  return sql`(${row.createdAt}, ${id})`;
}

/** A lookup's rows in the order of the answer (whether the token was used rides on each) and the token's claims. */
interface Found {
  rows: Array<{ id: string; used: boolean }>;
  claims: VerificationClaims | undefined;
}

/** Whether `byIdentity` answers the request: an identity filter, no `apiKeyCurve`, no cursor. */
function builtLookupAnswers(request: Request): boolean {
  const page = request.paginationOptions;
  return (
    isIdentityFilter(request.filterType) &&
    request.filterValue !== undefined &&
    request.apiKeyCurve === undefined &&
    page?.after === undefined &&
    page?.before === undefined
  );
}

/** The login's lookup (`builtLookupAnswers`), by the statement built once. */
async function lookupByIdentity(request: Request, ctx: QueryContext): Promise<Found> {
  const { kind, value } = await identityOf(request.filterType, request.filterValue as string, ctx);
  const claims = await tokenClaimsOf(request, ctx);
  const rows = await byIdentity.run(ctx.db, {
    organizationId: ctx.organizationId,
    kind,
    value,
    tokenId: claims?.id ?? null,
    limit: Number(request.paginationOptions?.limit ?? '10'),
  });
  return { rows, claims };
}

/** Any other lookup: its filter, cursors and order built for the request. */
async function lookupPage(request: Request, ctx: QueryContext): Promise<Found> {
  const page = request.paginationOptions;
  const conditions: Array<SQL | undefined> = [eq(organizations.parentOrganizationId, ctx.organizationId), await filterCondition(request, ctx)];
  const position = sql`(${organizations.createdAt}, ${organizations.id})`;
  if (page?.after !== undefined) conditions.push(sql`${position} > ${await cursorOf(ctx, page.after, 'paginationOptions.after')}`);
  if (page?.before !== undefined) conditions.push(sql`${position} < ${await cursorOf(ctx, page.before, 'paginationOptions.before')}`);
  const backwards = page?.before !== undefined && page.after === undefined;
  const order = backwards ? [desc(organizations.createdAt), desc(organizations.id)] : [asc(organizations.createdAt), asc(organizations.id)];
  const claims = await tokenClaimsOf(request, ctx);
  // Whether the token was used rides on every row found: a login's lookup is one round trip.
  const rows = await ctx.db
    .select({ id: organizations.id, used: tokenUsed(claims?.id ?? null) })
    .from(organizations)
    .where(and(...conditions))
    .orderBy(...order)
    .limit(Number(page?.limit ?? '10'));
  return { rows: backwards ? rows.reverse() : rows, claims };
}

export const authProxyQueries = {
  get_auth_proxy_config: async (_request, ctx) => {
    const row = await proxyConfigOfOrganization(ctx.db, ctx.organizationId);
    if (!row) throw new ApiError('ERR_CONFIG_NOT_FOUND', 'the organization has no proxy configuration');
    return {
      config: {
        configId: row.id,
        organizationId: row.organizationId,
        enabled: row.enabled,
        settings: row.settings,
        proxyUserId: row.proxyUserId,
        proxyApiPublicKey: row.proxyApiPublicKey,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      },
    };
  },

  /**
   * Sub-organizations of the target in creation order (then id), `paginationOptions` as
   * everywhere (default 10, at most 100; `after`/`before` are sub-organization ids of the
   * target), optionally filtered.
   */
  list_suborgs: async (request, ctx) => {
    const { rows, claims } = builtLookupAnswers(request) ? await lookupByIdentity(request, ctx) : await lookupPage(request, ctx);
    const organizationIds = rows.map((r) => r.id);
    await checkProofs(request, ctx, organizationIds, claims, rows[0]?.used);
    return { organizationIds };
  },
} satisfies QueryTable;
