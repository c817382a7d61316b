/**
 * The embedded database's autovacuum (store/maintenance.ts, decision 0028): PGlite's single-user
 * PostgreSQL starts none, so the server vacuums and analyzes what autovacuum's rules find due.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '../src/admin/organizations';
import { newId } from '../src/store/ids';
import { checkpointDue, maintain, startMaintenance, tablesDue, type MaintenancePass } from '../src/store/maintenance';
import { otps } from '../src/store/schema';
import { openTestStore, storeKinds, type TestStore } from './support/stores';

interface TableStats {
  n_live_tup: number;
  n_dead_tup: number;
  vacuum_count: number;
  analyze_count: number;
  autovacuum_count: number;
}

/** The otps table's statistics, as flushed now (stats reach the views at the next statement after a flush). */
async function otpStats(store: TestStore): Promise<TableStats> {
  await store.query({ text: 'SELECT pg_stat_force_next_flush()', values: [] });
  await store.query({ text: 'SELECT 1', values: [] });
  const [row] = await store.query<TableStats>({
    text: `SELECT n_live_tup::int, n_dead_tup::int, vacuum_count::int, analyze_count::int, autovacuum_count::int
           FROM pg_stat_user_tables WHERE relname = 'otps'`,
    values: [],
  });
  return row!;
}

/** 200 codes, each then updated five times (a code's attempts): 1,000 dead row versions. */
async function churn(store: TestStore, organizationId: string): Promise<void> {
  const now = new Date();
  await store.db.insert(otps).values(
    Array.from({ length: 200 }, (_, i) => ({
      id: `churn-${i}-${newId()}`,
      organizationId,
      otpType: 'OTP_TYPE_EMAIL' as const,
      contact: `c${i}@example.com`,
      codeMac: '00',
      targetPublicKey: '04',
      targetPrivateKeyEncrypted: { encappedPublic: '', ciphertext: '' },
      maxAttempts: 100,
      expiresAt: new Date(now.getTime() + 600_000),
      createdAt: now,
    })),
  );
  for (let i = 0; i < 5; i++) await store.query({ text: 'UPDATE otps SET attempts = attempts + 1', values: [] });
}

describe('the embedded database vacuums itself (PGlite)', () => {
  let store: TestStore;
  let organizationId: string;
  beforeAll(async () => {
    store = await openTestStore('pglite');
    ({ organizationId } = await createOrganization(store, { name: 'maintenance' }));
  });
  afterAll(() => store?.dispose());

  it('given dead rows past autovacuum threshold and no autovacuum (single-user mode), when a pass runs, then the table is vacuumed and analyzed and its dead rows are gone', async () => {
    await churn(store, organizationId);
    const before = await otpStats(store);
    // The single-user backend never vacuums on its own: the dead versions stay (but for the few
    // that page pruning took while updating).
    expect(before.n_dead_tup).toBeGreaterThanOrEqual(500);
    expect(before.autovacuum_count).toBe(0);
    expect(await tablesDue(store)).toContainEqual({ name: 'public.otps', vacuum: true, analyze: true });

    const pass = await maintain(store);
    expect(pass.vacuumed).toContain('public.otps');
    expect(pass.analyzed).toContain('public.otps');
    const after = await otpStats(store);
    expect(after.n_dead_tup).toBe(0);
    expect(after.n_live_tup).toBe(before.n_live_tup);
    expect(after.vacuum_count).toBe(before.vacuum_count + 1);
    expect(after.analyze_count).toBe(before.analyze_count + 1);
    // Nothing is due right after: the next pass costs only the lookup.
    expect((await tablesDue(store)).map((t) => t.name)).not.toContain('public.otps');
  });

  it('given the space a vacuum frees, when the same churn repeats, then the table reuses it, and without the passes it grows at every round', async () => {
    const size = async () => Number((await store.query<{ size: string }>({ text: `SELECT pg_relation_size('otps')::text AS size`, values: [] }))[0]!.size);
    const round = async (vacuum: boolean) => {
      await store.query({ text: 'DELETE FROM otps', values: [] });
      if (vacuum) {
        await otpStats(store);
        await maintain(store);
      }
      await churn(store, organizationId);
      return size();
    };
    const first = await round(true);
    for (let i = 0; i < 3; i++) expect(await round(true)).toBeLessThanOrEqual(first);
    // The same rounds without a pass: nothing is reclaimed, every round adds its rows' pages.
    const unvacuumed = [await round(false), await round(false), await round(false)];
    expect(unvacuumed[1]).toBeGreaterThan(unvacuumed[0]!);
    expect(unvacuumed[2]).toBeGreaterThan(unvacuumed[1]!);
  });

  it('given frozen ids, when a pass runs, then the database age stays far from wraparound', async () => {
    await maintain(store);
    const [row] = await store.query<{ age: number; limit: number }>({
      text: `SELECT age(datfrozenxid)::int AS age, current_setting('autovacuum_freeze_max_age')::int AS limit FROM pg_database WHERE datname = current_database()`,
      values: [],
    });
    expect(row!.age).toBeLessThan(row!.limit);
  });

  it('given the running timer, when stopped, then passes ran on their own and none is left under way', async () => {
    await churn(store, organizationId);
    await otpStats(store);
    const passes: MaintenancePass[] = [];
    const errors: unknown[] = [];
    const stop = startMaintenance(
      store,
      (p) => passes.push(p),
      (e) => errors.push(e),
      50,
    );
    const deadline = Date.now() + 10_000;
    while (!passes.some((p) => p.vacuumed.includes('public.otps')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await stop();
    expect(errors).toEqual([]);
    expect(passes.some((p) => p.vacuumed.includes('public.otps'))).toBe(true);
    const count = passes.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(passes.length).toBe(count);
  });
});

describe('on PostgreSQL the server leaves it to autovacuum', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore('postgres');
  });
  afterAll(() => store?.dispose());

  it('given PostgreSQL, when a pass or the timer runs, then nothing is due and no statement is sent', async () => {
    const sent: string[] = [];
    const spy = {
      kind: store.kind,
      query: async <T>(s: { text: string; values: unknown[] }) => {
        sent.push(s.text);
        return store.query<T>(s);
      },
    };
    expect(await tablesDue(spy)).toEqual([]);
    expect(await maintain(spy)).toMatchObject({ vacuumed: [], analyzed: [] });
    const stop = startMaintenance(
      spy,
      () => {},
      () => {},
      10,
    );
    await new Promise((r) => setTimeout(r, 100));
    await stop();
    expect(sent).toEqual([]);
  });
});

describe.each(storeKinds)('what ANALYZE samples on %s (migration 0012)', (kind) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore(kind);
  });
  afterAll(() => store?.dispose());

  it('given the migrations, when the statistics targets are read, then only the columns queries filter by are analyzed', async () => {
    const rows = await store.query<{ table: string; column: string; target: number | null }>({
      text: `SELECT c.relname AS table, a.attname AS column, a.attstattarget::int AS target
             FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
             WHERE c.relname IN ('activities', 'otps') AND a.attnum > 0 AND NOT a.attisdropped ORDER BY 1, 2`,
      values: [],
    });
    const analyzed = (table: string) => rows.filter((r) => r.table === table && r.target !== 0).map((r) => r.column);
    expect(analyzed('activities')).toEqual(['created_at', 'organization_id', 'status', 'type']);
    expect(analyzed('otps')).toEqual(['attempts', 'contact', 'created_at', 'expires_at', 'id', 'max_attempts', 'organization_id', 'otp_type', 'used_at']);
  });
});

describe('the embedded database checkpoints itself (PGlite)', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore('pglite');
    await store.query({ text: 'CREATE TABLE wal_churn (id serial PRIMARY KEY, v text)', values: [] });
  });
  afterAll(() => store?.dispose());

  const MiB = 2 ** 20;
  /** About `mib` MiB of WAL: rows of 1 KiB. */
  const writeWal = (mib: number) =>
    store.query({ text: `INSERT INTO wal_churn (v) SELECT repeat('x', 1024) FROM generate_series(1, $1::int)`, values: [mib * 900] });
  const state = async () =>
    (
      await store.query<{ redo: string; insert: string; segments: number }>({
        text: `SELECT c.redo_lsn::text AS redo, pg_current_wal_insert_lsn()::text AS insert, (SELECT count(*)::int FROM pg_ls_waldir()) AS segments
               FROM pg_control_checkpoint() c`,
        values: [],
      })
    )[0]!;
  const lsnDiff = async (a: string, b: string) =>
    Number((await store.query<{ d: string }>({ text: 'SELECT pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn)::text AS d', values: [a, b] }))[0]!.d);

  it('given a running single-user backend, when WAL is written, then it never checkpoints on its own and the WAL to replay only grows', async () => {
    const before = await state();
    await writeWal(8);
    await writeWal(8);
    const after = await state();
    expect(after.redo).toBe(before.redo);
    expect(await lsnDiff(after.insert, after.redo)).toBeGreaterThan(16 * MiB);
  });

  it('given WAL past the limit since the last redo point, when a pass runs, then it checkpoints: the redo point moves to the end of the WAL and the segments before it are reused', async () => {
    const limits = { walBytes: 4 * MiB };
    await writeWal(6);
    const before = await state();
    expect(await checkpointDue(store, limits)).toBe('wal');
    const pass = await maintain(store, limits);
    expect(pass.checkpoint).toBe('wal');
    const after = await state();
    // Nothing before the pass is needed for recovery any more.
    expect(await lsnDiff(after.redo, before.insert)).toBeGreaterThanOrEqual(0);
    expect(await checkpointDue(store, limits)).toBeNull();
    // Round after round with a pass between them, pg_wal stops growing: old segments are recycled.
    // A checkpoint keeps recycled files ahead up to min_wal_size, or up to its estimate of the WAL
    // between two checkpoints when that is more (PostgreSQL's XLOGfileslop: 1.1 x (1 +
    // checkpoint_completion_target) x the estimate, which is at most the longest distance seen),
    // so pg_wal may grow to that and no further, however much WAL is written. A pass's own VACUUM of
    // the churned table (when the statistics find it due) can write a burst of WAL in one round.
    const setting = async (name: string) =>
      Number((await store.query<{ v: string }>({ text: 'SELECT setting AS v FROM pg_settings WHERE name = $1', values: [name] }))[0]!.v);
    const segment = await setting('wal_segment_size'); // bytes
    const minWal = (await setting('min_wal_size')) * MiB; // min_wal_size is in MB
    const spread = 1.1 * (1 + (await setting('checkpoint_completion_target')));
    const start = (await state()).insert;
    const rounds: Array<{ segments: number; bound: number }> = [];
    let longest = 0;
    let redo = (await state()).redo;
    while ((await lsnDiff((await state()).insert, start)) < minWal + 4 * segment) {
      await writeWal(6);
      expect((await maintain(store, limits)).checkpoint).toBe('wal');
      const now = await state();
      longest = Math.max(longest, await lsnDiff(now.redo, redo));
      redo = now.redo;
      rounds.push({ segments: now.segments, bound: Math.max(minWal, spread * longest) + 2 * segment });
    }
    for (const round of rounds) expect(round.segments * segment).toBeLessThanOrEqual(round.bound);
  });

  it('given the checkpoint timeout passed, when a pass runs, then it checkpoints only if WAL was written since the last checkpoint', async () => {
    const limits = { walBytes: 1024 * MiB, timeoutSeconds: 0 };
    // The statistics of the writes before reach the counters late (a backend flushes them at the
    // end of a transaction, at most once a second), and a pass that then finds a table due writes
    // WAL with its VACUUM or ANALYZE (a timed checkpoint is due again, rightly). Let them arrive
    // (a statement after the second), and settle the tables before judging a pass with nothing to do.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await store.query({ text: 'SELECT 1', values: [] });
    for (let i = 0; i < 5; i += 1) {
      const pass = await maintain(store, limits);
      if (pass.vacuumed.length === 0 && pass.analyzed.length === 0) break;
    }
    // Nothing written since: a timed checkpoint is skipped.
    expect(await checkpointDue(store, limits)).toBeNull();
    expect((await maintain(store, limits)).checkpoint).toBeNull();
    await writeWal(1);
    expect(await checkpointDue(store, limits)).toBe('time');
    // Within the timeout nothing is due.
    expect(await checkpointDue(store, { ...limits, timeoutSeconds: 3600 })).toBeNull();
    const redo = (await state()).redo;
    expect((await maintain(store, limits)).checkpoint).toBe('time');
    expect((await state()).redo).not.toBe(redo);
  });

  it("given the database's own settings, when a pass runs after little WAL, then nothing is due (max_wal_size and checkpoint_timeout decide)", async () => {
    await maintain(store, { timeoutSeconds: 0 });
    await writeWal(1);
    expect(await checkpointDue(store)).toBeNull();
  });
});
