/**
 * Worker threads that sign for the enclave (signer-worker.ts, on threads/pool.ts): ECDSA, the
 * unsealing of a key and a new wallet's PBKDF2 and derivation are CPU work that would otherwise
 * stop the event loop (and every request with it) for about a millisecond each. The workers hold
 * the at-rest key; with 0 threads the enclave signs in-process. They also check the X-Stamp of
 * requests (no secret involved): one pool of threads beside the event loop instead of two, whose
 * every job woke a thread of its own (decision 0022).
 */
import type { ClientSignature } from '@walletkit/crypto';
import type { StampCheckJob } from '../activity/stamp-check.js';
import type { AtRestKey } from './at-rest.js';
import { ThreadPool } from '../threads/pool.js';
import type { RawSignature } from './key-material.js';
import type { IssuedOtp } from './otp.js';
import {
  type DeriveJob,
  type JwtChecked,
  type JwtCheckJob,
  type MadeWallet,
  type OpenedAttempt,
  type OtpAttemptJob,
  type OtpIssueJob,
  type OwnSigningKey,
  runSignerJob,
  type SignerJob,
  type SignJob,
  type StampJob,
  type WalletJob,
} from './signer-core.js';

/**
 * What a signer thread starts with (signer-worker.ts): the at-rest key and the enclave's signing
 * key, or for a stamp-check thread ({@link STAMP_CHECK_THREADS}) no key at all.
 */
export type SignerWorkerData = { atRestPrivateKey: string; own: OwnSigningKey } | { stampChecksOnly: true };

/**
 * Threads beside the signer threads that check requests' stamps only, and hold no key (when there
 * are signer threads at all). A read waits on its stamp check and on nothing else of the pool: on
 * 2 cores, with one signer thread, 10 connections' reads stood at 0.70-0.77 of the ceiling; with
 * three threads to take the checks, 0.82-0.84 in the same hour. Three signer threads, which also
 * took the signatures, wallets and codes, cost signing, signups and logins more than that
 * (decisions 0022 and 0038): those stay on the signer threads. They run under SCHED_BATCH on
 * Linux, so that the reads' checks posted to them never take the event loop's core (decision 0039).
 */
export const STAMP_CHECK_THREADS = 2;

export { defaultThreads as defaultSignerThreads } from '../threads/pool.js';

/**
 * `bytes` on an ArrayBuffer of its own. A message to a worker copies the whole ArrayBuffer under a
 * typed array, and a request body is a view of tens of bytes on Node's shared 8 KB allocation pool:
 * posted as it is, every job copied 8 KB of other allocations (other requests' bytes, anything
 * decoded into a small Buffer) into the worker's heap, and cost both threads the copy.
 */
export function ownBytes(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}

/** A stamp check whose body is posted as its own bytes only ({@link ownBytes}). */
const ownStampCheck = (job: StampCheckJob): StampCheckJob => ({ body: ownBytes(job.body), stamp: job.stamp });

export class SignerPool {
  private readonly pool: ThreadPool<SignerJob, unknown>;

  /**
   * A pool of `threads` workers holding the at-rest key and the enclave's signing key (0: sign
   * and check stamps in-process), and beside them {@link STAMP_CHECK_THREADS} that check stamps
   * only and hold no key. The workers start at the first job, so a one-shot command (`org create`)
   * or a server that never signs starts none.
   * @example const pool = new SignerPool(atRestPrivateKey, recipient, own, defaultSignerThreads());
   */
  constructor(atRestPrivateKey: string, atRest: AtRestKey, own: OwnSigningKey, threads: number) {
    const data: SignerWorkerData = { atRestPrivateKey, own };
    const checks: SignerWorkerData = { stampChecksOnly: true };
    this.pool = new ThreadPool<SignerJob, unknown>(new URL('./signer-worker.js', import.meta.url), data, threads, (job) => runSignerJob({ atRest, own }, job), {
      threads: threads > 0 ? STAMP_CHECK_THREADS : 0,
      workerData: checks,
    });
  }

  /** Sign on the least busy worker, or in-process when there is none (null: the job's stamp does not hold). */
  sign(job: SignJob): Promise<RawSignature[] | null> {
    const posted: SignJob = { ...job, messages: job.messages.map(ownBytes), ...(job.stamp ? { stamp: ownStampCheck(job.stamp) } : {}) };
    return this.pool.run({ sign: posted }) as Promise<RawSignature[] | null>;
  }

  /** Make a new wallet on the least busy worker, or in-process when there is none. */
  makeWallet(wallet: WalletJob): Promise<MadeWallet> {
    return this.pool.run({ wallet }) as Promise<MadeWallet>;
  }

  /** More accounts of a sealed wallet, derived and sealed on a worker. */
  deriveAccounts(derive: DeriveJob): Promise<MadeWallet['accounts']> {
    return this.pool.run({ derive }) as Promise<MadeWallet['accounts']>;
  }

  /** The X-Stamp of a body by a sealed API key, opened on a worker. */
  stamp(job: StampJob): Promise<string> {
    return this.pool.run({ stamp: job }) as Promise<string>;
  }

  /** A one-time code, its MAC, its sealed target key and its signed target bundle, made on a worker. */
  issueOtp(job: OtpIssueJob): Promise<IssuedOtp> {
    return this.pool.run({ otp: job }) as Promise<IssuedOtp>;
  }

  /** The client key of a right attempt (and the token asked for), null for any wrong one, checked on a worker. */
  checkOtpAttempt(job: OtpAttemptJob): Promise<OpenedAttempt | null> {
    return this.pool.run({ attempt: job }) as Promise<OpenedAttempt | null>;
  }

  /** An ES256 JWT of `claims` by the enclave's signing key, signed on a worker. */
  signJwt(claims: Record<string, unknown>): Promise<string> {
    return this.pool.run({ jwt: claims }) as Promise<string>;
  }

  /** A token of the enclave's checked on a worker: its claims, or the code of its refusal. */
  verifyJwt(job: JwtCheckJob): Promise<JwtChecked> {
    return this.pool.run({ verify: job }) as Promise<JwtChecked>;
  }

  /** Whether a request's X-Stamp signs its body (false for a bad stamp), on the least busy worker, a stamp-check thread or a signer thread. */
  checkStamp(job: StampCheckJob): Promise<boolean> {
    return this.pool.run({ check: ownStampCheck(job) }, { light: true }) as Promise<boolean>;
  }

  /** The key of a client signature that signs its message with it, compressed (null for anything else), on the least busy worker. */
  clientSignatureKey(signature: ClientSignature): Promise<string | null> {
    return this.pool.run({ client: signature }) as Promise<string | null>;
  }

  /** Stop the workers (the server is closing). */
  close(): Promise<void> {
    return this.pool.close();
  }
}
