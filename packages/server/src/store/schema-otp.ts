// Tables of one-time codes (issue 3); re-exported by schema.ts. Must match migrations/0003_otp.sql.
import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './schema-columns.js';
import type { Sealed } from '../enclave/types.js';
import { organizations } from './schema.js';

/**
 * One issued one-time code (init_otp). The code itself is never stored: only an HMAC-SHA256
 * under a key derived from the per-code target private key, which is sealed to the enclave's
 * at-rest key, so a database dump alone cannot brute-force the short code space.
 */
export const otps = pgTable(
  'otps',
  {
    id: text('id').primaryKey(),
    /** The organization that issued the code (the proxy's organization). */
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    /** OTP_TYPE_EMAIL | OTP_TYPE_SMS */
    otpType: text('otp_type').notNull(),
    /** Normalized contact: lowercased email or the E.164 number as given. */
    contact: text('contact').notNull(),
    /** Lowercase hex HMAC-SHA256 of the code (enclave/otp.ts). */
    codeMac: text('code_mac').notNull(),
    /** Uncompressed P-256 hex of the per-code HPKE target the client encrypts the code to. */
    targetPublicKey: text('target_public_key').notNull(),
    /** HPKE ciphertext (to the enclave at-rest key) of the target private key. */
    targetPrivateKeyEncrypted: jsonb('target_private_key_encrypted').$type<Sealed>().notNull(),
    /** Verify attempts so far, counted before the check's verdict is used (wrong or right). */
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    expiresAt: ts('expires_at').notNull(),
    /** Set when a verify succeeded: a code verifies once. */
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  // Throttling counts the codes of one (organization, contact) inside a time window.
  (t) => [index('otps_org_contact_idx').on(t.organizationId, t.contact, t.createdAt)],
);

/** Dev outbox: messages that would have been sent when neither SMTP nor an SMS webhook is set. */
export const otpOutbox = pgTable(
  'otp_outbox',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    /** email | sms */
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    /** Email subject; null for SMS. */
    subject: text('subject'),
    /** The text body (it holds the code: dev mode only). */
    body: text('body').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('otp_outbox_org_recipient_idx').on(t.organizationId, t.recipient, t.createdAt)],
);
