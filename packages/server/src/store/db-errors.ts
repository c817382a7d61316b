/**
 * Classifying database errors from either driver (pg's and PGlite's DatabaseError alike), also
 * when drizzle wraps them: unique violations, serialization failures, lost prepared statements.
 * Re-exported by db.ts.
 */

/** What a driver's DatabaseError may carry (pg and PGlite alike); any member may be missing. */
interface DatabaseErrorFields {
  code?: unknown;
  severity?: unknown;
  constraint?: unknown;
  message?: unknown;
  detail?: unknown;
  hint?: unknown;
  cause?: unknown;
}

/** The error and its `cause` chain (drizzle wraps driver errors in DrizzleQueryError). */
function* errorChain(err: unknown): Generator<DatabaseErrorFields> {
  let e: unknown = err;
  for (let depth = 0; depth < 10 && e !== null && typeof e === 'object'; depth++) {
    yield e as DatabaseErrorFields;
    e = (e as DatabaseErrorFields).cause;
  }
}

/**
 * The PostgreSQL SQLSTATE of a database error from either driver (pg's and PGlite's
 * DatabaseError both carry `code` and `severity`), looking through `cause` wrappers.
 */
export function sqlState(err: unknown): string | undefined {
  for (const e of errorChain(err)) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && typeof e.severity === 'string') return e.code;
  }
  return undefined;
}

/** Name of the violated constraint or index, when the database reported one. */
export function violatedConstraint(err: unknown): string | undefined {
  for (const e of errorChain(err)) {
    if (typeof e.constraint === 'string') return e.constraint;
  }
  return undefined;
}

/**
 * The database's detail of an error, when it gave one: for a unique violation
 * `Key (organization_id, public_key)=(…, …) already exists.` (the values are the row's, never a secret's:
 * no unique index covers one).
 */
export function violationDetail(err: unknown): string | undefined {
  for (const e of errorChain(err)) {
    if (typeof e.detail === 'string') return e.detail;
  }
  return undefined;
}

/**
 * True for a unique violation (SQLSTATE 23505), from either driver, also when wrapped.
 * With `constraint`, only when that constraint/index was violated
 * (e.g. `isUniqueViolation(err, 'activities_fingerprint_uq')`).
 */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  if (sqlState(err) !== '23505') return false;
  return constraint === undefined || violatedConstraint(err) === constraint;
}

/**
 * PostgreSQL's answers when a named statement is not where the driver left it: "does not exist"
 * (26000) and "already exists" (42P05). Both refuse the statement before it runs.
 */
const PREPARED_STATEMENT_LOST: ReadonlySet<string> = new Set(['26000', '42P05']);

/**
 * True when PostgreSQL refused a named statement its connection no longer holds (prepared.ts): inside
 * a transaction nothing of it is stored, and since nothing is named any more, running it again works.
 */
export function isPreparedStatementLost(err: unknown): boolean {
  const code = sqlState(err);
  return code !== undefined && PREPARED_STATEMENT_LOST.has(code);
}

/** True for serialization_failure (40001) or deadlock_detected (40P01): retry the transaction. */
export function isSerializationFailure(err: unknown): boolean {
  const code = sqlState(err);
  return code === '40001' || code === '40P01';
}

/** The SQLSTATE of `walletkit_refuse` (migration 0014): the activity is refused with the error it names. */
export const REFUSED_SQLSTATE = 'WK002';
/** The SQLSTATE of `walletkit_run_again` (migration 0014): what the activity counted on changed; it runs once more. */
export const RUN_AGAIN_SQLSTATE = 'WK003';

/** A refusal a statement raised (`walletkit_refuse`): the error code, message and field it named. */
export interface RaisedRefusal {
  code: string;
  message: string;
  field: string | undefined;
}

/** The refusal `walletkit_refuse` raised, when `err` is one (also wrapped). */
export function raisedRefusal(err: unknown): RaisedRefusal | undefined {
  if (sqlState(err) !== REFUSED_SQLSTATE) return undefined;
  for (const e of errorChain(err)) {
    if (e.code !== REFUSED_SQLSTATE || typeof e.detail !== 'string') continue;
    return {
      code: e.detail,
      message: typeof e.message === 'string' ? e.message : '',
      field: typeof e.hint === 'string' && e.hint !== '' ? e.hint : undefined,
    };
  }
  return undefined;
}
