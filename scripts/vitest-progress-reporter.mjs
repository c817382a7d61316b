// A vitest reporter for `npm test` (scripts/test.mjs): keeps the file named by
// WALLETKIT_PROGRESS_OUT up to date with how many test files the run has, those running, and
// the results of those done, written at each file's start and end and at the run's end. When a
// run stops making progress and test.mjs stops it, the JSON reporter may have written nothing;
// this file still says what passed, what failed and which files never finished.
import { renameSync, writeFileSync } from 'node:fs';

export default class ProgressReporter {
  files = 0;
  running = new Set();
  done = [];
  ended = false;

  onTestRunStart(specifications) {
    this.files = specifications.length;
    this.save();
  }

  onTestModuleStart(module) {
    this.running.add(module.moduleId);
    this.save();
  }

  onTestModuleEnd(module) {
    this.running.delete(module.moduleId);
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const failures = [];
    for (const test of module.children.allTests()) {
      const result = test.result();
      if (result.state === 'passed') counts.passed += 1;
      else if (result.state === 'failed') {
        counts.failed += 1;
        failures.push({ name: test.fullName, message: String(result.errors?.[0]?.message ?? '') });
      } else counts.skipped += 1;
    }
    const errors = module.errors().map((e) => String(e?.message ?? e));
    this.done.push({ file: module.moduleId, state: module.state(), ...counts, failures, errors });
    this.save();
  }

  onTestRunEnd() {
    this.ended = true;
    this.save();
  }

  save() {
    const out = process.env.WALLETKIT_PROGRESS_OUT;
    if (!out) return;
    // Written whole and renamed, so a reader never sees half a file; its mtime is the last progress.
    const state = { files: this.files, running: [...this.running], done: this.done, ended: this.ended };
    writeFileSync(`${out}.tmp`, JSON.stringify(state));
    renameSync(`${out}.tmp`, out);
  }
}
