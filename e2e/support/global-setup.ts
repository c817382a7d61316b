/**
 * Playwright global setup: build the demo for production (what the tests serve), start the
 * stack (stack.ts) in a child process, wait for its ready line, and hand its URLs to the
 * tests through process.env. The returned function stops it. The stack's own log goes to
 * test-results/e2e-stack.log.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'vite';
import { READY_PREFIX, STACK_ENV } from './stack-info';

const root = join(import.meta.dirname, '../..');

export default async function globalSetup(): Promise<() => Promise<void>> {
  await build({ configFile: join(root, 'apps/demo/vite.config.ts'), logLevel: 'error', mode: 'production' });

  mkdirSync(join(root, 'test-results'), { recursive: true });
  const log = createWriteStream(join(root, 'test-results/e2e-stack.log'));
  const child = spawn(process.execPath, ['--conditions=@walletkit/source', '--import', 'tsx', join(root, 'e2e/support/stack.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr.pipe(log);
  const ready = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the e2e stack did not start within 60 s (see test-results/e2e-stack.log)')), 60_000);
    child.once('exit', (code) => reject(new Error(`the e2e stack exited (${code}); see test-results/e2e-stack.log`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith(READY_PREFIX)) {
        clearTimeout(timer);
        resolve(line.slice(READY_PREFIX.length));
      } else log.write(`${line}\n`);
    });
  });
  process.env[STACK_ENV] = ready;

  return async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    log.end();
  };
}
