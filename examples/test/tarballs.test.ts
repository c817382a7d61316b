/** What `npm pack` puts in each tarball, and what each manifest promises. */
import { describe, expect, inject, it } from 'vitest';

const packs = inject('packs');

describe.each(packs.map((p) => [p.name, p] as const))('%s tarball', (_name, pack) => {
  it('given the packed tarball, when its files are listed, then it ships dist (ESM, .d.ts, source maps), README, LICENSE and package.json only: no sources, tests or tsconfig', () => {
    const outside = pack.files.filter((f) => !f.startsWith('dist/') && !['README.md', 'LICENSE', 'package.json'].includes(f));
    expect(outside).toEqual([]);
    expect(pack.files).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/index.js.map']));
    const dist = pack.files.filter((f) => f.startsWith('dist/'));
    expect(dist.filter((f) => !/\.(js|d\.ts|js\.map)$/.test(f) && !f.startsWith('dist/store/migrations/'))).toEqual([]);
    expect(dist.filter((f) => /\.test\.|\/test\//.test(f))).toEqual([]);
    // Every module has its declaration and its source map (the server's frame script is a bundle for browsers, served as is).
    for (const js of dist.filter((f) => f.endsWith('.js') && f !== 'dist/frames/frame.js')) {
      expect(pack.files).toContain(js.replace(/\.js$/, '.d.ts'));
      expect(pack.files).toContain(`${js}.map`);
    }
  });

  it('given the manifest, when read as npm and bundlers read it, then it is public, 0.x, MIT, ESM with sideEffects set, and every export has types and import targets inside the tarball', () => {
    const m = pack.manifest;
    expect(m.private).toBeUndefined();
    expect(m.version).toMatch(/^0\.\d+\.\d+$/);
    expect(m.license).toBe('MIT');
    expect(m.type).toBe('module');
    expect(m.sideEffects).toBeDefined();
    expect(m.files).toEqual(['dist', 'README.md', 'LICENSE']);
    expect(m.engines?.['node']).toBe('>=20.19');
    const entries = Object.entries(m.exports ?? {}).filter(([key]) => key !== './package.json');
    expect(entries.length).toBeGreaterThan(0);
    for (const [key, target] of entries) {
      expect(typeof target, key).toBe('object');
      const t = target as Record<string, string>;
      expect(pack.files, `${key} types`).toContain(t['types']!.replace(/^\.\//, ''));
      expect(pack.files, `${key} import`).toContain(t['import']!.replace(/^\.\//, ''));
      // TypeScript and bundlers take the first matching condition: types before import.
      expect(Object.keys(t).indexOf('types')).toBeLessThan(Object.keys(t).indexOf('import'));
    }
    // Sibling packages are pinned to the version packed with them.
    for (const [dep, range] of Object.entries(m.dependencies ?? {})) {
      if (dep.startsWith('@walletkit/')) expect(range, dep).toBe(packs.find((p) => p.name === dep)!.version);
    }
  });
});

describe('peer dependencies', () => {
  it('given @walletkit/react and @walletkit/client, when their manifests are read, then react, react-dom and @tanstack/react-query are peers of the kit and viem and @wagmi/core optional peers of the client, never dependencies', () => {
    const react = packs.find((p) => p.name === '@walletkit/react')!.manifest;
    expect(Object.keys(react.peerDependencies ?? {}).sort()).toEqual(['@tanstack/react-query', 'react', 'react-dom']);
    const client = packs.find((p) => p.name === '@walletkit/client')!.manifest;
    expect(client.peerDependencies).toEqual({ '@wagmi/core': expect.any(String), viem: expect.any(String) });
    expect(client.peerDependenciesMeta).toEqual({ '@wagmi/core': { optional: true }, viem: { optional: true } });
    for (const m of packs.map((p) => p.manifest)) {
      for (const peer of ['react', 'react-dom', '@tanstack/react-query', 'viem', 'wagmi', '@wagmi/core'])
        expect(m.dependencies?.[peer], `${m.name} ${peer}`).toBeUndefined();
    }
  });

  it('given the server, when its manifest is read, then walletkit-server runs dist/bin.js with plain node and no TypeScript loader is a dependency', () => {
    const server = packs.find((p) => p.name === '@walletkit/server')!;
    expect(server.manifest.bin).toEqual({ 'walletkit-server': './dist/bin.js' });
    expect(server.files).toContain('dist/bin.js');
    expect(server.files.filter((f) => f.startsWith('dist/store/migrations/') && f.endsWith('.sql')).length).toBeGreaterThanOrEqual(4);
    for (const loader of ['tsx', 'ts-node', 'typescript', 'esbuild', '@swc/core']) expect(server.manifest.dependencies?.[loader], loader).toBeUndefined();
  });
});
