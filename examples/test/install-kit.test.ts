/** An app installs @walletkit/react alone (and its peers), as from npmjs.com. */
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { npmInstall, readmeInstall, registryAt, run, type RunResult } from '../support/packages';

const registry = registryAt(inject('registryUrl'));
let dir: string;
let install: RunResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'walletkit-kit-only-'));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'kit-only', private: true, type: 'module' }));
  // Exactly the README's install line for the kit.
  install = await npmInstall(dir, registry, readmeInstall('@walletkit/react'));
}, 300_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('@walletkit/react installed alone', () => {
  it("given the README's npm install @walletkit/react line (the kit and its peers), when it finishes, then the rest of the kit came with it and the optional peers did not", () => {
    expect(install.code, install.stderr).toBe(0);
    for (const name of ['react', 'client', 'crypto', 'protocol'])
      expect(existsSync(join(dir, 'node_modules', '@walletkit', name, 'dist', 'index.js')), name).toBe(true);
    expect(existsSync(join(dir, 'node_modules', '@walletkit', 'server'))).toBe(false);
    expect(existsSync(join(dir, 'node_modules', 'viem'))).toBe(false);
    expect(existsSync(join(dir, 'node_modules', '@wagmi', 'core'))).toBe(false);
  });

  it('given plain Node (no DOM), when every browser entry point is imported, then each loads and no walletkit module reads window, document, indexedDB, navigator or storage at import time', async () => {
    await copyFile(join(import.meta.dirname, 'fixtures', 'import-probe.mjs'), join(dir, 'import-probe.mjs'));
    const entries = [
      '@walletkit/react',
      '@walletkit/react/confirm',
      '@walletkit/client',
      '@walletkit/client/solana',
      '@walletkit/crypto',
      '@walletkit/protocol',
      '@walletkit/protocol/wire',
    ];
    const r = await run(process.execPath, ['import-probe.mjs', ...entries], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const { imported, touched } = JSON.parse(r.stdout) as { imported: Record<string, number>; touched: unknown[] };
    for (const entry of entries) expect(imported[entry], entry).toBeGreaterThan(0);
    expect(touched).toEqual([]);
  });

  it('given the installed React entry points, when their first line is read, then it is the "use client" directive (a Server Component may import them as a client boundary)', async () => {
    const { readFile } = await import('node:fs/promises');
    for (const file of ['dist/index.js', 'dist/confirm/index.js']) {
      const first = (await readFile(join(dir, 'node_modules', '@walletkit', 'react', file), 'utf8')).split('\n', 1)[0];
      expect(first, file).toBe("'use client';");
    }
  });
});
