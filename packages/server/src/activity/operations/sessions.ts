/**
 * Logging in and recovering (spec B: stamp_login, recover_user). A login registers the
 * client's P-256 key as an expiring session API key of the stamping user and returns a
 * session JWT describing it (DESIGN section 2, "Session JWT"); requests are then authorized
 * by stamps from that key, never by presenting the JWT.
 */
import { ApiError } from '../../errors.js';
import { newId } from '../../store/ids.js';
import { sendWithNext } from '../../store/round-trips.js';
import type { HandlerTable, OperationContext } from '../context.js';
import { apiKeyTaken, expiryOf, insertAuthenticators, normalizeApiPublicKey, requireUser, type CredentialOwner } from './users-credentials.js';
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
  // Signed on a signer thread while the statement below runs (decision 0029): the transaction
  // waits for it only if the thread is slower. Unused when the activity is refused.
  const signed = ctx.enclave.signJwtOnThread({ ...claims });
  signed.catch(() => {});
  // One statement (sessionKeyText), sent with the transaction's next (nothing reads its answer): the
  // session keys this login replaces go, and the new one is written. A key some other key of the
  // organization holds (another user's, the user's own registered key, or a racing login's) fails
  // it on the organization's unique index (migration 0013, decision 0033), and the activity is
  // refused as the key's holder would be refused.
  ctx.refuseViolation('api_keys_org_public_key_uq', () => apiKeyTaken('publicKey'));
  await sendWithNext(ctx.tx, {
    name: input.invalidateExisting ? 'wk_session_key_only' : 'wk_session_key_renewed',
    text: input.invalidateExisting ? SESSION_KEY_ONLY : SESSION_KEY_RENEWED,
    values: [owner.organizationId, owner.userId, publicKey, newId(), `session ${now.toISOString()}`, expiresAt.toISOString(), now.toISOString()],
  });
  return signed;
}

/**
 * A login's session key, in one statement ($1 organization, $2 user, $3 the key, $4-$7 the new
 * row's id, name, expiry and creation). `gone`: the user's session keys this login replaces (the
 * same key renewed, or with invalidateExisting every one). The INSERT reads `(SELECT count(*) FROM
 * gone)`, so the DELETE completes before it runs and a renewed key's old row no longer conflicts
 * with the new one in api_keys_org_public_key_uq.
 */
const sessionKeyText = (replaced: string) => `
  WITH gone AS (
    DELETE FROM api_keys WHERE organization_id = $1 AND user_id = $2 AND is_session ${replaced} RETURNING id
  )
  INSERT INTO api_keys (id, organization_id, user_id, name, public_key, curve, expires_at, is_session, created_at)
  SELECT $4, $1, $2, $5, $3, 'API_KEY_CURVE_P256', $6::timestamptz, true, $7::timestamptz
  WHERE (SELECT count(*) FROM gone) >= 0`;
const SESSION_KEY_RENEWED = sessionKeyText('AND public_key = $3');
const SESSION_KEY_ONLY = sessionKeyText('');

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
