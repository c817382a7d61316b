/**
 * The check of an X-Stamp signature over the exact body bytes, wherever it runs (on one of the
 * enclave's worker threads through `Enclave.checkStamp`, or in-process when it has none): P-256
 * on node:crypto, secp256k1 EIP-191 and ed25519 on @walletkit/crypto's noble. Never throws for a
 * bad stamp: false.
 */
import { type ParsedStamp, verifyApiKeyStamp } from '@walletkit/crypto';
import { verifyP256Node } from './p256-node.js';

/** A stamp and the exact bytes it must sign. */
export interface StampCheckJob {
  body: Uint8Array;
  stamp: ParsedStamp;
}

export function checkStamp(job: StampCheckJob): boolean {
  return verifyApiKeyStamp(job.body, job.stamp, { verifyP256: verifyP256Node });
}
