/**
 * The stamp-check threads under SCHED_BATCH (threads/sched-batch.ts, decision 0039): a check posted
 * to one must not take the core of the event loop that posted it; the signer threads and the event
 * loop keep the normal policy. Linux only (elsewhere no policy is changed); policies read from /proc.
 */
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClientSignature, generateP256KeyPair, parseApiKeyStamp, stampApiKey } from '@walletkit/crypto';
import { STAMP_CHECK_THREADS } from '../src/enclave/signer-pool';
import { SCHED_BATCH } from '../src/threads/sched-batch';
import { startTestServer } from './support/harness';
import { until } from './support/until';

const SCHED_NORMAL = 0;

/** One thread's policy (field 41 of its stat: 0 normal, 3 batch), undefined once it is gone. */
function policyOf(tid: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis start at field 3 (state).
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[41 - 3]);
  } catch {
    return undefined;
  }
}

const threads = () => readdirSync('/proc/self/task');

/** Poll every 20 ms, for at most 5 s: the assertions after it say what did not happen. */
const soon = { everyMs: 20, giveUpMs: 5_000 };

describe.runIf(process.platform === 'linux')('the stamp-check threads under SCHED_BATCH (decision 0039)', () => {
  it('given a server with one signer thread, when its threads have started, then its stamp-check threads run under SCHED_BATCH (set by the chrt of the system, not one first on PATH), its signer thread and its event loop under the normal policy, and once it closes they are gone', async () => {
    // Another `chrt` first on the PATH the server is given: it must not be the one run.
    const dir = mkdtempSync(join(tmpdir(), 'walletkit-path-'));
    writeFileSync(join(dir, 'chrt'), `#!/bin/sh\nenv > ${join(dir, 'ran')}\n`);
    chmodSync(join(dir, 'chrt'), 0o755);
    const path = process.env.PATH;
    process.env.PATH = `${dir}:${path}`;
    const before = new Set(threads());
    const server = await startTestServer('pglite', { config: { signerThreads: 1 } });
    let disposed = false;
    try {
      const text = JSON.stringify({ organizationId: server.org.organizationId });
      const stamp = parseApiKeyStamp(stampApiKey(text, server.client.key));
      expect(await server.enclave.stamps.checkStamp(new Uint8Array(Buffer.from(text)), stamp)).toBe(true);
      const key = generateP256KeyPair();
      expect(await server.enclave.clientSignatureKey(createClientSignature({ privateKey: key.privateKey, message: 'hello' }))).toBe(key.publicKey);

      const started = () => threads().filter((tid) => !before.has(tid));
      await until(() => started().filter((tid) => policyOf(tid) === SCHED_BATCH).length >= STAMP_CHECK_THREADS, soon);
      const batch = started().filter((tid) => policyOf(tid) === SCHED_BATCH);
      const normal = started().filter((tid) => policyOf(tid) === SCHED_NORMAL);
      expect(batch).toHaveLength(STAMP_CHECK_THREADS);
      expect(normal.length).toBeGreaterThanOrEqual(1); // the signer thread, which signed above
      expect(policyOf(readlinkSync('/proc/thread-self').split('/').pop()!)).toBe(SCHED_NORMAL);
      expect(existsSync(join(dir, 'ran'))).toBe(false);

      await server.dispose();
      disposed = true;
      await until(() => batch.every((tid) => policyOf(tid) === undefined), soon);
      expect(batch.map(policyOf)).toEqual(batch.map(() => undefined));
    } finally {
      process.env.PATH = path;
      rmSync(dir, { recursive: true, force: true });
      if (!disposed) await server.dispose();
    }
  });
});
