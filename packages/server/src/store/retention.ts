/**
 * Retention of one-time-code rows: an `otps` row is needed until it has expired and left the
 * throttle window (the per-contact limit counts codes created inside it); a dev-outbox row
 * holds a code in clear text and is useless once that code expired. `startRetention` sweeps
 * both on a timer so neither table grows without bound nor keeps codes around.
 */
import { lt } from 'drizzle-orm';
import type { ServerConfig } from '../config.js';
import type { Executor } from './db.js';
import { otpOutbox, otps } from './schema.js';

const DAY_SECONDS = 24 * 3600;

/** How often the server sweeps (and once at start). */
export const RETENTION_INTERVAL_MS = 10 * 60_000;

/**
 * Delete the OTP rows no check can need any more and outbox messages whose code expired.
 * @example const { otps, outbox } = await purgeExpiredOtps(store.db, new Date(), config.otp);
 */
export async function purgeExpiredOtps(db: Executor, now: Date, otp: ServerConfig['otp']): Promise<{ otps: number; outbox: number }> {
  // expires_at >= created_at, so an expiry before (now - window) is also a creation outside the
  // window; with a daily cap the rows of the last 24 hours still count.
  const window = Math.max(otp.windowSeconds, otp.maxPerContactPerDay !== undefined ? DAY_SECONDS : 0);
  const otpCutoff = new Date(now.getTime() - window * 1000);
  const outboxCutoff = new Date(now.getTime() - otp.ttlSeconds * 1000);
  const gone = await db.delete(otps).where(lt(otps.expiresAt, otpCutoff)).returning({ id: otps.id });
  const sent = await db.delete(otpOutbox).where(lt(otpOutbox.createdAt, outboxCutoff)).returning({ id: otpOutbox.id });
  return { otps: gone.length, outbox: sent.length };
}

/**
 * Sweep now and every `intervalMs` (the timer does not keep the process alive); returns stop().
 * @example const stop = startRetention(store.db, config.otp, () => new Date(), (err) => log.warn({ err }));
 */
export function startRetention(
  db: Executor,
  otp: ServerConfig['otp'],
  now: () => Date,
  onError: (err: unknown) => void,
  intervalMs = RETENTION_INTERVAL_MS,
): () => void {
  const sweep = () => void purgeExpiredOtps(db, now(), otp).catch(onError);
  sweep();
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
