/**
 * An enclave worker thread (signer-pool.ts): it holds the at-rest key and the enclave's signing key
 * (workerData) and answers its jobs (signer-core.ts: signatures, new wallets, stamps by sealed keys,
 * one-time codes, the enclave's own tokens and sessions), so unsealing, ECDSA and HPKE run beside
 * the event loop instead of on it. Plaintext keys exist here for one job, as in the enclave itself.
 * A stamp-check thread (`stampChecksOnly`) holds no key, refuses every other job and runs under
 * SCHED_BATCH where it can (threads/sched-batch.ts).
 */
import { workerData } from 'node:worker_threads';
import { installNativeCrypto, keepOwnSigningKey } from '../native-crypto.js';
import { checkStamp } from '../activity/stamp-check.js';
import { runAsBatch } from '../threads/sched-batch.js';
import { serveJobs } from '../threads/serve.js';
import { AtRestKey } from './at-rest.js';
import { runSignerJob, type SignerJob } from './signer-core.js';
import type { SignerWorkerData } from './signer-pool.js';

// An isolate of its own: its @walletkit/crypto opens and seals on node:crypto too.
installNativeCrypto();

const data = workerData as SignerWorkerData;
if ('stampChecksOnly' in data) {
  // Many reads post their checks here at once: waking this thread must not take the event loop's
  // core (decision 0039). The signer threads keep the normal policy.
  void runAsBatch();
  serveJobs((job: SignerJob) => {
    if (!('check' in job)) throw new Error('a stamp-check thread checks stamps only');
    return checkStamp(job.check);
  });
} else {
  const { atRestPrivateKey, own } = data;
  // Its tokens, sessions and bundles sign with a key object built once, as on the event loop.
  keepOwnSigningKey(Buffer.from(own.privateKey, 'hex'));
  const atRest = AtRestKey.of(atRestPrivateKey);
  serveJobs(async (job: SignerJob) => runSignerJob({ atRest: await atRest, own }, job));
}
