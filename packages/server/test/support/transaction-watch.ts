/**
 * Issue 14's constraint, observed on the real runner: the store's `transaction` and some of the
 * enclave's methods are wrapped so that a test can tell whether a call ran while a transaction
 * was open, and can change the database between an operation's prefetch and its transaction.
 */
import type pg from 'pg';
import type { Store, Tx } from '../../src/store/db';
import type { TestServer } from './harness';

export interface TransactionWatch {
  /** Transactions begun since the watch started. */
  readonly begun: number;
  /** Each call of a watched enclave method, in order, with whether a transaction was open. */
  calls: Array<{ what: string; inTransaction: boolean }>;
  /**
   * The round trips (ReadyForQuery answers) of each transaction begun since the watch started, in
   * order of their beginning: from its body's first statement to its last (its COMMIT included
   * when it went with the last statement; a ROLLBACK after a failure not counted).
   */
  roundTrips: number[];
  /** Run `change` once, when the next transaction begins, before its body. */
  beforeNextTransaction(change: () => Promise<void>): void;
}

/**
 * Wrap `server`'s store and the enclave methods named (for the server's life).
 * @example const watch = watchTransactions(server, ['createWallet']); ...; expect(watch.calls).toEqual([{ what: 'createWallet', inTransaction: false }]);
 */
export function watchTransactions(server: TestServer, enclaveMethods: readonly string[]): TransactionWatch {
  let open = 0;
  let begun = 0;
  let change: (() => Promise<void>) | undefined;
  const watch: TransactionWatch = {
    get begun() {
      return begun;
    },
    calls: [],
    roundTrips: [],
    beforeNextTransaction(fn) {
      change = fn;
    },
  };
  const store = server.store;
  const transaction = store.transaction.bind(store);
  store.transaction = (async (fn, opts) => {
    const pending = change;
    change = undefined;
    if (pending) await pending();
    begun += 1;
    open += 1;
    const index = watch.roundTrips.push(0) - 1;
    try {
      return await transaction(async (tx) => {
        const connection = clientOf(tx).connection;
        // A round trip ends with its ReadyForQuery; one that failed may be over for its caller at
        // its error, before that arrives (node-postgres settles a query on the error), so an error
        // counts its round trip and the ReadyForQuery after it does not count again.
        let failed = false;
        const answered = () => {
          if (!failed) watch.roundTrips[index]! += 1;
          failed = false;
        };
        const error = () => {
          if (!failed) watch.roundTrips[index]! += 1;
          failed = true;
        };
        connection.on('readyForQuery', answered);
        connection.on('errorMessage', error);
        try {
          return await fn(tx);
        } finally {
          connection.off('readyForQuery', answered);
          connection.off('errorMessage', error);
        }
      }, opts);
    } finally {
      open -= 1;
    }
  }) as Store['transaction'];
  const enclave = server.enclave as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of enclaveMethods) {
    const real = enclave[name]!.bind(server.enclave);
    enclave[name] = (...args: unknown[]) => {
      watch.calls.push({ what: name, inTransaction: open > 0 });
      return real(...args);
    };
  }
  return watch;
}

/** The node-postgres client under a drizzle transaction. */
const clientOf = (tx: Tx) => (tx as unknown as { _: { session: { client: pg.Client & { connection: NodeJS.EventEmitter } } } })._.session.client;
