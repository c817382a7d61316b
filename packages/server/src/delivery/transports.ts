/**
 * The real transports: SMTP through nodemailer (SMTP_URL) and an SMS webhook (SMS_WEBHOOK_URL,
 * POST JSON `{to, text}`). Errors name the transport and a status or code only: they reach
 * the logs, and a provider's echo of the message could carry the code.
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
 * An SMS sender posting `{to, text}` to a webhook; any non-2xx answer is a failure.
 * @example await smsWebhookSender('https://sms.example.com/send', fetch)({ to: '+15551234567', text });
 */
export function smsWebhookSender(url: string, fetchFn: typeof fetch): (message: SmsMessage) => Promise<void> {
  return async (message) => {
    let status: number;
    try {
      const res = await fetchFn(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ to: message.to, text: message.text }),
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      status = res.status;
      await res.body?.cancel();
    } catch (err) {
      throw new DeliveryError(`SMS webhook unreachable (${(err as Error).name})`);
    }
    if (status < 200 || status >= 300) throw new DeliveryError(`SMS webhook answered ${status}`);
  };
}
