/**
 * The fact cache on its own (src/store/fact-cache.ts, src/store/change-feed.ts): an entry is served
 * only while the organizations it was read from are unchanged and the feed is live; a read that
 * spans a change is used once and not kept; a reset drops everything.
 */
import { describe, expect, it } from 'vitest';
import { ChangeFeed } from '../src/store/change-feed';
import { FactCache } from '../src/store/fact-cache';

function counter(feed = new ChangeFeed({ live: true })) {
  const cache = new FactCache(feed, 3);
  let loads = 0;
  const get = (key: string, organizations: string[], value: unknown = key) =>
    cache.get(key, async () => {
      loads++;
      return { value, organizations };
    });
  return { feed, cache, get, loads: () => loads };
}

describe('FactCache', () => {
  it('given a kept fact, when its organization changes, then the next read loads it again and another organization is unaffected', async () => {
    const c = counter();
    await c.get('a', ['org-a']);
    await c.get('b', ['org-b']);
    await c.get('a', ['org-a']);
    expect(c.loads()).toBe(2);
    c.feed.changed('org-a');
    await c.get('a', ['org-a']);
    await c.get('b', ['org-b']);
    expect(c.loads()).toBe(3);
  });

  it('given a fact read from two organizations, when either changes, then it is stale', async () => {
    const c = counter();
    await c.get('k', ['sub', 'parent']);
    c.feed.changed('parent');
    await c.get('k', ['sub', 'parent']);
    expect(c.loads()).toBe(2);
    c.feed.changed('sub');
    await c.get('k', ['sub', 'parent']);
    expect(c.loads()).toBe(3);
  });

  it('given a change announced while a fact is being read, when the read ends, then its value is answered once and not kept', async () => {
    const feed = new ChangeFeed({ live: true });
    const cache = new FactCache(feed);
    let loads = 0;
    const slow = () =>
      cache.get('k', async () => {
        loads++;
        const value = loads;
        if (loads === 1) feed.changed('org');
        return { value, organizations: ['org'] };
      });
    expect(await slow()).toBe(1);
    expect(await slow()).toBe(2);
    expect(await slow()).toBe(2);
  });

  it('given a feed that is not live, when facts are read, then every read loads and nothing is kept until it goes live, which drops what came before', async () => {
    const c = counter(new ChangeFeed({ live: false }));
    await c.get('k', ['org']);
    await c.get('k', ['org']);
    expect(c.loads()).toBe(2);
    expect(c.cache.size).toBe(0);
    c.feed.goLive();
    await c.get('k', ['org']);
    await c.get('k', ['org']);
    expect(c.loads()).toBe(3);
    c.feed.goDead();
    await c.get('k', ['org']);
    c.feed.goLive();
    await c.get('k', ['org']);
    expect(c.loads()).toBe(5);
  });

  it('given a value not worth keeping or a failing read, when read twice, then it loads twice and the error is not kept', async () => {
    const feed = new ChangeFeed({ live: true });
    const cache = new FactCache(feed);
    let loads = 0;
    const missing = () =>
      cache.get('m', async () => {
        loads++;
        return { value: undefined, organizations: [], keep: false };
      });
    await missing();
    await missing();
    expect(loads).toBe(2);
    const failing = () =>
      cache.get('f', async () => {
        loads++;
        throw new Error('not found');
      });
    await expect(failing()).rejects.toThrow('not found');
    await expect(failing()).rejects.toThrow('not found');
    expect(loads).toBe(4);
  });

  it('given more facts than its capacity, when one more is kept, then the least recently used goes', async () => {
    const c = counter();
    await c.get('a', ['o']);
    await c.get('b', ['o']);
    await c.get('c', ['o']);
    await c.get('a', ['o']); // a is now the most recent
    await c.get('d', ['o']); // b goes
    expect(c.cache.size).toBe(3);
    expect(c.loads()).toBe(4);
    await c.get('a', ['o']);
    await c.get('c', ['o']);
    expect(c.loads()).toBe(4);
    await c.get('b', ['o']);
    expect(c.loads()).toBe(5);
  });
});
