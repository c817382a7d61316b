/**
 * Issue 14's constraint, observed on the real runner: the store's `transaction` and some of the
 * enclave's methods are wrapped so that a test can tell whether a call ran while a transaction
 * was open, and can change the database between an operation's prefetch and its transaction.
 */
import type { Store } from '../../src/store/db';
import type { TestServer } from './harness';

export interface TransactionWatch {
  /** Transactions begun since the watch started. */
  readonly begun: number;
  /** Each call of a watched enclave method, in order, with whether a transaction was open. */
  calls: Array<{ what: string; inTransaction: boolean }>;
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
    try {
      return await transaction(fn, opts);
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
