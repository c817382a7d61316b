/**
 * A throwaway PostgreSQL 15 cluster for tests: initdb into a fresh temp dir, start on a free
 * localhost port (unix socket inside the temp dir), trust auth, fsync off. When running as
 * root the binaries run as the `postgres` user (PostgreSQL refuses to run as root).
 * `stop()` shuts it down immediately and removes the directory.
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PG_BIN_DIR = process.env.WALLETKIT_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface ThrowawayPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (superuser, trust auth). */
  url: string;
  port: number;
  dir: string;
  stop(): Promise<void>;
}

/** Why PostgreSQL tests cannot run here, or undefined when the binaries are present. */
export function postgresUnavailableReason(): string | undefined {
  for (const bin of ['initdb', 'pg_ctl', 'postgres']) {
    if (!existsSync(join(PG_BIN_DIR, bin))) {
      return (
        `PostgreSQL binaries not found: ${join(PG_BIN_DIR, bin)} is missing. ` +
        'Install PostgreSQL 15 (Debian/Ubuntu: apt-get install postgresql-15) or set WALLETKIT_PG_BIN, ' +
        'or point WALLETKIT_TEST_DATABASE_URL at a PostgreSQL server where the user may CREATE DATABASE.'
      );
    }
  }
  return undefined;
}

function run(cmd: string, args: string[], asPostgres: boolean): Promise<string> {
  const [file, argv] = asPostgres ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  return new Promise((resolve, reject) => {
    execFile(file, argv, { timeout: 60_000, env: { ...process.env, LC_ALL: 'C' } }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')} failed: ${err.message}\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** `parentDir`: where the cluster's directory is made (default the OS temp directory; the bench passes its data root). */
export async function startThrowawayPostgres(opts: { parentDir?: string } = {}): Promise<ThrowawayPostgres> {
  const missing = postgresUnavailableReason();
  if (missing) throw new Error(missing);
  const asPostgres = process.getuid?.() === 0;
  const dir = mkdtempSync(join(opts.parentDir ?? tmpdir(), 'walletkit-pg-'));
  if (asPostgres) {
    const uid = Number((await run('id', ['-u', 'postgres'], false)).trim());
    const gid = Number((await run('id', ['-g', 'postgres'], false)).trim());
    chownSync(dir, uid, gid);
  }
  const dataDir = join(dir, 'data');
  const logFile = join(dir, 'postgres.log');
  try {
    await run(join(PG_BIN_DIR, 'initdb'), ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync'], asPostgres);
    // The port is free when probed but may be taken before postgres binds it: retry.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const options = [
        `-p ${port}`,
        `-k ${dir}`,
        '-c listen_addresses=127.0.0.1',
        '-c fsync=off',
        '-c synchronous_commit=off',
        '-c full_page_writes=off',
        '-c max_connections=300',
        '-c shared_buffers=32MB',
      ].join(' ');
      try {
        await run(join(PG_BIN_DIR, 'pg_ctl'), ['-D', dataDir, '-l', logFile, '-w', '-t', '30', '-o', options, 'start'], asPostgres);
      } catch (err) {
        if (attempt >= 3) {
          const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-2000) : '';
          throw new Error(`${(err as Error).message}\n--- postgres.log ---\n${log}`);
        }
        continue;
      }
      let stopped = false;
      return {
        url: `postgres://postgres@127.0.0.1:${port}/postgres`,
        port,
        dir,
        async stop() {
          if (stopped) return;
          stopped = true;
          try {
            await run(join(PG_BIN_DIR, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop'], asPostgres);
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        },
      };
    }
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
