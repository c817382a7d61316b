/** A worker for thread-pool.test.ts: holds each job `ms` milliseconds, then answers with the tag its pool gave it (workerData). */
import { workerData } from 'node:worker_threads';
import { serveJobs } from '../../../src/threads/serve.js';

serveJobs((ms: number) => new Promise<string>((resolve) => setTimeout(() => resolve(String(workerData)), ms)));
