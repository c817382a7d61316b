/**
 * GET /v1/dev/outbox (DESIGN section 3, "Delivery"): the messages of the dev outbox, newest
 * first, so the demo can show a code without SMTP or SMS. Its replies contain codes, so the
 * route exists only when the dev outbox was asked for (`config.devOutbox`), and even then it
 * answers loopback clients only: the peer address is loopback, no proxy forwarded the request
 * (a reverse proxy on the same host would make every client look local), and the Host is a
 * loopback name (a DNS-rebound page names its own host).
 */
import { isIP } from 'node:net';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Obj } from '@walletkit/protocol';
import { assertSchema } from '../activity/validate';
import { listOutbox } from '../delivery';
import { ApiError } from '../errors';
import type { Store } from '../store/db';

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

/** `localhost`, `127.x.y.z` or `[::1]`, with an optional port. */
function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
  return name === 'localhost' || name === '[::1]' || (isIP(name) === 4 && name.startsWith('127.'));
}

/** @throws ApiError ERR_PERMISSION_DENIED unless the request comes straight from this machine. */
function requireLoopback(req: FastifyRequest): void {
  const forwarded = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined;
  if (!isLoopbackAddress(req.socket.remoteAddress) || forwarded || !isLoopbackHost(req.headers.host)) {
    throw new ApiError('ERR_PERMISSION_DENIED', 'the dev outbox is served to loopback clients only');
  }
}

/** Register the outbox route on the proxy plugin (the caller checks `config.devOutbox`). */
export function registerDevOutbox(app: FastifyInstance, store: Store): void {
  app.get('/dev/outbox', async (req) => {
    requireLoopback(req);
    const q = assertSchema<{ organizationId?: string; recipient?: string; limit?: string }>(OutboxQuery, req.query ?? {}, '');
    const messages = await listOutbox(store.db, {
      ...(q.organizationId !== undefined ? { organizationId: q.organizationId } : {}),
      ...(q.recipient !== undefined ? { recipient: q.recipient } : {}),
      ...(q.limit !== undefined ? { limit: Number(q.limit) } : {}),
    });
    return { messages: messages.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })) };
  });
}
