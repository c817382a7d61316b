/**
 * OAuth 2.0 for providers without OIDC (spec B: create_oauth2_credential,
 * oauth2_authenticate): the integrator's client secret is stored encrypted to the enclave; a
 * login's authorization code is exchanged server-side (PKCE) and answered with an id token
 * issued by this server, which oauth_login and create_oauth_providers accept.
 */
import { and, eq } from 'drizzle-orm';
import { compressPublicKey } from '@walletkit/crypto';
import { ApiError } from '../../errors.js';
import type { ProviderUser } from '../../oauth/code-exchange.js';
import { issueOidcToken } from '../../oauth/issued-token.js';
import { newId } from '../../store/ids.js';
import { oauth2Credentials } from '../../store/schema.js';
import type { ParamsOf } from '@walletkit/protocol';
import type { Executor } from '../../store/db.js';
import type { HandlerTable, PrefetchTable, Services } from '../context.js';

type Credential = typeof oauth2Credentials.$inferSelect;
/** What the code exchange yields: the provider's user, for the credential it was made with. */
interface ProviderLogin {
  credentialId: string;
  issuer: string;
  user: ProviderUser;
}

/** A bad key is a 400, although the result has no field to carry an encrypted provider token yet. */
function checkBearerTarget(key: string | undefined): void {
  if (key === undefined) return;
  try {
    compressPublicKey('p256', key);
  } catch (cause) {
    throw new ApiError('ERR_INVALID_PUBLIC_KEY', 'bearerTokenTargetPublicKey is not a P-256 public key', 'bearerTokenTargetPublicKey', { cause });
  }
}

/** The organization's credential. @throws ApiError ERR_OAUTH2_CREDENTIAL_NOT_FOUND */
async function credentialOf(db: Executor, organizationId: string, oauth2CredentialId: string): Promise<Credential> {
  const [credential] = await db
    .select()
    .from(oauth2Credentials)
    .where(and(eq(oauth2Credentials.id, oauth2CredentialId), eq(oauth2Credentials.organizationId, organizationId)));
  if (!credential)
    throw new ApiError('ERR_OAUTH2_CREDENTIAL_NOT_FOUND', `no OAuth 2.0 credential ${oauth2CredentialId} in this organization`, 'oauth2CredentialId');
  return credential;
}

/** Exchange the code (PKCE; the client secret is opened inside the enclave for this exchange only) and read the provider's user. */
async function exchangeForUser(ctx: Services, credential: Credential, params: ParamsOf<'oauth2_authenticate'>): Promise<ProviderLogin> {
  const endpoints = ctx.config.oauth2Providers[credential.provider as keyof typeof ctx.config.oauth2Providers];
  if (!endpoints) throw new ApiError('ERR_INTERNAL', `no endpoints configured for ${credential.provider}`);
  const user = await ctx.enclave.oauth2Login(credential.clientSecretEncrypted, ctx.fetch, endpoints, {
    clientId: credential.clientId,
    code: params.authCode,
    redirectUri: params.redirectUri,
    codeVerifier: params.codeVerifier,
  });
  return { credentialId: credential.id, issuer: endpoints.issuer, user };
}

/** The provider calls of oauth2_authenticate, made before its transaction (context.ts, OperationPrefetch). */
export const oauth2Prefetchers = {
  oauth2_authenticate: async (params, ctx) => {
    checkBearerTarget(params.bearerTokenTargetPublicKey);
    return exchangeForUser(ctx, await credentialOf(ctx.db, ctx.organizationId, params.oauth2CredentialId), params);
  },
} satisfies PrefetchTable;

export const oauth2Handlers = {
  /** Store a client credential; the secret must decrypt with the enclave's encryption key. */
  create_oauth2_credential: async (params, ctx) => {
    const sealed = await ctx.enclave.acceptCallerSecret(params.encryptedClientSecret, 'encryptedClientSecret');
    const id = newId();
    const now = ctx.now();
    await ctx.tx.insert(oauth2Credentials).values({
      id,
      organizationId: ctx.organizationId,
      provider: params.provider,
      clientId: params.clientId,
      clientSecretEncrypted: sealed,
      createdAt: now,
      updatedAt: now,
    });
    return { oauth2CredentialId: id };
  },

  /** Issue an id token for the provider user the prefetcher found (the code exchange ran outside the transaction). */
  oauth2_authenticate: async (params, ctx) => {
    checkBearerTarget(params.bearerTokenTargetPublicKey);
    // Read again inside the transaction: the credential must still belong to this organization.
    const credential = await credentialOf(ctx.tx, ctx.organizationId, params.oauth2CredentialId);
    const fetched = ctx.prefetched as ProviderLogin | undefined;
    // An activity approved later (consensus) has no prefetch: it exchanges the code now.
    const login = fetched?.credentialId === credential.id ? fetched : await exchangeForUser(ctx, credential, params);
    const oidcToken = issueOidcToken(ctx.enclave, ctx.config, {
      // Stable per provider account: every provider shares our issuer, so prefix theirs.
      sub: `${login.issuer}|${login.user.id}`,
      aud: credential.clientId,
      nonce: params.nonce,
      now: ctx.now(),
      ...(login.user.email !== undefined ? { email: login.user.email } : {}),
      ...(login.user.emailVerified !== undefined ? { emailVerified: login.user.emailVerified } : {}),
    });
    return { oidcToken };
  },
} satisfies HandlerTable;
