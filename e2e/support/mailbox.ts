/**
 * The OTP sink of the e2e stack: a real SMTP server (npm `smtp-server`, what the walletkit
 * server's nodemailer transport talks to) and the SMS webhook (POST `{to, text}`), both
 * filing messages by recipient, and `GET /messages?to=` for the tests, which read a code the
 * way a user reads their inbox.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SinkMessage {
  channel: 'email' | 'sms';
  to: string;
  text: string;
  at: number;
}

export interface Mailbox {
  smtpUrl: string;
  smsWebhookUrl: string;
  /** Base URL of `GET /messages?to=`. */
  url: string;
  close(): Promise<void>;
}

/** The code in an OTP email's text (the line after "verification code is:") or SMS (its first word). */
export function codeOf(message: Pick<SinkMessage, 'channel' | 'text'>): string | undefined {
  const re = message.channel === 'email' ? /verification code is:\r?\n\r?\n([0-9A-Za-z]{4,12})\r?\n/ : /^([0-9A-Za-z]{4,12}) is your /;
  return re.exec(message.text)?.[1];
}

export async function startMailbox(): Promise<Mailbox> {
  const messages: SinkMessage[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        for (const rcpt of session.envelope.rcptTo) messages.push({ channel: 'email', to: rcpt.address.toLowerCase(), text: raw, at: Date.now() });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sink.invalid');
    if (req.method === 'POST' && url.pathname === '/sms') {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        const { to, text } = JSON.parse(body) as { to: string; text: string };
        messages.push({ channel: 'sms', to, text, at: Date.now() });
        res.writeHead(204).end();
      });
      return;
    }
    if (req.method === 'GET' && url.pathname === '/messages') {
      const to = url.searchParams.get('to')?.toLowerCase();
      const found = messages.filter((m) => m.to.toLowerCase() === to).map((m) => ({ ...m, code: codeOf(m) }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ messages: found }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    smsWebhookUrl: `${url}/sms`,
    url,
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}
