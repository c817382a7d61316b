#!/usr/bin/env node
/**
 * Builds the publishable packages to `packages/<name>/dist` with plain `tsc` (decision 0017):
 * ESM JavaScript one file per module (so `"use client"` directives and lazy chunks survive),
 * `.d.ts` declarations and source maps with the sources inlined. Each package resolves its
 * sibling packages through their built `dist` (no source condition), so the build runs in
 * dependency order and proves the published declarations are enough for the next package.
 *
 *   node scripts/build.mjs              every package
 *   node scripts/build.mjs client react only these (their dependencies must be built)
 *   npm run build -w @walletkit/client  the same, from the package's own script
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { basename, join } from 'node:path';

const root = join(import.meta.dirname, '..');
/** Dependency order. */
export const PACKAGES = ['protocol', 'crypto', 'client', 'react', 'server'];
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

function fromCwd() {
  const here = process.cwd();
  return basename(join(here, '..')) === 'packages' && PACKAGES.includes(basename(here)) ? [basename(here)] : PACKAGES;
}

export async function buildPackage(name) {
  const dir = join(root, 'packages', name);
  rmSync(join(dir, 'dist'), { recursive: true, force: true });
  const r = spawnSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.build.json')], { cwd: dir, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`tsc failed for @walletkit/${name}`);
  // Assets read at run time, next to the module that reads them.
  if (name === 'server') {
    cpSync(join(dir, 'src', 'store', 'migrations'), join(dir, 'dist', 'store', 'migrations'), { recursive: true });
    // The secret frame's script, one ES module the server serves at /frames/frame.js (issue 12),
    // bundled by the server's own (just compiled) bundler module.
    const { bundleFrameScript } = await import(pathToFileURL(join(dir, 'dist', 'frames', 'bundle.js')).href);
    const script = await bundleFrameScript(join(root, 'packages', 'client', 'src', 'frame', 'secret-frame.ts'));
    writeFileSync(join(dir, 'dist', 'frames', 'frame.js'), script);
  }
  // The React entry points are client boundaries for Server Components (Next.js App Router).
  if (name === 'react') {
    for (const entry of ['index.js', 'confirm/index.js']) {
      const first = readFileSync(join(dir, 'dist', entry), 'utf8').split('\n', 1)[0];
      if (!/^['"]use client['"];?$/.test(first)) throw new Error(`dist/${entry} lost its "use client" directive`);
    }
  }
  if (!existsSync(join(dir, 'dist', 'index.d.ts'))) throw new Error(`@walletkit/${name}: no dist/index.d.ts`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const asked = process.argv.slice(2);
  const names = asked.length ? asked : fromCwd();
  for (const name of names) {
    if (!PACKAGES.includes(name)) throw new Error(`unknown package ${name} (one of ${PACKAGES.join(', ')})`);
    const t = Date.now();
    await buildPackage(name);
    process.stdout.write(`built @walletkit/${name} in ${((Date.now() - t) / 1000).toFixed(1)}s\n`);
  }
}
