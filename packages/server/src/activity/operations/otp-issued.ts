/**
 * The codes this process issued, as their rows were committed (decision 0041): verify_otp's
 * prefetcher takes a code's row from here for its first attempt instead of reading it, which on
 * an email OTP login is one round trip to the database fewer (PGlite runs each in WebAssembly on
 * the event loop).
 *
 * What a remembered row decides: nothing. The prefetcher only opens the attempt with it (the
 * enclave checks the code against its MAC and signs the verification token on a thread), as it
 * does with a row it read without a lock; the handler's statement then counts the attempt and uses
 * the code in the database, where an attempt at a code that was used, retired by a newer one,
 * exhausted (in another process) or expired since changes nothing and has the activity run again,
 * counting first (`useOpenedCode`, decision 0034). So a row as it was at its commit is as good as
 * one read a moment ago.
 *
 * A row is taken at its first attempt (any later attempt reads the database, so an exhausted code
 * is never opened again), at most {@link LIMIT} are kept with the oldest out first, and only rows
 * of this process's own commits come here, never anything a caller sent. Nothing secret is kept:
 * the row as stored (the code's MAC, the target's private key sealed to the enclave's at-rest key).
 */
import type { otps } from '../../store/schema.js';

/** A code's row as stored. */
export type OtpRow = typeof otps.$inferSelect;

/** Codes issued more than this many ago, unverified, are read from the database. */
const LIMIT = 4096;

export class IssuedCodes {
  private readonly rows = new Map<string, Readonly<OtpRow>>();

  /** A code's row, its transaction committed (init_otp's `afterCommit`). */
  remember(row: OtpRow): void {
    if (this.rows.size >= LIMIT) this.rows.delete(this.rows.keys().next().value as string);
    this.rows.set(row.id, Object.freeze({ ...row }));
  }

  /**
   * The row of code `id` of `organizationId` as committed, once: the next call reads nothing. A
   * code of another organization is not given (and stays: the database would not answer it either).
   */
  take(id: string, organizationId: string): Readonly<OtpRow> | undefined {
    const row = this.rows.get(id);
    if (row === undefined || row.organizationId !== organizationId) return undefined;
    this.rows.delete(id);
    return row;
  }

  /** How many rows are kept (tests). */
  get size(): number {
    return this.rows.size;
  }
}
