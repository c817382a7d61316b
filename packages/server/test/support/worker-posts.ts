/**
 * A test server with one signer thread whose messages to worker threads are watched: for the
 * tests of what the signer pool posts, and to which of its threads.
 */
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, type MockInstance, vi } from 'vitest';
import { startTestServer, type TestServer } from './harness';

export interface WatchedServer {
  /** The server (PGlite, `signerThreads: 1`), once `beforeAll` ran. */
  readonly server: TestServer;
  /** Every `postMessage` to a worker thread: `mock.calls` the messages, `mock.contexts` the workers. */
  readonly posted: MockInstance<Worker['postMessage']>;
}

/**
 * Start the server before the suite's tests and stop it after them, watching its posts to threads.
 * @example const watched = watchWorkerPosts(); it('…', () => { watched.posted.mockClear(); … });
 */
export function watchWorkerPosts(): WatchedServer {
  const watched = {} as { server: TestServer; posted: MockInstance<Worker['postMessage']> };
  beforeAll(async () => {
    watched.server = await startTestServer('pglite', { config: { signerThreads: 1 } });
    watched.posted = vi.spyOn(Worker.prototype, 'postMessage');
  });
  afterAll(async () => {
    watched.posted?.mockRestore();
    await watched.server?.dispose();
  });
  return watched;
}
