/**
 * Group commit for activities completed outside a transaction (execute.ts `computeNow`): the rows
 * that arrive in one turn of the event loop go together in one INSERT, and those that arrive while
 * it runs go in the next, so under load one statement (one commit) stores many signatures while no
 * row waits on a clock. The statement runs straight on the driver (`Store.query`). Each row
 * carries its guard (activity-insert.ts: the versions its caller's facts were read at); each caller
 * learns whether its row was stored, or held back: by a stored copy with the same fingerprint, or
 * by its guard. Should a batch fail as a whole (a row breaking a constraint), its rows are written
 * one by one, so one bad row fails only its own request.
 *
 * The embedded database once made the first row of a batch wait 2 ms for others (larger batches,
 * fewer of its statements on the event loop); on a host fast enough that the event loop was not
 * the limit, that wait was: signatures at 10 connections were bound by it with a third of the
 * machine idle (decision 0022, "No clock in the group commit").
 */
import type { Store } from '../store/db.js';
import { type ActivityRow, type GuardedRow, groupCommitInsert } from './activity-insert.js';
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
  /** The pending start of the next INSERT (end of this turn of the event loop), while one is pending. */
  private pending: NodeJS.Immediate | undefined;

  constructor(private readonly store: Pick<Store, 'query'>) {}

  /**
   * Store `row` as part of the next INSERT if `guard` holds: the stored row, or undefined when it
   * was held back (a row with its fingerprint was already stored, or the guard failed; the
   * caller tells which by reading the fingerprint).
   */
  write(row: CompletedRow, guard: readonly OrgVersion[] = []): Promise<ActivityRow | undefined> {
    const full: ActivityRow = { appProofs: null, failure: null, generateAppProofs: false, ...row };
    return new Promise((resolve, reject) => {
      this.queue.push({ row: full, guard, resolve, reject });
      this.schedule();
    });
  }

  /**
   * Start the next INSERT once this turn of the event loop has queued its rows, or at once with a
   * full batch waiting; rows that arrive while an INSERT runs wait for it and go in the next.
   */
  private schedule(): void {
    if (this.writing) return;
    if (this.queue.length >= MAX_BATCH) {
      clearImmediate(this.pending);
      this.pending = undefined;
      void this.drain();
      return;
    }
    this.pending ??= setImmediate(() => {
      this.pending = undefined;
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          this.settle(batch, await this.insert(batch));
        } catch {
          for (const one of batch) {
            try {
              this.settle([one], await this.insert([one]));
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

  private async insert(rows: readonly GuardedRow[]): Promise<Set<string>> {
    const written = await this.store.query<{ id: string }>(groupCommitInsert(rows));
    return new Set(written.map((r) => r.id));
  }

  private settle(batch: Waiting[], stored: Set<string>): void {
    for (const w of batch) w.resolve(stored.has(w.row.id) ? w.row : undefined);
  }
}
