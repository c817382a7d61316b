/**
 * The policy language (docs/decisions/0003-authorization.md): a parser for the syntax of
 * Turnkey's policy expressions and a three-valued (Kleene) evaluator over what this server
 * knows about an activity.
 *
 * Syntax: `||`, `&&`, `!`, parentheses, `== != < <= > >= in`, string / number / boolean /
 * list literals, identifiers with `.field`, `[index]`, `[a..b]` slices and method calls
 * (`list.any(x, pred)`, `.all`, `.filter`, `.count()`, `.contains(v)`). Anything that parses
 * is accepted at create time, so policies written for Turnkey can be stored.
 *
 * Integers are exact at any size (a literal beyond 2^53 is a bigint, so `eth.tx.value <
 * 1000000000000000001` compares wei exactly), and two `0x` hex strings compare without regard
 * to case (an address in EIP-55 checksum form equals its lowercase spelling).
 *
 * Evaluation: a field this server does not supply (e.g. `wallet.id`) or an
 * ill-typed comparison is UNKNOWN, and UNKNOWN propagates by Kleene logic
 * (`false && UNKNOWN` is false, `true && UNKNOWN` is UNKNOWN). Callers decide how UNKNOWN
 * counts (policy.ts: an ALLOW needs true, a DENY applies unless false), so the engine fails
 * closed.
 */

/** A value an expression can produce. */
export type Value = string | number | bigint | boolean | Value[] | { readonly [field: string]: Value };
/** The value of what the evaluator cannot know. */
export const UNKNOWN: unique symbol = Symbol('unknown');
type Result = Value | typeof UNKNOWN;
/** Outcome of a boolean expression. */
export type Truth = boolean | typeof UNKNOWN;

type BinOp = '||' | '&&' | '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in';

/** Parsed expression. */
export type Expr =
  | { k: 'lit'; v: Value }
  | { k: 'list'; items: Expr[] }
  | { k: 'id'; name: string }
  | { k: 'member'; obj: Expr; name: string }
  | { k: 'call'; obj: Expr; name: string; args: Expr[] }
  | { k: 'index'; obj: Expr; index: Expr }
  | { k: 'slice'; obj: Expr; from: Expr | undefined; to: Expr | undefined }
  | { k: 'not'; e: Expr }
  | { k: 'bin'; op: BinOp; l: Expr; r: Expr };

/** A syntax error in a policy expression; `position` is a 0-based character offset. */
export class PolicySyntaxError extends Error {
  readonly position: number;

  constructor(message: string, position: number) {
    super(`${message} at character ${position}`);
    this.position = position;
    this.name = 'PolicySyntaxError';
  }
}

type Token =
  | { t: 'str'; v: string; p: number }
  | { t: 'num'; v: number | bigint; p: number }
  | { t: 'id'; v: string; p: number }
  | { t: 'op'; v: string; p: number };

const OPERATORS = ['&&', '||', '==', '!=', '<=', '>=', '..', '<', '>', '!', '(', ')', '[', ']', ',', '.'];
// Nesting beyond this is refused rather than risking the stack on hostile input.
const MAX_DEPTH = 64;
const BINDERS = new Set(['any', 'all', 'filter']);
const NUMBER = /[0-9]+(\.[0-9]+)?/y;
const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      let v = '';
      let j = i + 1;
      for (; j < src.length && src[j] !== c; j++) {
        if (src[j] === '\\' && j + 1 < src.length) j++;
        v += src[j];
      }
      if (j >= src.length) throw new PolicySyntaxError('unterminated string', i);
      out.push({ t: 'str', v, p: i });
      i = j + 1;
      continue;
    }
    NUMBER.lastIndex = i;
    const num = NUMBER.exec(src);
    if (num) {
      // Integers too large for a double stay exact (wei amounts are up to 2^256).
      const exact = !num[1] && !Number.isSafeInteger(Number(num[0]));
      out.push({ t: 'num', v: exact ? BigInt(num[0]) : Number(num[0]), p: i });
      i += num[0].length;
      continue;
    }
    IDENT.lastIndex = i;
    const id = IDENT.exec(src);
    if (id) {
      out.push({ t: 'id', v: id[0], p: i });
      i += id[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (!op) throw new PolicySyntaxError(`unexpected character '${c}'`, i);
    out.push({ t: 'op', v: op, p: i });
    i += op.length;
  }
  return out;
}

class Parser {
  private i = 0;
  private depth = 0;
  private readonly tokens: Token[];
  private readonly length: number;

  constructor(tokens: Token[], length: number) {
    this.tokens = tokens;
    this.length = length;
  }

  parseAll(): Expr {
    const e = this.or();
    const extra = this.tokens[this.i];
    if (extra) throw new PolicySyntaxError(`unexpected '${String(extra.v)}'`, extra.p);
    return e;
  }

  private peekOp(v: string): boolean {
    const t = this.tokens[this.i];
    return t !== undefined && t.t === 'op' && t.v === v;
  }

  private eatOp(v: string): boolean {
    if (!this.peekOp(v)) return false;
    this.i++;
    return true;
  }

  private expectOp(v: string): void {
    if (!this.eatOp(v)) throw new PolicySyntaxError(`expected '${v}'`, this.tokens[this.i]?.p ?? this.length);
  }

  private nest<T>(fn: () => T): T {
    if (++this.depth > MAX_DEPTH) throw new PolicySyntaxError('expression nested too deeply', this.tokens[this.i]?.p ?? this.length);
    try {
      return fn();
    } finally {
      this.depth--;
    }
  }

  private or(): Expr {
    let l = this.and();
    while (this.eatOp('||')) l = { k: 'bin', op: '||', l, r: this.and() };
    return l;
  }

  private and(): Expr {
    let l = this.unary();
    while (this.eatOp('&&')) l = { k: 'bin', op: '&&', l, r: this.unary() };
    return l;
  }

  private unary(): Expr {
    if (this.eatOp('!')) return this.nest(() => ({ k: 'not', e: this.unary() }));
    return this.comparison();
  }

  private comparison(): Expr {
    const l = this.postfix();
    const t = this.tokens[this.i];
    if (t?.t === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(t.v)) {
      this.i++;
      return { k: 'bin', op: t.v as BinOp, l, r: this.postfix() };
    }
    if (t?.t === 'id' && t.v === 'in') {
      this.i++;
      return { k: 'bin', op: 'in', l, r: this.postfix() };
    }
    return l;
  }

  private postfix(): Expr {
    let e = this.primary();
    for (;;) {
      if (this.eatOp('.')) {
        const name = this.tokens[this.i];
        if (name?.t !== 'id') throw new PolicySyntaxError('expected a field name', name?.p ?? this.length);
        this.i++;
        if (this.eatOp('(')) {
          const args = this.nest(() => this.args());
          if (BINDERS.has(name.v) && (args.length !== 2 || args[0]!.k !== 'id')) {
            throw new PolicySyntaxError(`${name.v}() takes a variable name and a predicate`, name.p);
          }
          e = { k: 'call', obj: e, name: name.v, args };
        } else {
          e = { k: 'member', obj: e, name: name.v };
        }
      } else if (this.eatOp('[')) {
        e = this.nest(() => this.subscript(e));
      } else {
        return e;
      }
    }
  }

  private subscript(obj: Expr): Expr {
    const from = this.peekOp('..') ? undefined : this.or();
    if (this.eatOp('..')) {
      const to = this.peekOp(']') ? undefined : this.or();
      this.expectOp(']');
      return { k: 'slice', obj, from, to };
    }
    this.expectOp(']');
    if (!from) throw new PolicySyntaxError('empty index', this.tokens[this.i - 1]!.p);
    return { k: 'index', obj, index: from };
  }

  private args(): Expr[] {
    const args: Expr[] = [];
    if (this.eatOp(')')) return args;
    do args.push(this.or());
    while (this.eatOp(','));
    this.expectOp(')');
    return args;
  }

  private primary(): Expr {
    const t = this.tokens[this.i];
    if (!t) throw new PolicySyntaxError('unexpected end of expression', this.length);
    this.i++;
    if (t.t === 'str' || t.t === 'num') return { k: 'lit', v: t.v };
    if (t.t === 'id') {
      if (t.v === 'true' || t.v === 'false') return { k: 'lit', v: t.v === 'true' };
      if (t.v === 'in') throw new PolicySyntaxError("unexpected 'in'", t.p);
      return { k: 'id', name: t.v };
    }
    if (t.v === '(') {
      const e = this.nest(() => this.or());
      this.expectOp(')');
      return e;
    }
    if (t.v === '[') {
      const items = this.nest(() => {
        const list: Expr[] = [];
        if (this.eatOp(']')) return list;
        do list.push(this.or());
        while (this.eatOp(','));
        this.expectOp(']');
        return list;
      });
      return { k: 'list', items };
    }
    throw new PolicySyntaxError(`unexpected '${t.v}'`, t.p);
  }
}

/**
 * Parse a policy expression.
 * @throws PolicySyntaxError when it does not parse.
 * @example parsePolicyExpression("activity.type == 'ACTIVITY_TYPE_CREATE_POLICY_V3'")
 */
export function parsePolicyExpression(src: string): Expr {
  return new Parser(tokenize(src), src.length).parseAll();
}

const isRecord = (v: Result): v is { readonly [field: string]: Value } => typeof v === 'object' && v !== null && !Array.isArray(v);

const isNumeric = (v: Result): v is number | bigint => typeof v === 'number' || typeof v === 'bigint';
const HEX = /^0x[0-9a-fA-F]*$/;

function equal(a: Result, b: Result): Truth {
  if (a === UNKNOWN || b === UNKNOWN) return UNKNOWN;
  // number vs bigint: JS compares the two exactly with ==.
  // biome-ignore lint/suspicious/noDoubleEquals: deliberate, == is the exact number/bigint comparison (=== is false across the two types)
  if (isNumeric(a) && isNumeric(b)) return a == b;
  // Hex case carries no meaning (at most an EIP-55 checksum): a DENY on a checksummed
  // address must also catch its lowercase spelling.
  if (typeof a === 'string' && typeof b === 'string' && HEX.test(a) && HEX.test(b)) return a.toLowerCase() === b.toLowerCase();
  const prim = (v: Value) => typeof v === 'string' || typeof v === 'boolean' || isNumeric(v);
  if (!prim(a) || !prim(b)) return UNKNOWN;
  return a === b;
}

/** Kleene `&&` / `||` over lazily computed operands. */
function and3(l: Truth, r: () => Truth): Truth {
  if (l === false) return false;
  const rv = r();
  if (rv === false) return false;
  return l === true && rv === true ? true : UNKNOWN;
}

function or3(l: Truth, r: () => Truth): Truth {
  if (l === true) return true;
  const rv = r();
  if (rv === true) return true;
  return l === false && rv === false ? false : UNKNOWN;
}

const truth = (v: Result): Truth => (typeof v === 'boolean' ? v : UNKNOWN);

function contains(list: Result, item: Result): Truth {
  if (!Array.isArray(list)) return UNKNOWN;
  let out: Truth = false;
  for (const v of list) out = or3(out, () => equal(v, item));
  return out;
}

function evalCall(e: Extract<Expr, { k: 'call' }>, env: ReadonlyMap<string, Value>): Result {
  const obj = evalExpr(e.obj, env);
  if (!Array.isArray(obj)) return UNKNOWN;
  if (e.name === 'count' && e.args.length === 0) return obj.length;
  if (e.name === 'contains' && e.args.length === 1) return contains(obj, evalExpr(e.args[0]!, env));
  if (!BINDERS.has(e.name)) return UNKNOWN;
  const name = (e.args[0] as { name: string }).name;
  const test = (item: Value): Truth => truth(evalExpr(e.args[1]!, new Map(env).set(name, item)));
  if (e.name === 'any') return obj.reduce<Truth>((acc, item) => or3(acc, () => test(item)), false);
  if (e.name === 'all') return obj.reduce<Truth>((acc, item) => and3(acc, () => test(item)), true);
  const kept: Value[] = [];
  for (const item of obj) {
    const keep = test(item);
    if (keep === UNKNOWN) return UNKNOWN;
    if (keep) kept.push(item);
  }
  return kept;
}

function evalExpr(e: Expr, env: ReadonlyMap<string, Value>): Result {
  switch (e.k) {
    case 'lit':
      return e.v;
    case 'list': {
      const items = e.items.map((i) => evalExpr(i, env));
      return items.includes(UNKNOWN) ? UNKNOWN : (items as Value[]);
    }
    case 'id':
      return env.get(e.name) ?? UNKNOWN;
    case 'member': {
      const obj = evalExpr(e.obj, env);
      return isRecord(obj) && Object.hasOwn(obj, e.name) ? obj[e.name]! : UNKNOWN;
    }
    case 'call':
      return evalCall(e, env);
    case 'index': {
      const obj = evalExpr(e.obj, env);
      const idx = evalExpr(e.index, env);
      return Array.isArray(obj) && typeof idx === 'number' && Number.isInteger(idx) && idx >= 0 && idx < obj.length ? obj[idx]! : UNKNOWN;
    }
    case 'slice': {
      const obj = evalExpr(e.obj, env);
      const from = e.from ? evalExpr(e.from, env) : 0;
      const to = e.to ? evalExpr(e.to, env) : undefined;
      if ((typeof obj !== 'string' && !Array.isArray(obj)) || typeof from !== 'number' || (to !== undefined && typeof to !== 'number')) return UNKNOWN;
      return obj.slice(from, to);
    }
    case 'not': {
      const v = truth(evalExpr(e.e, env));
      return v === UNKNOWN ? UNKNOWN : !v;
    }
    case 'bin':
      return evalBinary(e.op, e.l, e.r, env);
  }
}

function evalBinary(op: BinOp, le: Expr, re: Expr, env: ReadonlyMap<string, Value>): Result {
  if (op === '&&') return and3(truth(evalExpr(le, env)), () => truth(evalExpr(re, env)));
  if (op === '||') return or3(truth(evalExpr(le, env)), () => truth(evalExpr(re, env)));
  const l = evalExpr(le, env);
  const r = evalExpr(re, env);
  switch (op) {
    case '==':
      return equal(l, r);
    case '!=': {
      const eq = equal(l, r);
      return eq === UNKNOWN ? UNKNOWN : !eq;
    }
    case 'in':
      return contains(r, l);
    default: {
      // Mixed number/bigint relations are exact in JS.
      if (!isNumeric(l) || !isNumeric(r)) return UNKNOWN;
      return op === '<' ? l < r : op === '<=' ? l <= r : op === '>' ? l > r : l >= r;
    }
  }
}

/**
 * Evaluate a boolean expression against named values; non-boolean results are UNKNOWN.
 * @example evaluatePolicyExpression(parsePolicyExpression('approvers.count() >= 1'), new Map([['approvers', [{ id: 'u' }]]])) // true
 */
export function evaluatePolicyExpression(expr: Expr, env: ReadonlyMap<string, Value>): Truth {
  return truth(evalExpr(expr, env));
}
