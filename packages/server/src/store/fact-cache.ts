/**
 * Facts read from the database, kept while the organizations they were read from stay unchanged
 * (store/change-feed.ts): an entry records the epoch of each of its organizations and is good
 * only while none of them moved and the feed stayed live. A read that spans any announced change
 * is used for its own request and not kept, so a change can never be overwritten by an older
 * read. Never holds plaintext secrets: sealed keys stay sealed (activity/facts.ts).
 */
import type { ChangeFeed } from './change-feed.js';

/** What a loader read, and the organizations whose changes make it stale. */
export interface Fill<T> {
  value: T;
  organizations: readonly string[];
  /** False for a value not worth keeping (nothing found: a refusal reads again). Default true. */
  keep?: boolean;
}

/**
 * Where the change feed stood for a value's organizations when the value was known current: their
 * epochs and the feed's resets. {@link FactCache.unchangedSince} tells whether any of them moved
 * since (the embedded database's in-memory guard, execute.ts).
 */
export interface FactsSeen {
  readonly organizations: readonly string[];
  readonly epochs: readonly number[];
  readonly resets: number;
}

interface Entry extends FactsSeen {
  value: unknown;
}

/** Entries kept at most (least recently used dropped first). */
export const DEFAULT_CAPACITY = 50_000;

export class FactCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    readonly feed: ChangeFeed,
    private readonly capacity = DEFAULT_CAPACITY,
  ) {}

  /** Whether no change to `seen`'s organizations was announced since it was taken, and the feed stayed live (no reset). */
  unchangedSince(seen: FactsSeen): boolean {
    if (!this.feed.live || seen.resets !== this.feed.resets) return false;
    for (let i = 0; i < seen.organizations.length; i++) {
      if (this.feed.epochOf(seen.organizations[i]!) !== seen.epochs[i]) return false;
    }
    return true;
  }

  /**
   * The value of `key`: cached while good, otherwise `load()`ed (and kept if no change was
   * announced while it read). With the feed not live every call loads.
   * @example const signer = await cache.get(`signer|${org}|${address}`, async () => ({ value: await read(), organizations: [org] }));
   */
  async get<T>(key: string, load: () => Promise<Fill<T>>): Promise<T> {
    return (await this.getSeen(key, load)).value;
  }

  /**
   * `get`, with where the feed stood when the value was known current (`seen`): a kept entry's, or
   * after a read that no announced change spanned, the feed's then. Without `seen` (a read that a
   * change spanned, or the feed not live) nothing is known beyond the value itself.
   */
  async getSeen<T>(key: string, load: () => Promise<Fill<T>>): Promise<{ value: T; seen?: FactsSeen }> {
    const feed = this.feed;
    if (!feed.live) return { value: (await load()).value };
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      if (this.unchangedSince(hit)) {
        this.entries.set(key, hit); // most recently used last
        return { value: hit.value as T, seen: hit };
      }
    }
    const generation = feed.generation;
    const fill = await load();
    if (feed.generation !== generation || !feed.live) return { value: fill.value };
    const seen: FactsSeen = { organizations: fill.organizations, epochs: fill.organizations.map((o) => feed.epochOf(o)), resets: feed.resets };
    if (fill.keep !== false) {
      this.entries.set(key, { value: fill.value, ...seen });
      if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    }
    return { value: fill.value, seen };
  }

  /** How many entries are kept (tests, diagnostics). */
  get size(): number {
    return this.entries.size;
  }
}
