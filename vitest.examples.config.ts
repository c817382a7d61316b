import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * The packaging suite (examples/test): the packages packed as npm publishes them and installed
 * from a registry into fresh directories and the two example apps (decision 0017). Run by
 * `npm test` after the unit suites and before Playwright, which logs in to the built examples.
 */
const SOURCE = '@walletkit/source';

export default defineConfig({
  resolve: { conditions: [SOURCE, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [SOURCE, ...defaultServerConditions] } },
  test: {
    include: ['examples/test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 600_000,
    // Two files at a time, as the unit suites run: each installs into a directory of its own and
    // mostly waits on npm, tsc and the bundlers' child processes (on the CI machine kind the suite
    // took 261 s one file at a time and 194 s two at a time, every test green both ways).
    maxWorkers: 2,
    globalSetup: ['examples/test/global-setup.ts'],
  },
});
