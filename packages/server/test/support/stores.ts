/**
 * Fresh stores for tests, one per call, on both databases:
 *
 *   describe.each(storeKinds)('%s', (kind) => { ... await openTestStore(kind) ... })
 *
 * pglite: a fresh temp data dir (a copy of the template from global-setup.ts, so no initdb
 * per test), or in-memory with { memory: true }. postgres: a new database `wk_<random>` in
 * the run's shared cluster; dispose() drops it. When PostgreSQL is unavailable the postgres
 * variant throws (the test fails, it is never skipped).
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { openStore, PGLITE_SUBDIR, type Store } from '../../src/store/db';

export const storeKinds = ['pglite', 'postgres'] as const;
export type StoreKind = (typeof storeKinds)[number];

export type TestStore = Store & {
  /** Closes the store (if still open) and deletes its data dir / drops its database. */
  dispose(): Promise<void>;
  /** pglite on disk: the data dir; postgres: the database URL; memory: ''. */
  location: string;
};

/** The shared cluster's superuser URL; throws (failing the test) when PostgreSQL is unavailable. */
export function postgresAdminUrl(): string {
  const url = inject('postgresUrl');
  if (!url) {
    throw new Error(`PostgreSQL is not available for this test run: ${inject('postgresError') || 'global setup did not start it'}`);
  }
  return url;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresAdminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A new empty database in the shared cluster. */
export async function createTestDatabase(): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `wk_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(postgresAdminUrl());
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    name,
    async drop() {
      if (dropped) return;
      dropped = true;
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** A fresh, empty PGlite data dir (the template copied in when there is one). */
export function createTestDataDir(): { dataDir: string; remove(): void } {
  const dataDir = mkdtempSync(join(tmpdir(), 'walletkit-store-'));
  const template = inject('pgliteTemplateDir');
  if (template) cpSync(template, join(dataDir, PGLITE_SUBDIR), { recursive: true });
  return { dataDir, remove: () => rmSync(dataDir, { recursive: true, force: true }) };
}

export async function openTestStore(kind: StoreKind, opts: { memory?: boolean; poolSize?: number } = {}): Promise<TestStore> {
  if (kind === 'postgres') {
    const database = await createTestDatabase();
    let store: Store;
    try {
      store = await openStore({ databaseUrl: database.url, poolSize: opts.poolSize ?? 5 });
    } catch (err) {
      await database.drop();
      throw err;
    }
    return withDispose(store, database.url, async () => {
      await store.close();
      await database.drop();
    });
  }
  if (opts.memory) {
    const store = await openStore({ memory: true });
    return withDispose(store, '', () => store.close());
  }
  const dir = createTestDataDir();
  let store: Store;
  try {
    store = await openStore({ dataDir: dir.dataDir });
  } catch (err) {
    dir.remove();
    throw err;
  }
  return withDispose(store, dir.dataDir, async () => {
    await store.close();
    dir.remove();
  });
}

function withDispose(store: Store, location: string, dispose: () => Promise<void>): TestStore {
  let disposing: Promise<void> | undefined;
  return Object.assign(store, { location, dispose: () => (disposing ??= dispose()) });
}
