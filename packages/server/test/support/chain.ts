/**
 * A real local Ethereum chain for tests: Hardhat Network (`hardhat node`, Node 20-compatible
 * hardhat 2) on 127.0.0.1 and a free port, chain id 31337, Prague rules (EIP-7702), the funded
 * dev accounts of the public test mnemonic. Used by the server, client and e2e suites.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..', '..', '..');
const config = join(import.meta.dirname, 'hardhat.config.cjs');

/** The first dev accounts of "test test test test test test test test test test test junk" (public, funded with 10000 ETH). */
export const DEV_ACCOUNTS = [
  { address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' },
  { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' },
  { address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', privateKey: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a' },
  { address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906', privateKey: '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6' },
  { address: '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65', privateKey: '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a' },
] as const;

export interface LocalChain {
  rpcUrl: string;
  chainId: 31337;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/**
 * Start Hardhat Network and wait until it answers `eth_chainId`.
 * @example const chain = await startLocalChain(); ... await chain.close();
 */
export async function startLocalChain(): Promise<LocalChain> {
  const port = await freePort();
  const rpcUrl = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    process.execPath,
    [join(root, 'node_modules', 'hardhat', 'internal', 'cli', 'bootstrap.js'), '--config', config, 'node', '--hostname', '127.0.0.1', '--port', String(port)],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' },
    },
  );
  // Should the test's process end without close() (a failed beforeAll, a worker torn down), the
  // node must not outlive it: it was left running after CI runs.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
  child.stderr!.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`hardhat node exited ${code}: ${output}`))));
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await Promise.race([rpc(rpcUrl, 'eth_chainId'), exited]);
      break;
    } catch (err) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw err;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  exited.catch(() => undefined);
  return {
    rpcUrl,
    chainId: 31337,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Send `wei` from a funded dev account to `to` and wait for it to be mined (Hardhat mines at once).
 * @example await fund(chain, address, 10n ** 18n);
 */
export async function fund(chain: LocalChain, to: string, wei: bigint): Promise<void> {
  await rpc(chain.rpcUrl, 'hardhat_setBalance', [to, `0x${wei.toString(16)}`]);
}
