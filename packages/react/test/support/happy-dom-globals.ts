/**
 * happy-dom's globals in a test file that runs in the NODE environment, for tests that render
 * components AND run the real server in the same process:
 * - under `@vitest-environment happy-dom`, Vite transforms every module for the browser, which
 *   rewrites the server's `new URL('./migrations/', import.meta.url)` against the page URL
 *   (http://localhost:3000/…), so the server cannot find its files (and the pragma only takes
 *   package names, so a variant environment cannot be named from a file);
 * - happy-dom replaces `fetch`, `URL`, `Headers`… with its own (same-origin policy of the page),
 *   and the server's proxy forwards to its activity API with the global `fetch`.
 * So this installs exactly what the happy-dom environment installs (vitest's own `setup`), then
 * puts Node's networking globals back: the server sits "in another process", and the kit gets
 * Node's fetch explicitly through `config.fetch`.
 * Import it before @testing-library/* (they read `document` on import); call
 * `teardownHappyDom()` in afterAll.
 */
import { builtinEnvironments } from 'vitest/runtime';

const networking = ['fetch', 'Request', 'Response', 'Headers', 'AbortController', 'AbortSignal', 'URL', 'URLSearchParams', 'FormData'] as const;
const saved = new Map<string, unknown>(networking.map((k) => [k, (globalThis as Record<string, unknown>)[k]]));

/** Node's own fetch, captured before happy-dom replaces it. */
export const nodeFetch = globalThis.fetch.bind(globalThis);

const installed = await builtinEnvironments['happy-dom'].setup(globalThis, {});
for (const [key, value] of saved) (globalThis as Record<string, unknown>)[key] = value;

/** Removes the globals installed on import (closes the window). */
export const teardownHappyDom = async (): Promise<void> => {
  await installed.teardown(globalThis);
};
