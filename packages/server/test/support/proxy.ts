/**
 * Proxy tests speak HTTP to the proxy as a browser does; the proxy reaches the activity API
 * through inject() (its seam, proxy/activity-api.ts). This
 * starts a test server (harness.ts) listening on 127.0.0.1:0 with `publicUrl` set to it,
 * enables the proxy of its organization (admin/proxy.ts), and gives a tiny browser-like
 * client that sends the config id header and an Origin.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { stampApiKey } from '@walletkit/crypto';
import { operations, type OperationName, type ProxyEndpointName, type ProxyRequestOf } from '@walletkit/protocol';
import { enableProxy, type EnableProxyInput } from '../../src/admin/proxy';
import type { AppDeps } from '../../src/app';
import { build } from '../../src/app';
import { loadConfig, type ServerConfig } from '../../src/config';
import { Enclave } from '../../src/enclave';
import type { ProxyConfigRow } from '../../src/proxy/config-store';
import { openStore } from '../../src/store/db';
import { startTestServer, type TestServer } from './harness';
import type { StoreKind } from './stores';

export interface ProxyReply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** What an end user's browser sends to the proxy. */
export class ProxyClient {
  constructor(
    readonly baseUrl: string,
    readonly configId: string | undefined,
    readonly origin: string | undefined,
  ) {}

  with(opts: { configId?: string | undefined; origin?: string | undefined; baseUrl?: string }): ProxyClient {
    return new ProxyClient(opts.baseUrl ?? this.baseUrl, 'configId' in opts ? opts.configId : this.configId, 'origin' in opts ? opts.origin : this.origin);
  }

  async raw(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<ProxyReply> {
    const h: Record<string, string> = { ...headers };
    if (this.configId !== undefined) h['x-auth-proxy-config-id'] = this.configId;
    if (this.origin !== undefined) h.origin = this.origin;
    if (body !== undefined) h['content-type'] ??= 'application/json';
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers: h, ...(body !== undefined ? { body } : {}) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }

  post<N extends ProxyEndpointName>(name: N, body: ProxyRequestOf<N>): Promise<ProxyReply> {
    return this.raw('POST', `/v1/${name}`, JSON.stringify(body));
  }
}

export interface ProxyTestServer extends TestServer {
  url: string;
  proxy: ProxyConfigRow;
  /** A client from an allowed origin with the config id. */
  browser: ProxyClient;
}

/** Listen on a free loopback port and point `publicUrl` (the proxy's activity API base) at it. */
async function listen(app: TestServer['app'], config: ServerConfig): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  config.publicUrl = url;
  return url;
}

/**
 * A listening test server with its organization's proxy enabled.
 * @example const s = await startProxyServer('pglite', { proxy: { origins: ['https://app.example'] } });
 */
export async function startProxyServer(
  kind: StoreKind,
  opts: { config?: Partial<ServerConfig>; deps?: Partial<AppDeps>; proxy?: Omit<EnableProxyInput, 'organizationId'>; origin?: string } = {},
): Promise<ProxyTestServer> {
  // The dev outbox stands in for the user's mailbox (tests read codes from it); production tests turn it off.
  const server = await startTestServer(kind, {
    config: { masterKey: randomBytes(32).toString('hex'), devOutbox: true, ...opts.config },
    // The proxy reaches the activity API in-process (inject()); the CLI and e2e servers use HTTP.
    deps: { proxyTransport: 'inject', ...opts.deps },
  });
  try {
    const url = await listen(server.app, server.config);
    const proxy = await enableProxy(server.store, server.enclave, { organizationId: server.org.organizationId, ...opts.proxy });
    const origin = opts.origin ?? (proxy.settings.allowedOrigins[0] === '*' ? 'https://any.example' : proxy.settings.allowedOrigins[0]);
    return Object.assign(server, { url, proxy, browser: new ProxyClient(url, proxy.id, origin) });
  } catch (err) {
    await server.dispose();
    throw err;
  }
}

/**
 * A second, independent server instance on the same PostgreSQL database (own pool, own
 * enclave opened with the same master key), as behind a load balancer.
 */
export async function startSecondInstance(
  first: ProxyTestServer & { store: { location: string } },
  deps: Partial<AppDeps> = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const config = loadConfig({}, { ...first.config, publicUrl: undefined, port: 0 });
  const store = await openStore({ databaseUrl: first.store.location, poolSize: 5 });
  try {
    const enclave = await Enclave.open(store, config);
    const app = await build(config, { store, enclave, ...deps });
    const url = await listen(app, config);
    return {
      url,
      async close() {
        await app.close();
        await store.close();
      },
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}

/**
 * A verification token for `contact` as otp_verify_v2 issues it (signed by the server's
 * enclave), without the code round trip: for tests whose subject is not the OTP flow itself.
 * @example await s.browser.post('signup_v2', { userEmail: 'a@example.com', verificationToken: verificationTokenFor(s, 'a@example.com') })
 */
export function verificationTokenFor(
  s: Pick<TestServer, 'enclave' | 'org'>,
  contact: string,
  opts: { type?: 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS'; organizationId?: string; publicKey?: string; expiresInSeconds?: number } = {},
): string {
  return s.enclave.signJwt({
    id: randomUUID(),
    verification_type: opts.type ?? (contact.includes('@') ? 'OTP_TYPE_EMAIL' : 'OTP_TYPE_SMS'),
    contact,
    organization_id: opts.organizationId ?? s.org.organizationId,
    ...(opts.publicKey !== undefined ? { public_key: opts.publicKey } : {}),
    exp: Math.floor(Date.now() / 1000) + (opts.expiresInSeconds ?? 600),
  });
}

/**
 * Replies counted by outcome: 'OK' for a 2xx, else `<status> <code>`, to assert what a race gave.
 * @example expect(outcomes(replies)).toEqual({ OK: 1, '409 ERR_ALREADY_EXISTS': 7 });
 */
export function outcomes(replies: Array<{ status: number; body?: any }>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of replies) {
    const key = r.status >= 200 && r.status < 300 ? 'OK' : `${r.status} ${r.body?.details?.[0]?.errorCode ?? 'no code'}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

/**
 * The `n`-th spelling of an email, letters upper-cased by the bits of `n`: one contact, distinct
 * request bodies (so racing copies are not one idempotent activity).
 * @example spelling('ab@example.com', 1) // 'Ab@example.com'
 */
export function spelling(email: string, n: number): string {
  let bit = 0;
  return [...email].map((ch) => (/[a-z]/.test(ch) && ((n >> bit++) & 1) === 1 ? ch.toUpperCase() : ch)).join('');
}

/** Assert an error reply: status, stable code and (optionally) the field. */
export function expectProxyError(reply: ProxyReply, status: number, code: string, field?: string): void {
  expect({ status: reply.status, code: reply.body?.details?.[0]?.errorCode }).toEqual({ status, code });
  if (field !== undefined) expect(reply.body.details[0].field).toBe(field);
}

/** POST a submit to an activity API over HTTP, stamped with `key` (a session or device key). */
export async function submitOver(url: string, key: { publicKey: string; privateKey: string }, organizationId: string, op: OperationName, parameters: unknown) {
  const body = JSON.stringify({ type: operations[op].type, timestampMs: String(Date.now()), organizationId, parameters });
  const res = await fetch(`${url}${operations[op].path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-stamp': stampApiKey(body, key) },
    body,
  });
  return { status: res.status, body: (await res.json()) as any };
}

/**
 * The code of the newest dev-outbox message to `recipient` (GET /v1/dev/outbox, dev mode), as
 * the user would read it from their mailbox.
 * @example const code = await outboxCode(s.url, 'a@example.com'); // '042917'
 */
export async function outboxCode(url: string, recipient: string): Promise<string> {
  const res = await fetch(`${url}/v1/dev/outbox?recipient=${encodeURIComponent(recipient)}&limit=1`);
  const { messages } = (await res.json()) as { messages: Array<{ body: string }> };
  const body = messages[0]?.body;
  if (body === undefined) throw new Error(`no outbox message to ${recipient}`);
  const match = /(?:^|\s)([0-9A-Z]{6,9})(?=\s|$)/m.exec(body);
  if (!match) throw new Error(`no code in the message to ${recipient}`);
  return match[1]!;
}
