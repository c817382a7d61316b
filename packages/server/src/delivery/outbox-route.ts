/**
 * GET /v1/dev/outbox (DESIGN section 3, "Delivery"): the messages of the dev outbox, newest
 * first, so the demo can show a code without SMTP or SMS. Its replies contain codes, so the
 * route exists only when the dev outbox was asked for (`config.devOutbox`), and even then it
 * answers loopback clients only: the peer address is loopback, no proxy forwarded the request
 * (a reverse proxy on the same host would make every client look local), and the Host is a
 * loopback name (a DNS-rebound page names its own host). Its query string is decoded strictly.
 */
import { isIP } from 'node:net';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Obj } from '@walletkit/protocol';
import { assertSchema } from '../activity/validate.js';
import { listOutbox } from './outbox.js';
import { ApiError } from '../errors.js';
import { assertStorableString } from '../request-body.js';
import type { Store } from '../store/db.js';

const OutboxQuery = Obj({
  organizationId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  recipient: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })),
  limit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]?$' })),
});

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped form. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return address === '::1';
}

/** `localhost`, `127.x.y.z` or `[::1]`, with an optional port, and nothing else (`[::1]evil.example` is not loopback). */
function isLoopbackHost(host: string | undefined): boolean {
  const m = host === undefined ? null : /^(\[::1\]|[^:[\]]+)(?::\d{1,5})?$/.exec(host);
  if (!m) return false;
  const name = m[1]!;
  return name === 'localhost' || name === '[::1]' || (isIP(name) === 4 && name.startsWith('127.'));
}

/**
 * The query string decoded strictly (Fastify's parser keeps a malformed escape as literal
 * text and lets `%00` through to the database, which refuses it with a 500).
 * @throws ApiError ERR_INVALID_REQUEST (not percent-encoded UTF-8) | ERR_INVALID_STRING (NUL, lone surrogate)
 */
function strictQuery(url: string): Record<string, string | string[]> {
  const at = url.indexOf('?');
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  if (at < 0) return out;
  for (const pair of url.slice(at + 1).split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const [rawKey, rawValue] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    let key: string;
    let value: string;
    try {
      key = decodeURIComponent(rawKey.replaceAll('+', ' '));
      value = decodeURIComponent(rawValue.replaceAll('+', ' '));
    } catch {
      throw new ApiError('ERR_INVALID_REQUEST', 'the query string is not percent-encoded UTF-8', rawKey.slice(0, 64));
    }
    assertStorableString(key, 'query');
    assertStorableString(value, key);
    const seen = out[key];
    // A repeated parameter becomes a list, which the schema refuses (one meaning per request).
    out[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return out;
}

/**
 * Headers a reverse proxy or CDN adds for the client it forwards (nginx's usual
 * `X-Real-IP` sends no X-Forwarded-For). A proxy that adds none cannot be detected: the
 * dev outbox must never sit behind one (README, SECURITY.md).
 */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-client-ip', 'true-client-ip', 'cf-connecting-ip', 'x-forwarded-host', 'via'];

/** @throws ApiError ERR_PERMISSION_DENIED unless the request comes straight from this machine. */
function requireLoopback(req: FastifyRequest): void {
  const forwarded = FORWARDING_HEADERS.some((name) => req.headers[name] !== undefined);
  // Node keeps the first of two Host headers, and an absolute-form target (`GET http://evil/...`)
  // overrides Host (RFC 9112 3.2.2): either way the checked Host might not be the one meant.
  const hosts = req.raw.rawHeaders.filter((_, i) => i % 2 === 0 && req.raw.rawHeaders[i]!.toLowerCase() === 'host').length;
  const originForm = req.raw.url?.startsWith('/') === true;
  if (!isLoopbackAddress(req.socket.remoteAddress) || forwarded || hosts > 1 || !originForm || !isLoopbackHost(req.headers.host)) {
    throw new ApiError('ERR_PERMISSION_DENIED', 'the dev outbox is served to loopback clients only');
  }
}

/** Register the outbox route on the proxy plugin (the caller checks `config.devOutbox`). */
export function registerDevOutbox(app: FastifyInstance, store: Store): void {
  app.get('/dev/outbox', async (req) => {
    requireLoopback(req);
    const q = assertSchema<{ organizationId?: string; recipient?: string; limit?: string }>(OutboxQuery, strictQuery(req.url), '');
    const messages = await listOutbox(store.db, {
      ...(q.organizationId !== undefined ? { organizationId: q.organizationId } : {}),
      ...(q.recipient !== undefined ? { recipient: q.recipient } : {}),
      ...(q.limit !== undefined ? { limit: Number(q.limit) } : {}),
    });
    return { messages: messages.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })) };
  });
}
