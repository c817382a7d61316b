#!/usr/bin/env node
// `npm test`: typecheck, lint and format check (Biome), then every vitest suite (unit +
// integration, both databases), the packaging suite (tarballs installed into fresh apps and the
// examples), then the Playwright e2e suite. Ends with one totals line `N passed, N failed,
// N skipped` and exits non-zero when anything failed.
//
// A step that hangs is stopped (its whole process group) when it runs past its limit, or, for a
// vitest suite, when no test file started or ended for STALL_MS: CI still gets what passed, what
// failed and which files never finished, and the totals line.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const totals = { passed: 0, failed: 0, skipped: 0 };
// What failed, printed again just above the totals line: CI keeps only the tail of the output.
const failures = [];
const firstLine = (text) =>
  String(text ?? '')
    .split('\n')
    .find((l) => l.trim() !== '') ?? '';

const MINUTE = 60_000;
/** A vitest suite with no test file started or ended for this long is stuck (its slowest file takes about a minute). */
const STALL_MS = 10 * MINUTE;
/** How long vitest may take to exit once every test file ended (it tears down its workers and PostgreSQL). */
const EXIT_GRACE_MS = 3 * MINUTE;
/** Problems of the harness that cost no test its result, printed above the totals line. */
const warnings = [];

/**
 * Runs a step in its own process group; resolves to its exit status and, when it was stopped,
 * why: past `limitMs`, or when `check(now, started)` names a reason (a vitest suite that stopped
 * making progress). What was still alive in the group is printed before it is killed.
 */
function run(label, cmd, args, { env = {}, limitMs, check } = {}) {
  process.stdout.write(`\n== ${label}: ${cmd} ${args.join(' ')}\n`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env }, detached: true });
    let stopped;
    const watch = setInterval(() => {
      if (stopped) return;
      const now = Date.now();
      stopped = now - started > limitMs ? `still running after ${minutes(limitMs)}` : check?.(now, started);
      if (!stopped) return;
      process.stdout.write(`\n== ${label}: ${stopped}; stopping it. Alive in its process group:\n${alive(child.pid)}\n`);
      killGroup(child.pid);
    }, 5_000);
    child.on('close', (code) => {
      clearInterval(watch);
      // Whatever the step left running in its group (a worker, a server it started) goes with it.
      killGroup(child.pid);
      resolve({ status: code ?? 1, stopped });
    });
  });
}

function minutes(ms) {
  return `${Math.round((ms / MINUTE) * 10) / 10} min`;
}

function killGroup(pgid) {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // The group is gone already.
  }
}

/** `ps` lines of the processes in group `pgid`: pid, state, seconds alive, command. */
function alive(pgid) {
  const ps = spawnSync('ps', ['-e', '-o', 'pgid=,pid=,stat=,etimes=,args='], { encoding: 'utf8' });
  return String(ps.stdout ?? '')
    .split('\n')
    .filter((line) => line.trim().split(/\s+/)[0] === String(pgid))
    .map((line) => `  ${line.trim().slice(0, 240)}`)
    .join('\n');
}

/** A step that passes or fails as one test. */
async function step(label, cmd, args, limitMs, failure) {
  const { status, stopped } = await run(label, cmd, args, { limitMs });
  if (status === 0 && !stopped) totals.passed += 1;
  else {
    totals.failed += 1;
    failures.push(`${label}: ${stopped ?? failure}`);
  }
}

// 1. typecheck counts as one test.
await step('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit'], 10 * MINUTE, 'tsc reported errors');

// 2. lint and format check (`biome ci .`, decision 0019): one test too.
await step('lint', 'npx', ['biome', 'ci', '.'], 10 * MINUTE, 'biome ci reported problems');

// 3. vitest: the unit and integration suites, then the packaging suite (examples/test: the
// packages packed and installed from a registry into fresh apps and the two examples, which
// the e2e suite then logs in to).
async function vitest(label, configArgs, limitMs) {
  const out = join(root, `.vitest-results-${label}.json`);
  const unhandledOut = join(root, `.vitest-unhandled-${label}.json`);
  const progressOut = join(root, `.vitest-progress-${label}.json`);
  for (const f of [out, unhandledOut, progressOut]) rmSync(f, { force: true });
  const reporters = [
    '--reporter=default',
    '--reporter=json',
    '--reporter=./scripts/vitest-unhandled-reporter.mjs',
    '--reporter=./scripts/vitest-progress-reporter.mjs',
  ];
  // Stopped when no test file started or ended for STALL_MS, or when every file ended and vitest did not exit.
  const check = (now, started) => {
    const progress = readProgress(progressOut);
    const last = progress ? statSync(progressOut).mtimeMs : started;
    if (progress && testsOver(progress) && now - last > EXIT_GRACE_MS) return `every test file ended, but vitest did not exit within ${minutes(EXIT_GRACE_MS)}`;
    if (now - last > STALL_MS) return `no test file started or ended for ${minutes(STALL_MS)}`;
  };
  const { status, stopped } = await run(label, 'npx', ['vitest', 'run', ...configArgs, ...reporters, `--outputFile.json=${out}`], {
    env: { WALLETKIT_UNHANDLED_OUT: unhandledOut, WALLETKIT_PROGRESS_OUT: progressOut },
    limitMs,
    check,
  });
  if (stopped) {
    const progress = readProgress(progressOut);
    // Stuck in vitest's own teardown: every result is known, none is lost.
    if (progress && testsOver(progress)) warnings.push(`${label}: ${stopped}; it was stopped, every test file's result counts`);
    else return stoppedVitest(label, stopped, progress);
    if (!existsSync(out)) return countProgress(label, progress);
  }
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
function readProgress(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Every test file of the run ended (or the run did). */
function testsOver(progress) {
  return progress.ended || (progress.files > 0 && progress.done.length === progress.files && progress.running.length === 0);
}

/** The results of the files that ended, as the progress reporter recorded them. */
function countProgress(label, progress) {
  for (const file of progress?.done ?? []) {
    totals.passed += file.passed;
    totals.failed += file.failed;
    totals.skipped += file.skipped;
    for (const t of file.failures) failures.push(`${label}: ${rel(file.file)} > ${t.name}: ${firstLine(t.message)}`);
    if (file.state === 'failed' && file.failed === 0) {
      totals.failed += 1;
      failures.push(`${label}: ${rel(file.file)} failed outside its tests: ${firstLine(file.errors[0]) || '(no message)'}`);
    }
  }
}

/** A vitest suite stopped before its tests were over: the files that ended count, each file still running is a failure. */
function stoppedVitest(label, why, progress) {
  countProgress(label, progress);
  for (const file of progress?.running ?? []) {
    totals.failed += 1;
    failures.push(`${label}: ${rel(file)} never finished (${why})`);
  }
  const unstarted = (progress?.files ?? 0) - (progress?.done?.length ?? 0) - (progress?.running?.length ?? 0);
  if (unstarted > 0 || !progress?.running?.length) {
    totals.failed += 1;
    failures.push(`${label}: stopped (${why}); ${Math.max(unstarted, 0)} test files never started`);
  }
}
function rel(file) {
  return String(file).startsWith(root) ? String(file).slice(root.length + 1) : String(file);
}
await vitest('vitest', [], 40 * MINUTE);
await vitest('packaging', ['--config', 'vitest.examples.config.ts'], 20 * MINUTE);

// 4. Playwright e2e (Debian's Chromium; playwright.config.ts starts the stack it needs).
const pwOut = join(root, 'test-results', 'e2e-results.json');
if (!existsSync(join(root, 'node_modules', '@playwright', 'test'))) {
  process.stdout.write('\n== e2e: @playwright/test is not installed (run npm install)\n');
  totals.failed += 1;
} else {
  rmSync(pwOut, { force: true });
  const { status, stopped } = await run('e2e', 'npx', ['playwright', 'test', '--reporter=list,json'], {
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: pwOut },
    limitMs: 20 * MINUTE,
  });
  if (stopped) {
    totals.failed += 1;
    failures.push(`e2e: ${stopped} (playwright's report is lost with it)`);
  } else if (existsSync(pwOut)) {
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

if (warnings.length > 0) {
  process.stdout.write('\n== warnings\n');
  for (const line of warnings) process.stdout.write(`- ${line.slice(0, 400)}\n`);
}
if (failures.length > 0) {
  process.stdout.write('\n== what failed\n');
  for (const line of failures) process.stdout.write(`- ${line.slice(0, 400)}\n`);
}

process.stdout.write(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
process.exit(totals.failed > 0 ? 1 : 0);
