/**
 * Group commit for activities completed outside a transaction (execute.ts `computeNow`): the
 * rows that arrive while one INSERT runs are written together by the next, so under load one
 * statement (one commit) stores many signatures. Each caller learns whether its row was stored
 * or lost to a stored copy with the same fingerprint (ON CONFLICT DO NOTHING). Should a batch
 * fail as a whole (a row breaking a constraint), its rows are written one by one, so one bad row
 * fails only its own request.
 */
import { activities } from '../store/schema.js';
import type { Store } from '../store/db.js';

type ActivityInsert = typeof activities.$inferInsert;
type ActivityRow = typeof activities.$inferSelect;

interface Waiting {
  row: ActivityInsert;
  resolve(stored: ActivityRow | undefined): void;
  reject(err: unknown): void;
}

/** Most rows in one INSERT (bind parameters stay far below PostgreSQL's 65,535). */
const MAX_BATCH = 200;

export class CompletedWriter {
  private queue: Waiting[] = [];
  private writing = false;

  constructor(private readonly db: Store['db']) {}

  /**
   * Store `row` as part of the next INSERT: the stored row, or undefined when a row with its
   * fingerprint was already stored (the caller answers with that one).
   */
  write(row: ActivityInsert): Promise<ActivityRow | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          this.settle(batch, await this.insert(batch.map((w) => w.row)));
        } catch {
          for (const one of batch) {
            try {
              this.settle([one], await this.insert([one.row]));
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

  private insert(rows: ActivityInsert[]): Promise<ActivityRow[]> {
    return this.db.insert(activities).values(rows).onConflictDoNothing().returning();
  }

  private settle(batch: Waiting[], stored: ActivityRow[]): void {
    const byId = new Map(stored.map((r) => [r.id, r]));
    for (const w of batch) w.resolve(byId.get(w.row.id as string));
  }
}
