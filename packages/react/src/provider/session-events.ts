import { WalletKitError } from '@walletkit/client';
import type { SessionChange, SessionInfo, SessionState, WalletKitClientLike } from '../client-contract.js';

/**
 * What changed between two session states, for a client that does not say why (no
 * `session.onChange`): a session appearing is a `restore` while the first restore was pending,
 * else a `login`; a new key for the same session is a `refresh`; a session gone past its expiry
 * `expired`, else `logout`. Nothing for an unchanged state.
 * @example inferChange({ status: 'anonymous' }, { status: 'authenticated', session }, Date.now()) // { type: 'login', session }
 */
export function inferChange(before: SessionState, next: SessionState, now: number): SessionChange | undefined {
  if (next.status === 'authenticated' && next.session) {
    if (before.status === 'authenticated' && before.session?.publicKey === next.session.publicKey) return undefined;
    const type = before.status === 'loading' ? 'restore' : before.status === 'authenticated' ? 'refresh' : 'login';
    return { type, session: next.session };
  }
  if (next.status === 'anonymous' && before.status === 'authenticated') {
    return { type: before.session && before.session.expiresAt <= now ? 'expired' : 'logout' };
  }
  return undefined;
}

/**
 * Listen to the session's changes with their reasons: the client's own (`session.onChange`), or
 * inferred from its states ({@link inferChange}). Returns the unsubscribe function.
 * @example useEffect(() => subscribeSessionChanges(client, (c) => c.type === 'login' && track(c.session)), [client]);
 */
export function subscribeSessionChanges(client: WalletKitClientLike, listener: (change: SessionChange) => void, now: () => number = Date.now): () => void {
  if (client.session.onChange) return client.session.onChange(listener);
  let previous = client.session.getState();
  return client.session.subscribe(() => {
    const next = client.session.getState();
    const change = inferChange(previous, next, now());
    previous = next;
    if (change) listener(change);
  });
}

/**
 * The promise `useWalletKit().login()` hands out while the auth modal is open: one for every
 * caller of the same opening, resolved with the session of the login that follows, rejected with
 * `ERR_LOGIN_CANCELLED` when the modal closes without one.
 */
export interface LoginWaiter {
  /** The pending promise (a new one when none is pending). */
  wait(): Promise<SessionInfo>;
  /** A session arrived: resolve. */
  loggedIn(session: SessionInfo): void;
  /** The modal closed (or the provider went away) first: reject. */
  cancel(): void;
}

/** @example const waiter = createLoginWaiter(); const session = await waiter.wait(); */
export function createLoginWaiter(): LoginWaiter {
  let pending: { promise: Promise<SessionInfo>; resolve: (s: SessionInfo) => void; reject: (e: unknown) => void } | undefined;
  return {
    wait() {
      if (!pending) {
        let resolve!: (s: SessionInfo) => void;
        let reject!: (e: unknown) => void;
        const promise = new Promise<SessionInfo>((res, rej) => {
          resolve = res;
          reject = rej;
        });
        // `onClick={login}` ignores the promise: its rejection must not be reported as unhandled.
        promise.catch(() => undefined);
        pending = { promise, resolve, reject };
      }
      return pending.promise;
    },
    loggedIn(session) {
      pending?.resolve(session);
      pending = undefined;
    },
    cancel() {
      pending?.reject(new WalletKitError('ERR_LOGIN_CANCELLED'));
      pending = undefined;
    },
  };
}
