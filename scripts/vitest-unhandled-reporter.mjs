// A vitest reporter for `npm test` (scripts/test.mjs): writes the run's unhandled errors (an
// error thrown or a promise rejected outside any test) to the file named by
// WALLETKIT_UNHANDLED_OUT, so the summary above the totals line can name them; the JSON reporter
// leaves them out.
import { writeFileSync } from 'node:fs';

export default class UnhandledErrorsReporter {
  onTestRunEnd(_modules, unhandledErrors) {
    const out = process.env.WALLETKIT_UNHANDLED_OUT;
    if (!out) return;
    const errors = (unhandledErrors ?? []).map((e) => ({
      name: e?.name ?? 'Error',
      message: String(e?.message ?? e),
      // Where it came from: vitest names the test file that was running, when it knows.
      origin: e?.VITEST_TEST_PATH ?? e?.VITEST_TEST_NAME ?? '',
      stack: String(e?.stack ?? '')
        .split('\n')
        .slice(0, 6)
        .join('\n'),
    }));
    writeFileSync(out, JSON.stringify(errors));
  }
}
