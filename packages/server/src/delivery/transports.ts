/**
 * The real transports: SMTP through nodemailer (SMTP_URL), an email webhook (EMAIL_WEBHOOK_URL,
 * POST JSON `{to, subject, text}`) and an SMS webhook (SMS_WEBHOOK_URL, POST JSON `{to, text}`).
 * Errors name the transport and a status or code only: they reach the logs, and a provider's
 * echo of the message could carry the code.
 */
import nodemailer from 'nodemailer';
import type { EmailMessage, SmsMessage } from './types.js';

/** Outbound calls give up after this long, so a stuck provider cannot pin a request. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** A delivery failure without provider text (see the module comment). */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
}

/** `"Name" <address>` or a bare address -> the address. */
function addressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1]?.trim() ?? from.trim();
}

/**
 * An email sender over one pooled SMTP transport.
 * @example const send = smtpSender('smtps://user:pass@mail.example.com', 'Acme <no-reply@acme.com>'); await send(message);
 */
export function smtpSender(smtpUrl: string, emailFrom: string): { send(message: EmailMessage): Promise<void>; close(): void } {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: DELIVERY_TIMEOUT_MS,
    greetingTimeout: DELIVERY_TIMEOUT_MS,
    socketTimeout: 2 * DELIVERY_TIMEOUT_MS,
  });
  const address = addressOf(emailFrom);
  return {
    async send(message) {
      try {
        await transport.sendMail({
          // The sender name is the app the user signed up to; the address is ours.
          from: { name: message.appName, address },
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
        });
      } catch (err) {
        const code = (err as { code?: unknown; responseCode?: unknown }).responseCode ?? (err as { code?: unknown }).code ?? 'unknown';
        throw new DeliveryError(`SMTP delivery failed (${String(code)})`);
      }
    },
    close: () => transport.close(),
  };
}

/**
 * POST `payload` as JSON to a webhook; any non-2xx answer is a failure. The reply body is
 * discarded unread (a provider may echo the message, code included).
 */
async function postWebhook(label: string, url: string, fetchFn: typeof fetch, payload: Record<string, string>): Promise<void> {
  let status: number;
  try {
    const res = await fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    status = res.status;
    await res.body?.cancel();
  } catch (err) {
    throw new DeliveryError(`${label} unreachable (${(err as Error).name})`);
  }
  if (status < 200 || status >= 300) throw new DeliveryError(`${label} answered ${status}`);
}

/**
 * An SMS sender posting `{to, text}` to a webhook; any non-2xx answer is a failure.
 * @example await smsWebhookSender('https://sms.example.com/send', fetch)({ to: '+15551234567', text });
 */
export function smsWebhookSender(url: string, fetchFn: typeof fetch): (message: SmsMessage) => Promise<void> {
  return (message) => postWebhook('SMS webhook', url, fetchFn, { to: message.to, text: message.text });
}

/**
 * An email sender posting `{to, subject, text}` to a webhook (your mail provider's HTTP API
 * behind a few lines of glue); any non-2xx answer is a failure. The HTML part is not sent.
 * @example await emailWebhookSender('https://mail.example.com/send', fetch)(otpEmail({ to, code, expiresInSeconds: 300 }));
 */
export function emailWebhookSender(url: string, fetchFn: typeof fetch): (message: EmailMessage) => Promise<void> {
  return (message) => postWebhook('email webhook', url, fetchFn, { to: message.to, subject: message.subject, text: message.text });
}
