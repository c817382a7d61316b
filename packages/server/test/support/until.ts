/**
 * Poll until `check` holds, every `everyMs`; after `giveUpMs` stop waiting and return, so that
 * the test's own assertions say what did not happen (by default only the test's timeout bounds it).
 * @example await until(() => servingPids(server).size >= 2);
 */
export async function until(check: () => boolean | Promise<boolean>, { everyMs = 100, giveUpMs = Number.POSITIVE_INFINITY } = {}): Promise<void> {
  const end = Date.now() + giveUpMs;
  while (!(await check()) && Date.now() < end) await new Promise((r) => setTimeout(r, everyMs));
}
