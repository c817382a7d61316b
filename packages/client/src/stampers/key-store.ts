import { WalletKitError } from '../errors.js';
import type { OAuthProvider } from '../oauth.js';
import type { SessionKey } from './session-key.js';

/**
 * What survives a reload: the session key (its CryptoKeyPair is stored by structured clone,
 * so the private half stays non-extractable) and the session JWT it is bound to.
 *
 * @example
 * ```ts
 * const record: StoredSession = { ...key, session: jwt };
 * ```
 */
export interface StoredSession extends SessionKey {
  /** The session JWT returned by the login. */
  session: string;
}

/**
 * Where the session lives between page loads. Every tab of an origin shares it.
 *
 * @example
 * ```ts
 * const store: SessionKeyStore = indexedDbSessionKeyStore();
 * await store.save({ ...key, session });
 * ```
 */
export interface SessionKeyStore extends RecordStore<StoredSession> {
  /**
   * A second slot for a login interrupted by a page navigation (the OAuth redirect
   * fallback): its key pair, state, nonce and PKCE verifier. Memory-only when absent.
   */
  pendingLogin?: RecordStore<PendingLogin>;
}

/**
 * One persisted record: load, save (replace) and clear.
 *
 * @example
 * ```ts
 * const slot: RecordStore<PendingLogin> = indexedDbSessionKeyStore().pendingLogin!;
 * await slot.clear();
 * ```
 */
export interface RecordStore<T> {
  load(): Promise<T | undefined>;
  save(record: T): Promise<void>;
  clear(): Promise<void>;
}

/**
 * An OAuth login that left the page (popup blocked, redirect fallback): everything the page the
 * provider returns to needs to finish it. The key pair is the future session key (the nonce is
 * bound to it), stored by structured clone so its private half stays non-extractable.
 *
 * @example
 * ```ts
 * const pending: PendingLogin = { ...key, provider: 'discord', state, nonce, codeVerifier, clientId, redirectUri, createdAt: Date.now() };
 * ```
 */
export interface PendingLogin extends SessionKey {
  provider: OAuthProvider;
  state: string;
  nonce: string;
  /** X and Discord (PKCE). */
  codeVerifier?: string;
  clientId: string;
  redirectUri: string;
  /** Milliseconds since the epoch; stale records are refused. */
  createdAt: number;
  /** Signup options, used when no account holds the identity yet. */
  userName?: string;
  wallet?: unknown;
}

const STORE = 'session';
const SLOT = 'current';
const PENDING_SLOT = 'oauth-pending';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/**
 * The browser store: one IndexedDB database (default `walletkit`) with two records, the
 * session and (while an OAuth redirect is under way) the pending login.
 *
 * @example
 * ```ts
 * const store = indexedDbSessionKeyStore({ dbName: 'my-app-wallet' });
 * const restored = await store.load();
 * ```
 */
export function indexedDbSessionKeyStore(
  opts: { dbName?: string | undefined; indexedDB?: IDBFactory | undefined } = {},
): SessionKeyStore & { pendingLogin: RecordStore<PendingLogin> } {
  const dbName = opts.dbName ?? 'walletkit';
  let opening: Promise<IDBDatabase> | undefined;

  function open(): Promise<IDBDatabase> {
    const factory = opts.indexedDB ?? globalThis.indexedDB;
    if (!factory) return Promise.reject(new WalletKitError('ERR_KEY_STORAGE_UNAVAILABLE'));
    opening ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = factory.open(dbName, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(new WalletKitError('ERR_KEY_STORAGE_UNAVAILABLE', undefined, { cause: req.error }));
    });
    opening.catch(() => (opening = undefined));
    return opening;
  }

  async function run<T>(mode: IDBTransactionMode, fn: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
    const db = await open();
    const tx = db.transaction(STORE, mode);
    const done = new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
    const [result] = await Promise.all([request(fn(tx.objectStore(STORE))), done]);
    return result;
  }

  const slot = <T>(key: string): RecordStore<T> => ({
    load: () => run('readonly', (s) => s.get(key) as IDBRequest<T | undefined>),
    save: async (record) => {
      await run('readwrite', (s) => s.put(record, key));
    },
    clear: async () => {
      await run('readwrite', (s) => s.delete(key));
    },
  });
  return { ...slot<StoredSession>(SLOT), pendingLogin: slot<PendingLogin>(PENDING_SLOT) };
}

function memorySlot<T>(): RecordStore<T> {
  let record: T | undefined;
  return {
    load: async () => record,
    save: async (r) => {
      record = r;
    },
    clear: async () => {
      record = undefined;
    },
  };
}

/**
 * A store in memory (one page, nothing persisted): for server-side rendering and tests.
 *
 * @example
 * ```ts
 * const kit = createWalletKitClient({ ...config, storage: memorySessionKeyStore() });
 * ```
 */
export function memorySessionKeyStore(): SessionKeyStore & { pendingLogin: RecordStore<PendingLogin> } {
  return { ...memorySlot<StoredSession>(), pendingLogin: memorySlot<PendingLogin>() };
}
