/**
 * An enclave worker thread (signer-pool.ts): it holds the at-rest key (workerData) and answers
 * sign jobs, so ECDSA and the key's unsealing run beside the event loop instead of on it. Plaintext
 * keys exist here for one job, as in the enclave itself.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { hpkeRecipient } from '@walletkit/crypto';
import { installNativeCrypto } from '../native-crypto.js';
import { makeWallet, signSealed, type SignJob, type WalletJob } from './signer-core.js';

// An isolate of its own: its @walletkit/crypto opens and seals on node:crypto too.
installNativeCrypto();

const port = parentPort;
if (!port) throw new Error('signer-worker runs as a worker thread');
const recipient = hpkeRecipient((workerData as { atRestPrivateKey: string }).atRestPrivateKey);

port.on('message', (message: { id: number; job: SignJob } | { id: number; wallet: WalletJob }) => {
  void (async () => {
    try {
      const at = await recipient;
      if ('wallet' in message) port.postMessage({ id: message.id, result: await makeWallet(at, message.wallet) });
      else port.postMessage({ id: message.id, result: await signSealed(at, message.job) });
    } catch (err) {
      // Names only: an error text never carries key material, but keep the reply minimal.
      port.postMessage({ id: message.id, error: err instanceof Error ? err.name : 'Error' });
    }
  })();
});
