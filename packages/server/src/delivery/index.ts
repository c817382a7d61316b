/**
 * OTP delivery (DESIGN section 3): SMTP when SMTP_URL is set, the SMS webhook when
 * SMS_WEBHOOK_URL is set, and the dev outbox (table `otp_outbox`) for whichever is not.
 */
import type { ServerConfig } from '../config';
import type { Store } from '../store/db';
import { insertOutbox } from './outbox';
import { smsWebhookSender, smtpSender } from './transports';
import type { Delivery } from './types';

export type { Delivery, EmailMessage, SmsMessage } from './types';
export { listOutbox, type OutboxMessage } from './outbox';
export { otpEmail, otpSms, DEFAULT_APP_NAME } from './message';
export { DeliveryError } from './transports';

/**
 * Pick the transports from the configuration (SMTP_URL, SMS_WEBHOOK_URL; else the dev outbox).
 * @example const delivery = createDelivery(config, store); await delivery.sendSms(orgId, otpSms({ to, code, expiresInSeconds: 300 }));
 */
export function createDelivery(config: ServerConfig, store: Store, opts: { fetch?: typeof fetch } = {}): Delivery {
  const smtp = config.delivery.smtpUrl ? smtpSender(config.delivery.smtpUrl, config.delivery.emailFrom) : undefined;
  const sms = config.delivery.smsWebhookUrl ? smsWebhookSender(config.delivery.smsWebhookUrl, opts.fetch ?? globalThis.fetch) : undefined;
  return {
    kinds: { email: smtp ? 'smtp' : 'outbox', sms: sms ? 'webhook' : 'outbox' },
    async sendEmail(organizationId, message) {
      if (smtp) return smtp.send(message);
      await insertOutbox(store.db, { organizationId, channel: 'email', recipient: message.to, subject: message.subject, body: message.text });
    },
    async sendSms(organizationId, message) {
      if (sms) return sms(message);
      await insertOutbox(store.db, { organizationId, channel: 'sms', recipient: message.to, body: message.text });
    },
  };
}
