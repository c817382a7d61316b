/**
 * Stamps under attack, over real HTTP against real stamped bodies: Wycheproof's P-256 ECDSA
 * vectors through the verifiers the server uses, every Wycheproof mutation kind applied to the
 * DER signature of a real X-Stamp, bodies changed after signing, malformed and confused stamp
 * headers, keys of other organizations, expired, deleted and invalidated keys, the liveness
 * window at its exact edges (the server clock is injected) and stamps carried to another path.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  base64urlDecode,
  base64urlEncode,
  generateEd25519KeyPair,
  generateP256KeyPair,
  generateSecp256k1KeyPair,
  stampApiKey,
  utf8ToBytes,
  verifyApiKeyStamp,
  type EcKeyPair,
  type StampScheme,
} from '@walletkit/crypto';
import { operations, type OperationName } from '@walletkit/protocol';
import { verifyP256Node } from '../../src/activity/p256-node';
import { userTags } from '../../src/store/schema';
import { SoftwareAuthenticator } from '../support/authenticator';
import { startTestServer, type TestServer } from '../support/harness';
import { addOrganization } from '../support/members';
import { envelopeText, sendRaw, type RawReply } from './support/http';
import { adversarialTally } from './support/tally';

const tally = adversarialTally('stamps');

const VECTORS = '/work/shared/vectors/wycheproof';
/** The order n and the field prime p of P-256. */
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
/** What a refused signature gets: it does not verify, or the header cannot be read at all. */
const BAD_STAMP = ['ERR_STAMP_INVALID', 'ERR_STAMP_MALFORMED'];

// ---------------------------------------------------------------------------------------
// DER, byte by byte (the mutations must produce exactly the bytes Wycheproof describes)
// ---------------------------------------------------------------------------------------

type Part = number | number[] | Buffer;
/** Concatenate bytes and byte arrays. */
const b = (...parts: Part[]): Buffer => Buffer.concat(parts.map((p) => (typeof p === 'number' ? Buffer.from([p]) : Buffer.isBuffer(p) ? p : Buffer.from(p))));
const ff = (n: number) => Array<number>(n).fill(0xff);

/** A DER definite length. */
function derLength(n: number): Buffer {
  if (n < 0x80) return b(n);
  let hex = n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  const bytes = Buffer.from(hex, 'hex');
  return b(0x80 | bytes.length, bytes);
}
const tlv = (tag: number, content: Buffer): Buffer => b(tag, derLength(content.length), content);

/** Minimal two's-complement content of a DER INTEGER (negative values included). */
function intContent(x: bigint): Buffer {
  if (x === 0n) return b(0);
  if (x > 0n) {
    let hex = x.toString(16);
    if (hex.length % 2) hex = `0${hex}`;
    if (Number.parseInt(hex[0]!, 16) >= 8) hex = `00${hex}`;
    return Buffer.from(hex, 'hex');
  }
  let bytes = 1;
  while (-(1n << BigInt(8 * bytes - 1)) > x) bytes += 1;
  return Buffer.from(((1n << BigInt(8 * bytes)) + x).toString(16).padStart(2 * bytes, '0'), 'hex');
}
const int = (x: bigint) => tlv(0x02, intContent(x));
const seq = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts));
const sigOf = (r: bigint, s: bigint) => seq(int(r), int(s));

/** r and s of a DER signature produced by an honest signer (short-form lengths). */
function parseDer(hex: string): { r: bigint; s: bigint } {
  const der = Buffer.from(hex, 'hex');
  expect(der[0]).toBe(0x30);
  const rLen = der[3]!;
  const r = BigInt(`0x${der.subarray(4, 4 + rLen).toString('hex')}`);
  const sLen = der[5 + rLen]!;
  const s = BigInt(`0x${der.subarray(6 + rLen, 6 + rLen + sLen).toString('hex')}`);
  return { r, s };
}

/** One mutated signature, named after Wycheproof's test comment, with its Wycheproof flag. */
interface Mutation {
  kind: string;
  flag: string;
  der: Buffer;
}

/**
 * Wycheproof's encoding mutations of one element (the SEQUENCE or one INTEGER) given its tag
 * and content; the caller puts the result in place of the element.
 */
function elementMutations(tag: number, content: Buffer): Array<[string, string, Buffer]> {
  const L = content.length;
  const element = tlv(tag, content);
  const constructed = tag | 0x20;
  return [
    ['length uses long form encoding', 'BerEncodedSignature', b(tag, 0x81, L, content)],
    ['length contains a leading 0', 'BerEncodedSignature', b(tag, 0x82, 0x00, L, content)],
    ['length one too long', 'InvalidEncoding', b(tag, L + 1, content)],
    ['length one too short', 'InvalidEncoding', b(tag, L - 1, content)],
    ['uint32 overflow in length', 'InvalidEncoding', b(tag, 0x85, 0x01, [0, 0, 0], L, content)],
    ['uint64 overflow in length', 'InvalidEncoding', b(tag, 0x89, 0x01, [0, 0, 0, 0, 0, 0, 0], L, content)],
    ['length = 2**31 - 1', 'InvalidEncoding', b(tag, 0x84, 0x7f, ff(3), content)],
    ['length = 2**31', 'InvalidEncoding', b(tag, 0x84, 0x80, [0, 0, 0], content)],
    ['length = 2**32 - 1', 'InvalidEncoding', b(tag, 0x84, ff(4), content)],
    ['length = 2**40 - 1', 'InvalidEncoding', b(tag, 0x85, ff(5), content)],
    ['length = 2**64 - 1', 'InvalidEncoding', b(tag, 0x88, ff(8), content)],
    ['incorrect length', 'InvalidEncoding', b(tag, 0xff, content)],
    ['replaced by an indefinite length tag without termination', 'InvalidEncoding', b(tag, 0x80, content)],
    ['removed', 'ModifiedSignature', b()],
    ['lonely tag', 'InvalidEncoding', b(tag)],
    ["appending 0's", 'ModifiedSignature', b(tag, L + 2, content, 0, 0)],
    ["prepending 0's", 'ModifiedSignature', b(tag, L + 2, 0, 0, content)],
    ["appending unused 0's", 'InvalidEncoding', b(element, 0, 0)],
    ['appending null value', 'ModifiedSignature', b(tag, L + 2, content, 0x05, 0x00)],
    ['prepending garbage (long-form tag)', 'InvalidEncoding', tlv(constructed, b(0x49, 0x81, 0x77, element))],
    ['prepending garbage (empty element)', 'InvalidEncoding', tlv(constructed, b(0x25, 0x00, element))],
    ['appending garbage', 'InvalidEncoding', tlv(constructed, b(element, 0x00, 0x04, 0xde, 0xad, 0xbe, 0xef))],
    ['truncated length', 'InvalidEncoding', b(tag, 0x81)],
    ['including undefined tags', 'ModifiedSignature', tlv(constructed, b(0xaa, 0x00, 0xbb, 0x00, 0xcd, 0x00, element))],
    ['including an undefined tag with content', 'InvalidEncoding', tlv(constructed, b(0xaa, 0x02, 0xaa, 0xbb, element))],
    ['using composition with indefinite length', 'InvalidEncoding', b(constructed, 0x80, element, 0, 0)],
    ['using composition with wrong tag', 'InvalidEncoding', b(constructed, 0x80, tlv(tag + 1, content), 0, 0)],
    ['replaced with NULL', 'ModifiedSignature', b(0x05, 0x00)],
    ...[tag - 2, tag - 1, tag + 1, tag + 2, 0xff].map((t): [string, string, Buffer] => [
      `changing tag value to 0x${t.toString(16)}`,
      'InvalidEncoding',
      tlv(t, content),
    ]),
    ['non-minimal tag (high tag number form)', 'InvalidEncoding', b(tag | 0x1f, tag === 0x30 ? 0x10 : 0x02, L, content)],
    ['dropping value', 'ModifiedSignature', b(tag, 0x00)],
    ['using composition (split in two)', 'InvalidEncoding', tlv(constructed, b(tlv(tag, content.subarray(0, 1)), tlv(tag, content.subarray(1))))],
    ['truncated: last byte removed', 'ModifiedSignature', tlv(tag, content.subarray(0, L - 1))],
    ['truncated: first byte removed', 'ModifiedSignature', tlv(tag, content.subarray(1))],
    ['of size 4100+ to check for overflows', 'ModifiedSignature', tlv(tag, b(content, Buffer.alloc(4097)))],
  ];
}

/** Wycheproof's mutations of one INTEGER (r or s) by value and by byte, `other` left as is. */
function integerMutations(x: bigint): Array<[string, string, Buffer]> {
  const content = intContent(x);
  const last = content.length - 1;
  const flipped = (k: number) => int(x ^ (1n << BigInt(k)));
  const out: Array<[string, string, Buffer]> = [
    ...[0, 32, 48, 64].map((k): [string, string, Buffer] => [`flipped bit ${k}`, 'ModifiedSignature', flipped(k)]),
    ['modifying first byte', 'ModifiedSignature', tlv(0x02, b(content[0]! ^ 0x02, content.subarray(1)))],
    ['modifying last byte', 'ModifiedSignature', tlv(0x02, b(content.subarray(0, last), content[last]! ^ 0x80))],
    ['leading ff', 'ModifiedSignature', tlv(0x02, b(0xff, content))],
    ['replaced by infinity', 'ModifiedSignature', b(0x09, 0x01, 0x80)],
    ['replaced with zero', 'ModifiedSignature', b(0x02, 0x01, 0x00)],
    ['replaced by x + n', 'RangeCheck', int(x + N)],
    ['replaced by x - n', 'RangeCheck', int(x - N)],
    ['replaced by x + 256 * n', 'RangeCheck', int(x + 256n * N)],
    ['replaced by -x', 'ModifiedInteger', int(-x)],
    ['replaced by -n - x', 'ModifiedInteger', int(-N - x)],
    ['replaced by x + 2**256', 'IntegerOverflow', int(x + (1n << 256n))],
    ['replaced by x - 2**256', 'IntegerOverflow', int(x - (1n << 256n))],
    ['replaced by x + 2**320', 'IntegerOverflow', int(x + (1n << 320n))],
  ];
  // Legacy encoders drop the leading zero of a value with its top bit set (a negative integer).
  if (x >> 255n === 1n) out.push(['missing leading zero (negative integer)', 'MissingZero', tlv(0x02, Buffer.from(x.toString(16).padStart(64, '0'), 'hex'))]);
  return out;
}

/** ASN.1 values of the wrong type in place of an integer (Wycheproof's InvalidTypesInSignature). */
const WRONG_TYPES: Array<[string, Buffer]> = [
  ['0.25', b(0x09, 0x03, 0x80, 0xfe, 0x01)],
  ['nan', b(0x09, 0x01, 0x42)],
  ['True', b(0x01, 0x01, 0x01)],
  ['False', b(0x01, 0x01, 0x00)],
  ['Null', b(0x05, 0x00)],
  ['empty UTF-8 string', b(0x0c, 0x00)],
  ['"0"', b(0x0c, 0x01, 0x30)],
  ['empty list', b(0x30, 0x00)],
  ['list containing 0', b(0x30, 0x03, 0x02, 0x01, 0x00)],
];

/**
 * Every Wycheproof mutation kind applied to the real signature (r, s); `other` is an honest
 * signature by the same key over another body.
 */
function mutationsOf(r: bigint, s: bigint, other: { r: bigint; s: bigint }): Mutation[] {
  const R = int(r);
  const S = int(s);
  const content = b(R, S);
  const out: Mutation[] = [];
  const add = (kind: string, flag: string, der: Buffer) => out.push({ kind, flag, der });

  for (const [kind, flag, element] of elementMutations(0x30, content)) add(`sequence [r, s]: ${kind}`, flag, element);
  for (const [kind, flag, element] of elementMutations(0x02, intContent(r))) add(`r: ${kind}`, flag, seq(element, S));
  for (const [kind, flag, element] of elementMutations(0x02, intContent(s))) add(`s: ${kind}`, flag, seq(R, element));
  for (const [kind, flag, element] of integerMutations(r)) add(`r: ${kind}`, flag, seq(element, S));
  for (const [kind, flag, element] of integerMutations(s)) add(`s: ${kind}`, flag, seq(R, element));
  add('r replaced by n - r', 'ModifiedInteger', sigOf(N - r, s));
  // A high-S twin (n - s) is valid and tested on its own; its legacy spelling is not.
  const highS = N - s;
  if (highS >> 255n === 1n) add('n - s without its leading zero', 'MissingZero', seq(R, tlv(0x02, Buffer.from(highS.toString(16).padStart(64, '0'), 'hex'))));

  // Indefinite lengths and extra elements of the sequence.
  add('indefinite length', 'BerEncodedSignature', b(0x30, 0x80, content, 0, 0));
  add('indefinite length with truncated delimiter', 'InvalidEncoding', b(0x30, 0x80, content, 0));
  add('indefinite length with additional element', 'ModifiedSignature', b(0x30, 0x80, content, 0x05, 0x00, 0, 0));
  add('indefinite length with truncated element', 'InvalidEncoding', b(0x30, 0x80, content.subarray(0, content.length - 1), 0, 0));
  add('indefinite length with garbage', 'InvalidEncoding', b(0x30, 0x80, content, 0, 0, 0xfe, 0x02, 0xbe, 0xef));
  add('indefinite length with nonempty EOC', 'InvalidEncoding', b(0x30, 0x80, content, 0x00, 0x02, 0xbe, 0xef));
  add('prepend empty sequence', 'ModifiedSignature', seq(b(0x30, 0x00), R, S));
  add('append empty sequence', 'ModifiedSignature', seq(R, S, b(0x30, 0x00)));
  add('append zero', 'ModifiedSignature', seq(R, S, b(0x02, 0x01, 0x00)));
  add('append garbage with high tag number', 'ModifiedSignature', seq(R, S, b(0xbf, 0x7f, 0x00)));
  add('append null with explicit tag', 'ModifiedSignature', seq(R, S, b(0xa0, 0x02, 0x05, 0x00)));
  add('append null with implicit tag', 'ModifiedSignature', seq(R, S, b(0xa0, 0x00)));
  add('sequence of sequence', 'ModifiedSignature', seq(seq(R, S)));
  add('truncated sequence: removed last element', 'ModifiedSignature', seq(R));
  add('repeating element in sequence', 'ModifiedSignature', seq(R, S, S));

  // Special values: r, s in {0, 1, -1, n, n - 1, n + 1, p, p + 1}.
  const special: Array<[string, bigint]> = [
    ['0', 0n],
    ['1', 1n],
    ['-1', -1n],
    ['n', N],
    ['n - 1', N - 1n],
    ['n + 1', N + 1n],
    ['p', P],
    ['p + 1', P + 1n],
  ];
  for (const [rn, rv] of special) for (const [sn, sv] of special) add(`special case values r=${rn} and s=${sn}`, 'InvalidSignature', sigOf(rv, sv));

  // Values of the wrong ASN.1 type.
  const typedR: Array<[string, bigint]> = [
    ['0', 0n],
    ['1', 1n],
    ['-1', -1n],
    ['n', N],
    ['p', P],
  ];
  for (const [rn, rv] of typedR) for (const [tn, t] of WRONG_TYPES) add(`incorrect types: r=${rn}, s=${tn}`, 'InvalidTypesInSignature', seq(int(rv), t));
  for (const [tn, t] of WRONG_TYPES) add(`incorrect types: r=${tn}, s=${tn}`, 'InvalidTypesInSignature', seq(t, t));
  for (const [tn, t] of WRONG_TYPES) add(`incorrect types: r=${tn}, s=0`, 'InvalidTypesInSignature', seq(t, int(0n)));

  // Honest values in the wrong places.
  add('r and s swapped', 'ModifiedSignature', sigOf(s, r));
  add('r and s of the signature of another body', 'ModifiedSignature', sigOf(other.r, other.s));
  add("r of another body's signature with this s", 'ModifiedSignature', sigOf(other.r, s));
  add("s of another body's signature with this r", 'ModifiedSignature', sigOf(r, other.s));
  add('whole signature truncated by one byte', 'InvalidEncoding', sigOf(r, s).subarray(0, -1));
  add('whole signature with one byte appended', 'InvalidEncoding', b(sigOf(r, s), 0x00));
  return out;
}

// ---------------------------------------------------------------------------------------
// Stamp headers
// ---------------------------------------------------------------------------------------

interface StampJson {
  publicKey: string;
  scheme: string;
  signature: string;
}
const decodeStamp = (header: string) => JSON.parse(Buffer.from(base64urlDecode(header)).toString('utf8')) as StampJson;
const encodeStamp = (stamp: unknown) => base64urlEncode(utf8ToBytes(JSON.stringify(stamp)));
/** The same stamp with another signature (hex). */
const withSignature = (header: string, signature: string) => encodeStamp({ ...decodeStamp(header), signature });

/** POST with the given header lines, duplicates kept as separate lines (node:http). */
function postWithHeaderLines(url: string, path: string, body: string, lines: Array<[string, string]>): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method: 'POST' }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: new Headers(), body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.setHeader('content-type', 'application/json');
    const grouped = new Map<string, string[]>();
    for (const [name, value] of lines) grouped.set(name, [...(grouped.get(name) ?? []), value]);
    for (const [name, values] of grouped) req.setHeader(name, values.length === 1 ? values[0]! : values);
    req.end(body);
  });
}

/** Run `tasks` a few at a time (the machine is shared). */
async function inBatches<T>(tasks: Array<() => Promise<T>>, size = 16): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < tasks.length; i += size) out.push(...(await Promise.all(tasks.slice(i, i + size).map((t) => t()))));
  return out;
}

describe('stamps under attack (PGlite, real HTTP)', () => {
  /** The server clock: frozen at a value while a test needs exact edges, else the wall clock. */
  let frozen: number | undefined;
  const clock = () => frozen ?? Date.now();
  let s: TestServer;
  let url: string;
  let orgA: string;

  beforeAll(async () => {
    s = await startTestServer('pglite', { clock });
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    const address = s.app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    orgA = s.org.organizationId;
  });
  afterAll(async () => s?.dispose());

  const tagBody = (name: string, opts: { organizationId?: string; timestampMs?: string } = {}) =>
    envelopeText('create_user_tag', opts.organizationId ?? orgA, { userTagName: name, userIds: [] }, opts.timestampMs ?? String(clock()));
  const post = (path: string, body: string, stamp: string) => sendRaw(url, path, body, { 'x-stamp': stamp });
  const submit = (op: OperationName, body: string, stamp: string) => post(operations[op].path, body, stamp);
  const tagsNamed = async (name: string) => (await s.store.db.select().from(userTags).where(eq(userTags.name, name))).length;
  /** A submit stamped honestly by `key` (a positive control or a setup step). */
  const run = async (op: OperationName, parameters: unknown, key: { publicKey: string; privateKey: string } = s.org.apiKey, organizationId = orgA) => {
    const body = envelopeText(op, organizationId, parameters, String(clock()));
    const reply = await submit(op, body, stampApiKey(body, key));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.activity as { id: string; result: Record<string, any> };
  };

  it('given every Wycheproof ecdsa_secp256r1_sha256 vector, when checked by the server verifier (verifyP256Node) and by verifyApiKeyStamp (noble and node:crypto), then every invalid one is false and every valid one true', () => {
    const file = JSON.parse(readFileSync(`${VECTORS}/ecdsa_secp256r1_sha256_test.json`, 'utf8')) as {
      testGroups: Array<{
        publicKey: { uncompressed: string };
        tests: Array<{ tcId: number; comment: string; msg: string; sig: string; result: 'valid' | 'invalid' }>;
      }>;
    };
    const wrong: string[] = [];
    let invalid = 0;
    let valid = 0;
    for (const group of file.testGroups) {
      for (const t of group.tests) {
        const msg = new Uint8Array(Buffer.from(t.msg, 'hex'));
        const stamp = { publicKey: group.publicKey.uncompressed, scheme: 'SIGNATURE_SCHEME_TK_API_P256' as const, signature: t.sig };
        const verdicts = [
          verifyP256Node(group.publicKey.uncompressed, msg, t.sig),
          verifyApiKeyStamp(msg, stamp),
          verifyApiKeyStamp(msg, stamp, { verifyP256: verifyP256Node }),
        ];
        const want = t.result === 'valid';
        if (verdicts.some((v) => v !== want)) wrong.push(`tc ${t.tcId} (${t.comment}): ${verdicts.join('/')}`);
        if (want) valid += 1;
        else {
          invalid += 1;
          // The verdict as the server would answer it: 200 if accepted, else its 401.
          tally.record('stamps', { status: verdicts.some(Boolean) ? 200 : 401 });
        }
      }
    }
    expect({ invalid, valid }).toEqual({ invalid: 310, valid: 174 });
    tally.violations('stamps', 'Wycheproof P-256 verdicts', wrong);
  });

  it('given every Wycheproof ed25519 vector, when checked by verifyApiKeyStamp with the ed25519 scheme, then every invalid one is false and every valid one true', () => {
    const file = JSON.parse(readFileSync(`${VECTORS}/ed25519_test.json`, 'utf8')) as {
      testGroups: Array<{ publicKey: { pk: string }; tests: Array<{ tcId: number; comment: string; msg: string; sig: string; result: 'valid' | 'invalid' }> }>;
    };
    const wrong: string[] = [];
    for (const group of file.testGroups) {
      for (const t of group.tests) {
        const verdict = verifyApiKeyStamp(new Uint8Array(Buffer.from(t.msg, 'hex')), {
          publicKey: group.publicKey.pk,
          scheme: 'SIGNATURE_SCHEME_TK_API_ED25519',
          signature: t.sig,
        });
        if (verdict !== (t.result === 'valid')) wrong.push(`tc ${t.tcId} (${t.comment})`);
        if (t.result === 'invalid') tally.record('stamps', { status: verdict ? 200 : 401 });
      }
    }
    tally.violations('stamps', 'Wycheproof ed25519 verdicts', wrong);
  });

  it("given a real stamp over a real body, when its DER signature is mutated in every Wycheproof kind (lengths, BER, tags, leading zeros, r/s + n, special values, wrong types, swapped, another body's r and s), then each is a 401 and only the untouched stamp is accepted", async () => {
    // A body whose r has its top bit set, so that the missing-leading-zero kind applies to r too.
    let body = '';
    let stamp = '';
    for (let i = 0; ; i += 1) {
      body = tagBody(`wycheproof-${i}-${Date.now()}`);
      stamp = stampApiKey(body, s.org.apiKey);
      if (parseDer(decodeStamp(stamp).signature).r >> 255n === 1n) break;
    }
    const { r, s: sv } = parseDer(decodeStamp(stamp).signature);
    const other = parseDer(decodeStamp(stampApiKey(tagBody('another body'), s.org.apiKey)).signature);
    const mutations = mutationsOf(r, sv, other);

    // Every flag of Wycheproof's invalid vectors that a mutation of a real signature can carry
    // (ArithmeticError and PointDuplication need crafted keys: the vector run above has them).
    const file = JSON.parse(readFileSync(`${VECTORS}/ecdsa_secp256r1_sha256_test.json`, 'utf8')) as {
      testGroups: Array<{ tests: Array<{ result: string; flags: string[] }> }>;
    };
    const wycheproofFlags = new Set(file.testGroups.flatMap((g) => g.tests.filter((t) => t.result === 'invalid').flatMap((t) => t.flags)));
    const covered = new Set(mutations.map((m) => m.flag));
    expect([...wycheproofFlags].filter((f) => !covered.has(f) && f !== 'ArithmeticError' && f !== 'PointDuplication')).toEqual([]);

    const original = sigOf(r, sv).toString('hex');
    const highS = sigOf(r, N - sv).toString('hex');
    const distinct = mutations.filter((m) => m.der.toString('hex') !== original && m.der.toString('hex') !== highS);
    expect(distinct).toHaveLength(mutations.length);

    const replies = await inBatches(mutations.map((m) => () => submit('create_user_tag', body, withSignature(stamp, m.der.toString('hex')))));
    mutations.forEach((m, i) => {
      tally.refused('stamps', `DER ${m.kind} [${m.flag}]`, replies[i]!, 401, BAD_STAMP);
    });
    expect(mutations.length).toBeGreaterThan(250);

    // Control: the untouched stamp is accepted, once.
    expect((await submit('create_user_tag', body, stamp)).status).toBe(200);
    expect(await tagsNamed(JSON.parse(body).parameters.userTagName)).toBe(1);
  });

  it('given a real stamp, when its signature is replaced by the high-S twin (r, n - s), then the server accepts it (valid ECDSA) but it is the same activity: the body, not the signature, is the fingerprint', async () => {
    const name = `high-s-${Date.now()}`;
    const body = tagBody(name);
    const stamp = stampApiKey(body, s.org.apiKey);
    const { r, s: sv } = parseDer(decodeStamp(stamp).signature);
    const twin = withSignature(stamp, sigOf(r, N - sv).toString('hex'));

    const first = await submit('create_user_tag', body, stamp);
    const second = await submit('create_user_tag', body, twin);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.activity.id).toBe(first.body.activity.id);

    // High-S first, then the low-S original, on another body.
    const name2 = `${name}-b`;
    const body2 = tagBody(name2);
    const stamp2 = stampApiKey(body2, s.org.apiKey);
    const parsed2 = parseDer(decodeStamp(stamp2).signature);
    const high = await submit('create_user_tag', body2, withSignature(stamp2, sigOf(parsed2.r, N - parsed2.s).toString('hex')));
    const low = await submit('create_user_tag', body2, stamp2);
    expect([high.status, low.status]).toEqual([200, 200]);
    expect(low.body.activity.id).toBe(high.body.activity.id);
    tally.duplicates('stamps', 'high-S twin of a stamp', (await tagsNamed(name)) - 1 + (await tagsNamed(name2)) - 1);
  });

  it('given a stamped body, when the body is changed after signing (one byte, whitespace, key order, a field, the organization, the type, the timestamp, an escape), then each is refused and the original is then accepted once', async () => {
    const other = await addOrganization(s, 'B for stamps');
    const name = `changed-${Date.now()}`;
    const ts = String(clock());
    const params = { userTagName: name, userIds: [] as string[] };
    const body = tagBody(name, { timestampMs: ts });
    const stamp = stampApiKey(body, s.org.apiKey);
    const flipped = body.replace(name, `${name.slice(0, -1)}${name.endsWith('0') ? '1' : '0'}`);
    const cases: Array<[string, string, number, string]> = [
      ['one byte changed', flipped, 401, 'ERR_STAMP_INVALID'],
      ['whitespace added', body.replace('{', '{ '), 401, 'ERR_STAMP_INVALID'],
      ['trailing newline', `${body}\n`, 401, 'ERR_STAMP_INVALID'],
      [
        'key order changed',
        JSON.stringify({ organizationId: orgA, type: 'ACTIVITY_TYPE_CREATE_USER_TAG', timestampMs: ts, parameters: params }),
        401,
        'ERR_STAMP_INVALID',
      ],
      ['an escape spelling of the same text', body.replace('"type"', '"typ\\u0065"'), 401, 'ERR_STAMP_INVALID'],
      ['an allowed field added', body.replace(/}$/, ',"generateAppProofs":false}'), 401, 'ERR_STAMP_INVALID'],
      ['an unknown field added', body.replace(/}$/, ',"extra":1}'), 400, 'ERR_INVALID_REQUEST'],
      ['organizationId changed', body.replace(orgA, other.organizationId), 401, 'ERR_STAMP_INVALID'],
      ['timestampMs changed by 1 ms', body.replace(ts, String(Number(ts) - 1)), 401, 'ERR_STAMP_INVALID'],
      ['type changed (same path)', body.replace('ACTIVITY_TYPE_CREATE_USER_TAG', 'ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG'), 400, 'ERR_ACTIVITY_TYPE_MISMATCH'],
    ];
    for (const [what, changed, status, code] of cases)
      tally.refused('stamps', `body changed after signing: ${what}`, await submit('create_user_tag', changed, stamp), status, code);

    // Two operations with the same parameters: the type swapped and posted on its own path.
    const importBody = envelopeText('init_import_wallet', orgA, { userId: s.org.userId }, ts);
    const importStamp = stampApiKey(importBody, s.org.apiKey);
    const swapped = importBody.replace('ACTIVITY_TYPE_INIT_IMPORT_WALLET', 'ACTIVITY_TYPE_INIT_IMPORT_PRIVATE_KEY');
    tally.refused(
      'stamps',
      'type changed to a twin operation on its path',
      await submit('init_import_private_key', swapped, importStamp),
      401,
      'ERR_STAMP_INVALID',
    );

    expect(await tagsNamed(name)).toBe(0);
    expect((await submit('create_user_tag', body, stamp)).status).toBe(200);
    expect(await tagsNamed(name)).toBe(1);
  });

  it('given malformed or confused stamp headers (not base64url, standard base64, bad padding, missing fields, unknown or wrong scheme, both headers, WebAuthn garbage, empty, over 10 kB), then each is a 401 with its code', async () => {
    const body = tagBody(`headers-${Date.now()}`);
    const stamp = stampApiKey(body, s.org.apiKey);
    const json = decodeStamp(stamp);
    const k1 = generateSecp256k1KeyPair();
    // A secp256k1 key of the root user (the external-wallet scheme), to confuse with P-256.
    await run('create_api_keys', { userId: s.org.userId, apiKeys: [{ apiKeyName: 'k1', publicKey: k1.publicKey, curveType: 'API_KEY_CURVE_SECP256K1' }] });
    const k1Stamp = stampApiKey(body, { privateKey: k1.privateKey, scheme: 'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191' });
    const underScheme = (scheme: StampScheme | string, from = json) => encodeStamp({ ...from, scheme });
    const ed = generateEd25519KeyPair();

    const rawJson = (text: string) => base64urlEncode(utf8ToBytes(text));
    const passkeyStamp = JSON.parse(new SoftwareAuthenticator().stamp(body)) as Record<string, string>;
    const webauthnTwice = JSON.stringify(passkeyStamp).replace('{', `{"credentialId":"${Buffer.from('someone else').toString('base64url')}",`);
    // Base64 of ASCII JSON never needs '+' or '/', so the standard alphabet shows only as a substitution.
    const standardAlphabet = `${stamp.slice(0, 10)}+/${stamp.slice(12)}`;
    // One '=' more than correct padding: the length is then never a multiple of 4.
    const wronglyPadded = `${stamp}${'='.repeat(((4 - (stamp.length % 4)) % 4) + 1)}`;

    const cases: Array<[string, Array<[string, string]>, string]> = [
      ['not base64url', [['x-stamp', 'not a stamp!!']], 'ERR_STAMP_MALFORMED'],
      ['standard base64 alphabet (+ and /)', [['x-stamp', standardAlphabet]], 'ERR_STAMP_MALFORMED'],
      ['wrong padding', [['x-stamp', wronglyPadded]], 'ERR_STAMP_MALFORMED'],
      ['base64url of non-JSON', [['x-stamp', base64urlEncode(utf8ToBytes('publicKey=02..'))]], 'ERR_STAMP_MALFORMED'],
      ['JSON array', [['x-stamp', encodeStamp([json.publicKey, json.scheme, json.signature])]], 'ERR_STAMP_MALFORMED'],
      ['JSON null', [['x-stamp', encodeStamp(null)]], 'ERR_STAMP_MALFORMED'],
      ['JSON string', [['x-stamp', encodeStamp(stamp)]], 'ERR_STAMP_MALFORMED'],
      ['missing publicKey', [['x-stamp', encodeStamp({ scheme: json.scheme, signature: json.signature })]], 'ERR_STAMP_MALFORMED'],
      ['missing scheme', [['x-stamp', encodeStamp({ publicKey: json.publicKey, signature: json.signature })]], 'ERR_STAMP_MALFORMED'],
      ['missing signature', [['x-stamp', encodeStamp({ publicKey: json.publicKey, scheme: json.scheme })]], 'ERR_STAMP_MALFORMED'],
      ['an extra field', [['x-stamp', encodeStamp({ ...json, organizationId: orgA })]], 'ERR_STAMP_MALFORMED'],
      [
        'a __proto__ field',
        [['x-stamp', base64urlEncode(utf8ToBytes(JSON.stringify(json).replace('{', '{"__proto__":{"scheme":"x"},')))]],
        'ERR_STAMP_MALFORMED',
      ],
      // The header is JSON too: a key given twice means one signer to a reader keeping the first and another to one keeping the last.
      [
        'publicKey given twice (a stranger first)',
        [
          [
            'x-stamp',
            rawJson(
              `{"publicKey":"${generateP256KeyPair().publicKey}","publicKey":"${json.publicKey}","scheme":"${json.scheme}","signature":"${json.signature}"}`,
            ),
          ],
        ],
        'ERR_STAMP_MALFORMED',
      ],
      [
        'signature given twice',
        [['x-stamp', rawJson(`{"publicKey":"${json.publicKey}","scheme":"${json.scheme}","signature":"00","signature":"${json.signature}"}`)]],
        'ERR_STAMP_MALFORMED',
      ],
      [
        'publicKey given twice, once escaped',
        [
          [
            'x-stamp',
            rawJson(
              `{"publicK\\u0065y":"${generateP256KeyPair().publicKey}","publicKey":"${json.publicKey}","scheme":"${json.scheme}","signature":"${json.signature}"}`,
            ),
          ],
        ],
        'ERR_STAMP_MALFORMED',
      ],
      [
        'a NUL in the scheme',
        [['x-stamp', rawJson(`{"publicKey":"${json.publicKey}","scheme":"${json.scheme}\\u0000","signature":"${json.signature}"}`)]],
        'ERR_STAMP_MALFORMED',
      ],
      ['numbers instead of hex', [['x-stamp', encodeStamp({ ...json, signature: 12345 })]], 'ERR_STAMP_MALFORMED'],
      ['odd-length hex signature', [['x-stamp', encodeStamp({ ...json, signature: `${json.signature}0` })]], 'ERR_STAMP_MALFORMED'],
      ['0x-prefixed signature', [['x-stamp', encodeStamp({ ...json, signature: `0x${json.signature}` })]], 'ERR_STAMP_MALFORMED'],
      ['empty signature', [['x-stamp', encodeStamp({ ...json, signature: '' })]], 'ERR_STAMP_MALFORMED'],
      ['unknown scheme', [['x-stamp', underScheme('SIGNATURE_SCHEME_TK_API_RSA')]], 'ERR_STAMP_MALFORMED'],
      ['scheme in lower case', [['x-stamp', underScheme('signature_scheme_tk_api_p256')]], 'ERR_STAMP_MALFORMED'],
      ['P-256 key and signature under the secp256k1 scheme', [['x-stamp', underScheme('SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191')]], 'ERR_STAMP_INVALID'],
      [
        'secp256k1 key and signature under the P-256 scheme',
        [['x-stamp', underScheme('SIGNATURE_SCHEME_TK_API_P256', decodeStamp(k1Stamp))]],
        'ERR_STAMP_INVALID',
      ],
      ['P-256 key and signature under the ed25519 scheme', [['x-stamp', underScheme('SIGNATURE_SCHEME_TK_API_ED25519')]], 'ERR_STAMP_INVALID'],
      [
        'ed25519 signature by a stranger under the P-256 key',
        [
          [
            'x-stamp',
            encodeStamp({
              ...json,
              scheme: 'SIGNATURE_SCHEME_TK_API_ED25519',
              signature: decodeStamp(stampApiKey(body, { privateKey: ed.privateKey, scheme: 'SIGNATURE_SCHEME_TK_API_ED25519' })).signature,
            }),
          ],
        ],
        'ERR_STAMP_INVALID',
      ],
      ['a valid signature under another key', [['x-stamp', encodeStamp({ ...json, publicKey: generateP256KeyPair().publicKey })]], 'ERR_STAMP_INVALID'],
      ['an uncompressed public key off the curve', [['x-stamp', encodeStamp({ ...json, publicKey: `04${'11'.repeat(64)}` })]], 'ERR_STAMP_INVALID'],
      [
        'a public key whose x is the field prime',
        [['x-stamp', encodeStamp({ ...json, publicKey: `04${'ffffffff00000001000000000000000000000000ffffffffffffffffffffffff'}${'00'.repeat(32)}` })]],
        'ERR_STAMP_INVALID',
      ],
      ['a compressed public key with no point', [['x-stamp', encodeStamp({ ...json, publicKey: `02${'ff'.repeat(32)}` })]], 'ERR_STAMP_INVALID'],
      ['empty X-Stamp', [['x-stamp', '']], 'ERR_STAMP_MALFORMED'],
      ['X-Stamp over 10 kB', [['x-stamp', encodeStamp({ ...json, signature: json.signature + '00'.repeat(4000) })]], 'ERR_STAMP_MALFORMED'],
      ['X-Stamp of 15 kB', [['x-stamp', 'A'.repeat(15_000)]], 'ERR_STAMP_MALFORMED'],
      [
        'two X-Stamp lines (a valid one first)',
        [
          ['x-stamp', stamp],
          ['x-stamp', stamp],
        ],
        'ERR_STAMP_MALFORMED',
      ],
      [
        'X-Stamp and X-Stamp-WebAuthn together (both well-formed)',
        [
          ['x-stamp', stamp],
          ['x-stamp-webauthn', new SoftwareAuthenticator().stamp(body)],
        ],
        'ERR_STAMP_MALFORMED',
      ],
      [
        'valid X-Stamp with a garbage X-Stamp-WebAuthn',
        [
          ['x-stamp', stamp],
          ['x-stamp-webauthn', '{garbage'],
        ],
        'ERR_STAMP_MALFORMED',
      ],
      ['X-Stamp-WebAuthn not JSON', [['x-stamp-webauthn', 'garbage']], 'ERR_STAMP_MALFORMED'],
      ['X-Stamp-WebAuthn empty', [['x-stamp-webauthn', '']], 'ERR_STAMP_MALFORMED'],
      ['X-Stamp-WebAuthn array', [['x-stamp-webauthn', '[]']], 'ERR_STAMP_MALFORMED'],
      ['X-Stamp-WebAuthn missing fields', [['x-stamp-webauthn', JSON.stringify({ credentialId: 'AAAA' })]], 'ERR_STAMP_MALFORMED'],
      [
        'X-Stamp-WebAuthn fields not base64url',
        [['x-stamp-webauthn', JSON.stringify({ authenticatorData: '!!', clientDataJson: '!!', credentialId: '!!', signature: '!!' })]],
        'ERR_STAMP_MALFORMED',
      ],
      ['X-Stamp-WebAuthn with credentialId given twice', [['x-stamp-webauthn', webauthnTwice]], 'ERR_STAMP_MALFORMED'],
      [
        'X-Stamp-WebAuthn of 15 kB',
        [['x-stamp-webauthn', JSON.stringify({ authenticatorData: 'A'.repeat(15_000), clientDataJson: 'AA', credentialId: 'AA', signature: 'AA' })]],
        'ERR_STAMP_INVALID',
      ],
      ['X-Stamp-WebAuthn for another body', [['x-stamp-webauthn', new SoftwareAuthenticator().stamp(`${body} `)]], 'ERR_STAMP_INVALID'],
      ['X-Stamp-WebAuthn of an unknown passkey', [['x-stamp-webauthn', new SoftwareAuthenticator().stamp(body)]], 'ERR_STAMP_KEY_UNKNOWN'],
    ];
    const replies = await inBatches(
      cases.map(
        ([, lines]) =>
          () =>
            postWithHeaderLines(url, operations.create_user_tag.path, body, lines),
      ),
    );
    cases.forEach(([what, , code], i) => {
      tally.refused('stamps', `stamp header: ${what}`, replies[i]!, 401, code);
    });
    // Beyond Node's 16 kB header limit the HTTP layer answers (431) before the application can
    // give its error body: refused, though without a stable code (see the report).
    tally.refused('stamps', 'X-Stamp of 17 kB', await postWithHeaderLines(url, operations.create_user_tag.path, body, [['x-stamp', 'A'.repeat(17_000)]]), 431);
    tally.refused('stamps', 'no stamp header', await sendRaw(url, operations.create_user_tag.path, body), 401, 'ERR_STAMP_MISSING');

    // The secp256k1 key under its own scheme is accepted (the confusions above were the only fault).
    const k1Body = tagBody(`k1-${Date.now()}`);
    expect(
      (await submit('create_user_tag', k1Body, stampApiKey(k1Body, { privateKey: k1.privateKey, scheme: 'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191' }))).status,
    ).toBe(200);
  });

  it('given the same stamp spelled differently (upper-case hex, base64url with correct padding), then it decodes to the same key and signature and answers the same activity: never a second effect', async () => {
    // A body whose stamp needs padding, so that the padded spelling differs from the stamp.
    let name = '';
    let body = '';
    let stamp = '';
    for (let i = 0; stamp.length % 4 === 0; i += 1) {
      name = `spelling-${Date.now()}-${i}`;
      body = tagBody(name);
      stamp = stampApiKey(body, s.org.apiKey);
    }
    const json = decodeStamp(stamp);
    const first = await submit('create_user_tag', body, stamp);
    expect(first.status).toBe(200);
    const spellings = [
      encodeStamp({ ...json, signature: json.signature.toUpperCase() }),
      encodeStamp({ ...json, publicKey: json.publicKey.toUpperCase() }),
      `${stamp}${'='.repeat((4 - (stamp.length % 4)) % 4)}`,
    ];
    for (const spelled of spellings) {
      const reply = await submit('create_user_tag', body, spelled);
      expect(reply.status).toBe(200);
      expect(reply.body.activity.id).toBe(first.body.activity.id);
    }
    tally.duplicates('stamps', 'alternative spellings of one stamp', (await tagsNamed(name)) - 1);
  });

  describe('keys of the wrong organization', () => {
    let orgB: Awaited<ReturnType<typeof addOrganization>>;
    let subKey: EcKeyPair;
    let subOrg: string;
    let siblingOrg: string;

    beforeAll(async () => {
      orgB = await addOrganization(s, 'B');
      subKey = generateP256KeyPair();
      const root = (key: EcKeyPair) => ({
        userName: 'sub root',
        apiKeys: [{ apiKeyName: 'sub', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' as const }],
        authenticators: [],
        oauthProviders: [],
      });
      subOrg = (await run('create_sub_organization', { subOrganizationName: 'A sub', rootUsers: [root(subKey)], rootQuorumThreshold: 1 })).result
        .createSubOrganizationResultV8.subOrganizationId;
      siblingOrg = (await run('create_sub_organization', { subOrganizationName: 'A sub 2', rootUsers: [root(generateP256KeyPair())], rootQuorumThreshold: 1 }))
        .result.createSubOrganizationResultV8.subOrganizationId;
    });

    const stampedSubmit = (key: { publicKey: string; privateKey: string }, organizationId: string) => {
      const body = tagBody(`cross-${Math.random().toString(36).slice(2)}`, { organizationId });
      return submit('create_user_tag', body, stampApiKey(body, key));
    };
    const stampedQuery = (key: { publicKey: string; privateKey: string }, name: 'whoami' | 'list_users' | 'list_wallets', organizationId: string) => {
      const body = JSON.stringify({ organizationId });
      return post(`/public/v1/query/${name}`, body, stampApiKey(body, key));
    };

    it("given B's root key, a sub-organization's key and a sibling's, when each acts on an organization it does not belong to, then every submit and query is 401 ERR_STAMP_KEY_UNKNOWN; the parent's key on its sub-organization is the accepted control", async () => {
      const attempts: Array<[string, { publicKey: string; privateKey: string }, string]> = [
        ["B's root key on A", orgB.client.key, orgA],
        ["B's root key on A's sub-organization", orgB.client.key, subOrg],
        ["A's root key on B", s.org.apiKey, orgB.organizationId],
        ["a sub-organization's key on its parent", subKey, orgA],
        ["a sub-organization's key on its sibling", subKey, siblingOrg],
        ["a sub-organization's key on B", subKey, orgB.organizationId],
      ];
      for (const [what, key, organizationId] of attempts) {
        tally.refused('stamps', `${what} (submit)`, await stampedSubmit(key, organizationId), 401, 'ERR_STAMP_KEY_UNKNOWN');
        for (const q of ['whoami', 'list_users', 'list_wallets'] as const)
          tally.refused('stamps', `${what} (${q})`, await stampedQuery(key, q, organizationId), 401, 'ERR_STAMP_KEY_UNKNOWN');
      }
      // Positive controls: the parent acts on its sub-organization; the sub-organization on itself.
      expect((await stampedSubmit(s.org.apiKey, subOrg)).status).toBe(200);
      const users = await stampedQuery(s.org.apiKey, 'list_users', subOrg);
      expect(users.status).toBe(200);
      expect(users.body.users.map((u: { userName: string }) => u.userName)).toEqual(['sub root']);
      expect((await stampedSubmit(subKey, subOrg)).status).toBe(200);
    });
  });

  describe('keys that stopped being valid', () => {
    afterAll(() => {
      frozen = undefined;
    });

    it('given an API key with expirationSeconds 1, when it stamps after its expiry (exactly at it and later), then submits and queries are 401 ERR_API_KEY_EXPIRED; before, it was accepted', async () => {
      const issuedAt = Date.now();
      frozen = issuedAt;
      const key = generateP256KeyPair();
      await run('create_api_keys', {
        userId: s.org.userId,
        apiKeys: [{ apiKeyName: 'short', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256', expirationSeconds: '1' }],
      });
      const whoami = JSON.stringify({ organizationId: orgA });
      const stampedTag = () => {
        const body = tagBody(`expiring-${frozen}`);
        return submit('create_user_tag', body, stampApiKey(body, key));
      };
      expect((await stampedTag()).status).toBe(200);
      // The key expires at issuedAt + 1 s: at that very millisecond it is already refused.
      for (const later of [1_000, 1_001, 60_000, 3_600_000]) {
        frozen = issuedAt + later;
        tally.refused('stamps', `expired key (+${later} ms, submit)`, await stampedTag(), 401, 'ERR_API_KEY_EXPIRED');
        tally.refused(
          'stamps',
          `expired key (+${later} ms, query)`,
          await post('/public/v1/query/whoami', whoami, stampApiKey(whoami, key)),
          401,
          'ERR_API_KEY_EXPIRED',
        );
      }
      frozen = undefined;
    });

    it('given a deleted API key and a session key removed by invalidateExisting, when they stamp, then each is 401 ERR_STAMP_KEY_UNKNOWN, and the surviving session key is accepted', async () => {
      const deleted = generateP256KeyPair();
      const created = await run('create_api_keys', {
        userId: s.org.userId,
        apiKeys: [{ apiKeyName: 'to delete', publicKey: deleted.publicKey, curveType: 'API_KEY_CURVE_P256' }],
      });
      const apiKeyIds = created.result.createApiKeysResult.apiKeyIds as string[];
      await run('delete_api_keys', { userId: s.org.userId, apiKeyIds });

      const first = generateP256KeyPair();
      const second = generateP256KeyPair();
      await run('stamp_login', { publicKey: first.publicKey });
      const beforeInvalidation = tagBody(`session-1-${Date.now()}`);
      expect((await submit('create_user_tag', beforeInvalidation, stampApiKey(beforeInvalidation, first))).status).toBe(200);
      await run('stamp_login', { publicKey: second.publicKey, invalidateExisting: true });

      for (const [what, key] of [
        ['deleted key', deleted],
        ['session key removed by invalidateExisting', first],
      ] as const) {
        const body = tagBody(`${what}-${Date.now()}`);
        tally.refused('stamps', `${what} (submit)`, await submit('create_user_tag', body, stampApiKey(body, key)), 401, 'ERR_STAMP_KEY_UNKNOWN');
        const query = JSON.stringify({ organizationId: orgA });
        tally.refused('stamps', `${what} (query)`, await post('/public/v1/query/whoami', query, stampApiKey(query, key)), 401, 'ERR_STAMP_KEY_UNKNOWN');
      }
      const after = tagBody(`session-2-${Date.now()}`);
      expect((await submit('create_user_tag', after, stampApiKey(after, second))).status).toBe(200);
    });
  });

  it('given the server clock frozen, when timestampMs is exactly 1 h old or 5 min ahead, then it is accepted; 1 ms beyond either edge, 0, far future and non-canonical values are refused naming timestampMs', async () => {
    const now = Date.now();
    frozen = now;
    try {
      const HOUR = 3_600_000;
      const SKEW = 300_000;
      const signed = (ts: string, n: number) => {
        const body = tagBody(`liveness-${now}-${n}`, { timestampMs: ts });
        return submit('create_user_tag', body, stampApiKey(body, s.org.apiKey));
      };
      expect((await signed(String(now - HOUR), 1)).status).toBe(200);
      expect((await signed(String(now + SKEW), 2)).status).toBe(200);
      const outOfWindow = [
        String(now - HOUR - 1),
        String(now + SKEW + 1),
        String(now - 10 * HOUR),
        '0',
        '1',
        String(now + 365 * 24 * HOUR),
        '9007199254740991',
        '9007199254740993',
        '9999999999999999',
      ];
      const notCanonical = ['-1', '-0', `-${now}`, '00', `0${now}`, `${now}.0`, '1e15', '', ' 1', '99999999999999999', `${now}`.padStart(20, '9')];
      let n = 3;
      for (const ts of outOfWindow) {
        const reply = await signed(ts, n++);
        tally.refused('stamps', `timestampMs ${ts}`, reply, 400, 'ERR_TIMESTAMP_OUT_OF_WINDOW');
        expect(reply.body.details[0].field).toBe('timestampMs');
      }
      for (const ts of notCanonical) {
        const reply = await signed(ts, n++);
        tally.refused('stamps', `timestampMs ${JSON.stringify(ts)}`, reply, 400, 'ERR_INVALID_REQUEST');
        expect(reply.body.details[0].field).toBe('timestampMs');
      }
      const numeric = tagBody(`liveness-${now}-number`).replace(/"timestampMs":"(\d+)"/, '"timestampMs":$1');
      tally.refused(
        'stamps',
        'timestampMs as a JSON number',
        await submit('create_user_tag', numeric, stampApiKey(numeric, s.org.apiKey)),
        400,
        'ERR_INVALID_REQUEST',
      );
    } finally {
      frozen = undefined;
    }
  });

  it('given a stamp valid for one path, when it is replayed on another submit path, an unknown path or a query, then each is refused before anything runs', async () => {
    const name = `path-${Date.now()}`;
    const body = tagBody(name);
    const stamp = stampApiKey(body, s.org.apiKey);
    tally.refused(
      'stamps',
      'create_user_tag stamp on create_private_key_tag',
      await submit('create_private_key_tag', body, stamp),
      400,
      'ERR_ACTIVITY_TYPE_MISMATCH',
    );
    tally.refused('stamps', 'create_user_tag stamp on update_user_tag', await submit('update_user_tag', body, stamp), 400, [
      'ERR_ACTIVITY_TYPE_MISMATCH',
      'ERR_INVALID_REQUEST',
    ]);
    tally.refused('stamps', 'submit stamp on query whoami', await post('/public/v1/query/whoami', body, stamp), 400, 'ERR_INVALID_REQUEST');
    tally.refused('stamps', 'submit stamp on query list_user_tags', await post('/public/v1/query/list_user_tags', body, stamp), 400, 'ERR_INVALID_REQUEST');
    tally.refused('stamps', 'submit stamp on an unknown path', await post('/public/v1/submit/create_user_tags', body, stamp), 404, 'ERR_ROUTE_NOT_FOUND');

    const vote = envelopeText('approve_activity', orgA, { fingerprint: '0'.repeat(64) }, String(clock()));
    const voteStamp = stampApiKey(vote, s.org.apiKey);
    tally.refused('stamps', 'approve_activity stamp on reject_activity', await submit('reject_activity', vote, voteStamp), 400, 'ERR_ACTIVITY_TYPE_MISMATCH');
    tally.refused(
      'stamps',
      'approve_activity retyped as reject_activity',
      await submit('reject_activity', vote.replace('APPROVE', 'REJECT'), voteStamp),
      401,
      'ERR_STAMP_INVALID',
    );

    // A query stamp carried to a submit.
    const query = JSON.stringify({ organizationId: orgA });
    tally.refused('stamps', 'query stamp on a submit', await submit('create_user_tag', query, stampApiKey(query, s.org.apiKey)), 400, 'ERR_INVALID_REQUEST');
    expect(await tagsNamed(name)).toBe(0);
  });
});
