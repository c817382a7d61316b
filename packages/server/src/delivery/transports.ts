/**
 * The real transports: SMTP through nodemailer (SMTP_URL), an email webhook (EMAIL_WEBHOOK_URL,
 * POST JSON `{to, subject, text}`) and an SMS webhook (SMS_WEBHOOK_URL, POST JSON `{to, text}`).
 * Errors name the transport and a status or code only: they reach the logs, and a provider's
 * echo of the message could carry the code.
 */
import http from 'node:http';
import https from 'node:https';
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
 * POST `payload` as JSON to a webhook over node:http(s) with a kept-alive connection; any
 * non-2xx answer is a failure, a redirect included (the message carries a code: it goes to the
 * configured URL or nowhere). The reply body is discarded unread (a provider may echo the
 * message, code included). Not `fetch`: undici's costs about 4x the CPU of a request here
 * (decision 0022), and every OTP is one.
 */
function webhookPoster(label: string, url: string): (payload: Record<string, string>) => Promise<void> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  const agent = new client.Agent({ keepAlive: true });
  return (payload) => {
    const body = Buffer.from(JSON.stringify(payload), 'utf8');
    return new Promise<void>((resolve, reject) => {
      const req = client.request(
        target,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
          signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
        },
        (res) => {
          const status = res.statusCode ?? 0;
          res.on('error', () => undefined);
          res.resume();
          if (status >= 200 && status < 300) resolve();
          else reject(new DeliveryError(`${label} answered ${status}`));
        },
      );
      req.on('error', (err) => reject(new DeliveryError(`${label} unreachable (${err.name})`)));
      req.end(body);
    });
  };
}

/**
 * An SMS sender posting `{to, text}` to a webhook; any non-2xx answer is a failure.
 * @example await smsWebhookSender('https://sms.example.com/send')({ to: '+15551234567', text });
 */
export function smsWebhookSender(url: string): (message: SmsMessage) => Promise<void> {
  const post = webhookPoster('SMS webhook', url);
  return (message) => post({ to: message.to, text: message.text });
}

/**
 * An email sender posting `{to, subject, text}` to a webhook (your mail provider's HTTP API
 * behind a few lines of glue); any non-2xx answer is a failure. The HTML part is not sent.
 * @example await emailWebhookSender('https://mail.example.com/send')(otpEmail({ to, code, expiresInSeconds: 300 }));
 */
export function emailWebhookSender(url: string): (message: EmailMessage) => Promise<void> {
  const post = webhookPoster('email webhook', url);
  return (message) => post({ to: message.to, subject: message.subject, text: message.text });
}
