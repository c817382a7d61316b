/**
 * `npm start` as a person uses it: the server on the embedded database, the demo organization
 * bootstrapped, the demo on Vite's dev server with the outbox panel; log in with the code the
 * panel shows; a second start reuses the organization and the session survives the restart.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accountAddresses, authDialog, enterCode, expect, expectWallet, openLogin, test, uniqueEmail } from './support/fixtures';

const root = join(import.meta.dirname, '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

interface Started {
  child: ChildProcess;
  output: string;
  demoUrl: string;
  configId: string;
}

/** Run `npm start`'s script and wait for its summary (the URL to open and the kit config). */
async function npmStart(env: Record<string, string>, dataDir: string): Promise<Started> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(SMTP_URL|SMS_WEBHOOK_URL|DATABASE_URL|NODE_ENV)$/.test(k)));
  const child = spawn(process.execPath, ['--conditions=@walletkit/source', '--import', 'tsx', join(root, 'scripts/start.ts'), '--data-dir', dataDir], {
    cwd: root,
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise<Started>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start printed no summary in 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /open the demo\s+(http:\/\/localhost:\d+)/.exec(output)?.[1];
      const kit = /kit config\s+(\{.*\})/.exec(output)?.[1];
      if (url && kit) {
        clearTimeout(timer);
        resolve({ child, output, demoUrl: url, configId: (JSON.parse(kit) as { configId: string }).configId });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${output}`)));
  });
}

async function stop(started: Started): Promise<void> {
  if (started.child.exitCode !== null) return;
  const exited = new Promise((resolve) => started.child.once('exit', resolve));
  started.child.kill('SIGTERM');
  await exited;
}

test('given npm start, when the user logs in with the code from the dev outbox panel and the demo restarts, then the organization is reused and the session kept', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const dataDir = await mkdtemp(join(tmpdir(), 'walletkit-npm-start-'));
  const env = { PORT: String(await freePort()), DEMO_PORT: String(await freePort()) };
  let first: Started | undefined;
  let second: Started | undefined;
  try {
    first = await npmStart(env, dataDir);
    expect(first.output).toContain('organization created');
    expect(first.demoUrl).toBe(`http://localhost:${env.DEMO_PORT}`);

    const email = uniqueEmail('outbox');
    await openLogin(page, first.demoUrl);
    await authDialog(page).getByLabel('Email').fill(email);
    await authDialog(page).getByRole('button', { name: 'Continue', exact: true }).click();
    // The dev outbox panel shows the message; the person reads the code from it.
    const message = page.getByRole('complementary', { name: 'Dev outbox' }).getByTestId('outbox-message').filter({ hasText: email });
    await expect(message).toBeVisible({ timeout: 15_000 });
    const code = /code is:\s+(\d{6})/.exec((await message.textContent()) ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    await enterCode(page, code!);
    await expectWallet(page);
    const [address] = await accountAddresses(page);

    await stop(first);
    second = await npmStart(env, dataDir);
    expect(second.output).toContain('organization reused');
    expect(second.configId).toBe(first.configId);
    // Vite's client in the open page reloads it by itself once the demo's dev server is back; a
    // reload of ours that meets that one is aborted, and the page is then loading anyway: open it.
    await page.reload().catch(async (err: Error) => {
      if (!err.message.includes('ERR_ABORTED')) throw err;
      await page.goto(second!.demoUrl);
    });
    await expectWallet(page);
    expect(await accountAddresses(page)).toEqual([address]);
  } finally {
    if (first) await stop(first);
    if (second) await stop(second);
    await rm(dataDir, { recursive: true, force: true });
  }
});
