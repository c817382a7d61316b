/**
 * The one-time codes' rows (otp.ts): the per-contact throttle that retires a contact's earlier
 * codes, whether a code is live, the statements that store, read, count and use a code, and the
 * verified-contact user a login lands in.
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import { sendWithNext } from '../../store/round-trips.js';
import type { RawStatement } from '../../store/db.js';
import { type Placeholders, runRaw, statement } from '../../store/statements.js';
import { otps } from '../../store/schema.js';
import type { OperationContext } from '../context.js';
import type { VerificationClaims } from './users-verification.js';

const DAY_SECONDS = 24 * 3600;

/**
 * Refuse a code beyond `maxPerContactPerWindow` (or `maxPerContactPerDay`) for (organization,
 * contact), then retire the contact's earlier codes: only the newest one verifies, so the
 * guess budget is codes per window x tries per code (SECURITY.md). The advisory lock is
 * transaction-scoped and keyed by both, so concurrent requests for one contact (on any
 * instance sharing the PostgreSQL database) count one after another, each seeing the rows
 * committed before it.
 *
 * The database decides (decision 0034): the statement refuses by raising (`walletkit_refuse`,
 * which rolls the retirement back with the rest of the transaction), so it goes with the
 * activity's own INSERT and COMMIT in one round trip. Wherever its raise surfaces, the activity's
 * refusal is read from it: by execute.ts, and in an approval by consensus.ts `runOrFail`.
 */
export async function throttleAndRetire(ctx: OperationContext, contact: string): Promise<void> {
  const { maxPerContactPerWindow, windowSeconds, maxPerContactPerDay } = ctx.config.otp;
  // On the embedded database transactions run one at a time already.
  // The lock goes with the count in one round trip (store/round-trips.ts); the count still reads
  // after it is granted (each statement its own snapshot).
  if (!ctx.serialized) await sendWithNext(ctx.tx, sql`SELECT pg_advisory_xact_lock(hashtext(${`walletkit-otp|${ctx.organizationId}|${contact}`}))`);
  const now = ctx.now().getTime();
  const since = (seconds: number) => new Date(now - seconds * 1000).toISOString();
  const throttle = {
    text: THROTTLE_AND_RETIRE,
    values: [
      ctx.organizationId,
      contact,
      since(windowSeconds),
      since(DAY_SECONDS),
      maxPerContactPerWindow,
      `at most ${maxPerContactPerWindow} codes per ${windowSeconds} s may be sent to one contact`,
      maxPerContactPerDay ?? null,
      `at most ${maxPerContactPerDay} codes per day may be sent to one contact`,
    ],
  };
  await sendWithNext(ctx.tx, throttle);
}

/**
 * One statement counts the contact's codes and retires every unused one by setting expires_at =
 * created_at (which keeps expires_at >= created_at for retention); both see the same snapshot.
 * A retired code is recognized by that equality, not by a clock: retiring at this instance's
 * `now` left the code live on an instance whose clock is behind. Over a limit it refuses ($5 a
 * window, $7 a day when not null), the window's first.
 */
const THROTTLE_AND_RETIRE = `
  WITH retired AS (
    UPDATE otps SET expires_at = created_at
    WHERE organization_id = $1 AND contact = $2 AND used_at IS NULL AND expires_at > created_at
    RETURNING 1
  ), counts AS (
    SELECT count(*) FILTER (WHERE created_at > $3::timestamptz)::int AS in_window,
           count(*) FILTER (WHERE created_at > $4::timestamptz)::int AS in_day
    FROM otps WHERE organization_id = $1 AND contact = $2
  )
  SELECT CASE
    WHEN in_window >= $5::int THEN walletkit_refuse('ERR_RATE_LIMITED', $6, 'contact')
    WHEN in_day >= $7::int THEN walletkit_refuse('ERR_RATE_LIMITED', $8, 'contact')
  END AS refused
  FROM counts`;

/** Whether a code can still verify: unused, not retired by a newer one, not expired. */
export function isLive(otp: { usedAt: Date | null; createdAt: Date; expiresAt: Date }, now: Date): boolean {
  const retired = otp.expiresAt.getTime() <= otp.createdAt.getTime();
  return otp.usedAt === null && !retired && otp.expiresAt.getTime() > now.getTime();
}

/**
 * otp_login's one statement in its transaction: spend the token `claims` prove (its first use, as
 * users-verification.ts `spendVerificationToken` records a login of this organization) and read
 * the user of this organization whose verified email or phone is the token's contact. The
 * INSERT's row lock makes one of racing logins with one token the spender, as before; the read
 * sees the users as the transaction does. Which of the two refuses, and in what order, is the
 * caller's: a spent token before the client signature's checks, no user after them. An
 * unverified contact (profile data someone typed, SECURITY.md "Identities") never matches:
 * logging in by code must not land in an account somebody else created with your address.
 */
export async function spendForLogin(ctx: OperationContext, claims: VerificationClaims): Promise<{ spent: boolean; userId: string | null }> {
  const email = claims.verification_type === 'OTP_TYPE_EMAIL';
  const [row] = await runRaw<{ spent: boolean; user_id: string | null }>(ctx.tx, {
    name: email ? 'wk_otp_login_spend_email' : 'wk_otp_login_spend_phone',
    text: email ? SPEND_FOR_LOGIN_EMAIL : SPEND_FOR_LOGIN_PHONE,
    values: [claims.id, ctx.now().toISOString(), ctx.organizationId, email ? claims.contact.toLowerCase() : claims.contact],
  });
  return { spent: row?.spent === true, userId: row?.user_id ?? null };
}

const spendForLoginText = (user: string) => `
  WITH spent AS (
    INSERT INTO used_verification_tokens (token_id, used_at, purpose, sub_organization_id)
    VALUES ($1, $2::timestamptz, 'login', $3) ON CONFLICT DO NOTHING RETURNING 1
  )
  SELECT EXISTS (SELECT 1 FROM spent) AS spent,
         (SELECT id FROM users WHERE organization_id = $3 AND ${user} LIMIT 1) AS user_id`;
const SPEND_FOR_LOGIN_EMAIL = spendForLoginText('lower(user_email) = $4 AND email_verified');
const SPEND_FOR_LOGIN_PHONE = spendForLoginText('user_phone_number = $4 AND phone_verified');

/** Count an attempt at a code, atomically: the row lock serializes concurrent attempts and the condition is re-checked after the wait. */
export const countAttempt = statement('otp_count_attempt', (db, p: Placeholders<{ id: string; organizationId: string }>) =>
  db
    .update(otps)
    .set({ attempts: sql`${otps.attempts} + 1` })
    .where(and(eq(otps.id, p('id')), eq(otps.organizationId, p('organizationId')), lt(otps.attempts, otps.maxAttempts)))
    .returning(),
);
/**
 * verify_otp's attempt when its verdict was opened right before the transaction (decision 0034):
 * count it and use the code in one statement, sent with the activity's own INSERT and COMMIT. The
 * row lock serializes racing attempts and the condition is re-checked after the wait, as
 * `countAttempt`'s; when the code can no longer take it (exhausted, used, retired, expired, gone)
 * nothing is written and the activity runs again, counting first (`walletkit_run_again`).
 */
export function useOpenedCode(ctx: OperationContext, otpId: string): RawStatement {
  return { text: USE_OPENED_CODE, values: [otpId, ctx.organizationId, ctx.now().toISOString()] };
}
const USE_OPENED_CODE = `
  WITH used AS (
    UPDATE otps SET attempts = attempts + 1, used_at = $3::timestamptz
    WHERE id = $1 AND organization_id = $2 AND attempts < max_attempts
      AND used_at IS NULL AND expires_at > created_at AND expires_at > $3::timestamptz
    RETURNING 1
  )
  SELECT walletkit_run_again('the code changed after its attempt was opened') AS changed
  WHERE NOT EXISTS (SELECT 1 FROM used)`;

/** A code by id, without a lock: verify_otp's prefetcher reads it before the transaction (the handler counts under the row's), and the handler tells an exhausted code from an unknown one. */
export const readOtp = statement('otp_read', (db, p: Placeholders<{ id: string; organizationId: string }>) =>
  db
    .select()
    .from(otps)
    .where(and(eq(otps.id, p('id')), eq(otps.organizationId, p('organizationId')))),
);
export const markUsed = statement('otp_mark_used', (db, p: Placeholders<{ id: string; usedAt: Date }>) =>
  db
    .update(otps)
    .set({ usedAt: p('usedAt') } as unknown as { usedAt: Date })
    .where(eq(otps.id, p('id'))),
);
type NewOtp = typeof otps.$inferInsert;
export const insertOtp = statement(
  'otp_insert',
  (
    db,
    p: Placeholders<
      Required<
        Pick<
          NewOtp,
          | 'id'
          | 'organizationId'
          | 'otpType'
          | 'contact'
          | 'codeMac'
          | 'targetPublicKey'
          | 'targetPrivateKeyEncrypted'
          | 'maxAttempts'
          | 'expiresAt'
          | 'createdAt'
        >
      >
    >,
  ) =>
    db.insert(otps).values({
      id: p('id'),
      organizationId: p('organizationId'),
      otpType: p('otpType'),
      contact: p('contact'),
      codeMac: p('codeMac'),
      targetPublicKey: p('targetPublicKey'),
      targetPrivateKeyEncrypted: p('targetPrivateKeyEncrypted'),
      maxAttempts: p('maxAttempts'),
      expiresAt: p('expiresAt'),
      createdAt: p('createdAt'),
    }),
);
