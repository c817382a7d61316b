/**
 * The real `walletkit-server` command as a child process (src/bin.ts from source through tsx,
 * exactly what the package's dist/bin.js runs; the packed tarball is run by examples/test), for tests
 * that start it exactly as the README says: one-shot commands (`org create`, `proxy enable`)
 * and servers (`start`, `demo`) on a free port, with their output, a graceful stop and a
 * `kill -9`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..', '..', '..');
/** `node <command...> <args>` runs the CLI from source (the `@walletkit/source` export condition). */
export const serverCommand = ['--conditions=@walletkit/source', '--import', 'tsx', join(root, 'packages', 'server', 'src', 'bin.ts')];
const children = new Set<ChildProcess>();

/** Run a one-shot command to its end. */
export function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...serverCommand, ...args], { cwd: root, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export interface CliServer {
  url: string;
  /** Everything printed on stdout so far. */
  output(): string;
  /** Everything printed on stderr so far (warnings, log lines). */
  errors(): string;
  child: ChildProcess;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** SIGKILL (`kill -9`) and wait for the exit: no shutdown code runs. */
  kill(): Promise<void>;
}

/**
 * Start `walletkit-server <command> --port 0 ...args` and wait until it prints its URLs.
 * @example const server = await startCli(['--data-dir', dir], { NODE_ENV: 'development' });
 */
export async function startCli(args: string[], env: NodeJS.ProcessEnv, command: 'start' | 'demo' = 'start'): Promise<CliServer> {
  const child = spawn(process.execPath, [...serverCommand, command, '--port', '0', ...args], { cwd: root, env: { ...process.env, LOG_LEVEL: 'warn', ...env } });
  children.add(child);
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      // The demo's summary ends with the kit config: wait for the whole of it.
      const m = /activity API\s+(http:\/\/localhost:\d+)\/public\/v1/.exec(out);
      if (m && (command === 'start' || /kit config\s+\{.*\}\n/.test(out))) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}${err}`)));
  });
  const ended = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
      children.delete(child);
    });
  return { url, output: () => out, errors: () => err, child, stop: () => ended('SIGTERM'), kill: () => ended('SIGKILL') };
}

/** Kill every server a test file started and did not stop (its afterAll). */
export function killChildren(): void {
  for (const c of children) c.kill('SIGKILL');
  children.clear();
}
