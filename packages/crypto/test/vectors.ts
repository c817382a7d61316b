// Loads the published Wycheproof vectors from shared/vectors/ (beside the repo root).
// A missing folder fails loudly: a vector test that silently skips proves nothing.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface WycheproofTest {
  tcId: number;
  comment: string;
  flags: string[];
  msg: string;
  sig: string;
  result: 'valid' | 'invalid' | 'acceptable';
}

export interface WycheproofGroup {
  publicKey: { uncompressed?: string; pk?: string; wx?: string; wy?: string };
  tests: WycheproofTest[];
}

export interface WycheproofFile {
  algorithm: string;
  numberOfTests: number;
  testGroups: WycheproofGroup[];
}

export function loadWycheproof(name: string): WycheproofFile {
  const path = fileURLToPath(new URL(`../../../../shared/vectors/wycheproof/${name}`, import.meta.url));
  if (!existsSync(path)) {
    throw new Error(`Wycheproof vector file missing: ${path}. The crypto tests need shared/vectors/ beside the repo.`);
  }
  return JSON.parse(readFileSync(path, 'utf8')) as WycheproofFile;
}

export interface WycheproofOutcome {
  total: number;
  failures: string[];
}

/**
 * Runs every case; `verify` must return a boolean and never throw (a string return is a
 * failure description).
 */
export function runWycheproof(file: WycheproofFile, verify: (group: WycheproofGroup, test: WycheproofTest) => boolean | string): WycheproofOutcome {
  const failures: string[] = [];
  let total = 0;
  for (const group of file.testGroups) {
    for (const test of group.tests) {
      total++;
      let outcome: boolean | string;
      try {
        outcome = verify(group, test);
      } catch (e) {
        outcome = `threw ${(e as Error).message}`;
      }
      const ok = test.result === 'valid' ? outcome === true : test.result === 'invalid' ? outcome === false : typeof outcome === 'boolean';
      if (!ok) failures.push(`tcId ${test.tcId} (${test.comment}, ${test.result}): got ${String(outcome)}`);
    }
  }
  return { total, failures };
}
