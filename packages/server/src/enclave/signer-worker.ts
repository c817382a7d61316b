/**
 * An enclave worker thread (signer-pool.ts): it holds the at-rest key (workerData) and answers
 * sign jobs, so ECDSA and the key's unsealing run beside the event loop instead of on it. Plaintext
 * keys exist here for one job, as in the enclave itself.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { hpkeRecipient } from '@walletkit/crypto';
import { signSealed, type SignJob } from './signer-core.js';

const port = parentPort;
if (!port) throw new Error('signer-worker runs as a worker thread');
const recipient = hpkeRecipient((workerData as { atRestPrivateKey: string }).atRestPrivateKey);

port.on('message', (message: { id: number; job: SignJob }) => {
  void (async () => {
    try {
      port.postMessage({ id: message.id, signatures: await signSealed(await recipient, message.job) });
    } catch (err) {
      // Names only: an error text never carries key material, but keep the reply minimal.
      port.postMessage({ id: message.id, error: err instanceof Error ? err.name : 'Error' });
    }
  })();
});
