/**
 * Parsing attacks, in bulk, on both surfaces of one listening server: the activity API (a
 * stamped submit and two stamped queries) and the proxy (account, otp_init_v2, otp_verify_v2,
 * signup_v2, wallet_kit_config). Bodies travel as raw bytes over real HTTP (support/http.ts),
 * stamps sign exactly those bytes, so nothing is re-serialized on the way: what the parser
 * sees is what an attacker sent. The same defect must get the same status and code
 * everywhere (one parser, request-body.ts), and never a 5xx; a random fuzz closes the file.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateP256KeyPair, stampApiKey } from '@walletkit/crypto';
import { operations, proxyEndpoints, queries, SubmitEnvelope, type ProxyEndpointName } from '@walletkit/protocol';
import { addOrganization } from '../support/members';
import { startProxyServer, type ProxyTestServer } from '../support/proxy';
import { ETH_WALLET, freshEmail } from './support/flows';
import { proxyHeaders, sendRaw, sendStamped, type RawReply } from './support/http';
import { adversarialTally, errorCodeOf } from './support/tally';

const tally = adversarialTally('parsing');
const APP = 'https://app.example';

let s: ProxyTestServer;

beforeAll(async () => {
  s = await startProxyServer('pglite', { proxy: { origins: [APP] }, origin: APP });
});
afterAll(async () => s?.dispose());

/** One endpoint a body can be thrown at. */
interface Surface {
  name: string;
  path: string;
  /** Activity API (stamped by the organization's root key) or proxy (the allowed browser). */
  stamped: boolean;
  /** A fresh honest body, as a value (hostile fields are injected into it). */
  valid(): Record<string, unknown>;
  /** The schema an accepted body must satisfy (the fuzz's oracle, independent of the server). */
  accepts(value: unknown): boolean;
}

let seq = 0;
/** A name nobody used in this run. */
const uniq = (label: string) => {
  seq += 1;
  return `${label}-${Date.now().toString(36)}-${seq}`;
};

const submitAccepts = (value: unknown): boolean =>
  Value.Check(SubmitEnvelope, value) &&
  (value as { type: string }).type === operations.create_user_tag.type &&
  Value.Check(operations.create_user_tag.parameters, (value as { parameters: unknown }).parameters);
const proxyAccepts = (name: ProxyEndpointName) => (value: unknown) => Value.Check(proxyEndpoints[name].request as TSchema, value);

/** Every surface, built once the server is up. */
function surfaces(): Surface[] {
  const org = s.org.organizationId;
  const proxy = (name: ProxyEndpointName, valid: () => Record<string, unknown>): Surface => ({
    name,
    path: `/v1/${name}`,
    stamped: false,
    valid,
    accepts: proxyAccepts(name),
  });
  return [
    {
      name: 'submit create_user_tag',
      path: operations.create_user_tag.path,
      stamped: true,
      valid: () => ({
        type: operations.create_user_tag.type,
        timestampMs: String(Date.now()),
        organizationId: org,
        parameters: { userTagName: uniq('tag'), userIds: [s.org.userId] },
      }),
      accepts: submitAccepts,
    },
    {
      name: 'query whoami',
      path: queries.whoami.path,
      stamped: true,
      valid: () => ({ organizationId: org }),
      accepts: (v) => Value.Check(queries.whoami.request, v),
    },
    {
      name: 'query get_user',
      path: queries.get_user.path,
      stamped: true,
      valid: () => ({ organizationId: org, userId: s.org.userId }),
      accepts: (v) => Value.Check(queries.get_user.request, v),
    },
    proxy('account', () => ({ filterType: 'EMAIL', filterValue: freshEmail('lookup') })),
    proxy('otp_init_v2', () => ({ otpType: 'OTP_TYPE_EMAIL', contact: freshEmail('init') })),
    proxy('otp_verify_v2', () => ({ otpId: randomUUID(), encryptedOtpBundle: '{"encappedPublic":"04aa","ciphertext":"00"}' })),
    proxy('signup_v2', () => ({
      userName: 'signup',
      userEmail: freshEmail('signup'),
      apiKeys: [{ apiKeyName: 'device', publicKey: generateP256KeyPair().publicKey, curveType: 'API_KEY_CURVE_P256' }],
      wallet: ETH_WALLET,
    })),
    proxy('wallet_kit_config', () => ({})),
  ];
}

/** POST exact bytes to a surface: stamped over exactly these bytes, or as the allowed browser. */
function send(sf: Surface, body: string | Uint8Array, headers: Record<string, string> = {}): Promise<RawReply> {
  const auth = sf.stamped ? { 'x-stamp': stampApiKey(body, s.org.apiKey) } : proxyHeaders(s.proxy.id, APP);
  return sendRaw(s.url, sf.path, body, { ...auth, ...headers });
}

/**
 * POST over node:http with exactly `headers` (no Content-Type unless given); without a
 * Content-Length the body goes chunked, so the size limit is met while streaming.
 */
function postExact(path: string, chunks: Uint8Array[], headers: Record<string, string>): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(`${s.url}${path}`, { method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: res.statusCode ?? 0, headers: h, body });
      });
    });
    // The server may answer (413) and close before the whole body is written.
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err)));
    for (const c of chunks) req.write(c);
    req.end();
  });
}

/** Auth headers of a surface for postExact (stamp over the concatenated chunks). */
function authOf(sf: Surface, chunks: Uint8Array[]): Record<string, string> {
  return sf.stamped ? { 'x-stamp': stampApiKey(Buffer.concat(chunks), s.org.apiKey) } : proxyHeaders(s.proxy.id, APP);
}

/** `text` (a JSON object) with one more member `member` (raw JSON text) first. */
const withMember = (text: string, member: string) => (text === '{}' ? `{${member}}` : `{${member},${text.slice(1)}`);

/** Body bytes: `text` with the marker `@@` replaced by raw bytes. */
const withBytes = (text: string, bytes: number[]): Buffer => {
  const [before, after] = text.split('@@') as [string, string];
  return Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
};

/**
 * Throw one defect at every surface (built from each surface's honest body) and assert the
 * same refusal everywhere.
 */
async function everywhere(
  what: string,
  make: (valid: string, sf: Surface) => string | Uint8Array,
  status: number,
  code: string,
  opts: { field?: string; headers?: Record<string, string>; except?: string[] } = {},
): Promise<void> {
  const all = surfaces().filter((sf) => !opts.except?.includes(sf.name));
  const replies = await Promise.all(all.map((sf) => send(sf, make(JSON.stringify(sf.valid()), sf), opts.headers)));
  all.forEach((sf, i) => {
    tally.refused('parsing', `${what} on ${sf.name}`, replies[i]!, status, code);
    if (opts.field !== undefined) expect(fieldOf(replies[i]!), `${what} on ${sf.name}`).toBe(opts.field);
  });
}

/** `details[0].field` of an error reply. */
const fieldOf = (reply: RawReply): string | undefined => (reply.body as { details?: Array<{ field?: string }> } | undefined)?.details?.[0]?.field;

const MARK = 'XXHOSTILEXX';

/**
 * The JSON text of `value` with the string at `path` replaced by the raw JSON string text
 * `raw` (escapes kept exactly as written), or with `asKey` the key at the end of `path`.
 */
function inject(value: Record<string, unknown>, path: Array<string | number>, raw: string, asKey = false): string {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (asKey) {
    // Rebuild the object so the renamed key keeps its place.
    const entries = Object.entries(parent).map(([k, v]) => [k === String(last) ? MARK : k, v] as const);
    for (const k of Object.keys(parent)) delete parent[k];
    for (const [k, v] of entries) parent[k] = v;
  } else {
    parent[last] = MARK;
  }
  return JSON.stringify(copy).replace(`"${MARK}"`, `"${raw}"`);
}

/** Keys and values a hostile string can reach, per surface (paths into its honest body). */
const REACHABLE: Record<string, { values: Array<Array<string | number>>; keys: Array<Array<string | number>> }> = {
  'submit create_user_tag': {
    values: [['type'], ['timestampMs'], ['organizationId'], ['parameters', 'userTagName'], ['parameters', 'userIds', 0]],
    keys: [['parameters', 'userTagName'], ['organizationId']],
  },
  'query whoami': { values: [['organizationId']], keys: [['organizationId']] },
  'query get_user': { values: [['userId']], keys: [['userId']] },
  account: { values: [['filterType'], ['filterValue']], keys: [['filterValue']] },
  otp_init_v2: { values: [['otpType'], ['contact']], keys: [['contact']] },
  otp_verify_v2: { values: [['otpId'], ['encryptedOtpBundle']], keys: [['otpId']] },
  signup_v2: {
    values: [
      ['userName'],
      ['userEmail'],
      ['apiKeys', 0, 'apiKeyName'],
      ['apiKeys', 0, 'publicKey'],
      ['wallet', 'walletName'],
      ['wallet', 'accounts', 0, 'path'],
    ],
    keys: [
      ['wallet', 'accounts', 0, 'curve'],
      ['apiKeys', 0, 'publicKey'],
    ],
  },
  wallet_kit_config: { values: [['note']], keys: [] },
};

/** Strings no store keeps as text, spelled as JSON escapes. */
const UNSTORABLE: Array<[string, string]> = [
  ['NUL', 'a\\u0000b'],
  ['only a NUL', '\\u0000'],
  ['lone high surrogate', 'a\\ud800'],
  ['high surrogate before a letter', '\\ud83dx'],
  ['lone low surrogate', '\\udfffa'],
  ['reversed surrogate pair', '\\ude00\\ud83d'],
  ['two high surrogates', '\\ud83d\\ud83d'],
];

/** `depth` nested containers of `open`/`close` around `inner`. */
const nest = (depth: number, open = '[', close = ']', inner = '') => open.repeat(depth) + inner + close.repeat(depth);

describe('parsing: the same defect, the same answer on /public/v1 and /v1', () => {
  it("given each surface's honest body, when sent, then it is served (the refusals below are about the defect, not the route)", async () => {
    const all = surfaces();
    const replies = await Promise.all(all.map((sf) => send(sf, JSON.stringify(sf.valid()))));
    const got = Object.fromEntries(all.map((sf, i) => [sf.name, replies[i]!.status]));
    // otp_verify_v2 of an unknown otpId is the only honest body refused, for a reason past parsing.
    expect(got).toEqual({
      'submit create_user_tag': 200,
      'query whoami': 200,
      'query get_user': 200,
      account: 200,
      otp_init_v2: 200,
      otp_verify_v2: 401,
      signup_v2: 200,
      wallet_kit_config: 200,
    });
    expect(errorCodeOf(replies[all.findIndex((sf) => sf.name === 'otp_verify_v2')]!)).toBe('ERR_OTP_INVALID');
  });

  it('given bodies that are not RFC 8259 JSON, when sent to every surface, then each is 400 ERR_MALFORMED_JSON everywhere', async () => {
    const cases: Array<[string, (v: string) => string | Uint8Array]> = [
      ['truncated by one byte', (v) => v.slice(0, -1)],
      ['truncated in half', (v) => v.slice(0, Math.ceil(v.length / 2))],
      ['trailing garbage', (v) => `${v}x`],
      ['a second document', (v) => `${v}{}`],
      ['a trailing NUL byte', (v) => Buffer.concat([Buffer.from(v), Buffer.from([0])])],
      ['a block comment', (v) => `{/* c */${v.slice(1)}`],
      ['a line comment', (v) => `${v.slice(0, -1)}//c\n}`],
      ['single quotes', (v) => (v === '{}' ? "{'a':'b'}" : v.replaceAll('"', "'"))],
      ['an unquoted key', (v) => withMember(v, 'a:1')],
      ['a trailing comma in an object', (v) => withMember(v, '"a":{"b":1,}')],
      ['a trailing comma in an array', (v) => withMember(v, '"a":[1,]')],
      ['a trailing comma at the end', (v) => `${v.slice(0, -1)}${v === '{}' ? '"a":1' : ''},}`],
      ['NaN', (v) => withMember(v, '"a":NaN')],
      ['Infinity', (v) => withMember(v, '"a":Infinity')],
      ['-Infinity', (v) => withMember(v, '"a":-Infinity')],
      ['a leading zero', (v) => withMember(v, '"a":01')],
      ['a leading plus', (v) => withMember(v, '"a":+1')],
      ['a bare decimal point', (v) => withMember(v, '"a":.5')],
      ['a hex number', (v) => withMember(v, '"a":0x10')],
      ['undefined', (v) => withMember(v, '"a":undefined')],
      ['an invalid escape', (v) => withMember(v, '"a":"\\x41"')],
      ['a short unicode escape', (v) => withMember(v, '"a":"\\u12"')],
      ['a raw newline in a string', (v) => withMember(v, '"a":"x\ny"')],
      ['a raw tab in a string', (v) => withMember(v, '"a":"x\ty"')],
      ['a raw 0x01 in a string', (v) => withMember(v, '"a":"x\u0001y"')],
      ['a raw NUL byte in a string', (v) => withBytes(withMember(v, '"a":"x@@y"'), [0])],
      ['a raw NUL byte in a key', (v) => withBytes(withMember(v, '"a@@":1'), [0])],
      ['an unterminated string', (v) => withMember(v, '"a":"x')],
      ['one closing brace too many', (v) => `${v}}`],
      ['one closing brace missing', (v) => v.slice(0, -1)],
      ['an opening bracket too many', (v) => `[${v}`],
      ['a bracket closing a brace', (v) => `${v.slice(0, -1)}]`],
      ['a brace closing a bracket', (v) => withMember(v, '"a":[1}')],
      ['only whitespace', () => ' \r\n\t '],
      ['only a comment', () => '/* {} */'],
    ];
    for (const [what, make] of cases) await everywhere(what, make, 400, 'ERR_MALFORMED_JSON');
    // Zero bytes labelled JSON: malformed wherever a body is expected; wallet_kit_config carries
    // nothing, and Turnkey's clients POST it so, so there it is the empty request.
    await everywhere('an empty body with a JSON content type', () => '', 400, 'ERR_MALFORMED_JSON', { except: ['wallet_kit_config'] });
    const bodyless = surfaces().find((sf) => sf.name === 'wallet_kit_config')!;
    expect((await send(bodyless, '')).status).toBe(200);
  });

  it('given JSON texts that are not objects (bare values), when sent to every surface, then each is 400 ERR_INVALID_REQUEST everywhere (a JSON null is not a body-less POST)', async () => {
    for (const bare of ['null', 'true', '0', '1.5', '"{}"', '[]', '[{}]']) {
      await everywhere(`bare ${bare}`, () => bare, 400, 'ERR_INVALID_REQUEST');
    }
  });

  it('given duplicate keys at the top level, nested, in arrays of objects and in escaped spellings, when sent to every surface, then each is 400 ERR_DUPLICATE_KEY naming the object everywhere', async () => {
    const cases: Array<[string, string, string]> = [
      ['top level', '"dup":1,"dup":2', 'dup'],
      ['same value twice', '"dup":"x","dup":"x"', 'dup'],
      ['three copies', '"dup":1,"dup":2,"dup":3', 'dup'],
      ['nested', '"n":{"a":1,"a":2}', 'n.a'],
      ['deeply nested', '"n":{"m":{"o":{"a":[],"a":{}}}}', 'n.m.o.a'],
      ['in an array of objects', '"arr":[{"a":1},{"b":1,"b":2}]', 'arr.1.b'],
      ['in an array nested in arrays', '"arr":[[{}],[{"a":1,"a":1}]]', 'arr.1.0.a'],
      ['escaped spelling (\\u0061 vs a)', '"a":1,"\\u0061":2', 'a'],
      ['escaped spelling first', '"\\u0061":1,"a":2', 'a'],
      ['both spelled with escapes', '"\\u0061\\u0062":1,"a\\u0062":2', 'ab'],
      ['escaped solidus (\\/ vs /)', '"a/b":1,"a\\/b":2', 'a/b'],
      ['a key holding an escaped quote', '"a\\"b":1,"a\\"b":2', 'a"b'],
      ['a key ending with a backslash', '"a\\\\":1,"a\\\\":2', 'a\\'],
      ['uppercase unicode escape', '"\\u00E9":1,"\\u00e9":2', '\u00e9'],
      ['escaped astral key', '"\\ud83d\\ude00":1,"\ud83d\ude00":2', '\ud83d\ude00'],
    ];
    for (const [what, member, field] of cases) await everywhere(`duplicate key, ${what}`, (v) => withMember(v, member), 400, 'ERR_DUPLICATE_KEY', { field });
    // A real field of each surface, twice (the last copy would win in JSON.parse).
    await everywhere('a real field twice', (v) => (v === '{}' ? '{"x":1,"x":2}' : v.replace(/^\{("[^"]+"):/, '{$1:"first",$1:')), 400, 'ERR_DUPLICATE_KEY');
  });

  it("given envelopes stamped by the organization's own key with two organizationId, two type, two parameters or two timestampMs, when submitted, then each is 400 ERR_DUPLICATE_KEY and nothing is created", async () => {
    const other = await addOrganization(s, 'Duplicate target');
    const own = s.org.organizationId;
    const ts = String(Date.now());
    const tag = (name: string) => `{"userTagName":"${name}","userIds":[]}`;
    const names: string[] = [];
    const name = () => {
      names.push(uniq('dup-envelope'));
      return names[names.length - 1]!;
    };
    const T = operations.create_user_tag.type;
    const bodies: Array<[string, string, string]> = [
      [
        'two organizationId (foreign first)',
        `{"type":"${T}","timestampMs":"${ts}","organizationId":"${other.organizationId}","organizationId":"${own}","parameters":${tag(name())}}`,
        'organizationId',
      ],
      [
        'two organizationId (foreign last)',
        `{"type":"${T}","timestampMs":"${ts}","organizationId":"${own}","organizationId":"${other.organizationId}","parameters":${tag(name())}}`,
        'organizationId',
      ],
      [
        'two organizationId, one escaped',
        `{"type":"${T}","timestampMs":"${ts}","organiz\\u0061tionId":"${other.organizationId}","organizationId":"${own}","parameters":${tag(name())}}`,
        'organizationId',
      ],
      [
        'two type',
        `{"type":"ACTIVITY_TYPE_DELETE_USER_TAGS","type":"${T}","timestampMs":"${ts}","organizationId":"${own}","parameters":${tag(name())}}`,
        'type',
      ],
      [
        'two parameters',
        `{"type":"${T}","timestampMs":"${ts}","organizationId":"${own}","parameters":{"userTagIds":[]},"parameters":${tag(name())}}`,
        'parameters',
      ],
      ['two timestampMs', `{"type":"${T}","timestampMs":"1","timestampMs":"${ts}","organizationId":"${own}","parameters":${tag(name())}}`, 'timestampMs'],
      [
        'two userTagName',
        `{"type":"${T}","timestampMs":"${ts}","organizationId":"${own}","parameters":{"userTagName":"${name()}","userTagName":"${name()}","userIds":[]}}`,
        'parameters.userTagName',
      ],
    ];
    for (const [what, body, field] of bodies) {
      const reply = await sendStamped(s.url, operations.create_user_tag.path, body, s.org.apiKey);
      tally.refused('parsing', `stamped envelope, ${what}`, reply, 400, 'ERR_DUPLICATE_KEY');
      expect(fieldOf(reply)).toBe(field);
    }
    const query = await sendStamped(s.url, queries.whoami.path, `{"organizationId":"${other.organizationId}","organizationId":"${own}"}`, s.org.apiKey);
    tally.refused('parsing', 'stamped query with two organizationId', query, 400, 'ERR_DUPLICATE_KEY');
    const tags = await s.client.query('list_user_tags', {});
    const otherTags = await other.client.query('list_user_tags', {});
    const created = [...tags.body.userTags, ...otherTags.body.userTags].map((t: { tagName: string }) => t.tagName).filter((n: string) => names.includes(n));
    tally.violations('parsing', 'tags created by a duplicated envelope', created);
  });

  it('given text that only looks like duplicate keys (inside string values, across sibling objects), when submitted or sent, then it is accepted and stored as written', async () => {
    const tricky = 'x\\"a\\":1,\\"a\\":2{\\\\';
    const name = `${uniq('tricky')}${tricky}`;
    const body = `{"type":"${operations.create_user_tag.type}","timestampMs":"${Date.now()}","organizationId":"${s.org.organizationId}","parameters":{"userTagName":"${name}","userIds":[]}}`;
    expect((await sendStamped(s.url, operations.create_user_tag.path, body, s.org.apiKey)).status).toBe(200);
    const tags = await s.client.query('list_user_tags', {});
    expect(tags.body.userTags.map((t: { tagName: string }) => t.tagName)).toContain(JSON.parse(`"${name}"`));
    // The same key in two sibling objects of an array is no duplicate.
    const key = generateP256KeyPair().publicKey;
    const signup = `{"userEmail":"${freshEmail('siblings')}","apiKeys":[{"apiKeyName":"a","publicKey":"${key}","curveType":"API_KEY_CURVE_P256"},{"apiKeyName":"b","publicKey":"${generateP256KeyPair().publicKey}","curveType":"API_KEY_CURVE_P256"}]}`;
    expect((await sendRaw(s.url, '/v1/signup_v2', signup, proxyHeaders(s.proxy.id, APP))).status).toBe(200);
  });

  it('given __proto__, constructor and prototype keys at every depth and in escaped spellings, when sent to every surface, then each is 400 ERR_INVALID_REQUEST naming the key and no prototype is touched', async () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const cases: Array<[string, string, string]> = [
      ['__proto__ carrying admin fields', '"__proto__":{"isAdmin":true,"role":"root","organizationId":"x"}', '__proto__'],
      ['__proto__ as null', '"__proto__":null', '__proto__'],
      ['constructor.prototype', '"constructor":{"prototype":{"isAdmin":true}}', 'constructor'],
      ['prototype', '"prototype":{"isAdmin":true}', 'prototype'],
      ['nested __proto__', '"n":{"__proto__":{"isAdmin":true}}', 'n.__proto__'],
      ['nested constructor', '"n":{"m":{"constructor":1}}', 'n.m.constructor'],
      ['__proto__ in an array of objects', '"arr":[{},{"__proto__":{"isAdmin":true}}]', 'arr.1.__proto__'],
      ['__proto__ at depth 20', `"n":${nest(19, '{"d":', '}', '{"__proto__":{"isAdmin":true}}')}`, `n.${Array(19).fill('d').join('.')}.__proto__`],
      ['escaped __proto__', '"\\u005f\\u005fproto\\u005f\\u005f":{"isAdmin":true}', '__proto__'],
      ['escaped constructor', '"constru\\u0063tor":{"prototype":{"isAdmin":true}}', 'constructor'],
      ['__proto__ twice', '"__proto__":{"isAdmin":true},"__proto__":{"isAdmin":true}', '__proto__'],
    ];
    for (const [what, member, field] of cases) await everywhere(`prototype key, ${what}`, (v) => withMember(v, member), 400, 'ERR_INVALID_REQUEST', { field });
    // Inside the fields the handlers read: the parameters of a submit, a signup's api key, a wallet account.
    const inside: Array<[Surface['name'], Array<string | number>, string]> = [
      ['submit create_user_tag', ['parameters'], 'parameters.__proto__'],
      ['signup_v2', ['apiKeys', 0], 'apiKeys.0.__proto__'],
      ['signup_v2', ['wallet', 'accounts', 0], 'wallet.accounts.0.__proto__'],
    ];
    for (const [name, at, field] of inside) {
      const sf = surfaces().find((x) => x.name === name)!;
      // Assigning __proto__ to a value would set its prototype, not a key: rename a marker key in the text.
      const body = inject(sf.valid(), [...at, 'XXKEYXX'], MARK)
        .replace('"XXKEYXX"', '"__proto__"')
        .replace(`"${MARK}"`, '{"isAdmin":true,"userTagName":"pwned"}');
      const reply = await send(sf, body);
      tally.refused('parsing', `__proto__ inside ${field} on ${name}`, reply, 400, 'ERR_INVALID_REQUEST');
      expect(fieldOf(reply)).toBe(field);
    }
    const polluted = Object.getOwnPropertyNames(Object.prototype).sort();
    tally.violations(
      'parsing',
      'Object.prototype changed by a request',
      polluted.filter((k) => !before.includes(k)),
    );
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('given nesting at 32, 33, 5000 and 200000 levels inside the body limit, when sent to every surface, then 32 reaches the schema and anything deeper is 400 ERR_MALFORMED_JSON everywhere', async () => {
    // The root object is the first level.
    await everywhere('nesting 32 levels (the limit)', (v) => withMember(v, `"deep":${nest(31)}`), 400, 'ERR_INVALID_REQUEST');
    await everywhere('nesting 33 levels', (v) => withMember(v, `"deep":${nest(32)}`), 400, 'ERR_MALFORMED_JSON');
    await everywhere('nesting 33 levels of objects', (v) => withMember(v, `"deep":${nest(32, '{"a":', '}', '1')}`), 400, 'ERR_MALFORMED_JSON');
    await everywhere('nesting 5000 levels', (v) => withMember(v, `"deep":${nest(4999)}`), 400, 'ERR_MALFORMED_JSON');
    await everywhere('200000 nested arrays', () => nest(200_000), 400, 'ERR_MALFORMED_JSON');
    await everywhere('150000 nested objects', () => nest(150_000, '{"a":', '}', '1'), 400, 'ERR_MALFORMED_JSON');
    await everywhere('200000 unclosed arrays', () => '['.repeat(200_000), 400, 'ERR_MALFORMED_JSON');
  });

  it('given a body over the 1 MiB limit, with a Content-Length or chunked, when sent to every surface, then each is 413 ERR_PAYLOAD_TOO_LARGE; a huge string in an allowed field is a 400', async () => {
    const pad = 'a'.repeat(1024 * 1024 + 16);
    await everywhere('a 1 MiB body', (v) => withMember(v, `"pad":"${pad}"`), 413, 'ERR_PAYLOAD_TOO_LARGE');
    for (const sf of surfaces()) {
      // 17 chunks of 64 KiB, no Content-Length: the limit holds while streaming.
      const v = JSON.stringify(sf.valid());
      const chunks = [
        Buffer.from('{"pad":"'),
        ...Array.from({ length: 17 }, () => Buffer.alloc(64 * 1024, 0x61)),
        Buffer.from(v === '{}' ? '"}' : `",${v.slice(1)}`),
      ];
      const reply = await postExact(sf.path, chunks, { 'content-type': 'application/json', ...authOf(sf, chunks) });
      tally.refused('parsing', `a chunked 1 MiB body on ${sf.name}`, reply, 413, 'ERR_PAYLOAD_TOO_LARGE');
    }
    // Just under the limit: every field has a length bound, so the schema refuses it (never a 5xx).
    const huge = 'h'.repeat(900 * 1024);
    const fields: Record<string, Array<string | number>> = {
      'submit create_user_tag': ['parameters', 'userTagName'],
      'query whoami': ['organizationId'],
      'query get_user': ['userId'],
      account: ['filterValue'],
      otp_init_v2: ['contact'],
      otp_verify_v2: ['encryptedOtpBundle'],
      signup_v2: ['userName'],
      wallet_kit_config: ['note'],
    };
    for (const sf of surfaces()) {
      const reply = await send(sf, inject(sf.valid(), fields[sf.name]!, huge));
      tally.refused('parsing', `a 900 KiB string in ${fields[sf.name]!.join('.')} on ${sf.name}`, reply, 400, 'ERR_INVALID_REQUEST');
    }
  });

  it('given NUL and unpaired surrogates in every reachable value and key, when sent, then each is 400 ERR_INVALID_STRING naming the value', async () => {
    for (const sf of surfaces()) {
      const reach = REACHABLE[sf.name]!;
      for (const [what, raw] of UNSTORABLE) {
        const replies = await Promise.all([
          ...reach.values.map((path) => send(sf, inject(sf.valid(), path, raw))),
          ...reach.keys.map((path) => send(sf, inject(sf.valid(), path, raw, true))),
        ]);
        reach.values.forEach((path, i) => {
          tally.refused('parsing', `${what} in ${path.join('.')} on ${sf.name}`, replies[i]!, 400, 'ERR_INVALID_STRING');
          expect(fieldOf(replies[i]!)).toBe(path.join('.'));
        });
        reach.keys.forEach((path, i) => {
          tally.refused('parsing', `${what} in the key ${path.join('.')} on ${sf.name}`, replies[reach.values.length + i]!, 400, 'ERR_INVALID_STRING');
        });
      }
    }
  });

  it('given astral characters (emoji, U+10FFFF) in names, raw or escaped, when submitted or signed up, then they are accepted and read back exactly (positive control)', async () => {
    const names = [`🦄 ${uniq('raw')} 🔑`, `\ud83e\udd84 ${uniq('escaped')}`, `${uniq('max')} \u{10FFFF} 𝔘 Ünïcødé 漢字`];
    const spelled = [names[0]!, `\\ud83e\\udd84 ${names[1]!.slice(3)}`, names[2]!];
    for (const text of spelled) {
      const body = `{"type":"${operations.create_user_tag.type}","timestampMs":"${Date.now()}","organizationId":"${s.org.organizationId}","parameters":{"userTagName":"${text}","userIds":[]}}`;
      const reply = await sendStamped(s.url, operations.create_user_tag.path, body, s.org.apiKey);
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    }
    const stored = (await s.client.query('list_user_tags', {})).body.userTags.map((t: { tagName: string }) => t.tagName);
    for (const n of names) expect(stored).toContain(n);

    const key = generateP256KeyPair();
    const userName = `🦄 \\ud83d\\ude00 ${uniq('user')}`;
    const signup = await sendRaw(
      s.url,
      '/v1/signup_v2',
      `{"userName":"${userName}","userEmail":"${freshEmail('astral')}","apiKeys":[{"apiKeyName":"🔑","publicKey":"${key.publicKey}","curveType":"API_KEY_CURVE_P256"}]}`,
      proxyHeaders(s.proxy.id, APP),
    );
    expect(signup.status, JSON.stringify(signup.body)).toBe(200);
    const { organizationId, userId } = signup.body as { organizationId: string; userId: string };
    const user = await sendStamped(s.url, queries.get_user.path, JSON.stringify({ organizationId, userId }), key);
    expect(user.status, JSON.stringify(user.body)).toBe(200);
    expect((user.body as { user: { userName: string } }).user.userName).toBe(JSON.parse(`"${userName}"`));
  });

  it('given invalid UTF-8, a byte-order mark or a UTF-16/32 body, when sent to every surface, then each is 400 ERR_MALFORMED_JSON everywhere', async () => {
    const inString: Array<[string, number[]]> = [
      ['0xff', [0xff]],
      ['0xfe', [0xfe]],
      ['a lone continuation byte', [0x80]],
      ['0xc3 0x28', [0xc3, 0x28]],
      ['overlong 0xc0 0xaf', [0xc0, 0xaf]],
      ['overlong 0xc1 0xbf', [0xc1, 0xbf]],
      ['overlong 0xe0 0x80 0xaf', [0xe0, 0x80, 0xaf]],
      ['overlong 0xf0 0x80 0x80 0xaf', [0xf0, 0x80, 0x80, 0xaf]],
      ['overlong NUL 0xc0 0x80', [0xc0, 0x80]],
      ['encoded high surrogate 0xed 0xa0 0x80', [0xed, 0xa0, 0x80]],
      ['encoded low surrogate 0xed 0xbf 0xbf', [0xed, 0xbf, 0xbf]],
      ['an encoded surrogate pair (CESU-8)', [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]],
      ['beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
      ['a 5-byte form', [0xf8, 0x88, 0x80, 0x80, 0x80]],
      ['a truncated 3-byte sequence', [0xe2, 0x82]],
      ['a truncated 4-byte sequence', [0xf0, 0x9f, 0x98]],
    ];
    for (const [what, bytes] of inString)
      await everywhere(`${what} in a string`, (v) => withBytes(withMember(v, '"a":"x@@y"'), bytes), 400, 'ERR_MALFORMED_JSON');
    await everywhere('0xff in a key', (v) => withBytes(withMember(v, '"a@@":1'), [0xff]), 400, 'ERR_MALFORMED_JSON');
    const atEnd: Array<[string, number[]]> = [
      ['a truncated 2-byte sequence at the end', [0xc3]],
      ['a truncated 3-byte sequence at the end', [0xe2, 0x82]],
      ['a truncated 4-byte sequence at the end', [0xf0, 0x9f, 0x98]],
      ['0xff at the end', [0xff]],
    ];
    for (const [what, bytes] of atEnd) await everywhere(what, (v) => Buffer.concat([Buffer.from(v), Buffer.from(bytes)]), 400, 'ERR_MALFORMED_JSON');
    const encoded: Array<[string, (v: string) => Buffer]> = [
      ['a UTF-8 byte-order mark', (v) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(v)])],
      ['two UTF-8 byte-order marks', (v) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), Buffer.from(v)])],
      ['UTF-16LE with a BOM', (v) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(v, 'utf16le')])],
      ['UTF-16LE without a BOM', (v) => Buffer.from(v, 'utf16le')],
      ['UTF-16BE with a BOM', (v) => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(v, 'utf16le').swap16()])],
      ['UTF-16BE without a BOM', (v) => Buffer.from(v, 'utf16le').swap16()],
      [
        'UTF-32LE with a BOM',
        (v) => Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.concat([...v].map((c) => Buffer.from([c.charCodeAt(0), 0, 0, 0])))]),
      ],
    ];
    for (const [what, make] of encoded) await everywhere(what, make, 400, 'ERR_MALFORMED_JSON');
  });

  it('given a non-canonical timestampMs (leading zeros, sign, decimal point, exponent, spaces, hex, a number, 17 digits), when submitted stamped, then each is 400 ERR_INVALID_REQUEST naming timestampMs', async () => {
    const ts = String(Date.now());
    const spellings = [
      `"0${ts}"`,
      `"00${ts}"`,
      `"+${ts}"`,
      `"-${ts}"`,
      `"${ts}.0"`,
      `"${ts}."`,
      `"${(Number(ts) / 1e12).toFixed(12)}e12"`,
      `"${ts}e0"`,
      `" ${ts}"`,
      `"${ts} "`,
      `"${ts}\\n"`,
      `"\\t${ts}"`,
      `"0x${Number(ts).toString(16)}"`,
      `"${ts}0000"`,
      '""',
      '"１７０００００００００００"',
      `"${ts.slice(0, 5)}_${ts.slice(5)}"`,
      ts,
      `${ts}.0`,
      `${Number(ts) / 1e12}e12`,
      'null',
      'true',
      `["${ts}"]`,
      `{"ms":"${ts}"}`,
    ];
    for (const spelled of spellings) {
      const body = `{"type":"${operations.create_user_tag.type}","timestampMs":${spelled},"organizationId":"${s.org.organizationId}","parameters":{"userTagName":"${uniq('ts')}","userIds":[]}}`;
      const reply = await sendStamped(s.url, operations.create_user_tag.path, body, s.org.apiKey);
      tally.refused('parsing', `timestampMs ${spelled}`, reply, 400, 'ERR_INVALID_REQUEST');
      expect(fieldOf(reply), spelled).toBe('timestampMs');
    }
    // Canonical but stale: the pattern is not the only gate.
    const stale = `{"type":"${operations.create_user_tag.type}","timestampMs":"${Number(ts) - 2 * 3600_000}","organizationId":"${s.org.organizationId}","parameters":{"userTagName":"${uniq('ts')}","userIds":[]}}`;
    tally.refused(
      'parsing',
      'timestampMs two hours old',
      await sendStamped(s.url, operations.create_user_tag.path, stale, s.org.apiKey),
      400,
      'ERR_TIMESTAMP_OUT_OF_WINDOW',
    );
  });

  it('given other media types or none, when a body is sent to every surface, then each is 415 ERR_UNSUPPORTED_MEDIA_TYPE everywhere; a UTF-16 body labelled as such is 400 ERR_MALFORMED_JSON', async () => {
    const types = [
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'text/json',
      'application/javascript',
      'application/json-patch+json',
      'application/jsonx',
      'application/octet-stream',
      'json',
    ];
    for (const type of types) await everywhere(`content type ${type}`, (v) => v, 415, 'ERR_UNSUPPORTED_MEDIA_TYPE', { headers: { 'content-type': type } });
    // No Content-Type at all, with a body (fetch always adds one; node:http sends exactly what it is told).
    for (const sf of surfaces()) {
      const chunks = [Buffer.from(JSON.stringify(sf.valid()))];
      const reply = await postExact(sf.path, chunks, { 'content-length': String(chunks[0]!.length), ...authOf(sf, chunks) });
      tally.refused('parsing', `no content type on ${sf.name}`, reply, 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
    }
    await everywhere(
      'a UTF-16 body labelled charset=utf-16',
      (v) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(v, 'utf16le')]),
      415,
      'ERR_UNSUPPORTED_MEDIA_TYPE',
      {
        headers: { 'content-type': 'application/json; charset=utf-16' },
      },
    );
    // Controls: the JSON media type is case-insensitive and may say utf-8.
    for (const type of ['application/json; charset=utf-8', 'Application/JSON', 'application/json;charset="UTF-8"']) {
      const sf = surfaces()[0]!;
      const reply = await send(sf, JSON.stringify(sf.valid()), { 'content-type': type });
      expect(reply.status, `${type}: ${JSON.stringify(reply.body)}`).toBe(200);
    }
  });

  // The parser reads every body as UTF-8, so a body labelled UTF-16 or Latin-1 would mean one
  // thing to a filter in front that honours the label and another to the server: refused.
  it('given a UTF-8 body labelled with another charset, when sent to every surface, then it is 415 ERR_UNSUPPORTED_MEDIA_TYPE everywhere', async () => {
    for (const charset of ['utf-16', 'utf-16le', 'iso-8859-1', 'utf-32']) {
      await everywhere(`a UTF-8 body labelled charset=${charset}`, (v) => v, 415, 'ERR_UNSUPPORTED_MEDIA_TYPE', {
        headers: { 'content-type': `application/json; charset=${charset}` },
      });
    }
  });

  it('given hostile query strings on GET /v1/dev/outbox (NUL, encoded surrogates, broken escapes, overlong values), when asked from loopback, then each is a 4xx with a stable code, never a 5xx', async () => {
    const outbox = (q: string) => sendRaw(s.url, `/v1/dev/outbox?${q}`, undefined, {}, 'GET');
    const cases: Array<[string, number, string]> = [
      ['recipient=%00', 400, 'ERR_INVALID_STRING'],
      ['recipient=a%00%40example.com', 400, 'ERR_INVALID_STRING'],
      ['organizationId=%00', 400, 'ERR_INVALID_STRING'],
      ['limit=1%00', 400, 'ERR_INVALID_STRING'],
      ['%00=1', 400, 'ERR_INVALID_STRING'],
      ['recipient=%ED%A0%80', 400, 'ERR_INVALID_REQUEST'],
      ['recipient=a%ED%B0%80', 400, 'ERR_INVALID_REQUEST'],
      ['recipient=%ED%B0%80%ED%A0%80', 400, 'ERR_INVALID_REQUEST'],
      ['recipient=%uD800', 400, 'ERR_INVALID_REQUEST'],
      ['organizationId=%ED%A0%80', 400, 'ERR_INVALID_REQUEST'],
      ['recipient=%', 400, 'ERR_INVALID_REQUEST'],
      ['recipient=%4', 400, 'ERR_INVALID_REQUEST'],
      ['recipient=%zz', 400, 'ERR_INVALID_REQUEST'],
      ['recipient=%C0%AF', 400, 'ERR_INVALID_REQUEST'],
      ['recipient=%E0%80%AF', 400, 'ERR_INVALID_REQUEST'],
      ['recipient=%FF', 400, 'ERR_INVALID_REQUEST'],
      ['recipient=%F4%90%80%80', 400, 'ERR_INVALID_REQUEST'],
      ['rec%ZZipient=a', 400, 'ERR_INVALID_REQUEST'],
      [`recipient=${'a'.repeat(321)}`, 400, 'ERR_INVALID_REQUEST'],
      [`organizationId=${'a'.repeat(129)}`, 400, 'ERR_INVALID_REQUEST'],
      [`recipient=${'%41'.repeat(4000)}`, 400, 'ERR_INVALID_REQUEST'],
      ['recipient=', 400, 'ERR_INVALID_REQUEST'],
      ['limit=0', 400, 'ERR_INVALID_REQUEST'],
      ['limit=-1', 400, 'ERR_INVALID_REQUEST'],
      ['limit=100', 400, 'ERR_INVALID_REQUEST'],
      ['limit=1e1', 400, 'ERR_INVALID_REQUEST'],
      ['limit=01', 400, 'ERR_INVALID_REQUEST'],
      ['limit=1&limit=2', 400, 'ERR_INVALID_REQUEST'],
      ['__proto__=1', 400, 'ERR_INVALID_REQUEST'],
      ['__proto__[limit]=1', 400, 'ERR_INVALID_REQUEST'],
      ['constructor=x', 400, 'ERR_INVALID_REQUEST'],
      ['recipient[]=a', 400, 'ERR_INVALID_REQUEST'],
    ];
    for (const [q, status, code] of cases) tally.refused('parsing', `outbox ?${q.slice(0, 60)}`, await outbox(q), status, code);
    // Past Node's header limit (16 KiB): refused before Fastify, still a 4xx.
    const tooLong = await outbox(`recipient=${'a'.repeat(20_000)}`);
    tally.record('parsing', tooLong);
    expect(tooLong.status).toBe(431);
    // Controls: a well-formed query is served.
    for (const q of ['recipient=a%40example.com&limit=5', 'recipient=a+b%40example.com', 'limit=1&', '']) expect((await outbox(q)).status, q).toBe(200);
  });
});

describe('parsing fuzz: byte mutations of honest bodies', () => {
  /** One byte-level mutation. */
  type Mutation =
    | { kind: 'insert'; at: number; byte: number }
    | { kind: 'delete'; at: number }
    | { kind: 'flip'; at: number; bit: number }
    | { kind: 'dupKey'; pick: number };
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
    fc.record({ kind: fc.constant('dupKey' as const), pick: fc.nat() }),
  );

  /** Apply mutations in order; `duplicated` tells whether a key was copied (the body is then hostile whatever else happened). */
  function mutate(body: Buffer, mutations: Mutation[]): { bytes: Buffer; duplicated: boolean } {
    let bytes = Buffer.from(body);
    let duplicated = false;
    // Keys are copied last, so that no later byte change can undo the duplicate.
    const ordered = [...mutations.filter((m) => m.kind !== 'dupKey'), ...mutations.filter((m) => m.kind === 'dupKey')];
    for (const m of ordered) {
      if (m.kind === 'dupKey') {
        // Copy a key in front of itself, in the same object: `"k":null,"k":...`.
        const text = bytes.toString('latin1');
        const keys = [...text.matchAll(/"([^"\\]+)":/g)];
        if (keys.length === 0) continue;
        const k = keys[m.pick % keys.length]!;
        bytes = Buffer.concat([bytes.subarray(0, k.index), Buffer.from(`"${k[1]}":null,`, 'latin1'), bytes.subarray(k.index)]);
        duplicated = true;
        continue;
      }
      const at = m.at % (bytes.length + (m.kind === 'insert' ? 1 : 0) || 1);
      if (m.kind === 'insert') bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from([m.byte]), bytes.subarray(at)]);
      else if (bytes.length === 0) continue;
      else if (m.kind === 'delete') bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)]);
      else bytes[at] = bytes[at]! ^ (1 << m.bit);
    }
    return { bytes, duplicated };
  }

  /** Strictly valid for `sf`, by checks of this file (not the server's parser): then an acceptance is no finding. */
  function honest(sf: Surface, bytes: Buffer): boolean {
    // wallet_kit_config carries nothing: zero bytes are its empty request (as Turnkey's clients send it).
    if (bytes.length === 0) return sf.name === 'wallet_kit_config';
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return false;
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch {
      return false;
    }
    // No NUL and no lone surrogate (encodeURIComponent throws on those).
    const storable = (v: string): boolean => {
      if (v.includes('\u0000')) return false;
      try {
        encodeURIComponent(v);
        return true;
      } catch {
        return false;
      }
    };
    const clean = (v: unknown, depth: number): boolean => {
      if (typeof v === 'string') return storable(v);
      if (typeof v !== 'object' || v === null) return true;
      if (depth >= 32) return false;
      if (Array.isArray(v)) return v.every((x) => clean(x, depth + 1));
      return Object.entries(v).every(([k, x]) => !['__proto__', 'constructor', 'prototype'].includes(k) && clean(k, depth) && clean(x, depth + 1));
    };
    return clean(value, 0) && sf.accepts(value);
  }

  it('given honest stamped bodies mutated after signing (insert, delete, flip, duplicate a key), when submitted with the original stamp, then none is accepted and none is a 5xx', async () => {
    const stamped = surfaces().filter((sf) => sf.stamped);
    await fc.assert(
      fc.asyncProperty(fc.nat(stamped.length - 1), fc.array(mutation, { minLength: 1, maxLength: 4 }), async (i, mutations) => {
        const sf = stamped[i]!;
        const original = Buffer.from(JSON.stringify(sf.valid()));
        const { bytes } = mutate(original, mutations);
        if (bytes.equals(original)) return;
        const reply = await sendRaw(s.url, sf.path, bytes, { 'x-stamp': stampApiKey(original, s.org.apiKey) });
        tally.record('parsing', reply);
        expect(reply.status, `${sf.name} ${JSON.stringify(bytes.toString('latin1'))}: ${JSON.stringify(reply.body)}`).toBeGreaterThanOrEqual(400);
        expect(reply.status, `${sf.name} ${JSON.stringify(bytes.toString('latin1'))}: ${JSON.stringify(reply.body)}`).toBeLessThan(500);
      }),
      { numRuns: 250 },
    );
  });

  it('given honest stamped and proxy bodies mutated then sent as they are (restamped), when sent, then none is a 5xx and only strictly valid ones are served', async () => {
    const all = surfaces();
    await fc.assert(
      fc.asyncProperty(fc.nat(all.length - 1), fc.array(mutation, { minLength: 1, maxLength: 4 }), async (i, mutations) => {
        const sf = all[i]!;
        const { bytes, duplicated } = mutate(Buffer.from(JSON.stringify(sf.valid())), mutations);
        const reply = await send(sf, bytes);
        const what = `${sf.name} ${JSON.stringify(bytes.toString('latin1'))}: ${JSON.stringify(reply.body)}`;
        expect(reply.status, what).toBeLessThan(500);
        // Still an honest request (a changed letter in a name): no bad input.
        if (reply.status < 300 && !duplicated && honest(sf, bytes)) return;
        tally.record('parsing', reply);
        expect(reply.status, `accepted: ${what}`).toBeGreaterThanOrEqual(400);
      }),
      { numRuns: 300 },
    );
  });
});
