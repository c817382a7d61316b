/** @walletkit/server installed alone in an empty directory and run with plain node, as the README says. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stampApiKey, verifyRawSignature } from '@walletkit/crypto';
import { operations } from '@walletkit/protocol';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { engineWarnings, integratorEnv, npmInstall, readmeInstall, registryAt, run, type RunResult } from '../support/packages';

const registry = registryAt(inject('registryUrl'));
let dir: string;
let install: RunResult;
let child: ChildProcess | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'walletkit-server-only-'));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'server-only', private: true }));
  // Exactly the README's install line for the server.
  install = await npmInstall(dir, registry, readmeInstall('@walletkit/server'));
}, 300_000);

/**
 * npx and the server it starts, as one process group: killing npx alone left the server running.
 * The group is signalled even after npx itself has exited: the server may still be shutting down.
 */
function stopServer(signal: NodeJS.Signals): void {
  if (child?.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {}
}

/** Resolves once no process of the group is left (npx exits before the server it started has flushed its data). */
async function groupGone(): Promise<void> {
  if (child?.pid === undefined) return;
  for (let i = 0; i < 300; i++) {
    try {
      process.kill(-child.pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`process group ${child.pid} still running after 30 s`);
}

afterAll(async () => {
  stopServer('SIGKILL');
  await groupGone();
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
}, 60_000);

describe('walletkit-server from its tarball', () => {
  it('given npm install @walletkit/server in an empty directory on Node 20, when it finishes, then it installed without engine warnings and without any TypeScript loader', () => {
    expect(install.code, install.stderr).toBe(0);
    expect(engineWarnings(install)).toEqual([]);
    for (const loader of ['tsx', 'ts-node', 'typescript', 'esbuild']) expect(existsSync(join(dir, 'node_modules', loader)), loader).toBe(false);
    expect(existsSync(join(dir, 'node_modules', '@walletkit', 'crypto', 'dist', 'index.js'))).toBe(true);
  });

  it('given the installed package, when npx walletkit-server runs without a command, then plain node prints the usage', async () => {
    const r = await run('npx', ['--no-install', 'walletkit-server', '--help'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('walletkit-server start');
  });

  it('given npx walletkit-server org create and start, when the server is up, then it serves discovery and the organization made before it started', async () => {
    const dataDir = join(dir, 'data');
    const org = await run('npx', ['--no-install', 'walletkit-server', 'org', 'create', '--name', 'Packed', '--data-dir', dataDir, '--json'], { cwd: dir });
    expect(org.code, org.stderr).toBe(0);
    const { organizationId, apiKey } = JSON.parse(org.stdout) as { organizationId: string; apiKey: { publicKey: string; privateKey: string } };
    expect(organizationId).toMatch(/^[0-9a-f-]{36}$/);

    child = spawn('npx', ['--no-install', 'walletkit-server', 'start', '--port', '0', '--data-dir', dataDir], {
      cwd: dir,
      detached: true,
      // One signer thread whatever the machine's cores: the signature below runs in dist's worker file.
      env: integratorEnv({ LOG_LEVEL: 'warn', WALLETKIT_SIGNER_THREADS: '1' }),
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child!.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /activity API\s+(http:\/\/localhost:\d+)\/public\/v1/.exec(out);
        if (m) resolve(m[1]!);
      });
      child!.once('exit', (code) => reject(new Error(`walletkit-server exited ${code}: ${out}`)));
    });
    const discovery = (await (await fetch(`${url}/.well-known/walletkit.json`)).json()) as Record<string, unknown>;
    expect(discovery['enclaveSigningPublicKey']).toMatch(/^04[0-9a-f]{128}$/);
    // A stamped read with the root key the CLI printed: the store, enclave and stamp checks all run from dist.
    const body = JSON.stringify({ organizationId });
    const whoami = await fetch(`${url}/public/v1/query/whoami`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-stamp': stampApiKey(body, apiKey) },
      body,
    });
    expect(whoami.status).toBe(200);
    expect(await whoami.json()).toMatchObject({ organizationId, organizationName: 'Packed' });
    // A wallet and a secp256k1 signature: the signer threads run dist's worker file, which loads
    // libsecp256k1 (tiny-secp256k1's WebAssembly) from the installed package.
    const submit = async (op: 'create_wallet' | 'sign_raw_payload', parameters: unknown) => {
      const text = JSON.stringify({ type: operations[op].type, timestampMs: String(Date.now()), organizationId, parameters });
      const reply = await fetch(`${url}${operations[op].path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-stamp': stampApiKey(text, apiKey) },
        body: text,
      });
      expect(reply.status).toBe(200);
      const { activity } = (await reply.json()) as { activity: { status: string; result: Record<string, any> } };
      expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
      return activity.result[operations[op].resultKey];
    };
    const wallet = await submit('create_wallet', {
      walletName: 'packed',
      accounts: [{ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_COMPRESSED' }],
    });
    const publicKey = wallet.addresses[0] as string;
    const digest = '11'.repeat(32);
    const signature = await submit('sign_raw_payload', {
      signWith: publicKey,
      payload: digest,
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    });
    expect(
      verifyRawSignature({
        curve: 'CURVE_SECP256K1',
        publicKey: Buffer.from(publicKey, 'hex'),
        digestOrMessage: Buffer.from(digest, 'hex'),
        signature: { r: signature.r, s: signature.s, v: signature.v },
      }),
    ).toBe(true);
    // The secret frame's script is the bundle built into the tarball (no bundler at run time).
    const frameScript = await fetch(`${url}/frames/frame.js`);
    expect(frameScript.status).toBe(200);
    expect(await frameScript.text()).toContain('walletkitFrame');
    stopServer('SIGTERM');
    await groupGone();
  }, 120_000);
});
