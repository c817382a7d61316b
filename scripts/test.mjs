#!/usr/bin/env node
// `npm test`: typecheck, lint and format check (Biome), then every vitest suite (unit +
// integration, both databases), the packaging suite (tarballs installed into fresh apps and the
// examples), then the Playwright e2e suite. Ends with one totals line `N passed, N failed,
// N skipped` and exits non-zero when anything failed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const totals = { passed: 0, failed: 0, skipped: 0 };

function run(label, cmd, args, env = {}) {
  process.stdout.write(`\n== ${label}: ${cmd} ${args.join(' ')}\n`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

// 1. typecheck counts as one test.
if (run('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']) === 0) totals.passed += 1;
else totals.failed += 1;

// 2. lint and format check (`biome ci .`, decision 0019): one test too.
if (run('lint', 'npx', ['biome', 'ci', '.']) === 0) totals.passed += 1;
else totals.failed += 1;

// 3. vitest: the unit and integration suites, then the packaging suite (examples/test: the
// packages packed and installed from a registry into fresh apps and the two examples, which
// the e2e suite then logs in to).
function vitest(label, configArgs) {
  const out = join(root, `.vitest-results-${label}.json`);
  rmSync(out, { force: true });
  const status = run(label, 'npx', ['vitest', 'run', ...configArgs, '--reporter=default', '--reporter=json', `--outputFile=${out}`]);
  if (!existsSync(out)) {
    totals.failed += 1;
    return;
  }
  const r = JSON.parse(readFileSync(out, 'utf8'));
  totals.passed += r.numPassedTests ?? 0;
  totals.failed += r.numFailedTests ?? 0;
  totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  // A suite that failed to load has no tests counted: count it as a failure.
  const brokenSuites = (r.testResults ?? []).filter((s) => s.status === 'failed' && (s.assertionResults ?? []).length === 0);
  totals.failed += brokenSuites.length;
  if (status !== 0 && r.numFailedTests === 0 && brokenSuites.length === 0) totals.failed += 1;
}
vitest('vitest', []);
vitest('packaging', ['--config', 'vitest.examples.config.ts']);

// 4. Playwright e2e (Debian's Chromium; playwright.config.ts starts the stack it needs).
const pwOut = join(root, 'test-results', 'e2e-results.json');
if (!existsSync(join(root, 'node_modules', '@playwright', 'test'))) {
  process.stdout.write('\n== e2e: @playwright/test is not installed (run npm install)\n');
  totals.failed += 1;
} else {
  rmSync(pwOut, { force: true });
  const status = run('e2e', 'npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: pwOut });
  if (existsSync(pwOut)) {
    const s = JSON.parse(readFileSync(pwOut, 'utf8')).stats ?? {};
    totals.passed += (s.expected ?? 0) + (s.flaky ?? 0);
    totals.failed += s.unexpected ?? 0;
    totals.skipped += s.skipped ?? 0;
    if (status !== 0 && !s.unexpected) totals.failed += 1;
  } else if (status !== 0) {
    totals.failed += 1;
  }
}

process.stdout.write(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
process.exit(totals.failed > 0 ? 1 : 0);
