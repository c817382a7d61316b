/**
 * The dev outbox (DESIGN section 3, "Delivery"): with neither SMTP_URL nor SMS_WEBHOOK_URL,
 * messages are stored in `otp_outbox` so that the demo works offline. Its rows hold codes, so
 * the endpoint that lists them exists only in dev mode.
 */
import { and, desc, eq } from 'drizzle-orm';
import type { Executor } from '../store/db.js';
import { newSortableId } from '../store/ids.js';
import { otpOutbox } from '../store/schema.js';

/** One stored message. */
export interface OutboxMessage {
  id: string;
  organizationId: string;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string | null;
  body: string;
  createdAt: Date;
}

/** Store a message in the outbox. @internal */
export async function insertOutbox(
  db: Executor,
  message: { organizationId: string; channel: 'email' | 'sms'; recipient: string; subject?: string; body: string },
): Promise<void> {
  await db.insert(otpOutbox).values({
    id: newSortableId(),
    organizationId: message.organizationId,
    channel: message.channel,
    recipient: normalizeRecipient(message.recipient),
    subject: message.subject ?? null,
    body: message.body,
  });
}

/**
 * Messages of the outbox, newest first (at most `limit`, default 50), optionally for one
 * organization and/or recipient (emails compared case-insensitively as stored lowercased).
 * @example const [latest] = await listOutbox(store.db, { organizationId, recipient: 'a@example.com' });
 * @internal
 */
export async function listOutbox(db: Executor, filter: { organizationId?: string; recipient?: string; limit?: number } = {}): Promise<OutboxMessage[]> {
  const rows = await db
    .select()
    .from(otpOutbox)
    .where(
      and(
        filter.organizationId !== undefined ? eq(otpOutbox.organizationId, filter.organizationId) : undefined,
        filter.recipient !== undefined ? eq(otpOutbox.recipient, normalizeRecipient(filter.recipient)) : undefined,
      ),
    )
    .orderBy(desc(otpOutbox.createdAt), desc(otpOutbox.id))
    .limit(filter.limit ?? 50);
  return rows.map((r) => ({ ...r, channel: r.channel as OutboxMessage['channel'] }));
}

/** Emails are stored lowercased so that lookups match however the user typed them. */
export function normalizeRecipient(recipient: string): string {
  return recipient.includes('@') ? recipient.toLowerCase() : recipient;
}
