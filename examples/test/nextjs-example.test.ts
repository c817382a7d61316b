/**
 * examples/nextjs (App Router), installed from the registry and built with `next build`: no
 * transpilePackages, the shipped declarations type-checked by Next with strict flags, the kit's
 * "use client" entry imported by a Server Component (app/wallet/page.tsx) and server-rendered.
 * The build stays in examples/nextjs/.next for the e2e stack (`next start`, e2e/examples.spec.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { engineWarnings, freePort, integratorEnv, npmInstall, ownOutput, registryAt, ROOT, run, type RunResult } from '../support/packages';

const registry = registryAt(inject('registryUrl'));
const packs = inject('packs');
const dir = join(ROOT, 'examples', 'nextjs');
let install: RunResult;

beforeAll(async () => {
  await rm(join(dir, 'node_modules'), { recursive: true, force: true });
  await rm(join(dir, '.next'), { recursive: true, force: true });
  install = await npmInstall(dir, registry);
}, 600_000);

describe('examples/nextjs', () => {
  it('given its package.json, when npm installs it, then the kit comes from the packed tarballs', async () => {
    expect(install.code, install.stderr).toBe(0);
    expect(engineWarnings(install)).toEqual([]);
    const lock = JSON.parse(await readFile(join(dir, 'node_modules', '.package-lock.json'), 'utf8')) as { packages: Record<string, { integrity?: string }> };
    for (const pack of packs.filter((p) => p.name !== '@walletkit/server'))
      expect(lock.packages[`node_modules/${pack.name}`]?.integrity, pack.name).toBe(pack.integrity);
    expect(existsSync(join(dir, 'node_modules', '@walletkit', 'react', 'src'))).toBe(false);
  });

  it('given next.config.ts without transpilePackages, when next build runs (type-check included), then it compiles the provider, the OAuth callback and the wallet page', async () => {
    const r = await run('npm', ['run', 'build'], { cwd: dir, env: { NEXT_TELEMETRY_DISABLED: '1' } });
    const output = ownOutput(r);
    expect(r.code, output).toBe(0);
    expect(output).toContain('Compiled successfully');
    expect(output).toContain('Finished TypeScript');
    for (const route of ['/wallet', '/oauth/callback']) expect(output).toContain(route);
    expect(output.split('\n').filter((l) => /warn/i.test(l))).toEqual([]);
  }, 480_000);

  it('given the build, when next start serves the pages, then the Server Component that renders the kit server-renders without touching browser globals', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [join(dir, 'node_modules', 'next', 'dist', 'bin', 'next'), 'start', '-p', String(port), '-H', '127.0.0.1'], {
      cwd: dir,
      env: integratorEnv({
        NEXT_TELEMETRY_DISABLED: '1',
        WALLETKIT_URL: 'http://localhost:9',
        WALLETKIT_ORGANIZATION_ID: 'org',
        WALLETKIT_CONFIG_ID: 'config',
        WALLETKIT_ENCLAVE_PUBLIC_KEY: '04',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let logs = '';
    child.stdout.on('data', (c: Buffer) => (logs += c.toString()));
    child.stderr.on('data', (c: Buffer) => (logs += c.toString()));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`next start did not get ready: ${logs}`)), 60_000);
        child.stdout.on('data', () => {
          if (/Ready in/.test(logs)) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      for (const path of ['/', '/wallet', '/oauth/callback']) {
        const res = await fetch(`http://127.0.0.1:${port}${path}`);
        expect(res.status, path).toBe(200);
        const html = await res.text();
        expect(html, path).toContain('walletkit + Next.js');
      }
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toContain('Log in');
      expect(logs).not.toMatch(/error|is not defined/i);
    } finally {
      child.kill('SIGTERM');
    }
  }, 120_000);
});
