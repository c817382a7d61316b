/**
 * One esbuild build into memory at a time, for the code the server bundles when it runs from
 * source (the secret frame's script, the worker threads' scripts) and for scripts/build.mjs.
 * esbuild's service process would keep this one alive, so it is stopped after each build; a build
 * running meanwhile would then never finish (two bundles started at once hung the tests), hence
 * the queue. esbuild is a development dependency: the published server never loads this module.
 */

/** The esbuild options these bundles use (declared here: the published types must not name esbuild). */
export interface OnceOptions {
  entryPoints: string[];
  bundle: true;
  format: 'esm' | 'cjs';
  platform: 'browser' | 'node';
  target: string;
  conditions?: string[] | undefined;
  external?: string[] | undefined;
  banner?: { js: string } | undefined;
  minify?: boolean | undefined;
  legalComments?: 'none' | undefined;
  logLevel: 'silent';
}

/** The last build started: each waits for it. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * The text of a one-entry bundle built with `options` (written nowhere).
 * @example const code = await buildOnce({ entryPoints: [path], bundle: true, format: 'cjs', platform: 'node' });
 */
export function buildOnce(options: OnceOptions): Promise<string> {
  const built = queue.then(async () => {
    const { build, stop } = await import('esbuild');
    try {
      const out = await build({ ...options, write: false });
      return out.outputFiles[0]!.text;
    } finally {
      await stop();
    }
  });
  queue = built.catch(() => undefined);
  return built;
}
