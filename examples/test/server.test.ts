/** @walletkit/server installed alone in an empty directory and run with plain node, as the README says. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stampApiKey } from '@walletkit/crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { engineWarnings, integratorEnv, npmInstall, readmeInstall, registryAt, run, type RunResult } from '../support/packages';

const registry = registryAt(inject('registryUrl'));
let dir: string;
let install: RunResult;
let child: ChildProcess | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'walletkit-server-only-'));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'server-only', private: true }));
  // Exactly the README's install line for the server.
  install = await npmInstall(dir, registry, readmeInstall('@walletkit/server'));
}, 300_000);

afterAll(async () => {
  child?.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

describe('walletkit-server from its tarball', () => {
  it('given npm install @walletkit/server in an empty directory on Node 20, when it finishes, then it installed without engine warnings and without any TypeScript loader', () => {
    expect(install.code, install.stderr).toBe(0);
    expect(engineWarnings(install)).toEqual([]);
    for (const loader of ['tsx', 'ts-node', 'typescript', 'esbuild']) expect(existsSync(join(dir, 'node_modules', loader)), loader).toBe(false);
    expect(existsSync(join(dir, 'node_modules', '@walletkit', 'crypto', 'dist', 'index.js'))).toBe(true);
  });

  it('given the installed package, when npx walletkit-server runs without a command, then plain node prints the usage', async () => {
    const r = await run('npx', ['--no-install', 'walletkit-server', '--help'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('walletkit-server start');
  });

  it('given npx walletkit-server org create and start, when the server is up, then it serves discovery and the organization made before it started', async () => {
    const dataDir = join(dir, 'data');
    const org = await run('npx', ['--no-install', 'walletkit-server', 'org', 'create', '--name', 'Packed', '--data-dir', dataDir, '--json'], { cwd: dir });
    expect(org.code, org.stderr).toBe(0);
    const { organizationId, apiKey } = JSON.parse(org.stdout) as { organizationId: string; apiKey: { publicKey: string; privateKey: string } };
    expect(organizationId).toMatch(/^[0-9a-f-]{36}$/);

    child = spawn('npx', ['--no-install', 'walletkit-server', 'start', '--port', '0', '--data-dir', dataDir], {
      cwd: dir,
      env: integratorEnv({ LOG_LEVEL: 'warn' }),
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child!.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /activity API\s+(http:\/\/localhost:\d+)\/public\/v1/.exec(out);
        if (m) resolve(m[1]!);
      });
      child!.once('exit', (code) => reject(new Error(`walletkit-server exited ${code}: ${out}`)));
    });
    const discovery = (await (await fetch(`${url}/.well-known/walletkit.json`)).json()) as Record<string, unknown>;
    expect(discovery['enclaveSigningPublicKey']).toMatch(/^04[0-9a-f]{128}$/);
    // A stamped read with the root key the CLI printed: the store, enclave and stamp checks all run from dist.
    const body = JSON.stringify({ organizationId });
    const whoami = await fetch(`${url}/public/v1/query/whoami`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-stamp': stampApiKey(body, apiKey) },
      body,
    });
    expect(whoami.status).toBe(200);
    expect(await whoami.json()).toMatchObject({ organizationId, organizationName: 'Packed' });
    // The secret frame's script is the bundle built into the tarball (no bundler at run time).
    const frameScript = await fetch(`${url}/frames/frame.js`);
    expect(frameScript.status).toBe(200);
    expect(await frameScript.text()).toContain('walletkitFrame');
    child.kill('SIGTERM');
    await new Promise((resolve) => child!.once('exit', resolve));
  }, 120_000);
});
