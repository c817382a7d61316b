/**
 * Packs every package once for the examples suite and serves the tarballs through a registry
 * for the `@walletkit` scope (support/packages.ts). Tests read both through `inject()`.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { packAll, ROOT, startRegistry, type Packed } from '../support/packages';

declare module 'vitest' {
  export interface ProvidedContext {
    packs: Packed[];
    registryUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const outDir = join(ROOT, '.packs');
  await rm(outDir, { recursive: true, force: true });
  const packs = await packAll(outDir);
  const registry = await startRegistry(packs);
  project.provide('packs', packs);
  project.provide('registryUrl', registry.url);
  return async () => {
    await registry.close();
  };
}
