import { userRejected, type Confirmer, type SignatureRequest } from '@walletkit/client';

/**
 * The kit's confirmation step as a queue: `confirm` is the {@link Confirmer} handed to the
 * client; each request waits its turn (one dialog at a time, in the order they came) until the
 * user approves (the promise resolves and the client signs) or declines (it rejects with
 * `ERR_USER_REJECTED`). The dialog renders `current()`, the head of the queue.
 */
export interface ConfirmationQueue {
  /** The Confirmer to give `createWalletKitClient({ confirm })`. */
  confirm: Confirmer;
  /** The request the user is asked about now. */
  current(): SignatureRequest | undefined;
  /** How many requests wait, the current one included. */
  size(): number;
  subscribe(listener: () => void): () => void;
  /** Approve the current request. */
  approve(): void;
  /** Decline the current request (`ERR_USER_REJECTED`). */
  decline(): void;
  /** Decline everything waiting, e.g. when the kit unmounts: no caller is left hanging. */
  declineAll(): void;
}

interface Entry {
  request: SignatureRequest;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * A new, empty queue.
 * @example
 * const queue = createConfirmationQueue();
 * const kit = createWalletKitClient({ ...config, confirm: queue.confirm });
 * <WalletKitClientProvider client={adaptClient(kit)} confirmations={queue}>…</WalletKitClientProvider>
 */
export function createConfirmationQueue(): ConfirmationQueue {
  const entries: Entry[] = [];
  const listeners = new Set<() => void>();
  const publish = () => {
    for (const l of listeners) l();
  };
  const settle = (fn: (e: Entry) => void) => {
    const head = entries.shift();
    if (!head) return;
    fn(head);
    publish();
  };
  return {
    confirm: (request) =>
      new Promise<void>((resolve, reject) => {
        entries.push({ request, resolve, reject });
        publish();
      }),
    current: () => entries[0]?.request,
    size: () => entries.length,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    approve: () => settle((e) => e.resolve()),
    decline: () => settle((e) => e.reject(userRejected())),
    declineAll: () => {
      for (const e of entries.splice(0)) e.reject(userRejected());
      publish();
    },
  };
}
