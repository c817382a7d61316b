/**
 * Logging in and recovering (spec B: stamp_login, recover_user). A login registers the
 * client's P-256 key as an expiring session API key of the stamping user and returns a
 * session JWT describing it (DESIGN section 2, "Session JWT"); requests are then authorized
 * by stamps from that key, never by presenting the JWT.
 */
import { sql } from 'drizzle-orm';
import { ApiError } from '../../errors.js';
import type { HandlerTable, OperationContext } from '../context.js';
import { expiryOf, insertApiKeys, insertAuthenticators, normalizeApiPublicKey, requireUser, type CredentialOwner } from './users-credentials.js';
import { spendVerificationToken } from './users-verification.js';

/** Spec limits: "Default session expiration when expirationSeconds is absent: 15 minutes". */
export const DEFAULT_SESSION_SECONDS = 900;

/** Claims of a session JWT. */
export interface SessionClaims {
  exp: number;
  public_key: string;
  session_type: 'SESSION_TYPE_READ_WRITE';
  user_id: string;
  organization_id: string;
}

/**
 * Register `publicKey` (compressed P-256) as a session key of `owner` and sign its session
 * JWT. Logging in again with the same key renews it; `invalidateExisting` first removes every
 * other session key of the user.
 * @example const session = await openSession(ctx, { organizationId, userId }, { publicKey, invalidateExisting: true });
 */
export async function openSession(
  ctx: OperationContext,
  owner: CredentialOwner,
  input: {
    publicKey: string;
    /** `publicKey` compressed, when a check already proved it a P-256 point (the client signature's, on a signer thread). */
    checkedPublicKey?: string;
    expirationSeconds?: string;
    invalidateExisting?: boolean;
  },
): Promise<string> {
  const publicKey = input.checkedPublicKey ?? normalizeApiPublicKey('API_KEY_CURVE_P256', input.publicKey, 'publicKey');
  const now = ctx.now();
  const expiresAt = expiryOf(input.expirationSeconds ?? String(DEFAULT_SESSION_SECONDS), now, 'expirationSeconds')!;
  const claims: SessionClaims = {
    exp: Math.floor(expiresAt.getTime() / 1000),
    public_key: publicKey,
    session_type: 'SESSION_TYPE_READ_WRITE',
    user_id: owner.userId,
    organization_id: owner.organizationId,
  };
  // Signed on a signer thread while the statements below run (decision 0029): the transaction
  // waits for it only if the thread is slower than they are. Unused when a statement refuses.
  const signed = ctx.enclave.signJwtOnThread({ ...claims });
  signed.catch(() => {});
  // One statement: the session keys this login replaces go (the same key renewed, or every one
  // with invalidateExisting), and whatever else in the organization holds the key is read. The
  // CTE's DELETE and the SELECT see one snapshot, so the rows deleted are left out by id.
  const renewed = input.invalidateExisting ? sql`` : sql`AND public_key = ${publicKey}`;
  const holders = (await ctx.tx.execute(sql`
    WITH gone AS (
      DELETE FROM api_keys WHERE organization_id = ${owner.organizationId} AND user_id = ${owner.userId} AND is_session ${renewed} RETURNING id
    )
    SELECT public_key FROM api_keys
    WHERE organization_id = ${owner.organizationId} AND public_key = ${publicKey} AND id NOT IN (SELECT id FROM gone)
    LIMIT 1`)) as unknown as { rows: Array<{ public_key: string }> };
  await insertApiKeys(
    ctx,
    owner,
    [
      {
        apiKeyName: `session ${now.toISOString()}`,
        publicKey,
        curveType: 'API_KEY_CURVE_P256',
        expirationSeconds: String(Math.round((expiresAt.getTime() - now.getTime()) / 1000)),
      },
    ],
    () => '',
    { isSession: true, taken: holders.rows.map((r) => r.public_key) },
  );
  return signed;
}

export const sessionHandlers = {
  /**
   * Spec B: a session for the user whose passkey or API key stamped the request, or whom an
   * X-Stamp-Attested stamp proved (decision 0020): then the session key is the attested key and
   * a verification token is spent here, in the activity's transaction (its one login).
   * @throws ApiError ERR_INVALID_PARAMETER (attested: another session key) | ERR_VERIFICATION_TOKEN_INVALID (attested: token already used)
   */
  stamp_login: async (params, ctx) => {
    const owner = { organizationId: ctx.caller.organizationId, userId: ctx.caller.userId };
    const { credential } = ctx.caller;
    if (credential.kind === 'attested') {
      // The attestation binds one key: that key, and no other, gets the session.
      if (normalizeApiPublicKey('API_KEY_CURVE_P256', params.publicKey, 'publicKey') !== credential.publicKey) {
        throw new ApiError('ERR_INVALID_PARAMETER', 'publicKey must be the key of the attested stamp', 'publicKey');
      }
      // The user was resolved before the transaction: it must still be there.
      await requireUser(ctx.tx, owner.organizationId, owner.userId);
      if (credential.verificationTokenId !== undefined) {
        await spendVerificationToken(
          ctx,
          credential.verificationTokenId,
          { purpose: 'login', subOrganizationId: owner.organizationId, afterSignup: true },
          'publicKeyAttestation',
        );
      }
    }
    const session = await openSession(ctx, owner, {
      publicKey: params.publicKey,
      ...(params.expirationSeconds !== undefined ? { expirationSeconds: params.expirationSeconds } : {}),
      ...(params.invalidateExisting !== undefined ? { invalidateExisting: params.invalidateExisting } : {}),
    });
    return { session };
  },

  /** Spec B: give a user who lost their credentials a new passkey (attestation verified). */
  recover_user: async (params, ctx) => {
    const user = await requireUser(ctx.tx, ctx.organizationId, params.userId);
    const authenticatorId = await insertAuthenticators(
      ctx,
      { organizationId: ctx.organizationId, userId: user.id },
      [params.authenticator],
      () => 'authenticator',
    );
    return { authenticatorId };
  },
} satisfies HandlerTable;
