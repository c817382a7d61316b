import type { ServerConfig } from '../config';
import type { Store } from '../store/db';
import type { Delivery } from './types';

export type { Delivery, EmailMessage, SmsMessage } from './types';

/** Pick the transports from the configuration (SMTP_URL, SMS_WEBHOOK_URL; else the dev outbox). */
export function createDelivery(_config: ServerConfig, _store: Store): Delivery {
  const unavailable = async () => {
    throw new Error('OTP delivery is not implemented yet');
  };
  return { kinds: { email: 'outbox', sms: 'outbox' }, sendEmail: unavailable, sendSms: unavailable };
}
