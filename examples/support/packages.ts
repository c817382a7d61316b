/**
 * The packages as an integrator gets them: built (scripts/build.mjs), packed with `npm pack`, and
 * served by a small npm registry for the `@walletkit` scope on loopback, so that an app installs
 * `@walletkit/react@^0.1.0` exactly as from npmjs.com (its dependencies on the other walletkit
 * packages resolve through the same registry; everything else comes from the configured one).
 * Used by examples/test (tarballs, consumer type-checks, both example apps) and the e2e stack.
 */
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
export const PACKAGE_DIRS = ['protocol', 'crypto', 'client', 'react', 'server'] as const;

export interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  type?: string;
  sideEffects?: boolean | string[];
  exports?: Record<string, string | Record<string, string>>;
  files?: string[];
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  engines?: Record<string, string>;
}

export interface Packed {
  name: string;
  version: string;
  /** Absolute path of the .tgz. */
  tarball: string;
  filename: string;
  integrity: string;
  shasum: string;
  /** Paths inside the tarball (relative to `package/`). */
  files: string[];
  manifest: PackageJson;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The environment an integrator's shell would give a command: this process's, without the
 * NODE_ENV=test the test runner sets (Vite would build React's development bundle, Next warns).
 */
export function integratorEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  if (extra['NODE_ENV'] === undefined) delete env['NODE_ENV'];
  return env;
}

/** Run a command to its end, collecting its output (never throws on a non-zero exit). */
export function run(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: integratorEnv(opts.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 600_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/** Build every package and `npm pack` it into `outDir`. */
export async function packAll(outDir: string): Promise<Packed[]> {
  await mkdir(outDir, { recursive: true });
  const build = await run(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });
  if (build.code !== 0) throw new Error(`build failed:\n${build.stdout}${build.stderr}`);
  const packed: Packed[] = [];
  for (const dir of PACKAGE_DIRS) {
    const cwd = join(ROOT, 'packages', dir);
    const r = await run('npm', ['pack', '--json', '--pack-destination', outDir], { cwd });
    if (r.code !== 0) throw new Error(`npm pack failed in packages/${dir}:\n${r.stderr}`);
    const [info] = JSON.parse(r.stdout.slice(r.stdout.indexOf('['))) as Array<{
      name: string;
      version: string;
      filename: string;
      integrity: string;
      shasum: string;
      files: Array<{ path: string }>;
    }>;
    if (!info) throw new Error(`npm pack printed nothing for packages/${dir}`);
    packed.push({
      name: info.name,
      version: info.version,
      filename: info.filename,
      tarball: join(outDir, info.filename),
      integrity: info.integrity,
      shasum: info.shasum,
      files: info.files.map((f) => f.path).sort(),
      manifest: JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as PackageJson,
    });
  }
  return packed;
}

export interface Registry {
  url: string;
  /** The npm flag that sends the `@walletkit` scope to this registry. */
  scopeFlag: string;
  close(): Promise<void>;
}

/** An npm registry for the packed `@walletkit/*` packages on 127.0.0.1 (packuments + tarballs). */
export async function startRegistry(packs: Packed[]): Promise<Registry> {
  const byName = new Map(packs.map((p) => [p.name, p]));
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const tarball = /^\/-\/(.+\.tgz)$/.exec(path);
    if (tarball) {
      const pack = packs.find((p) => p.filename === tarball[1]);
      if (!pack || !existsSync(pack.tarball)) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'cache-control': 'no-store' });
      createReadStream(pack.tarball).pipe(res);
      return;
    }
    const pack = byName.get(path.slice(1));
    if (!pack) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found' }));
      return;
    }
    const { address, port } = server.address() as AddressInfo;
    const version = {
      ...pack.manifest,
      _id: `${pack.name}@${pack.version}`,
      dist: { tarball: `http://${address}:${port}/-/${pack.filename}`, integrity: pack.integrity, shasum: pack.shasum },
    };
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ name: pack.name, 'dist-tags': { latest: pack.version }, versions: { [pack.version]: version } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/`;
  return {
    url,
    scopeFlag: `--@walletkit:registry=${url}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `npm install` in `dir` with the `@walletkit` scope on `registry` (no lockfile: a fresh resolve each run). */
export function npmInstall(dir: string, registry: Registry, packages: string[] = []): Promise<RunResult> {
  return run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--prefer-offline', registry.scopeFlag, ...packages], { cwd: dir });
}

/** Lines of npm's output that warn about a package's `engines` (EBADENGINE), e.g. a dependency wanting Node 22. */
export function engineWarnings(result: RunResult): string[] {
  return `${result.stdout}\n${result.stderr}`.split('\n').filter((l) => /EBADENGINE|Unsupported engine/i.test(l));
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: an ANSI colour code starts with ESC, the character to match
const ANSI_COLOUR = /\x1b\[[0-9;]*m/g;

/**
 * A command's output without the lines this machine's npm prints about its own user config
 * (`npm warn Unknown user config "nodedir"`, or `env config` under npm) and without colour codes: what is left is the build's own.
 */
export function ownOutput(result: RunResult): string {
  return `${result.stdout}\n${result.stderr}`
    .replace(ANSI_COLOUR, '')
    .split('\n')
    .filter((l) => !/^npm warn Unknown (user|env) config/.test(l))
    .join('\n');
}

/** Lines of a Vite build's output about Node built-ins (e.g. `Module "crypto" has been externalized for browser compatibility`). */
export function nodeBuiltinWarnings(output: string): string[] {
  return output.split('\n').filter((l) => /externalized for browser compatibility|__vite-browser-external|node:(crypto|buffer|stream|util|fs|path)\b/i.test(l));
}

/** The registry of the examples suite from its URL (it runs in the suite's global setup). */
export function registryAt(url: string): Registry {
  return { url, scopeFlag: `--@walletkit:registry=${url}`, close: async () => undefined };
}

/**
 * The packages of the README's "## Install" line that installs `first` (e.g. `@walletkit/react`),
 * as an integrator copies them: the tests install exactly what the README says.
 */
export function readmeInstall(first: string): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Install\n'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const line = block.split('\n').find((l) => l.startsWith(`npm install ${first} `) || l.startsWith(`npm install ${first}\t`));
  if (!line) throw new Error(`README's install section has no \`npm install ${first}\` line`);
  const command = line.replace(/#.*$/, '').split('&&')[0]!.trim();
  return command.split(/\s+/).slice(2);
}

/** A TCP port free on 127.0.0.1 right now (for servers that take a port, such as `next start`). */
export async function freePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
