/**
 * The adversarial suite's bookkeeping. Every hostile request a test sends is recorded under
 * its category (ASVS-style: parsing, stamps, replays, otp, sessions, oidc, oauth2, passkeys,
 * origins, tenancy, crash, secrets, transactions) with the reply's status; duplicate effects, crash rounds and
 * invariant violations are counted too. The tests assert the verdicts themselves (a bad input
 * is a 4xx with its stable code, never a 5xx, never accepted); the tally only lets
 * `npm run adversarial` print the figures. With ADVERSARIAL_REPORT_DIR set, each test file
 * writes its tally there as JSON when it ends (scripts/adversarial.mjs adds them up).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';

export type Category =
  | 'parsing'
  | 'stamps'
  | 'replays'
  | 'otp'
  | 'sessions'
  | 'oidc'
  | 'oauth2'
  | 'passkeys'
  | 'origins'
  | 'tenancy'
  | 'crash'
  | 'secrets'
  | 'transactions';

/** Figures of one category. */
export interface CategoryFigures {
  /** Bad inputs tried. */
  tried: number;
  /** Bad inputs the server accepted (a 2xx): must stay 0. */
  accepted: number;
  /** Bad inputs answered with a 5xx: must stay 0. */
  serverErrors: number;
  /** Effects beyond the one expected (a second wallet, session, token...): must stay 0. */
  duplicateEffects: number;
  /** Crash-and-restart rounds run (crash category). */
  crashRounds: number;
  /** Broken invariants found (partial rows, lost acknowledged writes, leaked secrets): must stay 0. */
  violations: number;
}

/** A reply as the suites see it. */
export interface SeenReply {
  status: number;
  body?: unknown;
}

const empty = (): CategoryFigures => ({ tried: 0, accepted: 0, serverErrors: 0, duplicateEffects: 0, crashRounds: 0, violations: 0 });

/** The stable error code of a reply body, if it has one. */
export function errorCodeOf(reply: SeenReply): string | undefined {
  return (reply.body as { details?: Array<{ errorCode?: string }> } | undefined)?.details?.[0]?.errorCode;
}

/**
 * The tally of one test file; `file` names its report.
 * @example const tally = adversarialTally('parsing'); tally.refused('parsing', 'duplicate key', reply, 400, 'ERR_DUPLICATE_KEY');
 */
export class Tally {
  readonly figures = new Map<Category, CategoryFigures>();

  constructor(readonly file: string) {}

  private of(category: Category): CategoryFigures {
    let f = this.figures.get(category);
    if (!f) {
      f = empty();
      this.figures.set(category, f);
    }
    return f;
  }

  /** Count a bad input and its outcome without asserting (the caller asserts). */
  record(category: Category, reply: SeenReply): void {
    const f = this.of(category);
    f.tried += 1;
    if (reply.status >= 200 && reply.status < 300) f.accepted += 1;
    if (reply.status >= 500) f.serverErrors += 1;
  }

  /**
   * Count a bad input and assert its refusal: the given 4xx status and stable code.
   * @example tally.refused('stamps', 'body changed after signing', reply, 401, 'ERR_STAMP_INVALID');
   */
  refused(category: Category, what: string, reply: SeenReply, status: number, code?: string | string[]): void {
    this.record(category, reply);
    const got = { what, status: reply.status, code: errorCodeOf(reply) };
    const codes = code === undefined ? undefined : Array.isArray(code) ? code : [code];
    expect(got.status, `${what}: ${JSON.stringify(reply.body)}`).toBe(status);
    if (codes) expect(codes, `${what}: ${JSON.stringify(reply.body)}`).toContain(got.code);
  }

  /** Count `n` effects beyond the one expected (0 adds nothing) and assert there are none. */
  duplicates(category: Category, what: string, n: number): void {
    this.of(category).duplicateEffects += n;
    expect(n, `${what}: duplicate effects`).toBe(0);
  }

  /** Count one crash round. */
  crashRound(): void {
    this.of('crash').crashRounds += 1;
  }

  /** Count broken invariants (0 adds nothing) and assert there are none. */
  violations(category: Category, what: string, found: string[]): void {
    this.of(category).violations += found.length;
    expect(found, what).toEqual([]);
  }

  /** Write the report when ADVERSARIAL_REPORT_DIR is set. */
  write(): void {
    const dir = process.env.ADVERSARIAL_REPORT_DIR;
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${this.file}.json`), JSON.stringify(Object.fromEntries(this.figures), null, 2));
  }
}

/**
 * A tally for the calling test file, written when the file ends.
 * @example const tally = adversarialTally('parsing');
 */
export function adversarialTally(file: string): Tally {
  const tally = new Tally(file);
  afterAll(() => tally.write());
  return tally;
}
