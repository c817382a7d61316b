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
    globalSetup: ['examples/test/global-setup.ts'],
  },
});
