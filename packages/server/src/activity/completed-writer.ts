/**
 * Group commit for activities completed outside a transaction (execute.ts `computeNow`): the
 * rows that arrive while one INSERT runs are written together by the next, so under load one
 * statement (one commit) stores many signatures. Each row carries its guard (activity-insert.ts:
 * the versions its caller's facts were read at); each caller learns whether its row was stored,
 * or held back: by a stored copy with the same fingerprint, or by its guard. Should a batch fail
 * as a whole (a row breaking a constraint), its rows are written one by one, so one bad row fails
 * only its own request.
 */
import type { Executor } from '../store/db.js';
import { type ActivityRow, type GuardedRow, insertActivities } from './activity-insert.js';
import type { OrgVersion } from './facts.js';

/** A row to store; the optional columns take their defaults. */
export type CompletedRow = Omit<ActivityRow, 'appProofs' | 'failure' | 'generateAppProofs'> &
  Partial<Pick<ActivityRow, 'appProofs' | 'failure' | 'generateAppProofs'>>;

interface Waiting extends GuardedRow {
  resolve(stored: ActivityRow | undefined): void;
  reject(err: unknown): void;
}

/** Most rows in one INSERT (bind parameters stay far below PostgreSQL's 65,535). */
const MAX_BATCH = 200;

export class CompletedWriter {
  private queue: Waiting[] = [];
  private writing = false;

  constructor(private readonly db: Executor) {}

  /**
   * Store `row` as part of the next INSERT if `guard` holds: the stored row, or undefined when it
   * was held back (a row with its fingerprint was already stored, or the guard failed; the
   * caller tells which by reading the fingerprint).
   */
  write(row: CompletedRow, guard: readonly OrgVersion[] = []): Promise<ActivityRow | undefined> {
    const full: ActivityRow = { appProofs: null, failure: null, generateAppProofs: false, ...row };
    return new Promise((resolve, reject) => {
      this.queue.push({ row: full, guard, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          this.settle(batch, await insertActivities(this.db, batch, { skipConflicts: true }));
        } catch {
          for (const one of batch) {
            try {
              this.settle([one], await insertActivities(this.db, [one], { skipConflicts: true }));
            } catch (err) {
              one.reject(err);
            }
          }
        }
      }
    } finally {
      this.writing = false;
    }
  }

  private settle(batch: Waiting[], stored: Set<string>): void {
    for (const w of batch) w.resolve(stored.has(w.row.id) ? w.row : undefined);
  }
}
