/** OTP delivery (DESIGN section 3): SMTP or an email webhook, an SMS webhook, or the dev outbox. */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Proxy configuration's email customization. */
  appName: string;
  logoUrl?: string;
}

export interface SmsMessage {
  to: string;
  text: string;
}

export interface Delivery {
  /** Which transport carries email ('smtp' | 'webhook' | 'outbox') and SMS ('webhook' | 'outbox'); 'none' when the channel has none. */
  readonly kinds: { email: 'smtp' | 'webhook' | 'outbox' | 'none'; sms: 'webhook' | 'outbox' | 'none' };
  sendEmail(organizationId: string, message: EmailMessage): Promise<void>;
  sendSms(organizationId: string, message: SmsMessage): Promise<void>;
}
