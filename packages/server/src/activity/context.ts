import type { OperationName, ParamsOf, ResultOf } from '@walletkit/protocol';
import type { AttestedCredential } from './attested.js';
import type { ServerConfig } from '../config.js';
import type { ApiError } from '../errors.js';
import type { Delivery } from '../delivery/index.js';
import type { Enclave } from '../enclave/index.js';
import type { Executor, Tx } from '../store/db.js';
import type { FactsSeen } from '../store/fact-cache.js';
import type { Facts, OrgVersion } from './facts.js';
import type { IssuedCodes } from './operations/otp-issued.js';
import type { Signer } from './operations/signers.js';
import type { StampProof } from './stamp-check.js';

/** Who stamped the request: a user of the target organization or of its parent. */
export interface Caller {
  userId: string;
  /** Organization the user belongs to (the target, or its parent). */
  organizationId: string;
  /** What stamped: an API key, a passkey, or an attestation (X-Stamp-Attested, stamp_login only: attested.ts). */
  credential: { kind: 'api_key'; id: string; publicKey: string } | { kind: 'authenticator'; id: string } | AttestedCredential;
  /**
   * What authorization asks of the caller, read with its API key (facts.ts: cached while its
   * organizations are unchanged). Absent for passkeys and attested stamps: authorize.ts reads it.
   */
  facts?: CallerFacts;
  /**
   * The versions of the organizations `facts` were read at (the target and its parent): the
   * activity's INSERT commits only if they still hold (activity-insert.ts), so no activity runs on
   * facts that another server process changed meanwhile.
   */
  versions?: readonly OrgVersion[];
  /**
   * Where this process's change feed stood for those organizations when `versions` were known
   * current (fact-cache.ts `FactsSeen`): on the embedded database, whose one process makes every
   * change and hears of it before its commit resolves, the guard is checked against it in memory
   * (execute.ts). Absent when not known: the guard is a statement.
   */
  seen?: FactsSeen;
  /**
   * Its X-Stamp's check (stamp-check.ts). Settled before anything reaches the database, except on
   * a signature's path where every fact read so far was cached: its job checks the stamp on the
   * signer thread before opening the key (execute.ts `computeNow`).
   */
  stamp?: StampProof;
}

/** Whether the caller is a proxy user and its proxy enabled, a member of its organization's root quorum, and that quorum's threshold. */
export interface CallerFacts {
  isProxy: boolean;
  proxyEnabled: boolean;
  rootMember: boolean;
  threshold: number;
}

/** Services every handler may use; injected so tests can vary clock and fetch. */
export interface Services {
  config: ServerConfig;
  enclave: Enclave;
  now: () => Date;
  fetch: typeof fetch;
  /** OTP delivery transports. */
  delivery: Delivery;
  /** Facts of API keys and signers, cached while their organizations are unchanged (facts.ts). */
  facts: Facts;
  /** The one-time codes this process issued, for their first attempt (operations/otp-issued.ts). */
  issuedCodes: IssuedCodes;
}

/** What one handler sees: its transaction, the target organization, the caller. No HTTP. */
export interface OperationContext extends Services {
  tx: Tx;
  organizationId: string;
  caller: Caller;
  activityId: string;
  /** Execute a stored activity that reached consensus (used by approve_activity). */
  runApproved(activityId: string): Promise<void>;
  /**
   * Run `fn` once the activity's transaction has committed (e.g. deliver an OTP message):
   * slow I/O stays out of the transaction and never happens for a rolled-back activity.
   * An error thrown by `fn` becomes the reply's error; the committed activity stays.
   */
  afterCommit(fn: () => Promise<void>): void;
  /**
   * The refusal a unique violation of `constraint` stands for in this activity. A statement sent
   * with the transaction's next one (store/round-trips.ts `sendWithNext`) fails there, in the
   * activity's own statements rather than in the handler; without this its refusal is a nameless
   * ERR_ALREADY_EXISTS. `refusal` is called only then (no error is built for an activity that runs),
   * with the violation (store/db.ts `violationDetail` reads which row it was).
   */
  refuseViolation(constraint: string, refusal: (violation: unknown) => ApiError): void;
  /** What the operation's prefetcher fetched before the transaction; absent when it did not run (an approval). */
  prefetched?: unknown;
  /** Transactions run one at a time (the embedded database): a lock between them is moot. */
  serialized: boolean;
  /**
   * The handler may let the database decide (migration 0014, decision 0034): send the statement
   * its outcome depends on with the transaction's next one (`sendWithNext`) instead of waiting
   * for its answer, the statement raising `walletkit_refuse` (the activity is refused with that
   * error) or `walletkit_run_again` (what the handler counted on changed: the activity runs once
   * more with this false, and the handler decides from the statements' answers). False in an
   * approval, which runs inside another activity's transaction.
   */
  decidedInDatabase: boolean;
}

/** What a prefetcher sees: services, the target organization and a database reader; no transaction. */
export interface PrefetchContext extends Services {
  db: Executor;
  organizationId: string;
}

/**
 * Network work an operation needs before its transaction (calls to an OAuth provider), so that
 * a slow provider never holds a transaction (the embedded database runs one at a time). It
 * runs after authentication and before the activity exists; a failure is the request's error
 * and leaves no activity. The handler reads the result from `ctx.prefetched`.
 */
export type OperationPrefetch<N extends OperationName> = (params: ParamsOf<N>, ctx: PrefetchContext) => Promise<unknown>;

export type PrefetchTable = { [N in OperationName]?: OperationPrefetch<N> };

/**
 * What a compute handler sees: a database reader (no transaction), the target organization, the
 * caller and the id its activity will have. For operations that only read and compute (signing):
 * the runner authorizes, runs them with no transaction open, then stores the completed activity
 * in one statement, so their crypto never holds a transaction (issue 14).
 */
export interface ComputeContext extends Services {
  /** Reads, and idempotent writes that need no transaction (a legacy account's sealed key). */
  db: Executor;
  organizationId: string;
  caller: Caller;
  activityId: string;
  /**
   * The key behind a signature's `signWith` in the organization (signers.ts `resolveSigner`): from
   * the cached facts on the transaction-free path, read in the transaction on an approval's.
   * @throws ApiError ERR_WALLET_ACCOUNT_NOT_FOUND
   */
  signer(signWith: string): Promise<Signer>;
}

/** A handler that runs outside any transaction: validated parameters in, the result object out. */
export type ComputeHandler<N extends OperationName> = (params: ParamsOf<N>, ctx: ComputeContext) => Promise<ResultOf<N>>;

/** Compute handlers by operation name (operations/index.ts `computeHandlers`). */
export type ComputeTable = { [N in OperationName]?: ComputeHandler<N> };

/** A handler: validated parameters in, the result object (under the descriptor's resultKey) out. */
export type OperationHandler<N extends OperationName> = (params: ParamsOf<N>, ctx: OperationContext) => Promise<ResultOf<N>>;

/** Handlers of some operations (one domain's file). */
export type HandlerTable = { [N in OperationName]?: OperationHandler<N> };

/** Every operation's handler: what the server runs (operations/index.ts). An operation without one does not compile. */
export type Handlers = { [N in OperationName]: OperationHandler<N> };
