/**
 * Reads of the authentication proxy: get_auth_proxy_config (never the sealed key) and
 * list_suborgs, the account lookup behind the proxy's /v1/account (Turnkey's get_sub_org_ids).
 * Identities come from sub_org_identities (see operations/identities.ts); user names, which are
 * not unique, from the users of the sub-organizations.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { QueryRequestOf } from '@walletkit/protocol';
import { ApiError } from '../../errors.js';
import { verifyOidcToken } from '../../oauth/oidc.js';
import { proxyConfigOfOrganization } from '../../proxy/repository.js';
import { organizations, subOrganizationIdentities, users } from '../../store/schema.js';
import { normalizeEmail, normalizeLookupPublicKey, oidcIdentityValue, type IdentityKind } from '../operations/identities.js';
import type { QueryContext, QueryTable } from './context.js';

/** The stored kind and normalized value a filter matches. */
async function identityOf(request: QueryRequestOf<'list_suborgs'>, ctx: QueryContext): Promise<{ kind: IdentityKind; value: string }> {
  const value = request.filterValue;
  switch (request.filterType) {
    case 'EMAIL':
      return { kind: 'EMAIL', value: normalizeEmail(value) };
    case 'PHONE_NUMBER':
      return { kind: 'PHONE_NUMBER', value: value.trim() };
    case 'CREDENTIAL_ID':
      return { kind: 'CREDENTIAL_ID', value: value.trim() };
    case 'PUBLIC_KEY':
      return { kind: 'PUBLIC_KEY', value: normalizeLookupPublicKey(value) };
    case 'OIDC_TOKEN': {
      // The token must verify (issuer keys, expiry): an unverified one would let anyone probe identities.
      const token = await verifyOidcToken(value, { config: ctx.config, enclave: ctx.enclave, fetch: ctx.fetch, now: ctx.now, field: 'filterValue' });
      return { kind: 'OIDC', value: oidcIdentityValue(token) };
    }
    default:
      throw new ApiError('ERR_INVALID_REQUEST', `unsupported filterType ${String(request.filterType)}`, 'filterType');
  }
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

  list_suborgs: async (request, ctx) => {
    if (request.filterType === 'USERNAME') {
      const rows = await ctx.db
        .selectDistinct({ id: organizations.id })
        .from(users)
        .innerJoin(organizations, eq(organizations.id, users.organizationId))
        .where(and(eq(organizations.parentOrganizationId, ctx.organizationId), eq(users.userName, request.filterValue)))
        .orderBy(asc(organizations.id));
      return { organizationIds: rows.map((r) => r.id) };
    }
    const { kind, value } = await identityOf(request, ctx);
    const rows = await ctx.db
      .select({ id: subOrganizationIdentities.subOrganizationId })
      .from(subOrganizationIdentities)
      .where(
        and(
          eq(subOrganizationIdentities.parentOrganizationId, ctx.organizationId),
          eq(subOrganizationIdentities.kind, kind),
          eq(subOrganizationIdentities.value, value),
        ),
      );
    return { organizationIds: rows.map((r) => r.id) };
  },
} satisfies QueryTable;
