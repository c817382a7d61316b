/**
 * The published declarations in a strict consumer: every entry point imported and used by
 * fixtures/consumer/consumer.tsx, compiled with strict, exactOptionalPropertyTypes,
 * noUncheckedIndexedAccess, noPropertyAccessFromIndexSignature, erasableSyntaxOnly,
 * verbatimModuleSyntax and skipLibCheck false (every .d.ts checked, the kit's and its
 * dependencies'), under moduleResolution bundler and nodenext, with TypeScript 5.9 and 6.
 */
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { npmInstall, registryAt, run, type RunResult } from '../support/packages';

const registry = registryAt(inject('registryUrl'));
const FIXTURES = join(import.meta.dirname, 'fixtures');
let dir: string;
let install: RunResult;

const STRICT = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noPropertyAccessFromIndexSignature: true,
  erasableSyntaxOnly: true,
  verbatimModuleSyntax: true,
  skipLibCheck: false,
  noEmit: true,
  target: 'ES2022',
  lib: ['ES2023', 'DOM', 'DOM.Iterable'],
  jsx: 'react-jsx',
  types: ['node'],
};
const RESOLUTIONS = {
  bundler: { module: 'ESNext', moduleResolution: 'bundler' },
  nodenext: { module: 'NodeNext', moduleResolution: 'NodeNext' },
};
const COMPILERS = { '5.9': 'typescript-5.9', '6': 'typescript' };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'walletkit-consumer-'));
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'strict-consumer',
      private: true,
      type: 'module',
      dependencies: {
        '@walletkit/client': '^0.1.0',
        '@walletkit/crypto': '^0.1.0',
        '@walletkit/protocol': '^0.1.0',
        '@walletkit/react': '^0.1.0',
        '@walletkit/server': '^0.1.0',
        '@tanstack/react-query': '^5.108.0',
        '@wagmi/core': '^2.22.1',
        react: '^19.3.1',
        'react-dom': '^19.3.1',
        viem: '^2.57.20',
      },
      devDependencies: {
        '@types/node': '^20.19.43',
        '@types/react': '^19.3.0',
        '@types/react-dom': '^19.3.0',
        typescript: '~6.0.3',
        'typescript-5.9': 'npm:typescript@~5.9.3',
      },
    }),
  );
  await copyFile(join(FIXTURES, 'consumer', 'consumer.tsx'), join(dir, 'consumer.tsx'));
  for (const [name, resolution] of Object.entries(RESOLUTIONS)) {
    await writeFile(join(dir, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions: { ...STRICT, ...resolution }, files: ['consumer.tsx'] }, null, 2));
  }
  install = await npmInstall(dir, registry);
}, 600_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a strict consumer', () => {
  it('given the kit, the server and their peers from the registry, when installed, then npm succeeds', () => {
    expect(install.code, install.stderr).toBe(0);
  });

  for (const [version, pkg] of Object.entries(COMPILERS)) {
    for (const resolution of Object.keys(RESOLUTIONS)) {
      it(`given TypeScript ${version} and moduleResolution ${resolution}, when the consumer compiles with every strict flag and skipLibCheck false, then there is no error`, async () => {
        const tsc = join(dir, 'node_modules', pkg, 'bin', 'tsc');
        const reported = await run(process.execPath, [tsc, '--version'], { cwd: dir });
        expect(reported.stdout).toContain(`Version ${version}`);
        const r = await run(process.execPath, [tsc, '-p', `tsconfig.${resolution}.json`], { cwd: dir });
        expect(r.stdout + r.stderr).toBe('');
        expect(r.code).toBe(0);
      }, 180_000);
    }
  }

  it('given the viem, wagmi and server entries, when imported by plain Node, then they load without reading browser globals', async () => {
    await copyFile(join(FIXTURES, 'import-probe.mjs'), join(dir, 'import-probe.mjs'));
    const entries = ['@walletkit/client/viem', '@walletkit/client/wagmi', '@walletkit/server'];
    const r = await run(process.execPath, ['import-probe.mjs', ...entries], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const { imported, touched } = JSON.parse(r.stdout) as { imported: Record<string, number>; touched: unknown[] };
    for (const entry of entries) expect(imported[entry], entry).toBeGreaterThan(0);
    expect(touched).toEqual([]);
  });
});
