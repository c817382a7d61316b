import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'packages/*/test/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // One throwaway PostgreSQL cluster + the PGlite template for the whole run (server tests only).
    globalSetup: ['packages/server/test/support/global-setup.ts'],
  },
});
