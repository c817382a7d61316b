/**
 * vitest globalSetup: when the run includes packages/server tests, start ONE throwaway
 * PostgreSQL cluster for the whole run (each test store gets its own database in it, see
 * stores.ts) and make sure a PGlite template cluster exists (initdb under PGlite costs
 * seconds; test stores copy the template instead). Both are provided to the tests:
 *
 *   inject('postgresUrl')        superuser URL of the cluster ('' when unavailable)
 *   inject('postgresError')      why it is unavailable ('' when available): tests that need
 *                                PostgreSQL then FAIL with this message, they never skip
 *   inject('pgliteTemplateDir')  a freshly initdb'ed PGlite data dir to copy ('' if none)
 *
 * WALLETKIT_TEST_DATABASE_URL=postgres://... uses an existing server instead (the user must
 * be allowed to CREATE DATABASE).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres, type ThrowawayPostgres } from './pg';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    postgresError: string;
    pgliteTemplateDir: string;
  }
}

/** What the run's one setup provides, and how to stop what it started. */
interface Shared {
  values: { postgresUrl: string; postgresError: string; pgliteTemplateDir: string };
  stop: () => Promise<void>;
}

/** Set up once per vitest process: the root config and each project (vitest.config.ts `projects`) call this. */
const SHARED = Symbol.for('walletkit.test.globalSetup');
type Holder = { users: number; ready: Promise<Shared> };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const registry = globalThis as unknown as Record<symbol, Holder | undefined>;
  const holder = registry[SHARED] ?? { users: 0, ready: setUp(project) };
  registry[SHARED] = holder;
  holder.users += 1;
  const { values } = await holder.ready;
  project.provide('postgresUrl', values.postgresUrl);
  project.provide('postgresError', values.postgresError);
  project.provide('pgliteTemplateDir', values.pgliteTemplateDir);
  return async () => {
    holder.users -= 1;
    if (holder.users > 0) return;
    registry[SHARED] = undefined;
    await (await holder.ready).stop();
  };
}

async function setUp(project: TestProject): Promise<Shared> {
  // Each value '' until set (no cluster, no template).
  const values = { postgresUrl: '', postgresError: '', pgliteTemplateDir: '' };
  const provide = <K extends keyof typeof values>(key: K, value: string) => {
    values[key] = value;
  };
  if (!(await serverTestsSelected(project))) {
    provide('postgresError', 'PostgreSQL was not started: no packages/server test files were selected for this run');
    return { values, stop: async () => {} };
  }

  const external = process.env.WALLETKIT_TEST_DATABASE_URL;
  const started = Date.now();
  const [cluster, template] = await Promise.allSettled([
    external ? Promise.resolve(undefined) : startThrowawayPostgres(),
    ensurePgliteTemplate(project.config.root),
  ]);

  let pg: ThrowawayPostgres | undefined;
  if (external) {
    provide('postgresUrl', external);
    provide('postgresError', '');
  } else if (cluster.status === 'fulfilled' && cluster.value) {
    pg = cluster.value;
    provide('postgresUrl', pg.url);
    provide('postgresError', '');
  } else {
    const reason = cluster.status === 'rejected' ? String((cluster.reason as Error)?.message ?? cluster.reason) : 'unknown';
    console.error(`\n[global-setup] PostgreSQL tests will FAIL: ${reason}\n`);
    provide('postgresUrl', '');
    provide('postgresError', reason);
  }

  if (template.status === 'fulfilled') {
    provide('pgliteTemplateDir', template.value);
  } else {
    console.warn(`[global-setup] no PGlite template (test stores will initdb from scratch): ${String(template.reason)}`);
    provide('pgliteTemplateDir', '');
  }
  if (process.env.WALLETKIT_TEST_VERBOSE) console.log(`[global-setup] ready in ${Date.now() - started} ms`);

  return { values, stop: async () => pg?.stop() };
}

/** True unless we can tell that no selected test file lives under packages/server. */
async function serverTestsSelected(project: TestProject): Promise<boolean> {
  try {
    // The CLI file filters (`vitest run some/file.test.ts`); not a documented field.
    const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
    const specs = await project.vitest.getRelevantTestSpecifications(filters);
    const marker = `${sep}packages${sep}server${sep}`;
    return specs.some((s) => s.moduleId.includes(marker) || s.moduleId.includes('/packages/server/'));
  } catch {
    return true;
  }
}

/**
 * A PGlite data dir right after initdb, cached per PGlite version under
 * node_modules/.cache/walletkit (built once per machine; atomic rename, so concurrent runs
 * and interrupted builds never leave a half-written template).
 */
async function ensurePgliteTemplate(root: string): Promise<string> {
  const require = createRequire(import.meta.url);
  let pkgDir = dirname(require.resolve('@electric-sql/pglite'));
  while (!existsSync(join(pkgDir, 'package.json'))) pkgDir = dirname(pkgDir);
  const version = (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version;
  const cacheRoot = join(root, 'node_modules', '.cache', 'walletkit');
  const target = join(cacheRoot, `pglite-template-${version}`);
  if (existsSync(join(target, 'PG_VERSION'))) return target;

  mkdirSync(cacheRoot, { recursive: true });
  const work = mkdtempSync(join(cacheRoot, 'building-'));
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create(join(work, 'pgdata'));
    await db.close();
    try {
      renameSync(join(work, 'pgdata'), target);
    } catch (err) {
      // Another run finished first: use its template.
      if (!existsSync(join(target, 'PG_VERSION'))) throw err;
    }
    return target;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
