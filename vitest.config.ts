import { availableParallelism } from 'node:os';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// The monorepo runs the packages from source: their exports map a `@walletkit/source` condition
// to src/ (decision 0017); consumers never set it and get dist/.
const SOURCE = '@walletkit/source';

/** The suites that install a DOM (happy-dom) into the worker's globals: the kit's, and the client's OAuth popup. */
const DOM = ['packages/react/test/**/*.test.{ts,tsx}', 'packages/client/test/oauth.test.ts'];

export default defineConfig({
  resolve: { conditions: [SOURCE, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [SOURCE, ...defaultServerConditions] } },
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // vitest runs one file at a time on 2 cores by default (cores - 1). Most server files wait on
    // PostgreSQL, child processes and timers more than they compute: two at a time took the suite
    // from about 885 s to 640 s on the CI machine kind, every test still green. Three at a time
    // gained nothing more (710 s against 716 s): the suite is then bound by the CPU.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // One throwaway PostgreSQL cluster + the PGlite template for the whole run (server tests only);
    // each project inherits this, and global-setup.ts starts them once and shares them.
    globalSetup: ['packages/server/test/support/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['packages/*/test/**/*.test.ts'],
          exclude: DOM,
          // Files of a worker share its module graph (decision 0001, "Isolation"): a file no
          // longer imports the server, its dependencies and PGlite's WebAssembly anew (the suite
          // 710 s -> 480 s on 2 cores). Each file still starts its own servers and databases and
          // closes them; nothing in these files mocks a module; the setup file puts back the one
          // state a file can find changed, @walletkit/crypto's native implementations.
          isolate: false,
          setupFiles: ['scripts/vitest-shared-setup.ts'],
        },
      },
      {
        extends: true,
        // happy-dom's globals and the libraries that capture them at import (user-event) need a
        // fresh module graph per file.
        test: { name: 'dom', include: DOM },
      },
    ],
  },
});
