/**
 * Group commit of activities completed outside a transaction (src/activity/completed-writer.ts),
 * on both databases: rows arriving together are stored by shared INSERTs, each caller learns
 * whether its own row was stored, a copy with a stored fingerprint is not, and a row that breaks
 * a constraint fails alone.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { CompletedWriter } from '../src/activity/completed-writer';
import { activities, organizations } from '../src/store/schema';
import { openTestStore, storeKinds, type TestStore } from './support/stores';

function row(organizationId: string, fingerprint: string) {
  const now = new Date();
  return {
    id: randomUUID(),
    organizationId,
    type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS',
    status: 'ACTIVITY_STATUS_COMPLETED',
    fingerprint,
    timestampMs: String(now.getTime()),
    userId: 'u',
    intent: {},
    result: { ok: fingerprint },
    createdAt: now,
    updatedAt: now,
  };
}

describe.each(storeKinds)('CompletedWriter on %s', (kind) => {
  let store: TestStore | undefined;
  afterEach(async () => {
    await store?.dispose();
    store = undefined;
  });

  it('given 60 rows at once, 10 of them copies of stored fingerprints and one of an unknown organization, when written, then the 49 new rows are stored, the copies answer undefined and only the bad row fails', async () => {
    store = await openTestStore(kind);
    const org = randomUUID();
    await store.db.insert(organizations).values({ id: org, name: 'writer' });
    const writer = new CompletedWriter(store);
    await writer.write(row(org, 'sha256:stored-0'));
    const rows = Array.from({ length: 60 }, (_, i) => (i < 10 ? row(org, `sha256:stored-${i % 1}`) : row(org, `sha256:fresh-${i}`)));
    rows[59] = row(randomUUID(), 'sha256:orphan');

    const outcomes = await Promise.allSettled(rows.map((r) => writer.write(r)));

    const stored = outcomes.map((o, i) => (o.status === 'fulfilled' ? o.value?.id === rows[i]!.id : o.status));
    expect(stored.slice(0, 10)).toEqual(Array(10).fill(false));
    expect(stored.slice(10, 59)).toEqual(Array(49).fill(true));
    expect(outcomes[59]!.status).toBe('rejected');
    const inDb = await store.db.select({ fingerprint: activities.fingerprint }).from(activities).where(eq(activities.organizationId, org));
    expect(inDb).toHaveLength(50);
  });
});
