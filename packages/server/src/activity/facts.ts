/**
 * The facts every stamped request needs, read once and then served from memory while their
 * organizations are unchanged (store/fact-cache.ts, store/change-feed.ts, migration 0009):
 * - who an API key is: the key and its user in the target organization or its parent, with what
 *   authorization asks (proxy user and proxy enabled, root quorum member, the quorum threshold),
 *   and the organizations' versions at that read, which the activity's INSERT checks
 *   (activity-insert.ts) so that an activity never commits on facts another process changed;
 * - the key behind a signature's `signWith` (sealed, as stored: nothing is decrypted here).
 * Passkey and attested stamps, policies and everything a handler reads inside its transaction are
 * read from the database as before.
 */
import { sql } from 'drizzle-orm';
import type { Executor, Store } from '../store/db.js';
import { FactCache, type FactsSeen } from '../store/fact-cache.js';
import type { Caller } from './context.js';
import { resolveSigner, type Signer } from './operations/signers.js';

/** An organization and its `auth_version` when a fact was read. */
export type OrgVersion = readonly [organizationId: string, version: number];

/** An API key matching a stamp, with what authorization needs of its user. */
export interface KeyFacts {
  id: string;
  organizationId: string;
  userId: string;
  publicKey: string;
  /** Milliseconds since the epoch, or null for a key that never expires. */
  expiresAt: number | null;
  isProxy: boolean;
  proxyEnabled: boolean;
  /** Member of the root quorum of its own organization. */
  rootMember: boolean;
  /** Its organization's root quorum threshold. */
  threshold: number;
}

export interface KeyLookup {
  keys: KeyFacts[];
  /** The target organization's version, and its parent's when it has one. */
  versions: OrgVersion[];
}

interface KeyRow {
  id: string;
  organization_id: string;
  user_id: string;
  public_key: string;
  expires_ms: number | null;
  is_proxy: boolean;
  proxy_enabled: boolean;
  root_member: boolean;
  threshold: number;
  target_version: number;
  parent_id: string | null;
  parent_version: number | null;
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * One statement: the keys with this public key and curve in the target organization or its
 * parent (an unknown organization matches nothing), with their users' standing and both
 * organizations' versions.
 */
async function readKeys(db: Executor, organizationId: string, publicKey: string, curve: string): Promise<KeyRow[]> {
  return rowsOf<KeyRow>(
    await db.execute(sql`
      SELECT k.id, k.organization_id, k.user_id, k.public_key,
             (extract(epoch FROM k.expires_at) * 1000)::float8 AS expires_ms,
             u.is_proxy, coalesce(pc.enabled, false) AS proxy_enabled,
             EXISTS (SELECT 1 FROM root_quorum_members r WHERE r.organization_id = k.organization_id AND r.user_id = k.user_id) AS root_member,
             ko.root_quorum_threshold AS threshold,
             t.auth_version::float8 AS target_version,
             t.parent_organization_id AS parent_id,
             p.auth_version::float8 AS parent_version
      FROM organizations t
      LEFT JOIN organizations p ON p.id = t.parent_organization_id
      JOIN api_keys k ON k.public_key = ${publicKey} AND k.curve = ${curve} AND (k.organization_id = t.id OR k.organization_id = p.id)
      JOIN organizations ko ON ko.id = k.organization_id
      JOIN users u ON u.id = k.user_id
      LEFT JOIN proxy_configs pc ON pc.proxy_user_id = u.id
      WHERE t.id = ${organizationId}`),
  );
}

export class Facts {
  readonly cache: FactCache;

  constructor(private readonly store: Pick<Store, 'db' | 'changes' | 'kind'>) {
    this.cache = new FactCache(store.changes);
  }

  /**
   * The keys that may stamp for `organizationId` with this public key (lowercase hex) and curve,
   * and where the change feed stood when they were known current (`seen`, FactCache.getSeen).
   * Nothing found is not kept: an unknown key reads again (and is refused) every time.
   * `beforeRead` runs before the database is read (not for a cached answer): a stamp not yet
   * checked is checked there (stamp-check.ts `StampProof`).
   */
  async apiKey(organizationId: string, publicKey: string, curve: string, beforeRead?: () => Promise<void>): Promise<KeyLookup & { seen?: FactsSeen }> {
    const { value, seen } = await this.cache.getSeen<KeyLookup>(`key|${organizationId}|${curve}|${publicKey}`, async () => {
      await beforeRead?.();
      const rows = await readKeys(this.store.db, organizationId, publicKey, curve);
      const first = rows[0];
      const versions: OrgVersion[] = [];
      if (first) {
        versions.push([organizationId, Number(first.target_version)]);
        if (first.parent_id !== null && first.parent_version !== null) versions.push([first.parent_id, Number(first.parent_version)]);
      }
      const keys = rows.map(
        (r): KeyFacts => ({
          id: r.id,
          organizationId: r.organization_id,
          userId: r.user_id,
          publicKey: r.public_key,
          expiresAt: r.expires_ms === null ? null : Number(r.expires_ms),
          isProxy: r.is_proxy === true,
          proxyEnabled: r.proxy_enabled === true,
          rootMember: r.root_member === true,
          threshold: Number(r.threshold),
        }),
      );
      return { value: { keys, versions }, organizations: versions.map(([o]) => o), keep: keys.length > 0 };
    });
    return seen ? { ...value, seen } : value;
  }

  /**
   * Whether `caller`'s facts are known current without asking the database (decision 0032), which
   * only the embedded database allows. There one process makes every change, its transactions run
   * one at a time on its one connection (held by the caller's transaction while this is asked, so
   * nothing commits until it ends), and it hears of each change of an organization's facts before
   * that commit resolves (change-feed.ts). So if the feed announced no change to the caller's
   * organizations since its facts were known current (`seen`), their versions are still the ones
   * `versions` holds, which is what `walletkit_facts_current` checks (execute.ts). Any move (a real
   * change, or another organization sharing an epoch slot) leaves the check to that statement.
   */
  knownCurrent(caller: Pick<Caller, 'seen'>): boolean {
    return this.store.kind === 'pglite' && caller.seen !== undefined && this.cache.unchangedSince(caller.seen);
  }

  /**
   * The key behind `signWith` in `organizationId` (signers.ts `resolveSigner`), sealed as stored.
   * An account stored before its key was sealed on its own, or a key still sealed with HPKE, is not
   * kept: its first signature stores the key (sealed again), and the next read finds it. `beforeRead` as for `apiKey`.
   * @throws ApiError ERR_WALLET_ACCOUNT_NOT_FOUND
   */
  signer(organizationId: string, signWith: string, beforeRead?: () => Promise<void>): Promise<Signer> {
    return this.cache.get(`signer|${organizationId}|${signWith}`, async () => {
      await beforeRead?.();
      const signer = await resolveSigner(this.store.db, organizationId, signWith);
      return { value: signer, organizations: [organizationId], keep: signer.unsealedAccountId === undefined && signer.hpkeSealed === undefined };
    });
  }
}
