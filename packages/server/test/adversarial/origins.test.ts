/**
 * Origin and CORS attacks, in bulk, against two listening servers: one whose proxy allows
 * exactly `https://app.example` (dev outbox on), one whose proxy allows `*` (dev outbox off).
 * Every /v1 endpoint and its preflight meets every origin trick; the activity API must answer
 * `*` and never an echo; no reply of any kind may allow credentials; config ids that name
 * nothing usable get stable codes; the dev outbox serves only plain loopback requests.
 * Requests go over node:http with exactly the headers written (two Origin headers, none,
 * Latin-1 values), so nothing a browser would normalize is normalized on the way.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stampApiKey } from '@walletkit/crypto';
import { proxyEndpoints, queries, type ProxyEndpointName } from '@walletkit/protocol';
import { disableProxy, enableProxy } from '../../src/admin/proxy';
import { addOrganization } from '../support/members';
import { startProxyServer, type ProxyTestServer } from '../support/proxy';
import { envelopeText, getWithHeaders, type RawReply } from './support/http';
import { adversarialTally } from './support/tally';

const tally = adversarialTally('origins');
const APP = 'https://app.example';
const ENDPOINTS = Object.keys(proxyEndpoints) as ProxyEndpointName[];

/** exact: allows APP only, dev outbox on. any: allows `*`, dev outbox off. */
let exact: ProxyTestServer;
let any: ProxyTestServer;
/** On `exact`: a disabled proxy that allowed APP, and another tenant's enabled proxy for another origin. */
let disabledConfigId: string;
let otherTenant: { configId: string; origin: string };
/** On `any`: a disabled `*` proxy. */
let disabledAnyConfigId: string;

beforeAll(async () => {
  [exact, any] = await Promise.all([
    startProxyServer('pglite', { proxy: { origins: [APP] }, origin: APP }),
    startProxyServer('pglite', { proxy: { origins: ['*'] }, config: { devOutbox: false } }),
  ]);
  const disabled = await addOrganization(exact, 'Disabled proxy');
  disabledConfigId = (await enableProxy(exact.store, exact.enclave, { organizationId: disabled.organizationId, origins: [APP] })).id;
  await disableProxy(exact.store, disabled.organizationId);
  const other = await addOrganization(exact, 'Other tenant');
  otherTenant = {
    configId: (await enableProxy(exact.store, exact.enclave, { organizationId: other.organizationId, origins: ['https://other.example'] })).id,
    origin: 'https://other.example',
  };
  const disabledAny = await addOrganization(any, 'Disabled any-origin proxy');
  disabledAnyConfigId = (await enableProxy(any.store, any.enclave, { organizationId: disabledAny.organizationId, origins: ['*'] })).id;
  await disableProxy(any.store, disabledAny.organizationId);
});
afterAll(async () => Promise.all([exact?.dispose(), any?.dispose()]));

/**
 * One request over node:http with exactly `headers` (arrays send the header once per value;
 * Host is node's unless given).
 */
function call(url: string, method: string, path: string, headers: Record<string, string | string[]>, body?: string): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const h: Record<string, string | string[]> = { ...headers };
    if (body !== undefined) {
      h['content-type'] ??= 'application/json';
      h['content-length'] = String(Buffer.byteLength(body));
    }
    const req = request(`${url}${path}`, { method, headers: h }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => {
        const out = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(', ') : v);
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: res.statusCode ?? 0, headers: out, body: parsed });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Exactly `text` on a fresh socket (what no HTTP client library will write), the reply parsed. */
function rawHttp(url: string, text: string): Promise<RawReply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(text));
    let out = '';
    socket.on('data', (d: Buffer) => (out += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = out.split('\r\n\r\n');
      const [statusLine = '', ...fields] = head.split('\r\n');
      const headers = new Headers();
      for (const f of fields) headers.append(f.slice(0, f.indexOf(':')).trim(), f.slice(f.indexOf(':') + 1).trim());
      let parsed: unknown = body;
      try {
        parsed = JSON.parse(body);
      } catch {
        // not JSON (a chunked or empty body): keep the text
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: parsed });
    });
  });
}

/** Replies that allowed credentials (must stay empty), and how many replies were looked at. */
const credentialed: string[] = [];
let looked = 0;

/** The CORS headers of a reply; notes any that allows credentials. */
function cors(what: string, reply: RawReply): { acao: string | null; vary: string | null; methods: string | null } {
  looked += 1;
  if (reply.headers.get('access-control-allow-credentials') !== null) credentialed.push(`${what}: ${reply.headers.get('access-control-allow-credentials')}`);
  return {
    acao: reply.headers.get('access-control-allow-origin'),
    vary: reply.headers.get('vary'),
    methods: reply.headers.get('access-control-allow-methods'),
  };
}

/** Origin headers of a request: none, one, or several. */
type OriginHeader = string | string[] | undefined;
const originHeaders = (origin: OriginHeader): Record<string, string | string[]> => (origin === undefined ? {} : { origin });

/** Every trick that is not exactly `https://app.example`. */
const TRICKS: Array<[string, OriginHeader]> = [
  ['another site', 'https://evil.example'],
  ['a suffix trick', 'https://app.example.evil.com'],
  ['a prefix trick', 'https://evilapp.example'],
  ['a subdomain', 'https://www.app.example'],
  ['http instead of https', 'http://app.example'],
  ['another port', 'https://app.example:8443'],
  ['the default port spelled out', 'https://app.example:443'],
  ['a trailing dot', 'https://app.example.'],
  ['an uppercase host', 'https://APP.EXAMPLE'],
  ['an uppercase scheme', 'HTTPS://app.example'],
  ['userinfo', 'https://app.example@evil.com'],
  ['null', 'null'],
  ['no Origin', undefined],
  ['an empty Origin', ''],
  ['two Origin headers, allowed first', [APP, 'https://evil.example']],
  ['two Origin headers, both allowed', [APP, APP]],
  ['a list in one header', `${APP} https://evil.example`],
  ['a comma list in one header', `${APP},https://evil.example`],
  ['a path', `${APP}/wallet`],
  ['a trailing slash', `${APP}/`],
  ['a query', `${APP}?x=1`],
  ['a fragment', `${APP}#x`],
  ['a wildcard', '*'],
  ['a Latin-1 lookalike', 'https://app.exampl\u00e9'],
  ['a percent-encoded dot', 'https://app%2eexample'],
  ['a file origin', 'file://'],
];

/** Body every endpoint refuses past the guard (an unknown field): a served reply is then a 400. */
const UNKNOWN_FIELD = '{"unknownField":1}';

describe('origins: the proxy allowing exactly https://app.example', () => {
  it('given every origin trick, when any /v1 endpoint is called with the config header, then each is 403 ERR_ORIGIN_NOT_ALLOWED with no access-control-allow-origin', async () => {
    for (const name of ENDPOINTS) {
      const replies = await Promise.all(
        TRICKS.map(([, origin]) => call(exact.url, 'POST', `/v1/${name}`, { 'x-auth-proxy-config-id': exact.proxy.id, ...originHeaders(origin) }, '{}')),
      );
      TRICKS.forEach(([what], i) => {
        const reply = replies[i]!;
        tally.refused('origins', `${what} on ${name}`, reply, 403, 'ERR_ORIGIN_NOT_ALLOWED');
        expect(cors(`${what} on ${name}`, reply).acao, `${what} on ${name}`).toBeNull();
      });
    }
  });

  it('given every origin trick, when any /v1 endpoint is preflighted with and without the config header, then each is 403 ERR_ORIGIN_NOT_ALLOWED with Vary: Origin and no CORS grant', async () => {
    const preflight = { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-auth-proxy-config-id' };
    for (const name of ENDPOINTS) {
      for (const withConfig of [true, false]) {
        const replies = await Promise.all(
          TRICKS.map(([, origin]) =>
            call(exact.url, 'OPTIONS', `/v1/${name}`, {
              ...preflight,
              ...(withConfig ? { 'x-auth-proxy-config-id': exact.proxy.id } : {}),
              ...originHeaders(origin),
            }),
          ),
        );
        TRICKS.forEach(([what], i) => {
          const label = `preflight ${withConfig ? 'with' : 'without'} config, ${what} on ${name}`;
          const reply = replies[i]!;
          tally.refused('origins', label, reply, 403, 'ERR_ORIGIN_NOT_ALLOWED');
          const h = cors(label, reply);
          expect(h.acao, label).toBeNull();
          expect(h.methods, label).toBeNull();
          expect(h.vary, label).toMatch(/Origin/);
        });
      }
    }
  });

  it('given the allowed origin, when every /v1 endpoint and its preflight are called, then each is served with access-control-allow-origin exactly https://app.example and Vary: Origin', async () => {
    for (const name of ENDPOINTS) {
      // Past the guard, the body's unknown field is what is refused: the reply is still readable by the page.
      const reply = await call(exact.url, 'POST', `/v1/${name}`, { 'x-auth-proxy-config-id': exact.proxy.id, origin: APP }, UNKNOWN_FIELD);
      expect([reply.status, (reply.body as { details: Array<{ errorCode: string }> }).details[0]!.errorCode], name).toEqual([400, 'ERR_INVALID_REQUEST']);
      const h = cors(name, reply);
      expect(h.acao, name).toBe(APP);
      expect(h.vary, name).toMatch(/Origin/);
      for (const withConfig of [true, false]) {
        const pre = await call(exact.url, 'OPTIONS', `/v1/${name}`, {
          origin: APP,
          'access-control-request-method': 'POST',
          ...(withConfig ? { 'x-auth-proxy-config-id': exact.proxy.id } : {}),
        });
        expect(pre.status, name).toBe(204);
        const p = cors(`preflight ${name}`, pre);
        expect(p.acao).toBe(APP);
        expect(p.methods).toBe('POST');
        expect(p.vary).toMatch(/Origin/);
      }
    }
    const served = await call(exact.url, 'POST', '/v1/wallet_kit_config', { 'x-auth-proxy-config-id': exact.proxy.id, origin: APP }, '{}');
    expect(served.status).toBe(200);
    expect(cors('wallet_kit_config', served).acao).toBe(APP);
  });

  it('given an origin another tenant allows, when it uses this config (and this origin uses that config), then each is 403 ERR_ORIGIN_NOT_ALLOWED; its header-less preflight passes but the request does not', async () => {
    const pairs: Array<[string, string, string]> = [
      ["the other tenant's origin on this config", exact.proxy.id, otherTenant.origin],
      ["this origin on the other tenant's config", otherTenant.configId, APP],
    ];
    for (const name of ENDPOINTS) {
      for (const [what, configId, origin] of pairs) {
        const reply = await call(exact.url, 'POST', `/v1/${name}`, { 'x-auth-proxy-config-id': configId, origin }, '{}');
        tally.refused('origins', `${what} on ${name}`, reply, 403, 'ERR_ORIGIN_NOT_ALLOWED');
        expect(cors(what, reply).acao).toBeNull();
        const pre = await call(exact.url, 'OPTIONS', `/v1/${name}`, { 'x-auth-proxy-config-id': configId, origin, 'access-control-request-method': 'POST' });
        tally.refused('origins', `preflight, ${what} on ${name}`, pre, 403, 'ERR_ORIGIN_NOT_ALLOWED');
        expect(cors(what, pre).acao).toBeNull();
      }
    }
    // Browsers send no custom header in a preflight: some enabled config allows the origin, so it passes...
    const pre = await call(exact.url, 'OPTIONS', '/v1/account', { origin: otherTenant.origin, 'access-control-request-method': 'POST' });
    expect([pre.status, cors('cross-tenant preflight', pre).acao]).toEqual([204, otherTenant.origin]);
  });

  it('given a missing, empty, unknown, overlong, doubled or Latin-1 config id, or the id of a disabled proxy, when any /v1 endpoint is called from the allowed or a foreign origin, then each gets its stable 4xx and no access-control-allow-origin', async () => {
    const ids: Array<[string, string | string[] | undefined, number, string]> = [
      ['no config header', undefined, 400, 'ERR_CONFIG_ID_MISSING'],
      ['an empty config id', '', 400, 'ERR_CONFIG_ID_MISSING'],
      ['a blank config id', '   ', 400, 'ERR_CONFIG_ID_MISSING'],
      ['an unknown config id', randomUUID(), 404, 'ERR_CONFIG_NOT_FOUND'],
      ['a config id of 129 characters', 'a'.repeat(129), 404, 'ERR_CONFIG_NOT_FOUND'],
      ['a config id of 8000 characters', 'a'.repeat(8000), 404, 'ERR_CONFIG_NOT_FOUND'],
      ['the config id with a suffix', `${exact.proxy.id}x`, 404, 'ERR_CONFIG_NOT_FOUND'],
      ['the config id twice', [exact.proxy.id, exact.proxy.id], 404, 'ERR_CONFIG_NOT_FOUND'],
      ['an SQL-looking config id', "x' OR '1'='1", 404, 'ERR_CONFIG_NOT_FOUND'],
      ['a Latin-1 config id', '\u00e9\u00ff', 404, 'ERR_CONFIG_NOT_FOUND'],
      ['a disabled proxy', disabledConfigId, 403, 'ERR_PROXY_DISABLED'],
    ];
    for (const name of ENDPOINTS) {
      const sent = ids.flatMap(([what, id, status, code]) =>
        [APP, 'https://evil.example'].map((origin) => ({ what: `${what} from ${origin} on ${name}`, id, origin, status, code })),
      );
      const replies = await Promise.all(
        sent.map((x) => call(exact.url, 'POST', `/v1/${name}`, { ...(x.id === undefined ? {} : { 'x-auth-proxy-config-id': x.id }), origin: x.origin }, '{}')),
      );
      sent.forEach((x, i) => {
        tally.refused('origins', x.what, replies[i]!, x.status, x.code);
        expect(cors(x.what, replies[i]!).acao, x.what).toBeNull();
      });
    }
    // A preflight naming a config that cannot serve the allowed origin grants nothing either.
    for (const [what, id] of [
      ['an unknown config id', randomUUID()],
      ['an overlong config id', 'a'.repeat(8000)],
      ['a disabled proxy', disabledConfigId],
    ] as const) {
      const pre = await call(exact.url, 'OPTIONS', '/v1/otp_init_v2', { 'x-auth-proxy-config-id': id, origin: APP, 'access-control-request-method': 'POST' });
      tally.refused('origins', `preflight with ${what}`, pre, 403, 'ERR_ORIGIN_NOT_ALLOWED');
      expect(cors(what, pre).acao).toBeNull();
    }
  });
});

describe('origins: the proxy allowing *', () => {
  /**
   * Single-valued ASCII origins of the tricks: `*` serves them all, echoing exactly what was
   * sent (a Latin-1 byte is re-encoded by Node on the way out; browsers send punycode).
   */
  const single = TRICKS.filter(([, o]) => typeof o === 'string' && /^[\x20-\x7e]*$/.test(o)) as Array<[string, string]>;

  it('given any single Origin, when every /v1 endpoint is called, then it passes the guard and access-control-allow-origin is exactly that origin, never credentials', async () => {
    for (const name of ENDPOINTS) {
      const replies = await Promise.all(
        single.map(([, origin]) => call(any.url, 'POST', `/v1/${name}`, { 'x-auth-proxy-config-id': any.proxy.id, origin }, UNKNOWN_FIELD)),
      );
      single.forEach(([what, origin], i) => {
        // The unknown field is refused past the guard, so the served reply is a 400 the page may read.
        tally.refused('origins', `* config, ${what} on ${name}`, replies[i]!, 400, 'ERR_INVALID_REQUEST');
        const h = cors(what, replies[i]!);
        expect(h.acao, `${what} on ${name}`).toBe(origin);
        expect(h.vary).toMatch(/Origin/);
      });
    }
  });

  it('given no Origin or two Origin headers, when a /v1 endpoint is called, then no reply names a foreign origin alone as allowed', async () => {
    const none = await call(any.url, 'POST', '/v1/account', { 'x-auth-proxy-config-id': any.proxy.id }, UNKNOWN_FIELD);
    tally.refused('origins', '* config, no Origin', none, 400, 'ERR_INVALID_REQUEST');
    expect(cors('no Origin', none).acao).toBeNull();
    const two = await call(any.url, 'POST', '/v1/account', { 'x-auth-proxy-config-id': any.proxy.id, origin: [APP, 'https://evil.example'] }, UNKNOWN_FIELD);
    tally.refused('origins', '* config, two Origin headers', two, 400, 'ERR_INVALID_REQUEST');
    // Node joins repeated headers: the echo is the joined list, which no browser accepts as a grant.
    expect(cors('two Origin headers', two).acao).toBe(`${APP}, https://evil.example`);
  });

  it('given a disabled * proxy or an unknown config id, when any /v1 endpoint or preflight is called from any origin, then it is refused with its stable code and no access-control-allow-origin', async () => {
    for (const name of ENDPOINTS) {
      for (const [what, id, status, code] of [
        ['a disabled * proxy', disabledAnyConfigId, 403, 'ERR_PROXY_DISABLED'],
        ['an unknown config id', randomUUID(), 404, 'ERR_CONFIG_NOT_FOUND'],
      ] as const) {
        const reply = await call(any.url, 'POST', `/v1/${name}`, { 'x-auth-proxy-config-id': id, origin: 'https://evil.example' }, '{}');
        tally.refused('origins', `${what} on ${name}`, reply, status, code);
        expect(cors(what, reply).acao).toBeNull();
        const pre = await call(any.url, 'OPTIONS', `/v1/${name}`, {
          'x-auth-proxy-config-id': id,
          origin: 'https://evil.example',
          'access-control-request-method': 'POST',
        });
        tally.refused('origins', `preflight, ${what} on ${name}`, pre, 403, 'ERR_ORIGIN_NOT_ALLOWED');
        expect(cors(what, pre).acao).toBeNull();
      }
    }
  });
});

describe('origins: the activity API answers * and never an echo', () => {
  it('given every origin trick, when submits and queries are sent unstamped, badly typed or oversized, then each is refused with its code and access-control-allow-origin is * (never the origin)', async () => {
    const org = exact.org.organizationId;
    const bodies: Array<[string, string, string, Record<string, string>, number, string]> = [
      ['unstamped query', queries.whoami.path, JSON.stringify({ organizationId: org }), {}, 401, 'ERR_STAMP_MISSING'],
      [
        'unstamped submit',
        '/public/v1/submit/create_user_tag',
        envelopeText('create_user_tag', org, { userTagName: 'cors', userIds: [] }),
        {},
        401,
        'ERR_STAMP_MISSING',
      ],
      ['malformed submit', '/public/v1/submit/create_user_tag', '{"type":', {}, 400, 'ERR_MALFORMED_JSON'],
      ['text/plain submit', '/public/v1/submit/create_user_tag', '{}', { 'content-type': 'text/plain' }, 415, 'ERR_UNSUPPORTED_MEDIA_TYPE'],
      ['oversized query', queries.whoami.path, `{"pad":"${'a'.repeat(1024 * 1024)}"}`, {}, 413, 'ERR_PAYLOAD_TOO_LARGE'],
    ];
    for (const [what, path, body, headers, status, code] of bodies) {
      const withOrigin = TRICKS.filter(([, o]) => o !== undefined);
      const replies = await Promise.all(withOrigin.map(([, origin]) => call(exact.url, 'POST', path, { ...headers, ...originHeaders(origin) }, body)));
      withOrigin.forEach(([trick], i) => {
        tally.refused('origins', `activity API, ${what}, ${trick}`, replies[i]!, status, code);
        expect(cors(trick, replies[i]!).acao, `${what}, ${trick}`).toBe('*');
      });
    }
  });

  it('given any origin, when a stamped request is served or a preflight asks for the stamp headers, then access-control-allow-origin is * and credentials are never allowed', async () => {
    const body = JSON.stringify({ organizationId: exact.org.organizationId });
    for (const [what, origin] of TRICKS) {
      const served = await call(exact.url, 'POST', queries.whoami.path, { 'x-stamp': stampApiKey(body, exact.org.apiKey), ...originHeaders(origin) }, body);
      expect(served.status, what).toBe(200);
      expect(cors(`stamped whoami, ${what}`, served).acao, what).toBe('*');
      // Without an Origin it is no CORS preflight; it is answered the same way, not with a text/plain 400.
      const pre = await call(exact.url, 'OPTIONS', '/public/v1/submit/create_wallet', {
        ...originHeaders(origin),
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-stamp,x-stamp-webauthn',
      });
      expect(pre.status, what).toBe(204);
      expect(cors(`activity preflight, ${what}`, pre).acao, what).toBe('*');
    }
    const bare = await call(exact.url, 'OPTIONS', queries.whoami.path, {});
    expect([bare.status, cors('bare OPTIONS', bare).acao]).toEqual([204, '*']);
  });
});

describe('origins: the dev outbox', () => {
  const outbox = '/v1/dev/outbox?limit=5';
  const loopbackHost = () => new URL(exact.url).host;

  it('given a plain loopback request, when the outbox is asked, then it is served (the control) and grants no origin', async () => {
    const plain = await getWithHeaders(exact.url, outbox, { host: loopbackHost() });
    expect(plain.status).toBe(200);
    expect((await getWithHeaders(exact.url, outbox, { host: `localhost:${new URL(exact.url).port}` })).status).toBe(200);
    // A page elsewhere may make the browser send the GET, but may not read the reply.
    const fromPage = await getWithHeaders(exact.url, outbox, { host: loopbackHost(), origin: 'https://evil.example' });
    expect(cors('outbox from a page', fromPage).acao).toBeNull();
    const pre = await call(exact.url, 'OPTIONS', outbox, { origin: 'https://evil.example', 'access-control-request-method': 'GET' });
    tally.refused('origins', 'outbox preflight from a page', pre, 403, 'ERR_ORIGIN_NOT_ALLOWED');
    expect(cors('outbox preflight', pre).acao).toBeNull();
  });

  it('given forwarding headers or a Host that is not loopback, when the outbox is asked from loopback, then each is 403 ERR_PERMISSION_DENIED', async () => {
    const host = loopbackHost();
    const attempts: Array<[string, Record<string, string>]> = [
      ['X-Forwarded-For', { host, 'x-forwarded-for': '203.0.113.9' }],
      ['X-Forwarded-For spoofing loopback', { host, 'x-forwarded-for': '127.0.0.1' }],
      ['an empty X-Forwarded-For', { host, 'x-forwarded-for': '' }],
      ['X-Forwarded-For in capitals', { host, 'X-FORWARDED-FOR': '203.0.113.9' }],
      ['Forwarded', { host, forwarded: 'for=203.0.113.9' }],
      ['Forwarded spoofing loopback', { host, forwarded: 'for="[::1]";proto=http' }],
      ['Host evil.example', { host: 'evil.example' }],
      ['Host evil.example with the port', { host: `evil.example:${new URL(exact.url).port}` }],
      ['Host localhost.evil.example', { host: 'localhost.evil.example' }],
      ['Host 127.0.0.1.nip.io', { host: '127.0.0.1.nip.io' }],
      ['Host [::1]evil.example', { host: '[::1]evil.example' }],
      ['Host [::1].evil.example:80', { host: '[::1].evil.example:80' }],
      ['Host 127.0.0.1:80:80', { host: '127.0.0.1:80:80' }],
      ['Host localhost:', { host: 'localhost:' }],
      ['Host 0.0.0.0', { host: '0.0.0.0' }],
      ['Host 10.0.0.1', { host: '10.0.0.1' }],
      ['a rebound page (foreign Host and Origin)', { host: 'evil.example', origin: 'http://evil.example' }],
    ];
    for (const [what, headers] of attempts) {
      const reply = await getWithHeaders(exact.url, outbox, headers);
      tally.refused('origins', `dev outbox with ${what}`, reply, 403, 'ERR_PERMISSION_DENIED');
      expect(cors(what, reply).acao).toBeNull();
    }
  });

  it('given request lines node:http will not write (an empty Host, none, two, an absolute-form target), when the outbox is asked from loopback, then none is served', async () => {
    const port = new URL(exact.url).port;
    const lines: Array<[string, string, number, string | undefined]> = [
      ['an empty Host', 'GET /v1/dev/outbox HTTP/1.1\r\nHost: \r\n', 403, 'ERR_PERMISSION_DENIED'],
      ['HTTP/1.0 without Host', 'GET /v1/dev/outbox HTTP/1.0\r\n', 403, 'ERR_PERMISSION_DENIED'],
      ['two Host headers, loopback first', `GET /v1/dev/outbox HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: evil.example\r\n`, 403, 'ERR_PERMISSION_DENIED'],
      ['two Host headers, loopback last', `GET /v1/dev/outbox HTTP/1.1\r\nHost: evil.example\r\nHost: 127.0.0.1:${port}\r\n`, 403, 'ERR_PERMISSION_DENIED'],
      [
        'an absolute-form target naming another host',
        `GET http://evil.example/v1/dev/outbox HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`,
        403,
        'ERR_PERMISSION_DENIED',
      ],
      // Node itself refuses HTTP/1.1 without Host (a bare 400, before any route).
      ['HTTP/1.1 without Host', 'GET /v1/dev/outbox HTTP/1.1\r\n', 400, undefined],
    ];
    for (const [what, head, status, code] of lines) {
      const reply = await rawHttp(exact.url, `${head}Connection: close\r\n\r\n`);
      tally.refused('origins', `dev outbox with ${what}`, reply, status, code);
    }
  });

  // A reverse proxy configured with only `proxy_set_header X-Real-IP $remote_addr` (nginx's
  // usual line) forwards no X-Forwarded-For and keeps a loopback Host: its other headers count too.
  it("given X-Real-IP or another forwarding header (a reverse proxy's), when the outbox is asked from loopback, then it is 403 ERR_PERMISSION_DENIED", async () => {
    for (const name of ['x-real-ip', 'x-client-ip', 'true-client-ip', 'cf-connecting-ip', 'x-forwarded-host', 'via']) {
      const reply = await getWithHeaders(exact.url, outbox, { host: loopbackHost(), [name]: name === 'via' ? '1.1 proxy' : '203.0.113.9' });
      tally.refused('origins', `dev outbox with ${name}`, reply, 403, 'ERR_PERMISSION_DENIED');
    }
  });

  it('given a server without devOutbox, when the outbox is asked in any way, then the route does not exist (404 ERR_ROUTE_NOT_FOUND)', async () => {
    const host = new URL(any.url).host;
    const attempts: Array<[string, string, Record<string, string>]> = [
      ['plain loopback', outbox, { host }],
      ['no query', '/v1/dev/outbox', { host }],
      ['a recipient', '/v1/dev/outbox?recipient=a%40example.com', { host }],
      ['X-Forwarded-For', outbox, { host, 'x-forwarded-for': '127.0.0.1' }],
      ['a foreign Host', outbox, { host: 'evil.example' }],
      ['a trailing slash', '/v1/dev/outbox/', { host }],
      ['a doubled slash', '/v1/dev//outbox', { host }],
      ['capitals', '/v1/DEV/OUTBOX', { host }],
    ];
    for (const [what, path, headers] of attempts) {
      tally.refused('origins', `outbox without devOutbox, ${what}`, await getWithHeaders(any.url, path, headers), 404, 'ERR_ROUTE_NOT_FOUND');
    }
    const post = await call(any.url, 'POST', '/v1/dev/outbox', { 'x-auth-proxy-config-id': any.proxy.id, origin: 'https://evil.example' }, '{}');
    tally.refused('origins', 'outbox without devOutbox, POST', post, 404, 'ERR_ROUTE_NOT_FOUND');
  });
});

describe('origins: credentials', () => {
  it('given every reply above (both proxies, the activity API, the outbox), then none carried access-control-allow-credentials', () => {
    expect(looked).toBeGreaterThan(500);
    tally.violations('origins', 'replies allowing credentials', credentialed);
  });
});
