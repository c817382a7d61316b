/**
 * `npm run bench:changes`: what PostgreSQL spends on each committed change of an organization's
 * facts, with this tree's store (a pool of 10, as the server opens it, and its change feed's
 * listener). Each transaction UPDATEs one user row (a fact table: the trigger of migrations
 * 0009/0011 runs); 2 or 10 run at once, so 8 or none of the pool's connections sit idle. The
 * PostgreSQL figure is the CPU of the cluster's processes (/proc, bench/lib/cpu.ts), a commit's share. Not a
 * figure with a ceiling: a tool for decision 0022's "notifications that wake every connection"
 * (every listening backend is woken at each notifying commit, idle ones one by one).
 *
 *   COMMITS=4000  transactions per row of the table (default 3000)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { openStore } from '../packages/server/src/store/db.js';
import { organizations, users } from '../packages/server/src/store/schema.js';
import { startThrowawayPostgres } from '../packages/server/test/support/pg.js';
import { cpuMeter } from './lib/cpu.js';

const commits = Number(process.env.COMMITS ?? 3000);

const cluster = await startThrowawayPostgres();
try {
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query('CREATE DATABASE changes');
  await admin.end();
  // The cluster's postmaster: its process tree is the cluster (bench/lib/cpu.ts counts it as the "server").
  const postmaster = Number(readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const store = await openStore({ databaseUrl: cluster.url.replace(/\/postgres$/, '/changes'), poolSize: 10 });
  try {
    const org = crypto.randomUUID();
    await store.db.insert(organizations).values({ id: org, name: 'changes' });
    const userIds = Array.from({ length: 10 }, () => crypto.randomUUID());
    for (const id of userIds) await store.db.insert(users).values({ id, organizationId: org, userName: 'u' });
    // Every pooled connection open, and the listener live.
    await Promise.all(Array.from({ length: 10 }, () => store.query({ text: 'SELECT pg_sleep(0.05)', values: [] })));
    for (let i = 0; i < 50 && !store.changes.live; i++) await new Promise((r) => setTimeout(r, 100));
    if (!store.changes.live) throw new Error('the change feed did not go live');
    console.log(`${commits} commits each, pool of 10, PostgreSQL 15 (throwaway cluster)`);
    console.log('at once | commits/s | PostgreSQL µs/commit | this process µs/commit');
    for (const atOnce of [2, 10, 2, 10]) {
      const meter = cpuMeter(postmaster);
      const t0 = performance.now();
      let next = 0;
      await Promise.all(
        userIds.slice(0, atOnce).map(async (id) => {
          while (next < commits) {
            const n = next++;
            await store.transaction(async (tx) => {
              await tx
                .update(users)
                .set({ userName: `n${n}` })
                .where(eq(users.id, id));
            });
          }
        }),
      );
      const ms = performance.now() - t0;
      // Cores used over the window, to µs a commit.
      const { server, bench } = meter();
      const pgUs = (server * ms * 1000) / commits;
      const nodeUs = (bench * ms * 1000) / commits;
      console.log(
        `${String(atOnce).padStart(7)} | ${((commits / ms) * 1000).toFixed(0).padStart(9)} | ${pgUs.toFixed(0).padStart(20)} | ${nodeUs.toFixed(0).padStart(22)}`,
      );
    }
  } finally {
    await store.close();
  }
} finally {
  await cluster.stop();
}
