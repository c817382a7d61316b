/**
 * The two example apps as the e2e stack runs them, after examples/test installed them from the
 * packed tarballs: the Vite app rebuilt with the organization's settings in its environment (as
 * an integrator's `.env.local` would give them) and served as static files, the Next.js app's
 * build run by `next start` with the settings in the server's environment (read per request).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveDemo, type DemoHostOptions } from '../../apps/demo/host';
import { freePort, integratorEnv, ROOT, run } from './packages';

export const VITE_DIR = join(ROOT, 'examples', 'vite');
export const NEXT_DIR = join(ROOT, 'examples', 'nextjs');

/** The settings an integrator copies from `walletkit-server org create` and `proxy enable`. */
export interface ExampleSettings {
  url: string;
  organizationId: string;
  configId: string;
  enclavePublicKey: string;
}

/** Why the examples cannot run (not installed and built by examples/test), or undefined. */
export function examplesMissing(): string | undefined {
  const missing = [
    [join(VITE_DIR, 'node_modules', 'vite'), 'examples/vite is not installed'],
    [join(NEXT_DIR, 'node_modules', 'next'), 'examples/nextjs is not installed'],
    [join(NEXT_DIR, '.next', 'BUILD_ID'), 'examples/nextjs is not built'],
  ].filter(([path]) => !existsSync(path!));
  if (missing.length === 0) return undefined;
  return `${missing.map(([, why]) => why).join('; ')}: run \`npx vitest run --config vitest.examples.config.ts\` (npm test does) first`;
}

export interface ExampleHost {
  url: string;
  /** Build (Vite) or start (Next.js) the app for these settings. */
  start(settings: ExampleSettings): Promise<void>;
  close(): Promise<void>;
}

/** examples/vite/dist on a static host; `start` rebuilds it with the settings. */
export async function viteExampleHost(): Promise<ExampleHost> {
  // The demo's static host (single-page fallback for /oauth/callback); its config route stays unused.
  const host = await serveDemo({ dir: join(VITE_DIR, 'dist'), port: 0, config: {} as DemoHostOptions['config'] });
  return {
    url: host.url,
    async start(s) {
      const r = await run(process.execPath, [join(VITE_DIR, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
        cwd: VITE_DIR,
        env: {
          VITE_WALLETKIT_URL: s.url,
          VITE_WALLETKIT_ORGANIZATION_ID: s.organizationId,
          VITE_WALLETKIT_CONFIG_ID: s.configId,
          VITE_WALLETKIT_ENCLAVE_PUBLIC_KEY: s.enclavePublicKey,
        },
      });
      if (r.code !== 0) throw new Error(`examples/vite build failed:\n${r.stdout}${r.stderr}`);
    },
    close: () => host.close(),
  };
}

/** `next start` of examples/nextjs on a free port (bound to loopback, opened as localhost). */
export async function nextExampleHost(): Promise<ExampleHost> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  return {
    url: `http://localhost:${port}`,
    async start(s) {
      child = spawn(process.execPath, [join(NEXT_DIR, 'node_modules', 'next', 'dist', 'bin', 'next'), 'start', '-p', String(port), '-H', '127.0.0.1'], {
        cwd: NEXT_DIR,
        env: integratorEnv({
          NEXT_TELEMETRY_DISABLED: '1',
          WALLETKIT_URL: s.url,
          WALLETKIT_ORGANIZATION_ID: s.organizationId,
          WALLETKIT_CONFIG_ID: s.configId,
          WALLETKIT_ENCLAVE_PUBLIC_KEY: s.enclavePublicKey,
        }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let logs = '';
      child.stderr!.on('data', (c: Buffer) => (logs += c.toString()));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`next start did not get ready: ${logs}`)), 60_000);
        child!.stdout!.on('data', (c: Buffer) => {
          logs += c.toString();
          if (/Ready in/.test(logs)) {
            clearTimeout(timer);
            resolve();
          }
        });
        child!.once('exit', (code) => reject(new Error(`next start exited ${code}: ${logs}`)));
      });
    },
    async close() {
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
