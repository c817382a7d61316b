/**
 * `npm run bench:statements`: how many SQL statements each request of the figures costs, and
 * which. Sets up one PostgreSQL world (bench/lib/world.ts) on a throwaway cluster with
 * `log_statement = all`, sends each kind of request once after a warm-up copy (so cached facts
 * count as they do under load), and counts the statements the server ran between two markers.
 * Not a figure: a tool for finding statements to remove.
 *
 *   SHOW=otp  also print the statements of that kind (sign, tx, read, accounts, signup, otp),
 *             each cut to SHOW_CHARS characters (default 200)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { startThrowawayPostgres } from '../packages/server/test/support/pg.js';
import { newKey } from './lib/client-crypto.js';
import type { Req } from './lib/load.js';
import { killAll } from './lib/processes.js';
import * as requests from './lib/requests.js';
import { startCodeSink } from './lib/sink.js';
import { World } from './lib/world.js';

const cluster = await startThrowawayPostgres();
const admin = new pg.Client({ connectionString: cluster.url });
await admin.connect();
await admin.query("ALTER SYSTEM SET log_statement = 'all'");
await admin.query("ALTER SYSTEM SET log_line_prefix = '%p '");
await admin.query('SELECT pg_reload_conf()');
const sink = await startCodeSink();
const world = await World.create({ kind: 'postgres', pgAdminUrl: cluster.url, sink, log: () => {} });
try {
  await world.seedTo(20);
  const send = async (r: Req) => {
    const res = await fetch(world.url + r.path, { method: 'POST', headers: r.headers, body: r.body });
    if (res.status !== 200) throw new Error(`${r.path}: ${res.status} ${await res.text()}`);
  };
  const kinds: Record<string, () => Promise<void>> = {
    sign: () => send(requests.signRawPayloads(world.probe)),
    tx: () => send(requests.signTransaction(world.probe)),
    read: () => send(requests.listWallets(world.probe)),
    accounts: () => send(requests.listWalletAccounts(world.probe)),
    signup: () => send(requests.createSubOrganization(world)),
    otp: () => world.loginByCode(world.takeLoginEmail()!, newKey()),
  };
  for (const [name, run] of Object.entries(kinds)) {
    await run(); // warm: what a stream of such requests finds cached
    await run();
    await admin.query(`SELECT 'MARK start ${name}'`);
    await run();
    await admin.query(`SELECT 'MARK end ${name}'`);
  }
  await new Promise((r) => setTimeout(r, 300));
  const show = process.env.SHOW ?? '';
  let current: string | undefined;
  let lines: string[] = [];
  for (const line of readFileSync(join(cluster.dir, 'postgres.log'), 'utf8').split('\n')) {
    const mark = /MARK (start|end) (\w+)/.exec(line);
    if (mark?.[1] === 'start') {
      current = mark[2];
      lines = [];
    } else if (mark?.[1] === 'end') {
      console.log(`${current}: ${lines.length} statements`);
      if (show === current) for (const l of lines) console.log(`    ${l.slice(0, Number(process.env.SHOW_CHARS ?? 200))}`);
      current = undefined;
    } else if (current && /LOG: {2}(statement|execute)/.test(line)) {
      lines.push(line.replace(/^\d+ LOG:\s+/, ''));
    } else if (current && lines.length > 0 && !/^\d+ /.test(line)) {
      // A statement's continuation line (its text spans lines): part of the statement before it.
      lines[lines.length - 1] += ` ${line.trim()}`;
    }
  }
} finally {
  await admin.end();
  await world.dispose();
  await sink.close();
  await cluster.stop();
  killAll();
}
