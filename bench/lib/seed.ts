/**
 * Seeding the database with many sub-organizations, fast, by cloning one real account.
 *
 * The bench signs one end user up through the server (the template: a sub-organization with its
 * root user, verified email, API key, wallet and Ethereum account, and a few activities, made
 * by the server itself), stops the server, and copies the template's rows N times with
 * `INSERT ... SELECT ... FROM generate_series` straight into the store, through a connection
 * opened with the server's own `openStore` (migrations applied, the PGlite data-directory lock
 * held). Nothing about the schema is written here: the tables, columns, primary and foreign
 * keys are read from the catalog, the rows to copy are the template's organization and every
 * row that references a copied row (transitively), plus the template's signup activities in the
 * parent organization. So the copies stay right while the schema changes.
 *
 * In each copy `n`, a text value that is a key of a copied row becomes a fresh UUID (the same
 * one wherever it appears, so references hold), the email becomes `u<n>.<email>`, public keys,
 * addresses and fingerprints become distinct hex of the same shape, names get `-<n>`. Other
 * values (sealed key material, timestamps, JSON intents) are copied as they are: the copies are
 * stored accounts as the server's queries see them, not accounts whose keys anyone can open.
 * Each batch runs in one transaction with foreign-key triggers off (`session_replication_role =
 * replica`); ANALYZE follows, so the planner sees the real sizes.
 */
import { sql } from 'drizzle-orm';
import { openStore, type Store } from '../../packages/server/src/store/db.js';

/** What is cloned: the template sub-organization and its signup's activities in the parent. */
export interface Template {
  organizationId: string;
  parentOrganizationId: string;
  /** The signup's activity rows in the parent organization (init_otp, verify_otp, create_sub_organization). */
  parentActivityIds: string[];
  /** The template's email: copy n logs in as `u<n>.<email>`. */
  email: string;
}

/** Login email of copy `n`. */
export const cloneEmail = (template: { email: string }, n: number) => `u${n}.${template.email}`;

/** Columns whose values are mapped for realism (distinct per copy like real accounts), by shape. */
const REALISM: Record<string, 'email' | 'hex' | 'name' | 'auto'> = {
  'users.user_email': 'email',
  'api_keys.public_key': 'hex',
  'wallet_accounts.address': 'hex',
  'wallet_accounts.public_key': 'hex',
  'activities.fingerprint': 'hex',
  'organizations.name': 'name',
  'sub_org_identities.value': 'auto',
};

type TokenKind = 'id' | 'email' | 'hex' | 'name';

const q = (ident: string) => `"${ident.replaceAll('"', '""')}"`;
const lit = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** A SQL connection for seeding (one code path for PGlite and PostgreSQL). */
export interface SeedConnection {
  rows<T = Record<string, unknown>>(text: string): Promise<T[]>;
  /** Statements in one transaction. */
  batch(statements: string[]): Promise<void>;
  close(): Promise<void>;
}

/** Open the store the server would open (PGlite data dir or DATABASE_URL). The server must be stopped for PGlite. */
export async function openSeedConnection(target: { dataDir?: string; databaseUrl?: string }): Promise<SeedConnection> {
  const store: Store = await openStore(target.databaseUrl ? { databaseUrl: target.databaseUrl, poolSize: 2 } : { dataDir: target.dataDir! });
  const rowsOf = (result: unknown) => ((result as { rows?: unknown[] }).rows ?? []) as never[];
  return {
    rows: async (text) => rowsOf(await store.db.execute(sql.raw(text))),
    batch: (statements) =>
      store.transaction(async (tx) => {
        // The copies are new organizations no server has cached: the change triggers (migration
        // 0009) would only bump and announce each of them, row by row.
        await tx.execute(sql.raw('SET LOCAL session_replication_role = replica'));
        for (const s of statements) await tx.execute(sql.raw(s));
      }),
    close: () => store.close(),
  };
}

interface Catalog {
  columns: Map<string, Array<{ name: string; type: string }>>;
  /** table -> single-column primary key, when it has one. */
  primaryKey: Map<string, string>;
  foreignKeys: Array<{ table: string; column: string; refTable: string; refColumn: string }>;
}

async function readCatalog(db: SeedConnection): Promise<Catalog> {
  const columns = new Map<string, Array<{ name: string; type: string }>>();
  for (const c of await db.rows<{ table_name: string; column_name: string; data_type: string; is_generated: string }>(
    `SELECT table_name, column_name, data_type, is_generated FROM information_schema.columns
     WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
  )) {
    if (c.is_generated === 'ALWAYS') continue;
    const list = columns.get(c.table_name) ?? [];
    list.push({ name: c.column_name, type: c.data_type });
    columns.set(c.table_name, list);
  }
  const keys = await db.rows<{ kind: string; table: string; column: string; ref_table: string | null; ref_column: string | null; arity: number }>(
    `SELECT c.contype AS kind, cl.relname AS table, att.attname AS column, rcl.relname AS ref_table, ratt.attname AS ref_column,
            array_length(c.conkey, 1) AS arity
     FROM pg_constraint c
     JOIN pg_class cl ON cl.oid = c.conrelid
     JOIN pg_namespace ns ON ns.oid = cl.relnamespace AND ns.nspname = 'public'
     CROSS JOIN LATERAL unnest(c.conkey, coalesce(c.confkey, c.conkey)) AS k(col, rcol)
     JOIN pg_attribute att ON att.attrelid = c.conrelid AND att.attnum = k.col
     LEFT JOIN pg_class rcl ON rcl.oid = c.confrelid
     LEFT JOIN pg_attribute ratt ON ratt.attrelid = c.confrelid AND ratt.attnum = k.rcol
     WHERE c.contype IN ('p', 'f')`,
  );
  const primaryKey = new Map<string, string>();
  const foreignKeys: Catalog['foreignKeys'] = [];
  for (const k of keys) {
    if (k.kind === 'p' && Number(k.arity) === 1) primaryKey.set(k.table, k.column);
    if (k.kind === 'f' && k.ref_table && k.ref_column) foreignKeys.push({ table: k.table, column: k.column, refTable: k.ref_table, refColumn: k.ref_column });
  }
  return { columns, primaryKey, foreignKeys };
}

/** The template's rows, as one predicate per table (an OR of `column IN (...)`). */
async function templateRows(db: SeedConnection, catalog: Catalog, template: Template): Promise<Map<string, string>> {
  // table -> column -> values that select rows
  const selectors = new Map<string, Map<string, Set<string>>>();
  const add = (table: string, column: string, values: string[]) => {
    const byColumn = selectors.get(table) ?? new Map<string, Set<string>>();
    const set = byColumn.get(column) ?? new Set<string>();
    let grew = false;
    for (const v of values) if (!set.has(v)) grew = set.add(v) !== undefined;
    byColumn.set(column, set);
    selectors.set(table, byColumn);
    return grew;
  };
  const predicate = (table: string) =>
    [...(selectors.get(table) ?? new Map()).entries()]
      .filter(([, values]) => values.size > 0)
      // Qualified with `src`, the alias of the copying INSERT ... SELECT (and of the reads below).
      .map(([column, values]) => `src.${q(column)}::text IN (${[...values].map(lit).join(', ')})`)
      .join(' OR ');
  add('organizations', 'id', [template.organizationId]);
  if (template.parentActivityIds.length > 0) add('activities', 'id', template.parentActivityIds);
  // Follow foreign keys downwards (rows referencing selected rows) to a fixed point.
  for (let round = 0; round < 20; round++) {
    let grew = false;
    for (const fk of catalog.foreignKeys) {
      if (!selectors.has(fk.refTable) || !predicate(fk.refTable)) continue;
      const values = await db.rows<{ v: string }>(
        `SELECT DISTINCT src.${q(fk.refColumn)}::text AS v FROM ${q(fk.refTable)} AS src WHERE ${predicate(fk.refTable)}`,
      );
      if (values.length === 0) continue;
      // Only rows that exist: an empty selection adds no table.
      const [row] = await db.rows<{ count: number }>(
        `SELECT count(*)::int AS count FROM ${q(fk.table)} WHERE ${q(fk.column)}::text IN (${values.map((r) => lit(r.v)).join(', ')})`,
      );
      if (Number(row?.count ?? 0) === 0) continue;
      if (
        add(
          fk.table,
          fk.column,
          values.map((r) => r.v),
        )
      )
        grew = true;
    }
    if (!grew) break;
  }
  return new Map([...selectors.keys()].map((t) => [t, predicate(t)]));
}

/** SQL for token `value` in copy `g.n`, keeping its shape. */
function mapped(kind: TokenKind, value: string): string {
  const h = (salt: string) => `md5(${lit(`${value}:${salt}:`)} || g.n::text)`;
  switch (kind) {
    case 'id':
      return `(substr(${h('id')}, 1, 8) || '-' || substr(${h('id')}, 9, 4) || '-4' || substr(${h('id')}, 14, 3) || '-a' || substr(${h('id')}, 18, 3) || '-' || substr(${h('id')}, 21, 12))`;
    case 'email':
      return `('u' || g.n::text || '.' || ${lit(value)})`;
    case 'name':
      return `(${lit(value)} || '-' || g.n::text)`;
    case 'hex': {
      const prefix = /^(sha256:|0x)/i.exec(value)?.[0] ?? (value.length === 66 || value.length === 130 ? value.slice(0, 2) : '');
      const length = value.length - prefix.length;
      return `(${lit(prefix)} || substr(${h('a')} || ${h('b')} || ${h('c')} || ${h('d')} || ${h('e')}, 1, ${length}))`;
    }
  }
}

function shapeOf(value: string): TokenKind {
  if (value.includes('@')) return 'email';
  if (/^(sha256:|0x)?[0-9a-fA-F]{16,}$/.test(value)) return 'hex';
  return 'name';
}

export interface ClonePlan {
  /** Tables in insertion order, each with its INSERT ... SELECT for copies [lo, hi]. */
  statements(lo: number, hi: number): string[];
  /** Rows one copy adds, per table. */
  rowsPerCopy: Record<string, number>;
}

/** Read the catalog and the template once; the plan then writes any range of copies. */
export async function planClone(db: SeedConnection, template: Template): Promise<ClonePlan> {
  const catalog = await readCatalog(db);
  const selected = await templateRows(db, catalog, template);
  const rowsPerCopy: Record<string, number> = {};
  for (const [table, where] of selected) {
    const [row] = await db.rows<{ count: number }>(`SELECT count(*)::int AS count FROM ${q(table)} AS src WHERE ${where}`);
    rowsPerCopy[table] = Number(row?.count ?? 0);
  }

  // Tokens: every key of a copied row, plus the realism columns' values.
  const tokens = new Map<string, TokenKind>();
  for (const [table, where] of selected) {
    const pk = catalog.primaryKey.get(table);
    if (pk) for (const r of await db.rows<{ v: string }>(`SELECT src.${q(pk)}::text AS v FROM ${q(table)} AS src WHERE ${where}`)) tokens.set(r.v, 'id');
  }
  for (const [path, kind] of Object.entries(REALISM)) {
    const [table, column] = path.split('.') as [string, string];
    const where = selected.get(table);
    if (!where || !catalog.columns.get(table)?.some((c) => c.name === column)) continue;
    for (const r of await db.rows<{ v: string | null }>(`SELECT DISTINCT src.${q(column)}::text AS v FROM ${q(table)} AS src WHERE ${where}`)) {
      if (r.v !== null && !tokens.has(r.v)) tokens.set(r.v, kind === 'auto' ? shapeOf(r.v) : kind);
    }
  }

  // Per table: each column copied, or mapped through the tokens its template values hold.
  const order = topological([...selected.keys()], catalog.foreignKeys);
  const inserts: Array<{ table: string; columns: string; select: string; where: string }> = [];
  for (const table of order) {
    const where = selected.get(table)!;
    const exprs: string[] = [];
    const cols = catalog.columns.get(table) ?? [];
    for (const col of cols) {
      const text = col.type === 'text' || col.type === 'character varying' || col.type === 'uuid';
      if (!text) {
        exprs.push(`src.${q(col.name)}`);
        continue;
      }
      const values = await db.rows<{ v: string | null }>(`SELECT DISTINCT src.${q(col.name)}::text AS v FROM ${q(table)} AS src WHERE ${where}`);
      const hits = values.map((r) => r.v).filter((v): v is string => v !== null && tokens.has(v));
      if (hits.length === 0) {
        exprs.push(`src.${q(col.name)}`);
        continue;
      }
      const cases = hits.map((v) => `WHEN ${lit(v)} THEN ${mapped(tokens.get(v)!, v)}`).join(' ');
      const cast = col.type === 'uuid' ? '::uuid' : '';
      exprs.push(`(CASE src.${q(col.name)}::text ${cases} ELSE src.${q(col.name)}::text END)${cast}`);
    }
    inserts.push({ table, columns: cols.map((c) => q(c.name)).join(', '), select: exprs.join(', '), where });
  }
  return {
    rowsPerCopy,
    statements: (lo, hi) => [
      'SET LOCAL session_replication_role = replica',
      ...inserts.map(
        (i) =>
          `INSERT INTO ${q(i.table)} (${i.columns}) SELECT ${i.select} FROM ${q(i.table)} AS src CROSS JOIN generate_series(${lo}, ${hi}) AS g(n) WHERE ${i.where}`,
      ),
    ],
  };
}

/** Tables ordered so that a referenced table comes before the tables referencing it. */
function topological(tables: string[], fks: Catalog['foreignKeys']): string[] {
  const set = new Set(tables);
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (t: string, path: Set<string>) => {
    if (seen.has(t) || path.has(t)) return;
    path.add(t);
    for (const fk of fks) if (fk.table === t && fk.refTable !== t && set.has(fk.refTable)) visit(fk.refTable, path);
    path.delete(t);
    seen.add(t);
    out.push(t);
  };
  for (const t of [...tables].sort()) visit(t, new Set());
  return out;
}

/**
 * Write copies `from`..`to` (inclusive) of the template, `batchSize` copies per transaction,
 * then ANALYZE. `progress` is told after each batch.
 */
export async function writeClones(
  db: SeedConnection,
  plan: ClonePlan,
  from: number,
  to: number,
  progress: (done: number) => void = () => {},
  batchSize = 2_000,
): Promise<void> {
  for (let lo = from; lo <= to; lo += batchSize) {
    const hi = Math.min(to, lo + batchSize - 1);
    await db.batch(plan.statements(lo, hi));
    progress(hi - from + 1);
  }
  await db.rows('ANALYZE');
}
