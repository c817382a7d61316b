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
// What failed, printed again just above the totals line: CI keeps only the tail of the output.
const failures = [];
const firstLine = (text) =>
  String(text ?? '')
    .split('\n')
    .find((l) => l.trim() !== '') ?? '';

function run(label, cmd, args, env = {}) {
  process.stdout.write(`\n== ${label}: ${cmd} ${args.join(' ')}\n`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

// 1. typecheck counts as one test.
if (run('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']) === 0) totals.passed += 1;
else {
  totals.failed += 1;
  failures.push('typecheck: tsc reported errors');
}

// 2. lint and format check (`biome ci .`, decision 0019): one test too.
if (run('lint', 'npx', ['biome', 'ci', '.']) === 0) totals.passed += 1;
else {
  totals.failed += 1;
  failures.push('lint: biome ci reported problems');
}

// 3. vitest: the unit and integration suites, then the packaging suite (examples/test: the
// packages packed and installed from a registry into fresh apps and the two examples, which
// the e2e suite then logs in to).
function vitest(label, configArgs) {
  const out = join(root, `.vitest-results-${label}.json`);
  const unhandledOut = join(root, `.vitest-unhandled-${label}.json`);
  rmSync(out, { force: true });
  rmSync(unhandledOut, { force: true });
  const reporters = ['--reporter=default', '--reporter=json', '--reporter=./scripts/vitest-unhandled-reporter.mjs'];
  const status = run(label, 'npx', ['vitest', 'run', ...configArgs, ...reporters, `--outputFile.json=${out}`], {
    WALLETKIT_UNHANDLED_OUT: unhandledOut,
  });
  const unhandled = existsSync(unhandledOut) ? JSON.parse(readFileSync(unhandledOut, 'utf8')) : [];
  for (const e of unhandled)
    failures.push(
      `${label}: unhandled ${e.name}: ${firstLine(e.message)}${e.origin ? ` (in ${rel(e.origin)})` : ''} ${firstLine(e.stack.split('\n').slice(1).join('\n')).trim()}`,
    );
  if (!existsSync(out)) {
    totals.failed += 1;
    failures.push(`${label}: vitest exited ${status} and wrote no report`);
    return;
  }
  const r = JSON.parse(readFileSync(out, 'utf8'));
  totals.passed += r.numPassedTests ?? 0;
  totals.failed += r.numFailedTests ?? 0;
  totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  const files = r.testResults ?? [];
  for (const file of files) {
    for (const t of file.assertionResults ?? []) {
      if (t.status === 'failed') failures.push(`${label}: ${rel(file.name)} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    }
  }
  // A suite that failed to load has no tests counted: count it as a failure.
  const brokenSuites = files.filter((s) => s.status === 'failed' && (s.assertionResults ?? []).length === 0);
  totals.failed += brokenSuites.length;
  // A file whose tests all passed can still fail (a beforeAll/afterAll hook, an error in the file).
  const failedFiles = files.filter((s) => s.status === 'failed' && !(s.assertionResults ?? []).some((t) => t.status === 'failed'));
  for (const f of failedFiles) failures.push(`${label}: ${rel(f.name)} failed outside its tests: ${firstLine(f.message) || '(no message)'}`);
  if (status !== 0 && r.numFailedTests === 0 && brokenSuites.length === 0) {
    totals.failed += 1;
    if (failedFiles.length === 0)
      failures.push(`${label}: vitest exited ${status} with every test passed: an unhandled error or a hook (see "Unhandled Errors" above)`);
  }
}
function rel(file) {
  return String(file).startsWith(root) ? String(file).slice(root.length + 1) : String(file);
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
    for (const name of failedSpecs(JSON.parse(readFileSync(pwOut, 'utf8')))) failures.push(`e2e: ${name}`);
    if (status !== 0 && !s.unexpected) {
      totals.failed += 1;
      failures.push(`e2e: playwright exited ${status} with no failed test (an error outside the tests, see above)`);
    }
  } else if (status !== 0) {
    totals.failed += 1;
    failures.push(`e2e: playwright exited ${status} and wrote no report`);
  }
}

// The Playwright JSON report: suites nest; a spec is failed when one of its tests is unexpected.
function failedSpecs(report) {
  const names = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status === 'unexpected') {
          const error = t.results?.at(-1)?.error?.message;
          names.push(`${spec.file}:${spec.line} > ${spec.title}: ${firstLine(error)}`);
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return names;
}

if (failures.length > 0) {
  process.stdout.write('\n== what failed\n');
  for (const line of failures) process.stdout.write(`- ${line.slice(0, 400)}\n`);
}

process.stdout.write(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
process.exit(totals.failed > 0 ? 1 : 0);
