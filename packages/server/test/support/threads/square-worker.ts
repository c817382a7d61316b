/** A worker for thread-pool.test.ts: squares a number, and says it ran on a worker thread. */
import { isMainThread } from 'node:worker_threads';
import { serveJobs } from '../../../src/threads/serve.js';

serveJobs((n: number) => ({ value: n * n, onWorker: !isMainThread }));
