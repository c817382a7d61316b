/**
 * Two writers of one API key at once: `create_api_keys` reads that no key of the organization
 * holds the public key, and another transaction commits that key before its INSERT lands. The
 * organization's unique index refuses the INSERT; the refusal must be the one a caller gets when
 * the key was there before (409 ERR_ALREADY_EXISTS naming `apiKeys.<i>.publicKey`), stored, so
 * that a replay of the body answers the same. PostgreSQL only: the embedded database runs one
 * transaction at a time, so its second writer always sees the first's key.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateP256KeyPair } from '@walletkit/crypto';
import { newId } from '../src/store/ids';
import { apiKeys } from '../src/store/schema';
import { startTestServer, type TestServer } from './support/harness';
import { expectError } from './support/members';

/** Resolves once some backend of the database waits for a lock (the racing INSERT on the unique index). */
async function someoneWaitsForALock(server: TestServer): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const res = (await server.store.db.execute(
      sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    )) as unknown as { rows: Array<{ n: number }> };
    if (res.rows[0]!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no backend waited for a lock within 10 s');
}

describe('create_api_keys racing another writer of its key (postgres)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('postgres');
  });
  afterAll(async () => server?.dispose());

  it('given a key committed between its check and its INSERT, when create_api_keys lands, then 409 ERR_ALREADY_EXISTS names the key, and a replay answers the same', async () => {
    const key = generateP256KeyPair();
    const other = generateP256KeyPair();
    const params = {
      userId: server.org.userId,
      apiKeys: [
        { apiKeyName: 'first', publicKey: other.publicKey, curveType: 'API_KEY_CURVE_P256' as const },
        { apiKeyName: 'racing', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' as const },
      ],
    };
    const timestampMs = String(Date.now());
    let reply: Awaited<ReturnType<TestServer['client']['submit']>> | undefined;
    // The other writer: its row is in the index, uncommitted, while the activity checks and inserts.
    await server.store.transaction(async (tx) => {
      await tx.insert(apiKeys).values({
        id: newId(),
        organizationId: server.org.organizationId,
        userId: server.org.userId,
        name: 'the other writer',
        publicKey: key.publicKey,
        curve: 'API_KEY_CURVE_P256',
        isSession: false,
        createdAt: new Date(),
      });
      const submitted = server.client.submit('create_api_keys', params, { timestampMs }).then((r) => {
        reply = r;
      });
      await Promise.race([someoneWaitsForALock(server), submitted]);
      // The activity's INSERT waits on the index for this transaction: it has not answered.
      expect(reply).toBeUndefined();
      // Committed by returning; the activity's INSERT then fails on the unique index.
      void submitted;
    });
    await new Promise<void>((resolve) => {
      const wait = () => (reply ? resolve() : setTimeout(wait, 10));
      wait();
    });
    expectError(reply!, 409, 'ERR_ALREADY_EXISTS', 'apiKeys.1.publicKey');
    // Nothing of the refused activity stayed: the other key of its body was not written.
    const kept = (await server.store.db.execute(
      sql`select count(*)::int as n from api_keys where organization_id = ${server.org.organizationId} and public_key in (${other.publicKey}, ${key.publicKey})`,
    )) as unknown as { rows: Array<{ n: number }> };
    expect(kept.rows[0]!.n).toBe(1);
    // The refusal is stored: the same body answers the same, field included.
    expectError(await server.client.submit('create_api_keys', params, { timestampMs }), 409, 'ERR_ALREADY_EXISTS', 'apiKeys.1.publicKey');
  });
});
