/**
 * Verification tokens (DESIGN section 2): ES256 JWTs by the enclave key proving that someone
 * received a one-time code at `contact`. Consuming one records its id in
 * `used_verification_tokens` inside the activity's transaction, so it is spent across server
 * instances and becomes usable again if the activity fails and rolls back. A token is used
 * once, with one exception (decision 0020): a signup may be followed by one login of the
 * sub-organization it created, as Turnkey's signUpWithOtp does with the token it signed up with.
 */
import { and, eq } from 'drizzle-orm';
import { compressPublicKey, CryptoError, verifyClientSignature } from '@walletkit/crypto';
import { verificationClaimsFrom, type OtpType, type ParamsOf, type VerificationTokenClaims } from '@walletkit/protocol';
import { ApiError } from '../../errors.js';
import type { Tx } from '../../store/db.js';
import { organizations, usedVerificationTokens, users } from '../../store/schema.js';
import { type Placeholders, statement } from '../../store/statements.js';
import type { Caller, OperationContext } from '../context.js';
import type { Enclave } from '../../enclave/index.js';

/** Claims of a verification token (`@walletkit/protocol`'s, parsed by its `verificationClaimsFrom`). */
export type VerificationClaims = VerificationTokenClaims;

type ClientSignatureInput = NonNullable<ParamsOf<'create_sub_organization'>['clientSignature']>;

function invalid(message: string, field: string, cause?: unknown): ApiError {
  return new ApiError('ERR_VERIFICATION_TOKEN_INVALID', message, field, cause === undefined ? undefined : { cause });
}

/**
 * The organization and its parent (OTP codes of end users are initiated in the parent). A caller
 * authenticated by API key brings them: its facts were read at the versions of the target and its
 * parent (facts.ts), and the activity's guarded INSERT has just checked that both still hold, so
 * no statement is needed (an organization's parent never changes).
 */
export async function organizationAndParent(tx: Tx, organizationId: string, caller?: Pick<Caller, 'versions'>): Promise<string[]> {
  const versions = caller?.versions;
  if (versions !== undefined && versions.length > 0 && versions[0]![0] === organizationId) {
    return versions.length > 1 ? [organizationId, versions[1]![0]] : [organizationId];
  }
  const [org] = await tx.select({ parent: organizations.parentOrganizationId }).from(organizations).where(eq(organizations.id, organizationId));
  return org?.parent ? [organizationId, org.parent] : [organizationId];
}

/**
 * Whether the caller may vouch for the contacts it writes on users of an organization whose
 * parent is `parentOrganizationId` (SECURITY.md, "Identities"): a user of that parent (the
 * integrator, which controls its sub-organizations anyway) other than the authentication
 * proxy's user. End users and the anonymous proxy cannot: their contacts are profile data
 * until a verification token proves them.
 * @example const vouched = await callerVouchesForContacts(ctx, (await organizationAndParent(ctx.tx, ctx.organizationId, ctx.caller))[1]);
 */
export async function callerVouchesForContacts(ctx: OperationContext, parentOrganizationId: string | undefined): Promise<boolean> {
  if (parentOrganizationId === undefined || parentOrganizationId !== ctx.caller.organizationId) return false;
  const [caller] = await ctx.tx.select({ isProxy: users.isProxy }).from(users).where(eq(users.id, ctx.caller.userId));
  return caller !== undefined && !caller.isProxy;
}

/**
 * The claims of a verification token this server issued: signature and expiry checked against
 * the enclave key, then the claims read by the one parser of them (`verificationClaimsFrom` of
 * @walletkit/protocol, which the proxy also routes by): sessions and issued id tokens are signed
 * by the same key, so the shape tells them apart, and one without `exp` is not one.
 * @example const { contact, verification_type } = verificationClaimsOf(enclave, token, () => now.getTime());
 * @throws ApiError ERR_VERIFICATION_TOKEN_INVALID
 */
export function verificationClaimsOf(enclave: Pick<Enclave, 'verifyJwt'>, token: string, now: () => number, field = 'verificationToken'): VerificationClaims {
  let payload: unknown;
  try {
    payload = enclave.verifyJwt<unknown>(token, now);
  } catch (cause) {
    throw tokenRefusal(cause, field);
  }
  return claimsOfPayload(payload, field);
}

/**
 * {@link verificationClaimsOf} with the signature checked on a signer thread, once per token
 * (`Enclave.verifyJwtOnThread`): for the checks made outside a transaction, the proxy's account
 * lookup and the prefetchers (decision 0029).
 * @throws ApiError ERR_VERIFICATION_TOKEN_INVALID
 */
export async function verificationClaimsOnThread(
  enclave: Pick<Enclave, 'verifyJwtOnThread'>,
  token: string,
  now: () => number,
  field = 'verificationToken',
): Promise<VerificationClaims> {
  let payload: unknown;
  try {
    payload = await enclave.verifyJwtOnThread<unknown>(token, now);
  } catch (cause) {
    // A thread that failed is the server's failure, not the token's.
    if (!(cause instanceof CryptoError)) throw cause;
    throw tokenRefusal(cause, field);
  }
  return claimsOfPayload(payload, field);
}

/** The refusal of a token whose JWT did not verify: expired, or not the enclave's. */
function tokenRefusal(cause: unknown, field: string): ApiError {
  const expired = (cause as { code?: string }).code === 'ERR_JWT_EXPIRED';
  return invalid(expired ? 'the verification token has expired' : 'the verification token does not verify', field, cause);
}

/** A verified JWT's claims read as a verification token's (sessions and issued id tokens are signed by the same key). */
function claimsOfPayload(payload: unknown, field: string): VerificationClaims {
  const claims = verificationClaimsFrom(payload);
  if (!claims) throw invalid('the token is not a verification token', field);
  return claims;
}

/** A verification token checked before the transaction (verifyVerificationToken): its claims, or the refusal to raise in it. */
export type VerifiedToken = { claims: VerificationClaims } | { error: ApiError };

/**
 * {@link verificationClaimsOnThread} before the activity's transaction (a prefetcher), so that its
 * ES256 verification holds no transaction (issue 14) nor the event loop. It never throws a
 * refusal: the refusal is raised by the handler, in the transaction, where it becomes the
 * activity's stored failure as before.
 * @example const token = await verifyVerificationToken(ctx.enclave, params.verificationToken, () => ctx.now().getTime());
 */
export async function verifyVerificationToken(
  enclave: Pick<Enclave, 'verifyJwtOnThread'>,
  token: string,
  now: () => number,
  field = 'verificationToken',
): Promise<VerifiedToken> {
  try {
    return { claims: await verificationClaimsOnThread(enclave, token, now, field) };
  } catch (err) {
    if (err instanceof ApiError) return { error: err };
    throw err;
  }
}

/**
 * The claims of a token verified before the transaction, as {@link verificationClaimsOf} gives
 * them now: its refusal, or its expiry checked again at the transaction's clock.
 * @throws ApiError ERR_VERIFICATION_TOKEN_INVALID
 */
function claimsOfVerified(verified: VerifiedToken, nowMs: number, field: string): VerificationClaims {
  if ('error' in verified) throw verified.error;
  if (verified.claims.exp <= nowMs / 1000) throw invalid('the verification token has expired', field);
  return verified.claims;
}

/**
 * What a use of a token is for: a signup or a login names the sub-organization concerned; a
 * login `afterSignup` may be the one that follows the token's signup of that sub-organization.
 */
export type TokenUse =
  | { purpose: 'use' }
  | { purpose: 'signup'; subOrganizationId: string }
  | { purpose: 'login'; subOrganizationId: string; afterSignup: boolean };

/** A token's first use, built once (store/statements.ts): a row, or none when it was used before. */
const spendToken = statement('verification_token_spend', (db, p: Placeholders<Required<typeof usedVerificationTokens.$inferInsert>>) =>
  db
    .insert(usedVerificationTokens)
    .values({ tokenId: p('tokenId'), usedAt: p('usedAt'), purpose: p('purpose'), subOrganizationId: p('subOrganizationId') })
    .onConflictDoNothing()
    .returning({ tokenId: usedVerificationTokens.tokenId }),
);

/**
 * Record that the token `tokenId` (already verified) is spent, in the activity's transaction.
 * A first use always passes; a second passes only as the one login (`afterSignup`) that may
 * follow a signup, for the sub-organization that signup created. The row is written or advanced
 * under its lock, so of racing uses one wins.
 * @example await spendVerificationToken(ctx, claims.id, { purpose: 'login', subOrganizationId, afterSignup: true });
 * @throws ApiError ERR_VERIFICATION_TOKEN_INVALID (already used)
 */
export async function spendVerificationToken(ctx: OperationContext, tokenId: string, use: TokenUse, field = 'verificationToken'): Promise<void> {
  const subOrganizationId = use.purpose === 'use' ? null : use.subOrganizationId;
  const inserted = await spendToken.run(ctx.tx, { tokenId, usedAt: ctx.now(), purpose: use.purpose, subOrganizationId });
  if (inserted.length > 0) return;
  if (use.purpose === 'login' && use.afterSignup) {
    const advanced = await ctx.tx
      .update(usedVerificationTokens)
      .set({ purpose: 'login', usedAt: ctx.now() })
      .where(
        and(
          eq(usedVerificationTokens.tokenId, tokenId),
          eq(usedVerificationTokens.purpose, 'signup'),
          eq(usedVerificationTokens.subOrganizationId, use.subOrganizationId),
        ),
      )
      .returning({ tokenId: usedVerificationTokens.tokenId });
    if (advanced.length > 0) return;
  }
  throw tokenAlreadyUsed(field);
}

/** A spent token's refusal (spendVerificationToken; otp-rows.ts `spendForLogin`). */
export function tokenAlreadyUsed(field = 'verificationToken'): ApiError {
  return invalid('the verification token has already been used', field);
}

/**
 * Verify a verification token, check what it proves, and mark it used (`use`, by default a
 * plain single use; see spendVerificationToken). `verified` is this same token's check made
 * before the transaction (verifyVerificationToken, by the operation's prefetcher); without it (an
 * approval runs no prefetcher) the token is verified here.
 * @example const claims = await useVerificationToken(ctx, token, { organizationIds: [ctx.organizationId], type: 'OTP_TYPE_SMS', contact: '+15551234567' });
 * @throws ApiError ERR_VERIFICATION_TOKEN_INVALID (bad signature, expired, other organization, other contact, already used)
 */
export async function useVerificationToken(
  ctx: OperationContext,
  token: string,
  expect: {
    organizationIds: string[];
    type?: OtpType;
    contact?: string;
    field?: string;
    use?: TokenUse;
    stampedByBoundKey?: boolean;
    verified?: VerifiedToken;
  },
): Promise<VerificationClaims> {
  const claims = checkVerificationToken(ctx, token, expect);
  await spendVerificationToken(ctx, claims.id, expect.use ?? { purpose: 'use' }, expect.field);
  return claims;
}

/**
 * `useVerificationToken` up to its spend: the token verified (or its check before the
 * transaction read) and what it proves compared with `expect`. The caller spends it in the same
 * transaction (otp_login with its user's lookup, otp-rows.ts `spendForLogin`).
 * @throws ApiError ERR_VERIFICATION_TOKEN_INVALID (bad signature, expired, other organization, other contact)
 */
export function checkVerificationToken(
  ctx: OperationContext,
  token: string,
  expect: { organizationIds: string[]; type?: OtpType; contact?: string; field?: string; stampedByBoundKey?: boolean; verified?: VerifiedToken },
): VerificationClaims {
  const field = expect.field ?? 'verificationToken';
  const claims = expect.verified
    ? claimsOfVerified(expect.verified, ctx.now().getTime(), field)
    : verificationClaimsOf(ctx.enclave, token, () => ctx.now().getTime(), field);
  const { verification_type: type, contact, organization_id: org } = claims;
  if (!expect.organizationIds.includes(org)) throw invalid('the verification token was issued for another organization', field);
  if (expect.type !== undefined && type !== expect.type) throw invalid(`the verification token is not for ${expect.type}`, field);
  if (expect.contact !== undefined && contact.toLowerCase() !== expect.contact.toLowerCase()) {
    throw invalid('the verification token was issued for another contact', field);
  }
  if (expect.stampedByBoundKey && !stampedBy(ctx, claims.public_key)) {
    throw invalid('the verification token is bound to another key: stamp this request with the key it was issued to', field);
  }
  return claims;
}

/**
 * Whether the request is stamped by the API key `publicKey` names (a token without a bound key
 * binds nothing: any stamp will do). A passkey or an attestation cannot prove a key, so they do
 * not spend a bound token.
 */
function stampedBy(ctx: OperationContext, publicKey: string | undefined): boolean {
  if (publicKey === undefined) return true;
  const credential = ctx.caller.credential;
  return credential.kind === 'api_key' && sameKeyAs(credential.publicKey, publicKey);
}

/**
 * Whether `verified`, a P-256 key (hex) that a signature just verified with, and `other` are the
 * same key, in either encoding. The same text is the same key (the one that verified is a point of
 * the curve); another text is compared compressed (false when it is not a key).
 */
export function sameKeyAs(verified: string, other: string | undefined): boolean {
  if (other === undefined) return false;
  if (verified.toLowerCase() === other.toLowerCase()) return true;
  try {
    return compressPublicKey('p256', verified) === compressPublicKey('p256', other);
  } catch {
    return false;
  }
}

/**
 * Check a client signature over a token-usage message (Turnkey's shape: `{type, tokenId, ...}`)
 * made with the key the verification token is bound to. `verified` is the signature's check when
 * it was made before the transaction (`Enclave.checkClientSignature`, on a signing thread);
 * without it the signature is checked here.
 * @throws ApiError ERR_CLIENT_SIGNATURE_INVALID
 */
export function checkClientSignature(
  sig: ClientSignatureInput,
  claims: VerificationClaims,
  usage: 'USAGE_TYPE_SIGNUP' | 'USAGE_TYPE_LOGIN',
  verified?: boolean,
): void {
  const field = 'clientSignature';
  if (!(verified ?? verifyClientSignature(sig))) throw new ApiError('ERR_CLIENT_SIGNATURE_INVALID', 'the client signature does not verify', field);
  if (!sameKeyAs(sig.publicKey, claims.public_key)) {
    throw new ApiError('ERR_CLIENT_SIGNATURE_INVALID', 'the client signature is not by the key bound to the verification token', field);
  }
  let message: unknown;
  try {
    message = JSON.parse(sig.message);
  } catch {
    message = undefined;
  }
  const doc = (typeof message === 'object' && message !== null ? message : {}) as { type?: unknown; tokenId?: unknown };
  if (doc.tokenId !== claims.id || doc.type !== usage) {
    throw new ApiError('ERR_CLIENT_SIGNATURE_INVALID', `the signed message must be {"type":"${usage}","tokenId":"<token id>"}`, field);
  }
}
