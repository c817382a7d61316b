import { availableParallelism } from 'node:os';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// The monorepo runs the packages from source: their exports map a `@walletkit/source` condition
// to src/ (decision 0017); consumers never set it and get dist/.
const SOURCE = '@walletkit/source';

export default defineConfig({
  resolve: { conditions: [SOURCE, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [SOURCE, ...defaultServerConditions] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'packages/*/test/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // vitest runs one file at a time on 2 cores by default (cores - 1). Most server files wait on
    // PostgreSQL, child processes and timers more than they compute: two at a time took the suite
    // from about 885 s to 640 s on the CI machine kind, every test still green.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // One throwaway PostgreSQL cluster + the PGlite template for the whole run (server tests only).
    globalSetup: ['packages/server/test/support/global-setup.ts'],
  },
});
