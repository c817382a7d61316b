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
 */
export function newSortableId(): string {
  let ms = Date.now();
  if (ms > lastMs) {
    lastMs = ms;
    lastSeq = randomInt(0x800); // start in the lower half, leaving room to count up
  } else {
    // Same millisecond, or the clock went backwards: keep counting from the last id.
    ms = lastMs;
    lastSeq += 1;
    if (lastSeq > 0xfff) {
      lastMs += 1;
      ms = lastMs;
      lastSeq = randomInt(0x800);
    }
  }
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  // 48-bit big-endian timestamp (ms < 2^48 until the year 10889).
  const hi = Math.floor(ms / 0x1_0000_0000);
  const lo = ms >>> 0;
  bytes[0] = (hi >>> 8) & 0xff;
  bytes[1] = hi & 0xff;
  bytes[2] = (lo >>> 24) & 0xff;
  bytes[3] = (lo >>> 16) & 0xff;
  bytes[4] = (lo >>> 8) & 0xff;
  bytes[5] = lo & 0xff;
  bytes[6] = 0x70 | ((lastSeq >>> 8) & 0x0f); // version 7 + rand_a high bits
  bytes[7] = lastSeq & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f); // variant 10
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Milliseconds since the epoch encoded in a UUID v7 (for tests and debugging). */
export function sortableIdTime(id: string): number {
  const hex = id.replace(/-/g, '').slice(0, 12);
  return parseInt(hex, 16);
}

function randomInt(bound: number): number {
  const buf = new Uint32Array(1);
  globalThis.crypto.getRandomValues(buf);
  return buf[0]! % bound;
}
