/**
 * The session manager against the real server: restore on load, refresh before expiry with a
 * new key (driven by fake timers), expiry and logout clearing IndexedDB, and two managers
 * sharing one store (two tabs) staying consistent through BroadcastChannel, and refreshing
 * once between them under the Web Lock (a fake `navigator.locks`).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProxyTestServer } from '../../server/test/support/proxy';
import {
  createActivityClient,
  generateSessionKey,
  indexedDbSessionKeyStore,
  SESSION_REFRESH_LOCK,
  SessionManager,
  type LockManagerLike,
  type Session,
  type SessionChange,
  type SessionKey,
  type Timers,
  type WalletKitClient,
} from '../src/index';
import { kitFor, startServer } from './support/kit';

/** Fake timers: nothing fires until the test says so. */
function fakeTimers() {
  const pending = new Map<number, { fn: () => void; ms: number }>();
  let next = 1;
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      pending.set(next, { fn, ms });
      return next++;
    },
    clearTimeout: (h) => void pending.delete(h as number),
  };
  return {
    timers,
    /** The one scheduled timer's delay. */
    delay: () => [...pending.values()].map((t) => t.ms),
    fireAll: () => {
      const due = [...pending.values()];
      pending.clear();
      for (const t of due) t.fn();
    },
  };
}

/** A Web Locks stand-in shared by the "tabs": one holder at a time, in request order. */
function fakeLocks() {
  let tail: Promise<unknown> = Promise.resolve();
  const seen = { requests: [] as string[], held: 0, maxHeld: 0 };
  const locks: LockManagerLike = {
    request(name, callback) {
      seen.requests.push(name);
      const run = tail.then(async () => {
        seen.held += 1;
        seen.maxHeld = Math.max(seen.maxHeld, seen.held);
        try {
          return await callback();
        } finally {
          seen.held -= 1;
        }
      });
      tail = run.catch(() => undefined);
      return run;
    },
  };
  return { locks, seen };
}

/** Resolves with the next session a listener sees that satisfies `pred`. */
function nextChange(kit: { session: SessionManager }, pred: (s: Session | undefined) => boolean): Promise<Session | undefined> {
  return new Promise((resolve) => {
    const off = kit.session.subscribe((s) => {
      if (!pred(s)) return;
      off();
      resolve(s);
    });
  });
}

describe('session manager', () => {
  let server: ProxyTestServer;
  const kits: WalletKitClient[] = [];

  /** A session of the root user for a fresh WebCrypto key, as any login would give. */
  async function login(kit: WalletKitClient, expirationSeconds = '120') {
    const key = await generateSessionKey();
    const { session } = await server.client.run('stamp_login', { publicKey: key.publicKey, expirationSeconds, invalidateExisting: false });
    return kit.session.establish(key, session);
  }
  const track = (kit: WalletKitClient) => {
    kits.push(kit);
    return kit;
  };

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    for (const kit of kits) kit.session.close();
    await server?.dispose();
  });

  it('given a stored session, when a new page restores it, then its key (from IndexedDB) stamps an accepted request', async () => {
    const dbName = `wk-${randomUUID()}`;
    const first = track(kitFor(server, { storage: indexedDbSessionKeyStore({ dbName }) }));
    const session = await login(first);
    const reloaded = track(kitFor(server, { storage: indexedDbSessionKeyStore({ dbName }) }));
    expect(await reloaded.session.restore()).toEqual(session);
    expect((await reloaded.activity.query('whoami', {})).userId).toBe(server.org.userId);
  });

  it('given a session with 120 s left, when the refresh timer fires before expiry, then a NEW key holds a new session that stamps, and it is what the store holds', async () => {
    const clock = fakeTimers();
    const dbName = `wk-${randomUUID()}`;
    const kit = track(kitFor(server, { storage: indexedDbSessionKeyStore({ dbName }), timers: clock.timers }));
    const old = await login(kit);
    const [delay] = clock.delay();
    // A fifth of the lifetime (24 s) before expiry.
    expect(delay).toBeGreaterThan(90_000);
    expect(delay).toBeLessThanOrEqual(96_000);

    const refreshed = nextChange(kit, (s) => s !== undefined && s.publicKey !== old.publicKey);
    clock.fireAll();
    const fresh = (await refreshed)!;
    expect(fresh).toMatchObject({ organizationId: old.organizationId, userId: old.userId });
    expect(fresh.expiresAt).toBeGreaterThanOrEqual(old.expiresAt);
    expect((await kit.activity.query('whoami', {})).userId).toBe(server.org.userId);
    expect((await indexedDbSessionKeyStore({ dbName }).load())?.publicKey).toBe(fresh.publicKey);
    expect(clock.delay()).toHaveLength(1);
  });

  it('given a session without a refresher, when its expiry passes, then the key and JWT are cleared from IndexedDB and listeners see no session', async () => {
    const clock = fakeTimers();
    let now = 0;
    const dbName = `wk-${randomUUID()}`;
    const store = indexedDbSessionKeyStore({ dbName });
    const manager = new SessionManager({ store, enclavePublicKey: server.enclave.signingPublicKey, timers: clock.timers, now: () => now, channel: null });
    const changes: SessionChange['type'][] = [];
    manager.subscribe((_s, change) => changes.push(change.type));
    const key = await generateSessionKey();
    const { session } = await server.client.run('stamp_login', { publicKey: key.publicKey, expirationSeconds: '60', invalidateExisting: false });
    // The page's clock is read after the server issued the session (a slow server must not make it end later than 60 s from now).
    now = Date.now();
    await manager.establish(key, session);
    // The first timer is the warning, a fifth of the lifetime (12 s) before the end.
    expect(clock.delay()[0]).toBeGreaterThan(45_000);
    expect(clock.delay()[0]).toBeLessThanOrEqual(48_000);

    const gone = nextChange({ session: manager }, (s) => s === undefined);
    now += 61_000;
    clock.fireAll();
    expect(await gone).toBeUndefined();
    // Past its end when the timer fired: it expires without a late warning.
    expect(changes).toEqual(['login', 'expired']);
    expect(await indexedDbSessionKeyStore({ dbName }).load()).toBeUndefined();
    expect(() => manager.auth()).toThrow(expect.objectContaining({ code: 'ERR_NO_SESSION' }));

    // A page loaded after expiry finds nothing either, and clears what it finds.
    await store.save({ ...key, session });
    const later = new SessionManager({ store, timers: clock.timers, now: () => now, channel: null });
    expect(await later.restore()).toBeUndefined();
    expect(await store.load()).toBeUndefined();
  });

  it('given a 60-second session whose refresh fails, when the timers fire, then listeners hear login, one expiring with the seconds left, then expired (never logout); a page restoring a live session hears restore', async () => {
    const clock = fakeTimers();
    let now = Date.now();
    const dbName = `wk-${randomUUID()}`;
    const store = indexedDbSessionKeyStore({ dbName });
    let refreshes = 0;
    const manager = new SessionManager({
      store,
      enclavePublicKey: server.enclave.signingPublicKey,
      timers: clock.timers,
      now: () => now,
      channel: null,
      locks: null,
      refresh: async () => {
        refreshes += 1;
        throw new Error('offline');
      },
    });
    const changes: SessionChange[] = [];
    manager.subscribe((_s, change) => changes.push(change));
    const key = await generateSessionKey();
    const { session } = await server.client.run('stamp_login', { publicKey: key.publicKey, expirationSeconds: '60', invalidateExisting: false });
    const established = await manager.establish(key, session);

    // Another page of the same browser restores it while it lives.
    const other = new SessionManager({ store, enclavePublicKey: server.enclave.signingPublicKey, timers: fakeTimers().timers, now: () => now, channel: null });
    const restored: SessionChange['type'][] = [];
    other.subscribe((_s, change) => restored.push(change.type));
    await other.restore();
    expect(restored).toEqual(['restore']);

    // The refresh point: the refresh fails, so the end is announced, once.
    now = established.expiresAt - 12_000;
    const warned = new Promise<void>((resolve) => manager.subscribe((_s, c) => c.type === 'expiring' && resolve()));
    clock.fireAll();
    await warned;
    expect(refreshes).toBe(1);
    expect(changes.map((c) => c.type)).toEqual(['login', 'expiring']);
    expect(changes[1]).toMatchObject({ type: 'expiring', secondsLeft: 12, session: { userId: established.userId } });
    expect(manager.current()).toEqual(established);

    // Its end: expired, not a logout.
    now = established.expiresAt + 1;
    const gone = nextChange({ session: manager }, (s) => s === undefined);
    clock.fireAll();
    await gone;
    expect(changes.map((c) => c.type)).toEqual(['login', 'expiring', 'expired']);
  });

  it('given a session, when it refreshes and then logs out, then listeners hear refresh (not login) and logout (not expired)', async () => {
    const clock = fakeTimers();
    const kit = track(kitFor(server, { timers: clock.timers }));
    const changes: SessionChange['type'][] = [];
    kit.session.subscribe((_s, change) => changes.push(change.type));
    const old = await login(kit);
    const refreshed = nextChange(kit, (s) => s !== undefined && s.publicKey !== old.publicKey);
    clock.fireAll();
    await refreshed;
    await kit.session.logout();
    expect(changes).toEqual(['login', 'refresh', 'logout']);
  });

  it('given a JWT bound to another key, when it is established, then it is refused', async () => {
    const kit = track(kitFor(server));
    const other = await generateSessionKey();
    const { session } = await server.client.run('stamp_login', { publicKey: other.publicKey, invalidateExisting: false });
    await expect(kit.session.establish(await generateSessionKey(), session)).rejects.toMatchObject({ code: 'ERR_INVALID_SIGNATURE' });
  });

  it('given two tabs sharing one IndexedDB, when one logs in and the other logs out, then each sees the other’s change and logout leaves IndexedDB empty', async () => {
    const dbName = `wk-${randomUUID()}`;
    const a = track(kitFor(server, { storage: indexedDbSessionKeyStore({ dbName }), channel: undefined }));
    const b = track(kitFor(server, { storage: indexedDbSessionKeyStore({ dbName }), channel: undefined }));
    await Promise.all([a.session.restore(), b.session.restore()]);

    const seenByB = nextChange(b, (s) => s !== undefined);
    const session = await login(a);
    expect(await seenByB).toEqual(session);
    expect((await b.activity.query('whoami', {})).userId).toBe(server.org.userId);

    const seenByA = nextChange(a, (s) => s === undefined);
    await b.session.logout();
    expect(await seenByA).toBeUndefined();
    expect(a.session.current()).toBeUndefined();
    expect(await indexedDbSessionKeyStore({ dbName }).load()).toBeUndefined();
  });

  it('given a manager built and dropped unused (a discarded StrictMode render), then it opened no channel; the first restore opens it and close() closes it', async () => {
    const opened: string[] = [];
    const RealChannel = globalThis.BroadcastChannel;
    class CountingChannel extends RealChannel {
      constructor(name: string) {
        super(name);
        opened.push(name);
      }
      override close() {
        opened.push('closed');
        super.close();
      }
    }
    globalThis.BroadcastChannel = CountingChannel;
    try {
      const unused = new SessionManager({
        store: indexedDbSessionKeyStore({ dbName: `wk-${randomUUID()}` }),
        enclavePublicKey: server.enclave.signingPublicKey,
        locks: null,
      });
      expect(opened).toEqual([]);
      const used = new SessionManager({
        store: indexedDbSessionKeyStore({ dbName: `wk-${randomUUID()}` }),
        enclavePublicKey: server.enclave.signingPublicKey,
        locks: null,
      });
      await used.restore();
      await used.restore();
      expect(opened).toEqual(['walletkit-session']);
      used.close();
      unused.close();
      expect(opened).toEqual(['walletkit-session', 'closed']);
    } finally {
      globalThis.BroadcastChannel = RealChannel;
    }
  });

  describe('refresh across tabs', () => {
    /** Two managers on one IndexedDB (two tabs), each refreshing through the real server; counts refreshes. */
    async function twoTabs(locks: LockManagerLike | null) {
      const dbName = `wk-${randomUUID()}`;
      const calls: string[] = [];
      const refresh = async (_current: unknown, next: SessionKey) => {
        calls.push(next.publicKey);
        return (await server.client.run('stamp_login', { publicKey: next.publicKey, invalidateExisting: false })).session;
      };
      const tab = () =>
        new SessionManager({
          store: indexedDbSessionKeyStore({ dbName }),
          enclavePublicKey: server.enclave.signingPublicKey,
          refresh,
          locks,
          channel: null,
          timers: fakeTimers().timers,
        });
      const [a, b] = [tab(), tab()];
      const key = await generateSessionKey();
      await a.establish(key, (await server.client.run('stamp_login', { publicKey: key.publicKey, invalidateExisting: false })).session);
      await b.restore();
      return { a, b, calls, key, dbName };
    }

    it('given two tabs sharing a Web Lock, when both refresh at once, then only one asks the server and the other adopts its session, which stamps', async () => {
      const { locks, seen } = fakeLocks();
      const { a, b, calls, key, dbName } = await twoTabs(locks);
      const [fromA, fromB] = await Promise.all([a.refresh(), b.refresh()]);

      expect(calls).toHaveLength(1);
      expect(seen.requests).toEqual([SESSION_REFRESH_LOCK, SESSION_REFRESH_LOCK]);
      expect(seen.maxHeld).toBe(1);
      expect(fromA!.publicKey).toBe(calls[0]);
      expect(fromB).toEqual(fromA);
      expect(fromA!.publicKey).not.toBe(key.publicKey);
      expect((await indexedDbSessionKeyStore({ dbName }).load())?.publicKey).toBe(calls[0]);
      const activity = createActivityClient({ apiUrl: server.url, fetch: (u, i) => fetch(u, i), auth: () => b.auth() });
      expect((await activity.query('whoami', {})).userId).toBe(server.org.userId);
      a.close();
      b.close();
    });

    it('given no Web Locks, when both tabs refresh at once, then each refreshes on its own and both end with a working session', async () => {
      const { a, b, calls } = await twoTabs(null);
      const [fromA, fromB] = await Promise.all([a.refresh(), b.refresh()]);
      expect(calls).toHaveLength(2);
      expect(new Set([fromA!.publicKey, fromB!.publicKey])).toEqual(new Set(calls));
      a.close();
      b.close();
    });
  });
});
