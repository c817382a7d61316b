/**
 * `walletkit-server start --workers N` through the real CLI: N processes (node:cluster) share
 * one port on one PostgreSQL database, each serves requests, a crashed worker is replaced, and
 * SIGTERM to the primary stops them all. The embedded database refuses it (PGlite is one process).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stampApiKey } from '@walletkit/crypto';
import { queries } from '@walletkit/protocol';
import { cli, killChildren, startCli, type CliServer } from './support/cli';
import { createTestDatabase } from './support/stores';
import { until } from './support/until';

afterAll(killChildren);

/** A stamped whoami over a connection of its own (the cluster hands out connections, not requests). */
function whoami(url: string, organizationId: string, key: { publicKey: string; privateKey: string }): Promise<{ status: number; body: any }> {
  const body = JSON.stringify({ organizationId });
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/public/v1/query/${queries.whoami.name}`,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'x-stamp': stampApiKey(body, key), connection: 'close' } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

/** Pids of the processes that logged a completed request (pino's `pid` field, LOG_LEVEL=info). */
function servingPids(server: CliServer): Set<number> {
  const pids = new Set<number>();
  for (const line of server.output().split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { pid?: number; msg?: string };
    if (entry.msg === 'request completed' && entry.pid !== undefined) pids.add(entry.pid);
  }
  return pids;
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('walletkit-server start --workers', () => {
  it('given --workers 2 on PostgreSQL, then both workers serve stamped requests, a killed worker is replaced, and SIGTERM stops them all', async () => {
    const db = await createTestDatabase();
    const env = { DATABASE_URL: db.url, WALLETKIT_MASTER_KEY: randomBytes(32).toString('hex') };
    try {
      const created = await cli(['org', 'create', '--name', 'Workers', '--json'], env);
      expect(created.code, created.stderr).toBe(0);
      const org = JSON.parse(created.stdout) as { organizationId: string; apiKey: { publicKey: string; privateKey: string } };

      const server = await startCli(['--workers', '2'], { ...env, LOG_LEVEL: 'info' });
      expect(server.output()).toMatch(/^ {2}workers {7}2$/m);
      expect(server.output()).toMatch(/^ {2}database {6}postgres$/m);

      // Fresh connections are dealt round-robin: both workers answer, each with the database behind it.
      for (let i = 0; i < 8; i++) {
        const reply = await whoami(server.url, org.organizationId, org.apiKey);
        expect(reply.status, JSON.stringify(reply.body)).toBe(200);
        expect(reply.body.organizationId).toBe(org.organizationId);
      }
      await until(() => servingPids(server).size >= 2);
      const first = [...servingPids(server)];
      expect(first).toHaveLength(2);
      expect(first).not.toContain(server.child.pid);

      // kill -9 one worker: the primary forks a replacement, which serves on the same port.
      const [victim, survivor] = first as [number, number];
      process.kill(victim, 'SIGKILL');
      await until(() => server.errors().includes(`worker ${victim} exited (signal SIGKILL); starting a new one`));
      await until(async () => {
        const reply = await whoami(server.url, org.organizationId, org.apiKey);
        expect(reply.status, JSON.stringify(reply.body)).toBe(200);
        return [...servingPids(server)].some((pid) => !first.includes(pid));
      });
      const replacement = [...servingPids(server)].find((pid) => !first.includes(pid))!;
      expect(isAlive(survivor)).toBe(true);

      // SIGTERM to the primary is forwarded: every worker exits, then the primary, with code 0.
      await server.stop();
      expect(server.child.exitCode).toBe(0);
      await until(() => !isAlive(survivor) && !isAlive(replacement));
    } finally {
      await db.drop();
    }
  }, 120_000);

  it('given --workers 2 without DATABASE_URL, then start refuses with exit code 2 and names PostgreSQL, before touching the data directory', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'walletkit-workers-'));
    const dataDir = join(parent, 'data');
    try {
      const refused = await cli(['start', '--port', '0', '--workers', '2', '--data-dir', dataDir], { DATABASE_URL: '' });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/--workers 2 needs PostgreSQL \(DATABASE_URL\): the embedded database \(PGlite\) belongs to one process/);
      expect(refused.stdout).toBe('');
      expect(existsSync(dataDir)).toBe(false);

      for (const bad of ['0', '1.5']) {
        const invalid = await cli(['start', '--port', '0', `--workers=${bad}`, '--data-dir', dataDir], { DATABASE_URL: '' });
        expect(invalid.code, bad).toBe(2);
        expect(invalid.stderr).toMatch(/--workers takes a whole number of processes/);
      }
      const notStart = await cli(['org', 'create', '--name', 'x', '--workers', '2', '--data-dir', dataDir], { DATABASE_URL: '' });
      expect(notStart.code).toBe(2);
      expect(notStart.stderr).toMatch(/--workers applies to start only/);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  }, 60_000);
});
