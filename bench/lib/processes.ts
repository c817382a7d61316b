/**
 * Child processes of the benchmark: the walletkit server (`walletkit-server start`, from source
 * with the @walletkit/source condition, exactly as `npm run server` runs it), one-shot CLI
 * commands, and the ceiling server. Every child is remembered and killed when the bench ends,
 * however it ends.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
const SOURCE = ['--conditions=@walletkit/source', '--import', 'tsx'];
const children = new Set<ChildProcess>();

/** Kill every child still running (SIGKILL): the bench's last word, also on Ctrl-C. */
export function killAll(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
}

/** Run a one-shot `walletkit-server` command to its end; its stdout, or an error with its stderr. */
export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...SOURCE, 'packages/server/src/bin.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    children.add(child);
    let out = '';
    let err = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    child.once('exit', (code) => {
      children.delete(child);
      if (code === 0) resolve(out);
      else reject(new Error(`walletkit-server ${args.slice(0, 2).join(' ')} exited with ${code}: ${err.trim().slice(-2000)}`));
    });
  });
}

export interface Running {
  url: string;
  pid: number;
  /** stderr lines so far (warnings, error logs), last 200. */
  log(): string[];
  /** SIGTERM and wait for the exit (SIGKILL after 20 s). */
  stop(): Promise<void>;
  /** Resolves when the process exits, whoever stopped it. */
  exited: Promise<number | null>;
}

/** Spawn `node <args>` and wait for `ready` on stdout; `ready`'s first group becomes the URL. */
function startChild(args: string[], env: NodeJS.ProcessEnv, ready: RegExp, label: string): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    const lines: string[] = [];
    let out = '';
    let settled = false;
    child.stderr!.on('data', (c: Buffer) => {
      for (const line of c.toString().split('\n')) if (line.trim()) lines.push(line);
      if (lines.length > 200) lines.splice(0, lines.length - 200);
    });
    child.stdout!.on('data', (c: Buffer) => {
      if (settled) return;
      out += c.toString();
      const m = ready.exec(out);
      if (!m) return;
      settled = true;
      resolve({
        url: m[1]!,
        pid: child.pid!,
        log: () => [...lines],
        exited,
        stop: () => {
          if (child.exitCode !== null || child.signalCode !== null) return exited.then(() => {});
          const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
          child.kill('SIGTERM');
          return exited.then(() => clearTimeout(kill));
        },
      });
    });
    const exited = new Promise<number | null>((done) =>
      child.once('exit', (code) => {
        children.delete(child);
        done(code);
        if (!settled) {
          settled = true;
          reject(new Error(`${label} exited with ${code} before it was ready:\n${out}${lines.slice(-30).join('\n')}`));
        }
      }),
    );
  });
}

/** `walletkit-server start` on a free port; `workers` > 1 adds `--workers N` (PostgreSQL only). */
export function startWalletkit(opts: { env: NodeJS.ProcessEnv; dataDir?: string; workers?: number; nodeArgs?: string[] }): Promise<Running> {
  const args = [...SOURCE, ...(opts.nodeArgs ?? []), 'packages/server/src/bin.ts', 'start', '--port', '0'];
  if (opts.dataDir) args.push('--data-dir', opts.dataDir);
  if (opts.workers && opts.workers > 1) args.push('--workers', String(opts.workers));
  // The summary ends with the workers line: wait for the whole of it.
  return startChild(
    args,
    { LOG_LEVEL: 'warn', NODE_ENV: 'production', ...opts.env },
    /activity API\s+(http:\/\/\S+)\/public\/v1[\s\S]*workers\s+\d+/,
    'walletkit-server start',
  );
}

/** The ceiling server (bench/ceiling/server.ts) in its own process (`workers` > 1: that many, node:cluster). */
export function startCeiling(workers = 1): Promise<Running> {
  return startChild([...SOURCE, 'bench/ceiling/server.ts'], { CEILING_WORKERS: String(workers) }, /LISTENING (http:\/\/\S+)/, 'ceiling server');
}

/** Resident set size of a process in bytes (Linux /proc), or undefined once it is gone. */
export function rssOf(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
