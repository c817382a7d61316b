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

interface Entry {
  value: unknown;
  organizations: readonly string[];
  epochs: number[];
  resets: number;
}

/** Entries kept at most (least recently used dropped first). */
export const DEFAULT_CAPACITY = 50_000;

export class FactCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    readonly feed: ChangeFeed,
    private readonly capacity = DEFAULT_CAPACITY,
  ) {}

  private good(entry: Entry): boolean {
    if (entry.resets !== this.feed.resets) return false;
    for (let i = 0; i < entry.organizations.length; i++) {
      if (this.feed.epochOf(entry.organizations[i]!) !== entry.epochs[i]) return false;
    }
    return true;
  }

  /**
   * The value of `key`: cached while good, otherwise `load()`ed (and kept if no change was
   * announced while it read). With the feed not live every call loads.
   * @example const signer = await cache.get(`signer|${org}|${address}`, async () => ({ value: await read(), organizations: [org] }));
   */
  async get<T>(key: string, load: () => Promise<Fill<T>>): Promise<T> {
    const feed = this.feed;
    if (!feed.live) return (await load()).value;
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      if (this.good(hit)) {
        this.entries.set(key, hit); // most recently used last
        return hit.value as T;
      }
    }
    const generation = feed.generation;
    const fill = await load();
    if (fill.keep !== false && feed.generation === generation && feed.live) {
      this.entries.set(key, {
        value: fill.value,
        organizations: fill.organizations,
        epochs: fill.organizations.map((o) => feed.epochOf(o)),
        resets: feed.resets,
      });
      if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    }
    return fill.value;
  }

  /** How many entries are kept (tests, diagnostics). */
  get size(): number {
    return this.entries.size;
  }
}
