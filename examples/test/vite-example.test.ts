/**
 * examples/vite, installed from the registry as an integrator installs it (not workspace links)
 * and built with its own `tsc -b && vite build`. The build is left in examples/vite/dist for the
 * e2e stack, which rebuilds it with a real organization's settings and logs in (e2e/examples.spec.ts).
 */
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { engineWarnings, nodeBuiltinWarnings, npmInstall, ownOutput, registryAt, ROOT, run, type RunResult } from '../support/packages';

const registry = registryAt(inject('registryUrl'));
const packs = inject('packs');
const dir = join(ROOT, 'examples', 'vite');
let install: RunResult;

beforeAll(async () => {
  await rm(join(dir, 'node_modules'), { recursive: true, force: true });
  await rm(join(dir, 'dist'), { recursive: true, force: true });
  install = await npmInstall(dir, registry);
}, 600_000);

describe('examples/vite', () => {
  it('given its package.json, when npm installs it, then the kit comes from the packed tarballs, not from the workspace', async () => {
    expect(install.code, install.stderr).toBe(0);
    expect(engineWarnings(install)).toEqual([]);
    for (const name of ['react', 'client', 'crypto', 'protocol']) {
      const installed = join(dir, 'node_modules', '@walletkit', name);
      expect(existsSync(join(installed, 'dist', 'index.js')), name).toBe(true);
      // A real directory with only what the tarball ships (a workspace link would show src/).
      expect(existsSync(join(installed, 'src')), `${name} src`).toBe(false);
    }
    // Installed from the packed tarballs: npm recorded their integrity.
    const lock = JSON.parse(await readFile(join(dir, 'node_modules', '.package-lock.json'), 'utf8')) as {
      packages: Record<string, { integrity?: string; link?: boolean }>;
    };
    for (const pack of packs.filter((p) => p.name !== '@walletkit/server'))
      expect(lock.packages[`node_modules/${pack.name}`]?.integrity, pack.name).toBe(pack.integrity);
  });

  it('given the app with the Vite template strictness (erasableSyntaxOnly, verbatimModuleSyntax) plus exactOptionalPropertyTypes and skipLibCheck false, when npm run build runs tsc -b and vite build, then both pass and nothing warns about Node built-ins', async () => {
    const r = await run('npm', ['run', 'build'], {
      cwd: dir,
      env: {
        VITE_WALLETKIT_URL: 'http://localhost:8080',
        VITE_WALLETKIT_ORGANIZATION_ID: 'org',
        VITE_WALLETKIT_CONFIG_ID: 'config',
        VITE_WALLETKIT_ENCLAVE_PUBLIC_KEY: '04',
      },
    });
    const output = ownOutput(r);
    expect(r.code, output).toBe(0);
    expect(output).toContain('built in');
    expect(nodeBuiltinWarnings(output)).toEqual([]);
    expect(output.split('\n').filter((l) => /\(!\)|warn/i.test(l))).toEqual([]);
    expect(existsSync(join(dir, 'dist', 'index.html'))).toBe(true);
  }, 300_000);
});
