/**
 * The check of an X-Stamp signature over the exact body bytes, wherever it runs (on one of the
 * enclave's worker threads through `Enclave.checkStamp`, in a signature's own job, or in-process
 * when there are no threads): P-256 on node:crypto, secp256k1 EIP-191 and ed25519 on
 * @walletkit/crypto's noble. Never throws for a bad stamp: false.
 */
import { type ParsedStamp, verifyApiKeyStamp } from '@walletkit/crypto';
import { ApiError } from '../errors.js';
import { verifyP256Node } from './p256-node.js';

/** A stamp and the exact bytes it must sign. */
export interface StampCheckJob {
  body: Uint8Array;
  stamp: ParsedStamp;
}

export function checkStamp(job: StampCheckJob): boolean {
  return verifyApiKeyStamp(job.body, job.stamp, { verifyP256: verifyP256Node });
}

/**
 * A request's X-Stamp, checked once: at once (`settle`), or by the signature's own job on a signer
 * thread, which checks it before it opens the key (`forSignJob`, `record`): one hand-off to a
 * thread instead of two (decision 0022, "The stamp checked in the signature's job"). Whoever may
 * reach the database, store anything or answer the request first settles it, so a bad stamp is
 * refused with ERR_STAMP_INVALID whatever else is wrong with the request, and learns nothing.
 */
export class StampProof {
  private state: 'unchecked' | 'good' | 'bad' = 'unchecked';
  private checking: Promise<boolean> | undefined;

  constructor(
    private readonly job: StampCheckJob,
    private readonly check: (job: StampCheckJob) => Promise<boolean>,
  ) {}

  /**
   * Check the stamp unless that is done.
   * @throws ApiError ERR_STAMP_INVALID when it does not sign the body
   */
  async settle(): Promise<void> {
    if (this.state === 'unchecked') {
      this.checking ??= this.check(this.job);
      this.record(await this.checking);
    }
    if (this.state === 'bad') throw new ApiError('ERR_STAMP_INVALID');
  }

  /** The check for a signature's job to run before it opens the key; undefined once it is decided. */
  forSignJob(): StampCheckJob | undefined {
    return this.state === 'unchecked' && this.checking === undefined ? this.job : undefined;
  }

  /** What a signature's job found (`forSignJob`). */
  record(good: boolean): void {
    if (this.state === 'unchecked') this.state = good ? 'good' : 'bad';
  }
}
