/**
 * Bundles the secret frame's script (packages/client/src/frame/secret-frame.ts) into one ES
 * module with esbuild: at build time into dist/frames/frame.js (scripts/build.mjs), and on first
 * request when the monorepo runs the server from source. esbuild is a development dependency
 * only: the published server serves the built file and never loads this module.
 */
import { buildOnce } from '../esbuild-once.js';

export function bundleFrameScript(entry: string, conditions: string[] = []): Promise<string> {
  return buildOnce({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    conditions,
    logLevel: 'silent',
  });
}
