/**
 * Benchmark: stamped `sign_raw_payloads` requests per second and p50/p99 latency against a
 * running walletkit server over loopback, next to a bare Fastify route in the same run.
 *
 *   npm run bench            (env BENCH_REQUESTS=2000 BENCH_CONNECTIONS=10)
 *
 * The server and the bare route each run in their own child process; the load comes from
 * autocannon in this process. Bodies are unique (every one is a new activity: no idempotent
 * short-cuts) and stamped before the clock starts, so the load generator measures the server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { stampApiKey } from '@walletkit/crypto';
import { operations } from '@walletkit/protocol';

const root = join(import.meta.dirname, '..', '..');
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

function startChild(args: string[], env: NodeJS.ProcessEnv, ready: RegExp, nodeArgs: string[] = []): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=@walletkit/source', ...nodeArgs, '--import', 'tsx', ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = out.match(ready);
      if (m) resolve({ child, match: m });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${out}`)));
  });
}

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=@walletkit/source', '--import', 'tsx', 'packages/server/src/bin.ts', ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`walletkit-server ${args.join(' ')} exited ${code}`))));
  });
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function load(url: string, bodies: Array<{ body: string; headers: Record<string, string> }>): Promise<Figures> {
  let i = 0;
  const result = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    amount: bodies.length,
    requests: [
      {
        setupRequest: (req) => {
          const next = bodies[i++ % bodies.length]!;
          return { ...req, body: next.body, headers: { ...req.headers, ...next.headers } };
        },
      },
    ],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx + result.errors };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'walletkit-bench-'));
  const env = { WALLETKIT_DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production' };
  const children: ChildProcess[] = [];
  try {
    const org = JSON.parse(await runCli(['org', 'create', '--name', 'bench', '--json', '--data-dir', dataDir], env));
    const server = await startChild(
      ['packages/server/src/bin.ts', 'start', '--port', '0', '--data-dir', dataDir],
      env,
      /activity API\s+(http:\/\/\S+)\/public\/v1/,
      process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean),
    );
    children.push(server.child);
    const base = server.match[1]!;
    const key = org.apiKey;

    // A wallet with one Ethereum account to sign with.
    const createBody = JSON.stringify({
      type: operations.create_wallet.type,
      timestampMs: String(Date.now()),
      organizationId: org.organizationId,
      parameters: {
        walletName: 'bench',
        accounts: [{ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }],
      },
    });
    const created = await fetch(`${base}${operations.create_wallet.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-stamp': stampApiKey(createBody, key) },
      body: createBody,
    });
    if (!created.ok) throw new Error(`create_wallet failed: ${created.status} ${await created.text()}`);
    const address = (await created.json()).activity.result.createWalletResult.addresses[0];

    const now = Date.now();
    const bodies = Array.from({ length: REQUESTS }, (_, n) => {
      const body = JSON.stringify({
        type: operations.sign_raw_payloads.type,
        timestampMs: String(now + n),
        organizationId: org.organizationId,
        parameters: { signWith: address, payloads: [`bench payload ${n}`], encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', hashFunction: 'HASH_FUNCTION_KECCAK256' },
      });
      return { body, headers: { 'content-type': 'application/json', 'x-stamp': stampApiKey(body, key) } };
    });

    const bare = await startChild(['bench/activity/bare-server.ts'], env, /LISTENING (\d+)/);
    children.push(bare.child);
    const bareUrl = `http://127.0.0.1:${bare.match[1]}/bare`;

    // Warm both up, then measure.
    await load(`${base}${operations.sign_raw_payloads.path}`, bodies.slice(0, 50));
    await load(
      bareUrl,
      bodies.slice(0, 50).map((b) => ({ body: b.body, headers: { 'content-type': 'application/json' } })),
    );
    const measured = await load(`${base}${operations.sign_raw_payloads.path}`, bodies.slice(50));
    const baseline = await load(
      bareUrl,
      bodies.slice(50).map((b) => ({ body: b.body, headers: { 'content-type': 'application/json' } })),
    );

    const row = (name: string, f: Figures) =>
      `${name.padEnd(34)} ${f.rps.toFixed(0).padStart(8)} req/s   p50 ${String(f.p50).padStart(4)} ms   p99 ${String(f.p99).padStart(4)} ms   non-2xx ${f.non2xx}`;
    process.stdout.write(
      `\nactivity API benchmark (${REQUESTS - 50} requests, ${CONNECTIONS} connections, ${process.env.DATABASE_URL ? 'postgres' : 'pglite'})\n`,
    );
    process.stdout.write(`${row('sign_raw_payloads (stamped)', measured)}\n`);
    process.stdout.write(`${row('bare Fastify route', baseline)}\n`);
    process.stdout.write(`ratio (activity / bare)            ${(measured.rps / baseline.rps).toFixed(3)}\n`);
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
