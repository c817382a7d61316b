import { decodeJwt } from '@walletkit/crypto';
import { toWalletKitError, WalletKitError } from './errors.js';
import type { ActivityAuth } from './activity-client.js';
import type { SessionKeyStore, StoredSession } from './stampers/key-store.js';
import { createSessionKeyStamper, generateSessionKey, type SessionKey } from './stampers/session-key.js';
import { verifyEs256Jwt } from './webcrypto/jwt.js';

/**
 * A logged-in session: the JWT (DESIGN section 2, "Session JWT") and what it says.
 *
 * @example
 * ```ts
 * const s: Session | undefined = kit.session.current();
 * s?.expiresAt; // ms since the epoch
 * ```
 */
export interface Session {
  token: string;
  publicKey: string;
  organizationId: string;
  userId: string;
  /** Milliseconds since the epoch (the JWT's `exp` * 1000). */
  expiresAt: number;
}

/**
 * Why the session changed (the second argument of a {@link SessionListener}):
 * - `login`: a login or sign-up of this page stored a new session (`establish`);
 * - `refresh`: the session's key was replaced before expiry (this tab's refresh);
 * - `restore`: the stored session was read at load (`restore`);
 * - `sync`: another tab logged in or refreshed, and this one adopted its session;
 * - `expiring`: the session will end in `secondsLeft` (its refresh failed, or there is no
 *   refresher): said once per session, a minute before its end or a fifth of its lifetime for
 *   shorter ones; the session itself has not changed;
 * - `expired`: it ended by itself; `logout`: it was ended (here or in another tab).
 */
export type SessionChange =
  | { type: 'login' | 'refresh' | 'restore' | 'sync'; session: Session }
  | { type: 'expiring'; session: Session; secondsLeft: number }
  | { type: 'expired' | 'logout' };

/** A change of session: a login, refresh, restore, expiry, logout, or one seen in another tab; `change` says which. */
export type SessionListener = (session: Session | undefined, change: SessionChange) => void;

/** Timer functions, injectable so that tests drive expiry and refresh. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The cross-tab channel (a `BroadcastChannel` by default). */
export interface SessionChannel {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', fn: (event: { data: unknown }) => void): void;
  close(): void;
}

/**
 * The Web Locks surface the manager uses (`navigator.locks`): the callback runs while the named
 * lock is held, by one tab of the origin at a time.
 *
 * @example
 * ```ts
 * const locks: LockManagerLike = navigator.locks;
 * ```
 */
export interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** The Web Lock held while a tab refreshes the shared session. */
export const SESSION_REFRESH_LOCK = 'walletkit-session-refresh';

/**
 * Options of {@link SessionManager}.
 *
 * @example
 * ```ts
 * const opts: SessionManagerOptions = { store: indexedDbSessionKeyStore(), enclavePublicKey, refresh };
 * ```
 */
export interface SessionManagerOptions {
  store: SessionKeyStore;
  /** Pinned enclave key: session JWTs must be signed by it. Skipped when absent. */
  enclavePublicKey?: string | undefined;
  /**
   * Renews the session: given the current one and a NEW key, returns a JWT bound to the new
   * key (the kit does `stamp_login` stamped by the current key). No refresh when absent.
   */
  refresh?: ((current: StoredSession & Session, next: SessionKey) => Promise<string>) | undefined;
  /** Refresh this long before expiry; default a fifth of the lifetime, at most 60 s. */
  refreshMarginMs?: number | undefined;
  now?: (() => number) | undefined;
  timers?: Timers | undefined;
  /** Cross-tab channel; `null` disables it. Default `new BroadcastChannel('walletkit-session')`. */
  channel?: SessionChannel | null | undefined;
  /**
   * Cross-tab refresh lock; default `navigator.locks` when the browser has it, `null` disables
   * it. Without it, tabs may refresh concurrently (each gets a valid session; the last stored wins).
   */
  locks?: LockManagerLike | null | undefined;
}

/** setTimeout's limit (2^31 - 1 ms); longer waits are split. */
const MAX_DELAY = 2_147_483_647;

/**
 * Holds the session: stores the key and JWT after a login, restores them on load (an expired
 * one is cleared), refreshes before expiry with a new key, and clears key and JWT on expiry or
 * logout. Tabs sharing the store stay consistent through a BroadcastChannel.
 *
 * @example
 * ```ts
 * const session = new SessionManager({ store: indexedDbSessionKeyStore(), enclavePublicKey });
 * await session.restore();
 * session.subscribe((s) => render(s ? 'logged in' : 'logged out'));
 * ```
 */
export class SessionManager {
  private record: (StoredSession & Session) | undefined;
  private readonly listeners = new Set<SessionListener>();
  private timer: unknown;
  private readonly now: () => number;
  private readonly timers: Timers;
  private channel: SessionChannel | undefined;
  /** 'idle' until the first restore, login or logout opens the channel; 'closed' after close(). */
  private channelState: 'idle' | 'open' | 'closed' = 'idle';
  private refreshing: Promise<Session | undefined> | undefined;
  /** The session whose end was announced (`expiring`): once per session. */
  private warned: (StoredSession & Session) | undefined;
  private readonly locks: LockManagerLike | undefined;
  private readonly opts: SessionManagerOptions;

  constructor(opts: SessionManagerOptions) {
    this.opts = opts;
    this.now = opts.now ?? Date.now;
    this.timers = opts.timers ?? { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };
    this.locks = opts.locks === undefined ? defaultLocks() : (opts.locks ?? undefined);
  }

  /**
   * Opens the cross-tab channel on first use, not in the constructor: a manager that is built
   * and dropped unused (React StrictMode's discarded render) then holds nothing to close.
   */
  private openChannel(): SessionChannel | undefined {
    if (this.channelState === 'closed') return undefined;
    if (this.channelState === 'open') return this.channel;
    this.channelState = 'open';
    this.channel = this.opts.channel === undefined ? defaultChannel() : (this.opts.channel ?? undefined);
    this.channel?.addEventListener('message', (event) => {
      if ((event.data as { type?: string } | null)?.type === 'walletkit:session') void this.reload('sync');
    });
    return this.channel;
  }

  /** The current session, if any. */
  current(): Session | undefined {
    return this.record && toSession(this.record);
  }

  /**
   * Reads the stored session (on page load). An expired or unreadable one is cleared.
   * @example const s = await session.restore(); // undefined when logged out
   */
  async restore(): Promise<Session | undefined> {
    this.openChannel();
    await this.reload('restore');
    return this.current();
  }

  /**
   * Stores a session returned by a login for `key` and notifies listeners and other tabs.
   * Throws `ERR_INVALID_SIGNATURE` when the JWT is not the enclave's or not bound to `key`.
   * @example await session.establish(key, (await proxy.otpLogin(request)).session);
   */
  establish(key: SessionKey, token: string): Promise<Session> {
    return this.keep(key, token, 'login');
  }

  private async keep(key: SessionKey, token: string, type: 'login' | 'refresh'): Promise<Session> {
    const record = await this.parse({ ...key, session: token });
    await this.opts.store.save({ keyPair: key.keyPair, publicKey: key.publicKey, session: token });
    this.set(record, true, { type, session: toSession(record) });
    return toSession(record);
  }

  /** The stamper and organization of the session (for the activity client). Throws `ERR_NO_SESSION`. */
  auth(): ActivityAuth {
    const record = this.record;
    if (!record) throw new WalletKitError('ERR_NO_SESSION');
    if (record.expiresAt <= this.now()) throw new WalletKitError('ERR_SESSION_EXPIRED');
    return { stamper: createSessionKeyStamper(record), organizationId: record.organizationId };
  }

  /**
   * Calls `listener` on every change; returns the unsubscribe function.
   * @example const off = session.subscribe((s) => setUser(s?.userId)); off();
   */
  subscribe(listener: SessionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Replaces the session key now: a new key, a JWT for it from `refresh`, then the old key is
   * dropped. Concurrent calls share one refresh; across tabs, the Web Lock
   * `walletkit-session-refresh` lets one tab refresh while the others wait and adopt its result.
   */
  refresh(): Promise<Session | undefined> {
    this.refreshing ??= this.lockedRefresh().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  /** Forgets the session in every tab: key and JWT are deleted from the store. */
  async logout(): Promise<void> {
    await this.opts.store.clear();
    this.set(undefined, true, { type: 'logout' });
  }

  /** Stops timers and the cross-tab channel (tests, or a provider unmounting). */
  close(): void {
    this.cancelTimer();
    this.channel?.close();
    this.channelState = 'closed';
  }

  private async lockedRefresh(): Promise<Session | undefined> {
    const locks = this.locks;
    if (!locks) return this.doRefresh();
    const started = this.record?.publicKey;
    return locks.request(SESSION_REFRESH_LOCK, async () => {
      // While this tab waited, another may have refreshed (or logged in or out): adopt that.
      await this.reload('sync');
      if (this.record?.publicKey !== started) return this.current();
      return this.doRefresh();
    });
  }

  private async doRefresh(): Promise<Session | undefined> {
    const current = this.record;
    if (!current || !this.opts.refresh) return this.current();
    const next = await generateSessionKey();
    let token: string;
    try {
      token = await this.opts.refresh(current, next);
    } catch (error) {
      // Another tab may have refreshed first; adopt what the store now holds.
      await this.reload('sync');
      if (this.record && this.record.publicKey !== current.publicKey) return this.current();
      throw toWalletKitError(error, 'ERR_NETWORK');
    }
    return this.keep(next, token, 'refresh');
  }

  /** Adopt what the store holds: at load (`restore`), after another tab's change (`sync`), or at expiry. */
  private async reload(reason: 'restore' | 'sync' | 'expiry'): Promise<void> {
    let stored: StoredSession | undefined;
    try {
      stored = await this.opts.store.load();
    } catch {
      stored = undefined;
    }
    let record: (StoredSession & Session) | undefined;
    if (stored) {
      try {
        record = await this.parse(stored);
      } catch {
        record = undefined;
      }
      if (!record || record.expiresAt <= this.now()) {
        await this.opts.store.clear();
        record = undefined;
      }
    }
    if (record?.token === this.record?.token) return;
    if (record) return this.set(record, false, { type: reason === 'restore' ? 'restore' : 'sync', session: toSession(record) });
    // Gone: ended by its clock, or cleared (a logout in another tab).
    const ended = this.record !== undefined && this.record.expiresAt <= this.now();
    this.set(undefined, false, { type: ended ? 'expired' : 'logout' });
  }

  private async parse(stored: StoredSession): Promise<StoredSession & Session> {
    let claims: { exp?: unknown; public_key?: unknown; organization_id?: unknown; user_id?: unknown };
    try {
      claims = this.opts.enclavePublicKey ? await verifyEs256Jwt(stored.session, this.opts.enclavePublicKey) : decodeJwt(stored.session);
    } catch (error) {
      throw toWalletKitError(error, 'ERR_INVALID_SIGNATURE');
    }
    if (typeof claims.exp !== 'number' || claims.public_key !== stored.publicKey || typeof claims.organization_id !== 'string') {
      throw new WalletKitError('ERR_INVALID_SIGNATURE', 'the session is not bound to this key');
    }
    return {
      ...stored,
      token: stored.session,
      organizationId: claims.organization_id,
      userId: String(claims.user_id),
      expiresAt: claims.exp * 1000,
    };
  }

  private set(record: (StoredSession & Session) | undefined, broadcast: boolean, change: SessionChange): void {
    this.record = record;
    this.schedule();
    if (broadcast) this.openChannel()?.postMessage({ type: 'walletkit:session' });
    this.emit(change);
  }

  private emit(change: SessionChange): void {
    const session = this.current();
    for (const listener of this.listeners) listener(session, change);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * One timer, at expiry minus the margin: refresh then when a refresher exists; when it fails
   * (or there is none) say the session is `expiring`, then expire at its end.
   */
  private schedule(): void {
    this.cancelTimer();
    const record = this.record;
    if (!record) return;
    const remaining = record.expiresAt - this.now();
    const margin = this.opts.refreshMarginMs ?? Math.min(60_000, Math.floor(remaining / 5));
    const delay = Math.max(0, record.expiresAt - margin - this.now());
    this.timer = this.timers.setTimeout(
      () => {
        this.timer = undefined;
        if (delay === MAX_DELAY) return this.schedule();
        void this.onTimer(record);
      },
      Math.min(delay, MAX_DELAY),
    );
  }

  private async onTimer(record: StoredSession & Session): Promise<void> {
    if (this.record !== record) return;
    if (this.opts.refresh && record.expiresAt > this.now()) {
      try {
        await this.refresh();
        return;
      } catch {
        // Refresh failed (offline, key revoked): keep the session until it expires.
      }
    }
    if (this.record !== record) return;
    if (record.expiresAt <= this.now()) {
      // Another tab may have stored a fresh session: reload adopts it, or clears this expired one.
      await this.reload('expiry');
      return;
    }
    if (this.warned !== record) {
      this.warned = record;
      this.emit({ type: 'expiring', session: toSession(record), secondsLeft: Math.ceil((record.expiresAt - this.now()) / 1000) });
    }
    this.timer = this.timers.setTimeout(() => void this.onTimer(record), Math.min(record.expiresAt - this.now(), MAX_DELAY));
  }
}

function toSession(r: Session): Session {
  return { token: r.token, publicKey: r.publicKey, organizationId: r.organizationId, userId: r.userId, expiresAt: r.expiresAt };
}

function defaultChannel(): SessionChannel | undefined {
  if (typeof BroadcastChannel !== 'function') return undefined;
  return new BroadcastChannel('walletkit-session') as unknown as SessionChannel;
}

function defaultLocks(): LockManagerLike | undefined {
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  return typeof locks?.request === 'function' ? locks : undefined;
}
