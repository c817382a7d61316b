/**
 * A thread's scheduling policy (decision 0039). Posting a job wakes the thread that takes it, and
 * on Linux a woken thread of the normal policy may take the core of the thread that woke it: on a
 * full 2-core machine the event loop lost its core inside `postMessage` for about 100 µs a job on
 * average (a third of the posts over 50 µs), and every request it was serving waited with it.
 * Under SCHED_BATCH a thread gets the same share of the cores but never preempts a running thread
 * when it wakes: it runs on a free core, or from the next scheduler tick, while the event loop that
 * posted the job carries on serving. The stamp-check threads run so (enclave/signer-worker.ts).
 *
 * Linux offers no system call for it to JavaScript, so the thread asks util-linux's `chrt` (or
 * BusyBox's) to set it for its own thread id. Best effort: elsewhere, or without `chrt`, nothing
 * changes.
 */
import { execFile } from 'node:child_process';
import { readlinkSync } from 'node:fs';

/** SCHED_BATCH in `sched_setscheduler(2)` and in field 41 of `/proc/<pid>/task/<tid>/stat`. */
export const SCHED_BATCH = 3;

/**
 * Put the calling thread (only it: the other threads of the process keep theirs) under SCHED_BATCH.
 * @returns whether it is set (false off Linux, without `chrt`, or when it fails)
 * @example void runAsBatch(); // in a worker thread, as it starts
 */
export async function runAsBatch(): Promise<boolean> {
  if (process.platform !== 'linux') return false;
  try {
    // "<pid>/task/<tid>": this thread's id, which `chrt -p` takes for the thread alone. Read
    // synchronously: libuv's threads, if this call started them, would inherit the policy.
    const tid = readlinkSync('/proc/thread-self').split('/').pop() ?? '';
    if (!/^[0-9]+$/.test(tid)) return false;
    // An empty environment: the child gets none of the server's (its master key included), and
    // finds `chrt` on the system's default path (/usr/bin:/bin), not on a PATH the server was given.
    await new Promise<void>((resolve, reject) => {
      execFile('chrt', ['-b', '-p', '0', tid], { env: {}, timeout: 10_000, windowsHide: true }, (err) => (err ? reject(err) : resolve()));
    });
    return true;
  } catch {
    return false;
  }
}
