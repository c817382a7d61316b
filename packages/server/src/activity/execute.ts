/**
 * Running one activity: idempotency by fingerprint, one transaction per activity,
 * authorization and consensus, the handler, the stored record and its App Proofs. Operations
 * that only read and compute (signing: `computeHandlers`) run with no transaction open: they
 * are authorized, computed, and stored completed in one statement, so their crypto never
 * holds a transaction (the embedded database runs one at a time). Either way the activity row is
 * written by one INSERT (activity-insert.ts), and the unique fingerprint index settles racing
 * copies (the loser answers the winner's record). The caller's facts are checked against the
 * versions they were read at (`StaleFacts` when one moved: nothing is stored, the request runs
 * again): by the group commit's guarded INSERT without a transaction; in a transaction by
 * `factsCurrent` before the handler's first statement (in its round trip), after which the row
 * is written once, completed, by the statement that carries the COMMIT. An activity that waits
 * for consensus is written first, guarded, and completed by an UPDATE when it is approved.
 */
import { eq } from 'drizzle-orm';
import type { ActivityReply, OperationDescriptor } from '@walletkit/protocol';
import { operationByType } from '@walletkit/protocol';
import { ApiError } from '../errors.js';
import { isUniqueViolation, sqlState, violatedConstraint, type Store, type Tx } from '../store/db.js';
import { RUN_AGAIN_SQLSTATE } from '../store/db-errors.js';
import { newSortableId } from '../store/ids.js';
import { commitWithNext, sendWithNext } from '../store/round-trips.js';
import { type Placeholders, statement } from '../store/statements.js';
import { activities, activityVotes, users } from '../store/schema.js';
import { type ActivityRow, factsCurrent, type GuardedRow, insertActivities, STALE_FACTS_SQLSTATE, StaleFacts } from './activity-insert.js';
import { authorize } from './authorize.js';
import { CompletedWriter } from './completed-writer.js';
import type { Caller, ComputeHandler, ComputeTable, Handlers, OperationContext, OperationPrefetch, PrefetchTable, Services } from './context.js';
import { toReply } from './record.js';
import { CommittedFailure, refusalRaised } from './refusals.js';
import { answerOf, failureOf, failureRecord, findByFingerprint, replyOf, storeRefusal } from './stored.js';

type Outcome = Pick<ActivityRow, 'status' | 'result' | 'appProofs' | 'failure' | 'updatedAt'>;

/** What a submit's handlers leave for after their transaction: work once it committed, and refusals a unique violation stands for (OperationContext). */
interface Pending {
  afterCommit: Array<() => Promise<void>>;
  /** By constraint name (OperationContext.refuseViolation). */
  refusals: Map<string, (violation: unknown) => ApiError>;
}

/** Pending work of a run that has not started. */
const nothingPending = (): Pending => ({ afterCommit: [], refusals: new Map() });

/** An activity's outcome, stored by the activity's last statement (built once: store/statements.ts). */
const storeOutcome = statement('activity_outcome', (db, p: Placeholders<Outcome & { id: string }>) =>
  db
    .update(activities)
    .set({ status: p('status'), result: p('result'), appProofs: p('appProofs'), failure: p('failure'), updatedAt: p('updatedAt') } as unknown as Outcome)
    .where(eq(activities.id, p('id'))),
);

export interface SubmitInput {
  descriptor: OperationDescriptor;
  organizationId: string;
  timestampMs: string;
  parameters: Record<string, unknown>;
  generateAppProofs: boolean;
  fingerprint: string;
  caller: Caller;
}

export class ActivityRunner {
  private readonly store: Store;
  private readonly services: Services;
  private readonly handlers: Handlers;
  private readonly prefetchers: PrefetchTable;
  private readonly compute: ComputeTable;
  private readonly completed: CompletedWriter;

  constructor(store: Store, services: Services, handlers: Handlers, prefetchers: PrefetchTable = {}, compute: ComputeTable = {}) {
    this.store = store;
    this.services = services;
    this.handlers = handlers;
    this.prefetchers = prefetchers;
    this.compute = compute;
    this.completed = new CompletedWriter(store);
  }

  /** The App Proof of a completed activity (signed by the enclave key), when it asked for one. */
  private proofsOf(
    row: Pick<ActivityRow, 'id' | 'organizationId' | 'type' | 'fingerprint' | 'timestampMs' | 'generateAppProofs'>,
    result: Record<string, unknown>,
  ) {
    if (!row.generateAppProofs) return null;
    return [
      this.services.enclave.signAppProof({
        scheme: 'APP_PROOF_SCHEME_WALLETKIT_V1',
        activityId: row.id,
        organizationId: row.organizationId,
        type: row.type,
        fingerprint: row.fingerprint,
        timestampMs: row.timestampMs,
        result,
      }),
    ];
  }

  /**
   * The transaction-free path of a compute operation: authorize with plain reads; when it may run
   * now, compute its result and store the completed activity in one statement (the unique
   * fingerprint index settles racing copies). Undefined when it needs consensus: the caller takes
   * the transactional path, which records the pending activity and its first vote.
   */
  private async computeNow(input: SubmitInput, compute: ComputeHandler<never>): Promise<ActivityReply | undefined> {
    const db = this.store.db;
    // A stamp left unchecked by authenticate (its facts all cached) is checked by the signature's
    // job, or here before anything is stored or refused: a bad stamp gets ERR_STAMP_INVALID only.
    const settle = async () => input.caller.stamp?.settle();
    let decision: Awaited<ReturnType<typeof authorize>>;
    try {
      decision = await authorize(db, {
        organizationId: input.organizationId,
        caller: input.caller,
        type: input.descriptor.type,
        parameters: input.parameters,
      });
    } catch (err) {
      await settle();
      throw err;
    }
    if (decision.kind !== 'execute') {
      await settle();
      return undefined;
    }
    const id = newSortableId();
    let outcome: unknown;
    try {
      outcome = await compute(input.parameters as never, {
        ...this.services,
        db,
        organizationId: input.organizationId,
        caller: input.caller,
        activityId: id,
        signer: (signWith) => this.services.facts.signer(input.organizationId, signWith, settle),
      });
    } catch (err) {
      await settle();
      if (err instanceof ApiError && err.status < 500) return this.refuse(input, err);
      throw err;
    }
    await settle();
    const now = this.services.now();
    const result = { [input.descriptor.resultKey]: outcome };
    const row = {
      id,
      organizationId: input.organizationId,
      type: input.descriptor.type,
      fingerprint: input.fingerprint,
      timestampMs: input.timestampMs,
      generateAppProofs: input.generateAppProofs,
    };
    const stored = await this.completed.write(
      {
        ...row,
        status: 'ACTIVITY_STATUS_COMPLETED',
        userId: input.caller.userId,
        intent: { [input.descriptor.intentKey]: input.parameters },
        result,
        appProofs: this.proofsOf(row, result),
        createdAt: now,
        updatedAt: now,
      },
      input.caller.versions,
    );
    // A fresh activity has no votes; a racing copy that stored first is the answer.
    if (stored) return toReply(stored, [], input.caller.userId);
    const winner = await findByFingerprint(db, input.organizationId, input.fingerprint);
    if (!winner) throw new StaleFacts((input.caller.versions ?? []).map(([o]) => o));
    return answerOf(db, winner, input.caller);
  }

  /**
   * Submit an activity. An identical body (same fingerprint) returns the stored record and never
   * takes effect twice, also when copies race: the unique (organization, fingerprint) index fails
   * every copy but the first at its INSERT (a transaction rolls back whatever it did), after
   * which it reads the winner's record.
   * @throws StaleFacts when the caller's facts changed while it ran (nothing was stored)
   */
  async submit(input: SubmitInput): Promise<ActivityReply> {
    const compute = this.compute[input.descriptor.name as keyof ComputeTable] as ComputeHandler<never> | undefined;
    if (compute) {
      const done = await this.computeNow(input, compute);
      if (done) return done;
    }
    await input.caller.stamp?.settle();
    // Provider calls happen here, before the transaction: a slow provider holds no transaction.
    const prefetch = this.prefetchers[input.descriptor.name as keyof PrefetchTable] as OperationPrefetch<never> | undefined;
    const prefetched = prefetch
      ? await prefetch(input.parameters as never, { ...this.services, db: this.store.db, organizationId: input.organizationId })
      : undefined;
    let pending = nothingPending();
    let reply: { reply: ActivityReply; failure?: ApiError } | undefined;
    // A handler may first send the statement that decides its activity with the activity's own
    // INSERT and COMMIT (OperationContext.decidedInDatabase); when what it counted on changed
    // meanwhile, the statement says so and the activity runs once more, deciding step by step.
    for (let decidedInDatabase = true; reply === undefined; decidedInDatabase = false) {
      try {
        const tried = pending;
        reply = await this.store.transaction((tx) => this.run(tx, input, tried, prefetched, decidedInDatabase));
      } catch (err) {
        if (decidedInDatabase && sqlState(err) === RUN_AGAIN_SQLSTATE) {
          pending = nothingPending();
          continue;
        }
        if (sqlState(err) === STALE_FACTS_SQLSTATE)
          throw new StaleFacts(
            (input.caller.versions ?? []).map(([o]) => o),
            { cause: err },
          );
        if (isUniqueViolation(err, 'activities_fingerprint_uq')) {
          const winner = await findByFingerprint(this.store.db, input.organizationId, input.fingerprint);
          if (winner) return answerOf(this.store.db, winner, input.caller);
        }
        if (isUniqueViolation(err)) {
          const named = pending.refusals.get(violatedConstraint(err) ?? '');
          return this.refuse(input, named?.(err) ?? new ApiError('ERR_ALREADY_EXISTS', undefined, undefined, { cause: err }));
        }
        const refused = refusalRaised(err);
        if (refused && refused.status < 500) return this.refuse(input, refused);
        if (err instanceof ApiError && err.status < 500) return this.refuse(input, err);
        throw err;
      }
    }
    if (reply.failure) throw reply.failure;
    for (const fn of pending.afterCommit) await fn();
    return reply.reply;
  }

  /** Store a refusal as a FAILED activity (stored.ts `storeRefusal`); a racing copy's stored outcome wins. */
  private refuse(input: SubmitInput, error: ApiError): Promise<ActivityReply> {
    return storeRefusal(this.store.db, this.services.now(), input, error);
  }

  /**
   * Inside the activity's transaction: authorize, write the row (guarded: its INSERT is the
   * first statement, so the caller's facts are checked before the handler runs), then either
   * record the submitter's vote (consensus) or run the handler and store its outcome.
   */
  private async run(
    tx: Tx,
    input: SubmitInput,
    pending: Pending,
    prefetched: unknown,
    decidedInDatabase: boolean,
  ): Promise<{ reply: ActivityReply; failure?: ApiError }> {
    const now = this.services.now();
    const id = newSortableId();
    const decision = await authorize(tx, {
      organizationId: input.organizationId,
      caller: input.caller,
      type: input.descriptor.type,
      parameters: input.parameters,
    });
    const row: ActivityRow = {
      id,
      organizationId: input.organizationId,
      type: input.descriptor.type,
      status: decision.kind === 'consensus' ? 'ACTIVITY_STATUS_CONSENSUS_NEEDED' : 'ACTIVITY_STATUS_CREATED',
      fingerprint: input.fingerprint,
      timestampMs: input.timestampMs,
      userId: input.caller.userId,
      intent: { [input.descriptor.intentKey]: input.parameters },
      result: {},
      appProofs: null,
      generateAppProofs: input.generateAppProofs,
      failure: null,
      createdAt: now,
      updatedAt: now,
    };
    const guard = input.caller.versions ?? [];
    if (decision.kind === 'consensus') {
      // The row first: the votes refer to it.
      await this.store1(tx, { row, guard });
      await tx
        .insert(activityVotes)
        .values({ id: newSortableId(), activityId: id, userId: input.caller.userId, selection: 'VOTE_SELECTION_APPROVED', createdAt: now });
      return { reply: await replyOf(tx, row, input.caller) };
    }
    // The caller's facts are checked before any statement of the handler, in that statement's
    // round trip: a moved version fails it with STALE_FACTS_SQLSTATE (the request runs again).
    // On the embedded database, in memory when it can be (facts.ts `knownCurrent`).
    if (guard.length > 0 && !this.services.facts.knownCurrent(input.caller)) await sendWithNext(tx, factsCurrent(guard));
    const outcome = await this.outcomeOf(tx, row, input.caller, pending, prefetched, decidedInDatabase);
    const done: ActivityRow = { ...row, ...outcome };
    const failure = failureOf(done);
    // Executed at once, the activity has no votes (only a consensus path records them).
    const reply = toReply(done, [], input.caller.userId);
    // The row, written once and completed, is the transaction's last statement: its COMMIT goes
    // in the same round trip (store/round-trips.ts). Checked already, it needs no guard.
    commitWithNext(tx);
    await this.store1(tx, { row: done, guard: [] });
    return failure ? { reply, failure } : { reply };
  }

  /**
   * The activity's INSERT in its transaction: a copy with its fingerprint stored first raises the
   * unique violation (the transaction rolls back); with a guard, changed facts raise StaleFacts
   * (rolls back too; the request runs again).
   */
  private async store1(tx: Tx, guarded: GuardedRow): Promise<void> {
    const written = await insertActivities(tx, [guarded], { skipConflicts: false });
    if (!written.has(guarded.row.id)) throw new StaleFacts(guarded.guard.map(([o]) => o));
  }

  /**
   * Run the handler of an activity; its outcome as the columns of its row: completed with its
   * result (and App Proofs), or failed with a CommittedFailure's error (whose writes commit).
   */
  private async outcomeOf(
    tx: Tx,
    row: Pick<ActivityRow, 'id' | 'organizationId' | 'type' | 'fingerprint' | 'timestampMs' | 'generateAppProofs' | 'intent'>,
    caller: Caller,
    pending: Pending,
    prefetched?: unknown,
    decidedInDatabase = false,
  ): Promise<Outcome> {
    const descriptor = operationByType(row.type);
    if (!descriptor) throw new ApiError('ERR_INTERNAL', `no descriptor for ${row.type}`);
    const handler = this.handlers[descriptor.name] as (params: unknown, ctx: OperationContext) => Promise<Record<string, unknown>>;
    const ctx: OperationContext = {
      ...this.services,
      tx,
      organizationId: row.organizationId,
      caller,
      activityId: row.id,
      afterCommit: (fn) => pending.afterCommit.push(fn),
      refuseViolation: (constraint, refusal) => pending.refusals.set(constraint, refusal),
      ...(prefetched !== undefined ? { prefetched } : {}),
      serialized: this.store.kind === 'pglite',
      decidedInDatabase,
      runApproved: async (activityId) => {
        const [stored] = await tx.select().from(activities).where(eq(activities.id, activityId));
        if (!stored) throw new ApiError('ERR_ACTIVITY_NOT_FOUND');
        // The submitter acts again, as a user of their own organization (the target or its parent).
        const [submitter] = await tx.select({ organizationId: users.organizationId }).from(users).where(eq(users.id, stored.userId));
        const outcome = await this.outcomeOf(
          tx,
          stored,
          {
            userId: stored.userId,
            organizationId: submitter?.organizationId ?? stored.organizationId,
            credential: caller.credential,
          },
          pending,
        );
        await storeOutcome.run(tx, { id: stored.id, ...outcome });
      },
    };
    const params = row.intent[descriptor.intentKey];
    let outcome: Record<string, unknown>;
    try {
      outcome = await handler(params, ctx);
    } catch (err) {
      if (!(err instanceof CommittedFailure)) throw err;
      return { status: 'ACTIVITY_STATUS_FAILED', result: {}, appProofs: null, failure: failureRecord(err.error), updatedAt: this.services.now() };
    }
    const result = { [descriptor.resultKey]: outcome };
    return { status: 'ACTIVITY_STATUS_COMPLETED', result, appProofs: this.proofsOf(row, result), failure: null, updatedAt: this.services.now() };
  }
}
