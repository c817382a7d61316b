/**
 * The worker side of a ThreadPool (pool.ts), kept apart from it so that a worker's bundle holds
 * nothing of the pool (nor esbuild, which the pool loads to bundle workers from source).
 */
import { parentPort } from 'node:worker_threads';

/**
 * The worker side: answer each job posted by the pool with `handle(job)`.
 * @example serveJobs((job: VerifyJob) => verify(job));
 */
export function serveJobs<Job, Result>(handle: (job: Job) => Promise<Result> | Result): void {
  const port = parentPort;
  if (!port) throw new Error('this module runs as a worker thread');
  port.on('message', (message: { id: number; job: Job }) => {
    void (async () => {
      try {
        port.postMessage({ id: message.id, result: await handle(message.job) });
      } catch (err) {
        // Names only: an error text never carries key material, but keep the reply minimal.
        port.postMessage({ id: message.id, error: err instanceof Error ? err.name : 'Error' });
      }
    })();
  });
}
