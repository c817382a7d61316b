/**
 * An enclave worker thread (signer-pool.ts): it holds the at-rest key (workerData) and answers
 * its jobs (signer-core.ts: signatures, new wallets, stamps by sealed keys, one-time codes), so
 * unsealing, ECDSA and HPKE run beside the event loop instead of on it. Plaintext keys exist here
 * for one job, as in the enclave itself.
 */
import { workerData } from 'node:worker_threads';
import { installNativeCrypto } from '../native-crypto.js';
import { serveJobs } from '../threads/serve.js';
import { AtRestKey } from './at-rest.js';
import { runSignerJob, type SignerJob } from './signer-core.js';

// An isolate of its own: its @walletkit/crypto opens and seals on node:crypto too.
installNativeCrypto();

const atRest = AtRestKey.of((workerData as { atRestPrivateKey: string }).atRestPrivateKey);

serveJobs(async (job: SignerJob) => runSignerJob(await atRest, job));
