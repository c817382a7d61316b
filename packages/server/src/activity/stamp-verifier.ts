/**
 * Stamp checks on worker threads (stamp-verifier-worker.ts, on threads/pool.ts): a P-256
 * verification costs about 70 µs of CPU, the largest part of a read's work and a large part of a
 * signature's on the event loop; secp256k1 and ed25519 stamps (noble) cost more. On threads beside
 * the event loop, the event loop keeps parsing, routing and answering. With 0 threads the check
 * runs in-process.
 */
import type { ParsedStamp } from '@walletkit/crypto';
import { ThreadPool } from '../threads/pool.js';
import { checkStamp, type StampJob } from './stamp-check.js';

export class StampVerifier {
  private readonly pool: ThreadPool<StampJob, boolean>;

  /** @example const stamps = new StampVerifier(defaultThreads()); */
  constructor(threads: number) {
    this.pool = new ThreadPool<StampJob, boolean>(new URL('./stamp-verifier-worker.js', import.meta.url), undefined, threads, checkStamp);
  }

  /** Whether `stamp` signs `body` (false for a bad stamp, never a throw). */
  verify(body: Uint8Array, stamp: ParsedStamp): Promise<boolean> {
    return this.pool.run({ body, stamp });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
