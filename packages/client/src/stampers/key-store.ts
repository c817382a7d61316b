import { WalletKitError } from '../errors';
import type { SessionKey } from './session-key';

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
export interface SessionKeyStore {
  load(): Promise<StoredSession | undefined>;
  save(record: StoredSession): Promise<void>;
  clear(): Promise<void>;
}

const STORE = 'session';
const SLOT = 'current';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/**
 * The browser store: one IndexedDB database (default `walletkit`) with one record.
 *
 * @example
 * ```ts
 * const store = indexedDbSessionKeyStore({ dbName: 'my-app-wallet' });
 * const restored = await store.load();
 * ```
 */
export function indexedDbSessionKeyStore(opts: { dbName?: string; indexedDB?: IDBFactory } = {}): SessionKeyStore {
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

  return {
    load: () => run('readonly', (s) => s.get(SLOT) as IDBRequest<StoredSession | undefined>),
    save: async (record) => {
      await run('readwrite', (s) => s.put(record, SLOT));
    },
    clear: async () => {
      await run('readwrite', (s) => s.delete(SLOT));
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
export function memorySessionKeyStore(): SessionKeyStore {
  let record: StoredSession | undefined;
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
