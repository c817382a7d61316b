/**
 * The one INSERT that stores an activity, guarded: each row is written only if the organizations
 * its caller's facts were read from still have the versions they had then (facts.ts,
 * migration 0009). A row the guard holds back is `stale`: its request is authenticated and
 * authorized again on fresh facts (`StaleFacts`, plugin.ts), so no activity commits on facts that
 * another server process changed after they were cached. Rows are written in one statement,
 * several at once for the group commit (completed-writer.ts). An activity run in a transaction is
 * checked by {@link factsCurrent} before its handler's statements instead, and written once at its
 * end without a guard (execute.ts).
 *
 * The INSERT's texts are written out by hand and run straight on the driver, so no drizzle
 * template is rendered per statement: a row per VALUES tuple, in a transaction
 * (`insertActivities`, which raises on a stored fingerprint; the one row of an activity run in its
 * transaction, already checked, through a text without the guard) and for the group commit
 * (`groupCommitInsert`, which skips it; named, so that each text is parsed and planned once per
 * connection, a prepared statement). Up to {@link VALUES_ROWS} rows the group commit uses that
 * VALUES form, a text (and a prepared statement) per row count: the database executes it about
 * twice as fast as the alternative for the one to a few rows a batch holds (PGlite runs it on the
 * event loop). Larger batches send one array per column, unnested by the database, under one text
 * whatever their size (A/B figures in decision 0022).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Executor, RawStatement } from '../store/db.js';
import { runRaw } from '../store/statements.js';
import type { activities } from '../store/schema.js';
import type { OrgVersion } from './facts.js';

export type ActivityRow = typeof activities.$inferSelect;

/** A complete activity row as it will be stored, and the versions it depends on. */
export interface GuardedRow {
  row: ActivityRow;
  /** At most two (the target organization and its parent); none for an unguarded row. */
  guard: readonly OrgVersion[];
}

/**
 * Thrown when an activity's facts changed after they were read (the guard held its row back):
 * nothing of the request was stored; it runs again from authentication.
 */
export class StaleFacts extends Error {
  constructor(
    readonly organizations: readonly string[],
    options?: ErrorOptions,
  ) {
    super('the facts of this request changed while it ran', options);
    this.name = 'StaleFacts';
  }
}

/** The SQLSTATE with which `walletkit_facts_current` (migration 0010) says the facts moved. */
export const STALE_FACTS_SQLSTATE = 'WK001';

/**
 * The guard of an activity run in a transaction as a statement of its own (migration 0010): it
 * answers nothing and raises {@link STALE_FACTS_SQLSTATE} when an organization of `guard` no
 * longer has its version. Held for the transaction's next statement (`sendWithNext`), so it costs
 * no round trip.
 */
export function factsCurrent(guard: readonly OrgVersion[]): SQL {
  const [g1Org, g1Version, g2Org, g2Version] = guardValues(guard);
  return sql`SELECT walletkit_facts_current(${g1Org}, ${g1Version}::bigint, ${g2Org}, ${g2Version}::bigint)`;
}

/** A guard's up to two organizations and versions as the statements take them (absent ones NULL). */
function guardValues(guard: readonly OrgVersion[]): [string | null, string | null, string | null, string | null] {
  if (guard.length > 2) throw new Error('an activity depends on at most two organizations');
  const [g1, g2] = guard;
  return [g1?.[0] ?? null, g1 ? String(g1[1]) : null, g2?.[0] ?? null, g2 ? String(g2[1]) : null];
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

/** The stored columns, in `rowValues`' order (its guard's four values follow them). */
const STORED_COLUMNS = 14;
const INSERT_HEAD = `
    INSERT INTO activities (id, organization_id, type, status, fingerprint, timestamp_ms, user_id, intent, result, app_proofs, generate_app_proofs, failure, created_at, updated_at)`;

/** The guarded texts' head: the stored columns, selected from the rows `v`. */
const INTO = `${INSERT_HEAD}
    SELECT v.id, v.organization_id, v.type, v.status, v.fingerprint, v.timestamp_ms, v.user_id, v.intent, v.result, v.app_proofs, v.generate_app_proofs, v.failure, v.created_at, v.updated_at`;

/** Both texts' names of the rows' columns (`rowValues`' order), and the guard each row must pass. */
const AS_GUARDED = `AS v(id, organization_id, type, status, fingerprint, timestamp_ms, user_id, intent, result, app_proofs, generate_app_proofs, failure, created_at, updated_at, g1_org, g1_version, g2_org, g2_version)
    WHERE (v.g1_org IS NULL OR EXISTS (SELECT 1 FROM organizations o WHERE o.id = v.g1_org AND o.auth_version = v.g1_version))
      AND (v.g2_org IS NULL OR EXISTS (SELECT 1 FROM organizations o WHERE o.id = v.g2_org AND o.auth_version = v.g2_version))`;

/** A row's values in the INSERT's column order, then its guard's (up to two organizations and versions). */
function rowValues({ row, guard }: GuardedRow): unknown[] {
  return [
    row.id,
    row.organizationId,
    row.type,
    row.status,
    row.fingerprint,
    row.timestampMs,
    row.userId,
    json(row.intent),
    json(row.result),
    json(row.appProofs),
    row.generateAppProofs,
    json(row.failure),
    row.createdAt.toISOString(),
    row.updatedAt.toISOString(),
    ...guardValues(guard),
  ];
}

/** The group commit's INSERT of more than {@link VALUES_ROWS} rows (the unnest text) is this prepared statement. */
export const GROUP_COMMIT_INSERT = 'walletkit_activities_insert';

/** Most rows the group commit writes with a VALUES text; a larger batch goes through the unnest text. */
export const VALUES_ROWS = 16;

/** The prepared statement of the group commit's INSERT of `rows` rows. */
export const groupCommitName = (rows: number): string => (rows >= 1 && rows <= VALUES_ROWS ? `${GROUP_COMMIT_INSERT}_${rows}` : GROUP_COMMIT_INSERT);

/** Each column's cast in a VALUES tuple, in `rowValues`' order (as `valuesOf` writes them). */
const CASTS = [
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '::jsonb',
  '::jsonb',
  '::jsonb',
  '::boolean',
  '::jsonb',
  '::timestamptz',
  '::timestamptz',
  '::text',
  '::bigint',
  '::text',
  '::bigint',
];

/** The VALUES texts for each row count up to {@link VALUES_ROWS}, skipping conflicts or not, made at their first use. */
const valuesTexts: string[] = [];

/**
 * The INSERT of `rows` rows where their guards hold, returning the ids written. With
 * `skipConflicts` a row whose fingerprint is already stored is skipped (the group commit); without,
 * it raises the unique violation (a transaction that must roll back).
 */
function valuesText(rows: number, skipConflicts: boolean): string {
  const key = 2 * rows + (skipConflicts ? 1 : 0);
  let text = valuesTexts[key];
  if (text === undefined) {
    const tuples: string[] = [];
    for (let r = 0; r < rows; r++) tuples.push(`(${CASTS.map((cast, c) => `$${r * CASTS.length + c + 1}${cast}`).join(', ')})`);
    text = `${INTO}
    FROM (VALUES ${tuples.join(', ')})
      ${AS_GUARDED}
    ${skipConflicts ? 'ON CONFLICT DO NOTHING' : ''}
    RETURNING id`;
    if (rows <= VALUES_ROWS) valuesTexts[key] = text;
  }
  return text;
}

/** Its text: the columns of `activitiesInsert`'s VALUES, as arrays in the same order. */
const GROUP_COMMIT_TEXT = `${INTO}
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
      $8::jsonb[], $9::jsonb[], $10::jsonb[], $11::boolean[], $12::jsonb[], $13::timestamptz[], $14::timestamptz[],
      $15::text[], $16::bigint[], $17::text[], $18::bigint[])
      ${AS_GUARDED}
    ON CONFLICT DO NOTHING
    RETURNING id`;

/**
 * The group commit's INSERT, for the driver (`Store.query`): the same rows, guards and
 * conflict handling, as a VALUES text for their count or, beyond {@link VALUES_ROWS} rows, as
 * eighteen arrays under one fixed text.
 */
export function groupCommitInsert(rows: readonly GuardedRow[]): RawStatement {
  if (rows.length >= 1 && rows.length <= VALUES_ROWS)
    return { text: valuesText(rows.length, true), values: rows.flatMap(rowValues), name: groupCommitName(rows.length) };
  const columns: unknown[][] = Array.from({ length: 18 }, () => new Array(rows.length));
  rows.forEach((one, i) => {
    const values = rowValues(one);
    for (let c = 0; c < 18; c++) columns[c]![i] = values[c];
  });
  return { text: GROUP_COMMIT_TEXT, values: columns, name: GROUP_COMMIT_INSERT };
}

/**
 * The INSERT of one row without a guard (an activity of a transaction, whose facts
 * `factsCurrent` checked before its handler ran). Not the guarded text with NULL guards: there
 * the database folds `g1_org IS NULL OR EXISTS (...)` away in a plan made for those values, judges
 * the plan made once for any values dearer, and so plans the INSERT again at every execution
 * (PGlite: about 90 µs of the event loop each, three times an OTP login; decision 0022). This
 * text's plan for any values is as good as one for given values, and is kept from its sixth
 * execution on, as a prepared statement's plan is.
 */
const UNGUARDED_TEXT = `${INSERT_HEAD}
    VALUES (${CASTS.slice(0, STORED_COLUMNS)
      .map((cast, c) => `$${c + 1}${cast}`)
      .join(', ')})
    RETURNING id`;

/** The INSERT of `rows` in a transaction (or on any executor), a VALUES text (see `valuesText`); the ids written. */
export async function insertActivities(db: Executor, rows: readonly GuardedRow[], opts: { skipConflicts: boolean }): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const one = rows.length === 1 && rows[0]!.guard.length === 0 && !opts.skipConflicts ? rows[0]! : undefined;
  const statement = one
    ? { text: UNGUARDED_TEXT, values: rowValues(one).slice(0, STORED_COLUMNS) }
    : { text: valuesText(rows.length, opts.skipConflicts), values: rows.flatMap(rowValues) };
  const written = await runRaw<{ id: string }>(db, statement);
  return new Set(written.map((r) => r.id));
}
