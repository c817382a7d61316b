/**
 * Identifiers (DESIGN section 2, "IDs"): UUID v4 by default, UUID v7 where ordering helps
 * (activities, anything listed by creation time).
 */

/** A random UUID v4, lowercase, e.g. `3b241101-e2bb-4255-8caf-4136c566a962`. */
export function newId(): string {
  return globalThis.crypto.randomUUID();
}

let lastMs = -1;
let lastSeq = 0;

/**
 * A UUID v7 (RFC 9562): 48-bit Unix milliseconds, then randomness. Ids from this process are
 * strictly increasing (as strings and as bytes) even within one millisecond: the 12-bit
 * `rand_a` field is a counter seeded randomly each millisecond (RFC 9562 section 6.2,
 * method 3); when it would overflow, the timestamp is advanced by one millisecond.
 *
 * The randomness is a v4 UUID's (its first 11 bits seed the counter; its variant and last 62
 * bits are this id's `var` and `rand_b` as they stand): Node draws those from a cached block of
 * random bytes, where a `getRandomValues` call per id was a system call per activity.
 */
export function newSortableId(): string {
  const random = globalThis.crypto.randomUUID(); // xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx
  let ms = Date.now();
  if (ms > lastMs) {
    lastMs = ms;
    lastSeq = Number.parseInt(random.slice(0, 3), 16) & 0x7ff; // start in the lower half, leaving room to count up
  } else {
    // Same millisecond, or the clock went backwards: keep counting from the last id.
    ms = lastMs;
    lastSeq += 1;
    if (lastSeq > 0xfff) {
      lastMs += 1;
      ms = lastMs;
      lastSeq = Number.parseInt(random.slice(0, 3), 16) & 0x7ff;
    }
  }
  // 48-bit big-endian timestamp (ms < 2^48 until the year 10889), version 7 and the counter.
  const time = ms.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8)}-${(0x7000 | lastSeq).toString(16)}-${random.slice(19)}`;
}

/** Milliseconds since the epoch encoded in a UUID v7 (for tests and debugging). */
export function sortableIdTime(id: string): number {
  const hex = id.replace(/-/g, '').slice(0, 12);
  return parseInt(hex, 16);
}
