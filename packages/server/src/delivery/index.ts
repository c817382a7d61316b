/**
 * OTP delivery (DESIGN section 3): email through SMTP when SMTP_URL is set, else through the
 * email webhook when EMAIL_WEBHOOK_URL is set; SMS through the SMS webhook when SMS_WEBHOOK_URL
 * is set. A channel without a transport is `none` (init_otp refuses it with
 * ERR_DELIVERY_NOT_CONFIGURED before anything is stored), unless the dev outbox was asked
 * for (`config.devOutbox`): then its messages go to the table `otp_outbox`.
 */
import type { ServerConfig } from '../config.js';
import { ApiError } from '../errors.js';
import type { Store } from '../store/db.js';
import { insertOutbox } from './outbox.js';
import { emailWebhookSender, smsWebhookSender, smtpSender } from './transports.js';
import type { Delivery } from './types.js';

export type { Delivery, EmailMessage, SmsMessage } from './types.js';
export type { OutboxMessage } from './outbox.js';
export { otpEmail, otpSms, DEFAULT_APP_NAME } from './message.js';
export { DeliveryError } from './transports.js';

/** The refusal of a code for a channel without a transport. */
export const deliveryNotConfigured = (channel: 'email' | 'sms') =>
  new ApiError(
    'ERR_DELIVERY_NOT_CONFIGURED',
    `this server has no ${channel === 'email' ? 'email transport (SMTP_URL or EMAIL_WEBHOOK_URL)' : 'SMS transport (SMS_WEBHOOK_URL)'} configured`,
    'otpType',
  );

/**
 * Pick the transports from the configuration (email: SMTP_URL, else EMAIL_WEBHOOK_URL; SMS:
 * SMS_WEBHOOK_URL; a channel without one: the dev outbox when it is on, else none).
 * @example const delivery = createDelivery(config, store); await delivery.sendSms(orgId, otpSms({ to, code, expiresInSeconds: 300 }));
 */
export function createDelivery(config: ServerConfig, store: Store): Delivery {
  const smtp = config.delivery.smtpUrl ? smtpSender(config.delivery.smtpUrl, config.delivery.emailFrom) : undefined;
  // SMTP wins when both are set (startupWarnings says so).
  const emailWebhook = !smtp && config.delivery.emailWebhookUrl ? emailWebhookSender(config.delivery.emailWebhookUrl) : undefined;
  const sms = config.delivery.smsWebhookUrl ? smsWebhookSender(config.delivery.smsWebhookUrl) : undefined;
  const fallback = config.devOutbox ? 'outbox' : 'none';
  return {
    kinds: { email: smtp ? 'smtp' : emailWebhook ? 'webhook' : fallback, sms: sms ? 'webhook' : fallback },
    async sendEmail(organizationId, message) {
      if (smtp) return smtp.send(message);
      if (emailWebhook) return emailWebhook(message);
      if (fallback === 'none') throw deliveryNotConfigured('email');
      await insertOutbox(store.db, { organizationId, channel: 'email', recipient: message.to, subject: message.subject, body: message.text });
    },
    async sendSms(organizationId, message) {
      if (sms) return sms(message);
      if (fallback === 'none') throw deliveryNotConfigured('sms');
      await insertOutbox(store.db, { organizationId, channel: 'sms', recipient: message.to, body: message.text });
    },
  };
}
