import { describe, expect, it } from 'vitest';
import { newId, newSortableId, sortableIdTime } from '../src/store/ids';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-([0-9a-f])[0-9a-f]{3}-([0-9a-f])[0-9a-f]{3}-[0-9a-f]{12}$/;

describe('ids', () => {
  it('newId is a random UUID v4', () => {
    const ids = Array.from({ length: 1000 }, newId);
    for (const id of ids) {
      const m = UUID.exec(id);
      expect(m, id).not.toBeNull();
      expect(m![1]).toBe('4');
      expect('89ab').toContain(m![2]);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('newSortableId is a UUID v7 carrying the current time', () => {
    const before = Date.now();
    const id = newSortableId();
    const after = Date.now();
    const m = UUID.exec(id);
    expect(m, id).not.toBeNull();
    expect(m![1]).toBe('7');
    expect('89ab').toContain(m![2]);
    expect(sortableIdTime(id)).toBeGreaterThanOrEqual(before);
    expect(sortableIdTime(id)).toBeLessThanOrEqual(after + 1);
  });

  it('newSortableId strictly increases, also many within one millisecond', () => {
    const ids = Array.from({ length: 20_000 }, newSortableId);
    for (let i = 1; i < ids.length; i++) {
      if (!(ids[i - 1]! < ids[i]!)) throw new Error(`not increasing at ${i}: ${ids[i - 1]} then ${ids[i]}`);
    }
    for (const id of ids) expect(UUID.exec(id)?.[1]).toBe('7');
    // the counter overflow borrows at most a little from the future
    expect(sortableIdTime(ids.at(-1)!)).toBeLessThan(Date.now() + 1000);
  });
});
