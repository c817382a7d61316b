import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { generateP256KeyPair } from '@walletkit/crypto';
import { createDelivery, otpEmail, otpSms } from '../src/delivery';
import { listOutbox } from '../src/delivery/outbox';
import { emailWebhookSender } from '../src/delivery/transports';
import { loadConfig, startupWarnings } from '../src/config';
import { otps } from '../src/store/schema';
import { startTestServer, type Reply, type TestServer } from './support/harness';
import { addOrganization, expectError } from './support/members';
import { captureLogs, codeIn, encryptOtpAttempt, otpTargetOf } from './support/otp';
import { storeKinds } from './support/stores';

interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback (no TLS, no auth) that can be told to refuse recipients. */
async function startSmtp(): Promise<{ url: string; mails: ReceivedMail[]; refuse: { on: boolean }; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const refuse = { on: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (refuse.on) return callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, refuse, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A provider's webhook (SMS or email): records JSON bodies, answers with `status.code`. */
async function startWebhook<T = { to: string; text: string }>(
  path = '/sms',
): Promise<{ url: string; received: T[]; status: { code: number }; close(): Promise<void> }> {
  const received: T[] = [];
  const status = { code: 200 };
  const app: FastifyInstance = Fastify();
  app.post(path, async (req, reply) => {
    received.push(req.body as T);
    return reply.status(status.code).send({ ok: status.code < 300 });
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `${address}${path}`, received, status, close: () => app.close() };
}
const startSmsWebhook = () => startWebhook();

/** The decoded body of one MIME part (quoted-printable undone) of a raw message. */
function mimePart(raw: string, contentType: string): string {
  const start = raw.indexOf(`Content-Type: ${contentType}`);
  if (start < 0) throw new Error(`no ${contentType} part`);
  const headersEnd = raw.indexOf('\r\n\r\n', start);
  const body = raw.slice(headersEnd + 4, raw.indexOf('\r\n--', headersEnd));
  const quotedPrintable = /Content-Transfer-Encoding: quoted-printable/i.test(raw.slice(start, headersEnd));
  return quotedPrintable
    ? Buffer.from(
        body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
        'latin1',
      ).toString('utf8')
    : body;
}

/** The delivered code must verify against the otpId the init_otp reply named (the verify reply joins `replies`). */
async function expectDeliveredCodeVerifies(server: TestServer, replies: Reply[], reply: Reply, code: string): Promise<void> {
  const { otpId, otpEncryptionTargetBundle } = reply.body.activity.result.initOtpResultV2;
  const { targetPublic } = otpTargetOf(otpEncryptionTargetBundle, server.enclave.signingPublicKey);
  const verified = await server.client.submit('verify_otp', {
    otpId,
    encryptedOtpBundle: await encryptOtpAttempt(targetPublic, code, generateP256KeyPair().publicKey),
  });
  replies.push(verified);
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
}

describe.each(storeKinds)('OTP delivery on %s', (kind) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let sms: Awaited<ReturnType<typeof startSmsWebhook>>;
  let logs: string[];
  let now = Date.now();
  const codes: string[] = [];
  const replies: Reply[] = [];

  beforeAll(async () => {
    smtp = await startSmtp();
    sms = await startSmsWebhook();
    server = await startTestServer(kind, {
      clock: () => now,
      config: { logLevel: 'debug', delivery: { smtpUrl: smtp.url, smsWebhookUrl: sms.url, emailFrom: 'walletkit <no-reply@walletkit.test>' } },
    });
    logs = captureLogs(server.app);
  }, 20_000);
  afterAll(async () => {
    await server?.dispose();
    await smtp?.close();
    await sms?.close();
  });

  const initOtp = async (params: Parameters<typeof server.client.submit<'init_otp'>>[1]) => {
    now += 1; // a fresh body: an identical one would replay the earlier activity
    const reply = await server.client.submit('init_otp', params);
    replies.push(reply);
    return reply;
  };
  const expectCodeVerifies = (reply: Reply, code: string) => expectDeliveredCodeVerifies(server, replies, reply, code);

  it('given SMTP_URL, when an email code is requested, then a real SMTP server receives a text and HTML mail with the app name, the logo and a code that verifies', async () => {
    const reply = await initOtp({
      otpType: 'OTP_TYPE_EMAIL',
      contact: 'Mail@Example.com',
      appName: 'Acme Wallet',
      emailCustomization: { logoUrl: 'https://cdn.example.com/logo.png' },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const mail = smtp.mails.at(-1)!;
    expect(mail).toMatchObject({ from: 'no-reply@walletkit.test', to: ['mail@example.com'] });
    expect(mail.raw).toMatch(/^From: "?Acme Wallet"? <no-reply@walletkit\.test>/m);
    expect(mail.raw).toMatch(/^Subject: Your Acme Wallet verification code\r$/m);
    const text = mimePart(mail.raw, 'text/plain');
    const html = mimePart(mail.raw, 'text/html');
    const code = codeIn(text);
    codes.push(code);
    expect(code).toMatch(/^[0-9]{6}$/);
    expect(text).toContain('Your Acme Wallet verification code is:');
    expect(html).toContain('<img src="https://cdn.example.com/logo.png" alt="Acme Wallet"');
    expect(html).toContain(`>${code}</p>`);
    // The subject line never carries the code.
    expect(/^Subject:.*$/m.exec(mail.raw)![0]).not.toContain(code);
    expect(await listOutbox(server.store.db, {})).toHaveLength(0);
    await expectCodeVerifies(reply, code);
  });

  it('given the SMTP server refuses the recipient, when an email code is requested, then the reply is 502 ERR_DELIVERY_FAILED and the issued code stays unusable to anyone else', async () => {
    smtp.refuse.on = true;
    try {
      const before = smtp.mails.length;
      const reply = await initOtp({ otpType: 'OTP_TYPE_EMAIL', contact: 'refused@example.com' });
      expectError(reply, 502, 'ERR_DELIVERY_FAILED');
      expect(smtp.mails).toHaveLength(before);
      // The code was committed before delivery (throttling counts it) but never left the server.
      expect((await server.store.db.select().from(otps)).filter((o) => o.contact === 'refused@example.com')).toHaveLength(1);
      expect(logs.some((line) => line.includes('SMTP delivery failed (550)'))).toBe(true);
    } finally {
      smtp.refuse.on = false;
    }
  });

  it('given SMS_WEBHOOK_URL, when an SMS code is requested, then the webhook receives {to, text} with a code that verifies; a failing webhook is a 502', async () => {
    const reply = await initOtp({ otpType: 'OTP_TYPE_SMS', contact: '+15557654321', appName: 'Acme Wallet', otpLength: 8, alphanumeric: true });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const message = sms.received.at(-1)!;
    expect(Object.keys(message).sort()).toEqual(['text', 'to']);
    expect(message.to).toBe('+15557654321');
    const code = codeIn(message.text);
    codes.push(code);
    expect(code).toHaveLength(8);
    expect(message.text).toContain('Acme Wallet');
    await expectCodeVerifies(reply, code);

    sms.status.code = 500;
    try {
      expectError(await initOtp({ otpType: 'OTP_TYPE_SMS', contact: '+15557654322' }), 502, 'ERR_DELIVERY_FAILED');
      expect(logs.some((line) => line.includes('SMS webhook answered 500'))).toBe(true);
      codes.push(codeIn(sms.received.at(-1)!.text));
    } finally {
      sms.status.code = 200;
    }
  });

  it('given neither transport and no dev outbox (production), when messages are sent, then each channel refuses with ERR_DELIVERY_NOT_CONFIGURED and nothing is stored', async () => {
    const none = createDelivery(
      loadConfig({ NODE_ENV: 'development' }, { delivery: { smtpUrl: undefined, smsWebhookUrl: undefined, emailFrom: 'x <x@localhost>' } }),
      server.store,
    );
    expect(none.kinds).toEqual({ email: 'none', sms: 'none' });
    await expect(none.sendEmail(server.org.organizationId, otpEmail({ to: 'prod@example.com', code: '444444', expiresInSeconds: 300 }))).rejects.toMatchObject({
      code: 'ERR_DELIVERY_NOT_CONFIGURED',
    });
    await expect(none.sendSms(server.org.organizationId, otpSms({ to: '+15550008888', code: '555555', expiresInSeconds: 300 }))).rejects.toMatchObject({
      code: 'ERR_DELIVERY_NOT_CONFIGURED',
    });
    expect(await listOutbox(server.store.db, { recipient: 'prod@example.com' })).toEqual([]);
    expect(await listOutbox(server.store.db, { recipient: '+15550008888' })).toEqual([]);
  });

  it('given neither transport and the dev outbox on, when messages are sent, then the dev outbox keeps them and lists them by organization and recipient, newest first', async () => {
    const outbox = createDelivery(
      loadConfig({}, { devOutbox: true, delivery: { smtpUrl: undefined, smsWebhookUrl: undefined, emailFrom: 'x <x@localhost>' } }),
      server.store,
    );
    expect(outbox.kinds).toEqual({ email: 'outbox', sms: 'outbox' });
    const other = await addOrganization(server, 'Outbox Org');
    await outbox.sendEmail(server.org.organizationId, otpEmail({ to: 'Dev@Example.com', code: '111111', expiresInSeconds: 300 }));
    await outbox.sendEmail(server.org.organizationId, otpEmail({ to: 'dev@example.com', code: '222222', expiresInSeconds: 300 }));
    await outbox.sendSms(other.organizationId, otpSms({ to: '+15550009999', code: '333333', expiresInSeconds: 60 }));

    const mine = await listOutbox(server.store.db, { organizationId: server.org.organizationId, recipient: 'DEV@example.com' });
    expect(mine.map((m) => codeIn(m.body))).toEqual(['222222', '111111']);
    expect(mine[0]).toMatchObject({ channel: 'email', recipient: 'dev@example.com', subject: 'Your walletkit verification code' });
    const theirs = await listOutbox(server.store.db, { organizationId: other.organizationId });
    expect(theirs).toEqual([
      expect.objectContaining({
        channel: 'sms',
        recipient: '+15550009999',
        subject: null,
        body: expect.stringContaining('333333 is your walletkit verification code. It expires in 1 minute.'),
      }),
    ]);
    expect(await listOutbox(server.store.db, { organizationId: other.organizationId, recipient: 'dev@example.com' })).toEqual([]);
  });

  it('given every delivery above, when replies and log lines are searched, then no code appears in any of them', () => {
    expect(codes.length).toBeGreaterThanOrEqual(3);
    expect(logs.length).toBeGreaterThan(5);
    for (const code of codes) {
      const pattern = new RegExp(`(?<![0-9A-Za-z])${code}(?![0-9A-Za-z])`, 'i');
      for (const text of [...replies.map((r) => JSON.stringify(r.body)), ...logs]) expect(pattern.test(text), text.slice(0, 200)).toBe(false);
    }
  });
});

describe.each(storeKinds)('OTP email through EMAIL_WEBHOOK_URL on %s', (kind) => {
  let server: TestServer;
  let hook: Awaited<ReturnType<typeof startWebhook<{ to: string; subject: string; text: string }>>>;
  let logs: string[];
  let now = Date.now();
  const codes: string[] = [];
  const replies: Reply[] = [];

  beforeAll(async () => {
    hook = await startWebhook<{ to: string; subject: string; text: string }>('/email');
    server = await startTestServer(kind, {
      clock: () => now,
      config: {
        logLevel: 'debug',
        delivery: { smtpUrl: undefined, smsWebhookUrl: undefined, emailWebhookUrl: hook.url, emailFrom: 'walletkit <x@localhost>' },
      },
    });
    logs = captureLogs(server.app);
  }, 20_000);
  afterAll(async () => {
    await server?.dispose();
    await hook?.close();
  });

  const initOtp = async (contact: string) => {
    now += 1;
    const reply = await server.client.submit('init_otp', { otpType: 'OTP_TYPE_EMAIL', contact, appName: 'Acme Wallet' });
    replies.push(reply);
    return reply;
  };

  it('given EMAIL_WEBHOOK_URL, when an email code is requested, then the webhook receives exactly {to, subject, text} with a code that verifies, and nothing is stored in the outbox', async () => {
    const reply = await initOtp('Hook@Example.com');
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const message = hook.received.at(-1)!;
    expect(Object.keys(message).sort()).toEqual(['subject', 'text', 'to']);
    expect(message.to).toBe('hook@example.com');
    expect(message.subject).toBe('Your Acme Wallet verification code');
    const code = codeIn(message.text);
    codes.push(code);
    expect(code).toMatch(/^[0-9]{6}$/);
    expect(message.text).toContain('Your Acme Wallet verification code is:');
    expect(message.subject).not.toContain(code);
    expect(await listOutbox(server.store.db, {})).toHaveLength(0);

    await expectDeliveredCodeVerifies(server, replies, reply, code);
  });

  it('given the email webhook answers 500 or is unreachable, when an email code is requested, then the reply is 502 ERR_DELIVERY_FAILED and the log names the webhook without the message', async () => {
    hook.status.code = 500;
    try {
      expectError(await initOtp('failing@example.com'), 502, 'ERR_DELIVERY_FAILED');
      expect(logs.some((line) => line.includes('email webhook answered 500'))).toBe(true);
      codes.push(codeIn(hook.received.at(-1)!.text));
    } finally {
      hook.status.code = 200;
    }
    const unreachable = createDelivery(loadConfig({ EMAIL_WEBHOOK_URL: 'http://127.0.0.1:9/email' }), server.store);
    expect(unreachable.kinds.email).toBe('webhook');
    await expect(unreachable.sendEmail(server.org.organizationId, otpEmail({ to: 'x@example.com', code: '777777', expiresInSeconds: 300 }))).rejects.toThrow(
      /^email webhook unreachable \(\w+\)$/,
    );
  });

  it('given every delivery above, when replies and log lines are searched, then no code appears in any of them', () => {
    expect(codes.length).toBeGreaterThanOrEqual(2);
    for (const code of codes) {
      const pattern = new RegExp(`(?<![0-9A-Za-z])${code}(?![0-9A-Za-z])`, 'i');
      for (const text of [...replies.map((r) => JSON.stringify(r.body)), ...logs]) expect(pattern.test(text), text.slice(0, 200)).toBe(false);
    }
  });
});

describe('email transport selection', () => {
  it('given EMAIL_WEBHOOK_URL alone, with SMTP_URL, or neither, then the email transport and the startup warnings say which one carries codes', async () => {
    const store = { db: undefined } as never;
    const webhookOnly = loadConfig({ EMAIL_WEBHOOK_URL: 'http://127.0.0.1:1/email', SMS_WEBHOOK_URL: 'http://127.0.0.1:1/sms' });
    expect(webhookOnly.delivery.emailWebhookUrl).toBe('http://127.0.0.1:1/email');
    expect(createDelivery(webhookOnly, store).kinds).toEqual({ email: 'webhook', sms: 'webhook' });
    expect(startupWarnings(webhookOnly)).toEqual([]);

    const both = loadConfig({ SMTP_URL: 'smtp://127.0.0.1:1', EMAIL_WEBHOOK_URL: 'http://127.0.0.1:1/email', SMS_WEBHOOK_URL: 'http://127.0.0.1:1/sms' });
    expect(createDelivery(both, store).kinds.email).toBe('smtp');
    expect(startupWarnings(both)).toEqual(['both SMTP_URL and EMAIL_WEBHOOK_URL are set: email one-time codes go through SMTP, EMAIL_WEBHOOK_URL is not used']);

    const neither = loadConfig({ EMAIL_WEBHOOK_URL: '', SMS_WEBHOOK_URL: 'http://127.0.0.1:1/sms' });
    expect(neither.delivery.emailWebhookUrl).toBeUndefined();
    expect(createDelivery(neither, store).kinds.email).toBe('none');
    expect(startupWarnings(neither)).toEqual([
      'email one-time codes are refused (ERR_DELIVERY_NOT_CONFIGURED): set SMTP_URL or EMAIL_WEBHOOK_URL to deliver them',
    ]);
    await expect(
      createDelivery(neither, store).sendEmail('org', otpEmail({ to: 'a@example.com', code: '123456', expiresInSeconds: 300 })),
    ).rejects.toMatchObject({
      code: 'ERR_DELIVERY_NOT_CONFIGURED',
      message: 'this server has no email transport (SMTP_URL or EMAIL_WEBHOOK_URL) configured',
    });
  });
});

describe('OTP messages', () => {
  it('given an app name with markup and a script logo URL, when the email is built, then the name is escaped and the logo dropped', () => {
    const mail = otpEmail({ to: 'a@example.com', code: '123456', appName: 'Acme <b>&</b>', logoUrl: 'javascript:alert(1)', expiresInSeconds: 90 });
    expect(mail.html).toContain('Acme &lt;b&gt;&amp;&lt;/b&gt;');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('javascript:');
    expect(mail.text).toContain('It expires in 90 seconds.');
    expect(mail.subject).not.toContain('123456');
  });
});

describe('webhook transport (node:http, kept alive)', () => {
  const message = (to: string) => otpEmail({ to, code: '123456', expiresInSeconds: 300 });

  it('given a webhook, when three codes are sent one after another, then all three arrive over one kept-alive connection', async () => {
    let connections = 0;
    const received: string[] = [];
    const counting = Fastify();
    counting.server.on('connection', () => {
      connections += 1;
    });
    counting.post('/email', async (req) => {
      received.push((req.body as { to: string }).to);
      return { ok: true };
    });
    const url = `${await counting.listen({ port: 0, host: '127.0.0.1' })}/email`;
    try {
      const send = emailWebhookSender(url);
      for (const to of ['a@example.com', 'b@example.com', 'c@example.com']) await send(message(to));
      expect(received).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
      expect(connections).toBe(1);
    } finally {
      await counting.close();
    }
  });

  it('given a webhook that redirects, when a code is sent, then the delivery fails with the 3xx and the redirect target receives nothing', async () => {
    const elsewhere = await startWebhook<{ to: string }>('/elsewhere');
    const redirecting = Fastify();
    redirecting.post('/email', async (_req, reply) => reply.redirect(elsewhere.url, 307));
    const url = `${await redirecting.listen({ port: 0, host: '127.0.0.1' })}/email`;
    try {
      await expect(emailWebhookSender(url)(message('a@example.com'))).rejects.toThrow(/^email webhook answered 307$/);
      expect(elsewhere.received).toEqual([]);
    } finally {
      await redirecting.close();
      await elsewhere.close();
    }
  });

  it('given an https:// webhook URL on a plain-HTTP port, when a code is sent, then it is unreachable (TLS is spoken, nothing arrives in clear)', async () => {
    const hook = await startWebhook<{ to: string }>('/email');
    try {
      const url = hook.url.replace(/^http:/, 'https:');
      await expect(emailWebhookSender(url)(message('a@example.com'))).rejects.toThrow(/^email webhook unreachable \(\w+\)$/);
      expect(hook.received).toEqual([]);
    } finally {
      await hook.close();
    }
  });
});
