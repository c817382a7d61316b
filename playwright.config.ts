/**
 * End-to-end suite (DESIGN sections 1 and 5): Debian's Chromium against the production build
 * of the demo and a real walletkit server, started by e2e/support/global-setup.ts together
 * with a local OpenID Provider, local OAuth 2.0 servers and an SMTP/SMS sink. Traces and
 * screenshots are kept for failed tests under test-results/e2e.
 */
import { defineConfig } from '@playwright/test';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/support/global-setup.ts',
  outputDir: 'test-results/e2e',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  // Three at a time on 2 cores: four tests spend most of their minute waiting for a session or the
  // demo's restart, and two workers left the machine idle a third of the run (CI at 9759cf1:
  // 4.6 min with 2, 3.6 min with 3, every test green; the machine 81% busy with 3).
  workers: 3,
  retries: 0,
  forbidOnly: !!process.env.CI,
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
  },
});
