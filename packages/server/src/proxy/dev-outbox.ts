/**
 * GET /v1/dev/outbox (dev mode only; DESIGN section 3, "Delivery"): the messages of the dev
 * outbox, newest first, so the demo and e2e tests can read a code without SMTP or SMS. Its
 * replies contain codes, which is why the route does not exist unless `config.dev` is true.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { Obj } from '@walletkit/protocol';
import { assertSchema } from '../activity/validate';
import { listOutbox } from '../delivery';
import type { Store } from '../store/db';

const OutboxQuery = Obj({
  organizationId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  recipient: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })),
  limit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]?$' })),
});

/** Register the outbox route on the proxy plugin (the caller checks dev mode). */
export function registerDevOutbox(app: FastifyInstance, store: Store): void {
  app.get('/dev/outbox', async (req) => {
    const q = assertSchema<{ organizationId?: string; recipient?: string; limit?: string }>(OutboxQuery, req.query ?? {}, '');
    const messages = await listOutbox(store.db, {
      ...(q.organizationId !== undefined ? { organizationId: q.organizationId } : {}),
      ...(q.recipient !== undefined ? { recipient: q.recipient } : {}),
      ...(q.limit !== undefined ? { limit: Number(q.limit) } : {}),
    });
    return { messages: messages.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })) };
  });
}
