/**
 * What this process knows about committed changes to the facts it caches (migration 0009): every
 * change of an organization's users, keys, quorum, proxy, wallets, accounts or private keys is
 * announced on channel `walletkit_changes` with the organization's id, and lands here as
 * `changed(organizationId)`. A cached fact records the epochs of the organizations it was read
 * from; it is good only while none of them moved (fact-cache.ts).
 *
 * How the announcements arrive:
 * - PGlite: one session, and its own notifications are handed over before the statement (or the
 *   COMMIT) that caused them resolves: a change is known before anyone hears of its success.
 * - PostgreSQL: the trigger also notes the organization in a transaction-local setting
 *   (`walletkit.changed`, migration 0011), and the store's client reads it in the COMMIT's round
 *   trip (prepared.ts `CommitProbe`, round-trips.ts): a commit's own changes are `noted` here
 *   before the COMMIT (or a write outside a transaction) resolves, the same guarantee within this
 *   process. One connection listens all the time for every commit, the other processes' among
 *   them, which arrive moments after theirs. While that connection is down the feed is not `live`:
 *   nothing may be served from a cache, and everything cached before is dropped when it comes back.
 *   Only that one connection listens: PostgreSQL wakes every listening backend at every notifying
 *   commit, whatever their channels (decision 0022).
 *
 * Epochs are counters in a fixed table indexed by a hash of the organization id: two
 * organizations sharing a slot only cost each other a cache miss, and memory stays bounded.
 */

export const CHANGES_CHANNEL = 'walletkit_changes';

/**
 * What a transaction noted (migration 0011): `,id,id,` of the organizations it changed, `*` when
 * too many to list, empty or NULL when none. Read as the commit probe (prepared.ts).
 */
export const CHANGES_NOTED = "SELECT current_setting('walletkit.changed', true)";

const SLOTS = 1 << 16;

/** FNV-1a of the id's UTF-16 code units, to a slot. */
function slotOf(organizationId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < organizationId.length; i++) {
    h ^= organizationId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) & (SLOTS - 1);
}

export class ChangeFeed {
  private readonly epochs = new Uint32Array(SLOTS);
  /** Moves at every change and every reset: a read that spans a move is not cached. */
  private generationValue = 0;
  /** Moves at every reset: everything recorded before is void. */
  private resetsValue = 0;
  private liveValue: boolean;
  /** Called when the feed is needed and not live (PostgreSQL: connect the listener). */
  private readonly wake: (() => void) | undefined;

  /**
   * @param live whether announcements already arrive (PGlite: from the start)
   * @param wake asked to make the feed live when a reader finds it is not
   */
  constructor(opts: { live: boolean; wake?: () => void }) {
    this.liveValue = opts.live;
    this.wake = opts.wake;
  }

  /** Whether every committed change is being heard: only then may a cached fact be used. */
  get live(): boolean {
    if (!this.liveValue) this.wake?.();
    return this.liveValue;
  }

  get generation(): number {
    return this.generationValue;
  }

  get resets(): number {
    return this.resetsValue;
  }

  epochOf(organizationId: string): number {
    return this.epochs[slotOf(organizationId)]!;
  }

  /** A change of `organizationId`'s facts was committed (a notification arrived). */
  changed(organizationId: string): void {
    const slot = slotOf(organizationId);
    this.epochs[slot] = (this.epochs[slot]! + 1) >>> 0;
    this.generationValue++;
  }

  /** What a commit of this process noted ({@link CHANGES_NOTED}): each organization changed, or everything when `*`. */
  noted(value: string | null): void {
    if (!value) return;
    if (value === '*') this.reset();
    else for (const id of value.split(',')) if (id) this.changed(id);
  }

  /** Forget everything (the listener reconnected, or announcements may have been missed). */
  reset(): void {
    this.resetsValue++;
    this.generationValue++;
  }

  /** Announcements arrive (again) from now on; whatever was cached before is dropped. */
  goLive(): void {
    this.reset();
    this.liveValue = true;
  }

  /** Announcements stopped (the listener is down): no cached fact is used until `goLive`. */
  goDead(): void {
    this.liveValue = false;
    this.reset();
  }
}
