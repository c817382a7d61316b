/**
 * Issue 9's seven findings, each reproduced as the attacker ran it and asserted closed. Every
 * test here failed on the code before the fix (the outbox was served to anyone in dev mode,
 * which was the default; an unverified signup email routed the owner's login to the
 * attacker's sub-organization; hostile strings reached the database; the parser was lenient;
 * older codes stayed valid; export target keys were reusable; unknown organizations answered
 * differently from unknown keys).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressPublicKey, generateP256KeyPair, verifyJwt } from '@walletkit/crypto';
import { listOutbox } from '../../src/delivery/outbox';
import { cli, killChildren, startCli } from '../support/cli';
import { startProxyServer, submitOver, type ProxyTestServer } from '../support/proxy';
import { storeKinds } from '../support/stores';
import { ETH_WALLET, freshEmail, freshPhone, loginByCode, requestCode, signupByCode, verifiedToken, verifyCode } from './support/flows';
import { envelopeText, getWithHeaders, proxyHeaders, sendRaw, sendStamped } from './support/http';
import { adversarialTally } from './support/tally';

const tally = adversarialTally('findings');
const APP = 'https://app.example';

afterAll(killChildren);

describe('finding 1: one-time codes readable by anyone (walletkit-server as the README starts it)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'walletkit-finding1-'));
  /** The victim's phone: an SMS webhook that keeps what it receives. */
  const phone: { received: Array<{ to: string; text: string }>; server?: Server; url?: string } = { received: [] };
  let organizationId: string;
  let configId: string;
  // Whatever NODE_ENV says, `start` is production.
  const env = { NODE_ENV: 'development', WALLETKIT_DATA_DIR: dataDir };

  beforeAll(async () => {
    phone.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        phone.received.push(JSON.parse(body) as { to: string; text: string });
        res.writeHead(200).end('{}');
      });
    });
    await new Promise<void>((resolve) => phone.server!.listen(0, '127.0.0.1', resolve));
    const address = phone.server.address();
    phone.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/sms`;
    const org = await cli(['org', 'create', '--name', 'Finding 1', '--json'], env);
    expect(org.code, org.stderr).toBe(0);
    organizationId = JSON.parse(org.stdout).organizationId;
    const proxy = await cli(['proxy', 'enable', '--org', organizationId, '--origin', APP, '--json'], env);
    expect(proxy.code, proxy.stderr).toBe(0);
    configId = JSON.parse(proxy.stdout).configId;
  }, 60_000);
  afterAll(async () => {
    await new Promise((resolve) => phone.server?.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  });

  const init = (url: string, otpType: string, contact: string) =>
    sendRaw(url, '/v1/otp_init_v2', JSON.stringify({ otpType, contact }), proxyHeaders(configId, APP));

  it('given start with no mail or SMS transport (NODE_ENV=development), when anyone asks for a code or the outbox, then the code is refused with ERR_DELIVERY_NOT_CONFIGURED, the outbox does not exist, and the server said so at start', async () => {
    const server = await startCli([], env);
    try {
      expect(server.errors()).toMatch(/email one-time codes are refused \(ERR_DELIVERY_NOT_CONFIGURED\): set SMTP_URL/);
      expect(server.errors()).toMatch(/SMS one-time codes are refused \(ERR_DELIVERY_NOT_CONFIGURED\): set SMS_WEBHOOK_URL/);
      expect(server.errors()).not.toMatch(/dev outbox/);
      for (const [otpType, contact] of [
        ['OTP_TYPE_EMAIL', 'victim@example.com'],
        ['OTP_TYPE_SMS', '+15550001234'],
      ]) {
        tally.refused('otp', `${otpType} without transport`, await init(server.url, otpType!, contact!), 400, 'ERR_DELIVERY_NOT_CONFIGURED');
      }
      const outbox = await sendRaw(server.url, '/v1/dev/outbox?limit=50', undefined, {}, 'GET');
      tally.refused('otp', 'dev outbox in production', outbox, 404, 'ERR_ROUTE_NOT_FOUND');
    } finally {
      await server.stop();
    }
  });

  it('given start with an SMS webhook and a victim signed up by phone, when an attacker asks for a code for the victim and reads the outbox, then the code reaches only the victim and the attacker gets no session', async () => {
    const server = await startCli([], { ...env, SMS_WEBHOOK_URL: phone.url! });
    try {
      const victimPhone = '+15557654321';
      const send = async () => {
        const reply = await init(server.url, 'OTP_TYPE_SMS', victimPhone);
        expect(reply.status, JSON.stringify(reply.body)).toBe(200);
        return reply.body as { otpId: string };
      };
      await send();
      expect(phone.received.at(-1)!.to).toBe(victimPhone);
      // The attacker asks for a fresh code for the victim's number and goes for the outbox.
      const attack = await send();
      tally.refused(
        'otp',
        'outbox read by the attacker',
        await sendRaw(server.url, '/v1/dev/outbox?limit=50', undefined, {}, 'GET'),
        404,
        'ERR_ROUTE_NOT_FOUND',
      );
      // Without the code, guessing spends the code's three tries.
      const wrong = ['000000', '111111', '222222', '333333'].map((c) => JSON.stringify({ encappedPublic: `04${'00'.repeat(64)}`, ciphertext: c }));
      const replies = [];
      for (const bundle of wrong)
        replies.push(
          await sendRaw(server.url, '/v1/otp_verify_v2', JSON.stringify({ otpId: attack.otpId, encryptedOtpBundle: bundle }), proxyHeaders(configId, APP)),
        );
      expect(replies.map((r) => r.status)).toEqual([401, 401, 401, 429]);
      for (const r of replies) tally.record('otp', r);
    } finally {
      await server.stop();
    }
  });

  it('given start --dev-outbox, when the outbox is asked from loopback, through a forwarding proxy or under a foreign Host, then only the plain loopback request is served, and the server warns while it is on', async () => {
    const server = await startCli(['--dev-outbox'], env);
    try {
      expect(server.errors()).toMatch(/WARNING: the dev outbox is on/);
      const local = await sendRaw(server.url, '/v1/dev/outbox?limit=5', undefined, {}, 'GET');
      expect(local.status).toBe(200);
      const hostOf = new URL(server.url).host;
      const attempts: Array<Record<string, string>> = [
        { host: hostOf, 'x-forwarded-for': '203.0.113.9' },
        { host: hostOf, forwarded: 'for=203.0.113.9' },
        { host: 'evil.example' },
        { host: 'localhost.evil.example:8080' },
      ];
      expect((await getWithHeaders(server.url, '/v1/dev/outbox?limit=5', { host: hostOf })).status).toBe(200);
      for (const headers of attempts) {
        tally.refused(
          'origins',
          `dev outbox with ${JSON.stringify(headers)}`,
          await getWithHeaders(server.url, '/v1/dev/outbox?limit=5', headers),
          403,
          'ERR_PERMISSION_DENIED',
        );
      }
    } finally {
      await server.stop();
    }
  });
});

describe.each(storeKinds)('findings 2-7 on %s', (kind) => {
  let s: ProxyTestServer;

  beforeAll(async () => {
    s = await startProxyServer(kind, { proxy: { origins: [APP] }, origin: APP });
  });
  afterAll(async () => s?.dispose());

  const proxy = (path: string, body: string | Uint8Array) => sendRaw(s.url, `/v1/${path}`, body, proxyHeaders(s.proxy.id, APP));
  const stamped = (path: string, body: string | Uint8Array) => sendStamped(s.url, path, body, s.org.apiKey);

  it("finding 2: given an attacker signup with the victim's email and the attacker's key, when the victim later logs in by email code, then the victim gets an account of their own and the attacker's key cannot touch it", async () => {
    const victim = freshEmail('victim');
    const attackerKey = generateP256KeyPair();
    const squat = await s.browser.post('signup_v2', {
      userName: 'x',
      userEmail: victim,
      apiKeys: [{ apiKeyName: 'attacker', publicKey: attackerKey.publicKey, curveType: 'API_KEY_CURVE_P256' }],
      wallet: ETH_WALLET,
    });
    expect(squat.status).toBe(200);
    // The unverified address is profile data: no lookup finds it.
    expect((await s.browser.post('account', { filterType: 'EMAIL', filterValue: victim })).body).toEqual({});

    // The owner proves the address: login finds no account, so the kit signs up.
    const { reply: login } = await loginByCode(s, victim);
    tally.refused('otp', 'login routed by an unverified email', login, 404, 'ERR_USER_NOT_FOUND');
    const owner = await signupByCode(s, victim);
    expect(owner.organizationId).not.toBe(squat.body.organizationId);
    const again = await loginByCode(s, victim);
    expect(again.reply.status).toBe(200);
    expect(verifyJwt<{ organization_id: string }>(again.reply.body.session, s.enclave.signingPublicKey).organization_id).toBe(owner.organizationId);

    const intrusion = await submitOver(s.url, attackerKey, owner.organizationId, 'create_api_keys', {
      userId: owner.userId,
      apiKeys: [{ apiKeyName: 'backdoor', publicKey: generateP256KeyPair().publicKey, curveType: 'API_KEY_CURVE_P256' }],
    });
    tally.refused('tenancy', "attacker key on the owner's account", intrusion, 401, 'ERR_STAMP_KEY_UNKNOWN');

    // Nor can the attacker claim the address later from inside their own account.
    const claim = await submitOver(s.url, attackerKey, squat.body.organizationId, 'update_user_email', { userId: squat.body.userId, userEmail: victim });
    expect(claim.status).toBe(200);
    expect((await s.browser.post('account', { filterType: 'EMAIL', filterValue: victim })).body).toEqual({ organizationId: owner.organizationId });
    const stolenToken = await submitOver(s.url, attackerKey, squat.body.organizationId, 'update_user_email', {
      userId: squat.body.userId,
      userEmail: victim,
      verificationToken: await verifiedToken(s, freshEmail('attacker'), attackerKey),
    });
    tally.refused('tenancy', "someone else's verification token", stolenToken, 401, 'ERR_VERIFICATION_TOKEN_INVALID');
  });

  it('finding 3: given a NUL or a lone surrogate in stamped, query and unauthenticated strings, when sent, then each is a 400 ERR_INVALID_STRING, never a 500', async () => {
    const org = s.org.organizationId;
    for (const name of ['tag\\u0000name', 'tag\\ud800', 'tag\\udc00x', '\\u0000']) {
      const body = `{"type":"ACTIVITY_TYPE_CREATE_USER_TAG","timestampMs":"${Date.now()}","organizationId":"${org}","parameters":{"userTagName":"${name}","userIds":[]}}`;
      tally.refused('parsing', `create_user_tag name ${name}`, await stamped('/public/v1/submit/create_user_tag', body), 400, 'ERR_INVALID_STRING');
    }
    tally.refused('parsing', 'whoami id with NUL', await stamped('/public/v1/query/whoami', `{"organizationId":"${org}\\u0000"}`), 400, 'ERR_INVALID_STRING');
    tally.refused(
      'parsing',
      'account with NUL',
      await proxy('account', '{"filterType":"EMAIL","filterValue":"a\\u0000@example.com"}'),
      400,
      'ERR_INVALID_STRING',
    );
    tally.refused(
      'parsing',
      'otp_verify with a lone surrogate',
      await proxy('otp_verify_v2', '{"otpId":"\\ud83d","encryptedOtpBundle":"{}"}'),
      400,
      'ERR_INVALID_STRING',
    );
    tally.refused('parsing', 'key with NUL', await proxy('account', '{"filterType":"EMAIL","filter\\u0000Value":"a@example.com"}'), 400, 'ERR_INVALID_STRING');
  });

  it('finding 4: given duplicate keys, invalid or overlong UTF-8, a BOM and a zero-padded timestampMs, when sent to either surface, then each is the same 400 on both, and a duplicated contact sends no mail', async () => {
    const org = s.org.organizationId;
    const ts = String(Date.now());
    const submit = (parameters: string, timestampMs = ts) =>
      `{"type":"ACTIVITY_TYPE_CREATE_USER_TAG","timestampMs":"${timestampMs}","organizationId":"${org}","parameters":${parameters}}`;
    const cases: Array<[string, Uint8Array | string, Uint8Array | string, string]> = [
      [
        'duplicate key',
        submit('{"userTagName":"a","userTagName":"b","userIds":[]}'),
        '{"filterType":"EMAIL","filterValue":"a@example.com","filterValue":"b@example.com"}',
        'ERR_DUPLICATE_KEY',
      ],
      [
        'escaped duplicate key',
        submit('{"userTagName":"a","userTag\\u004eame":"b","userIds":[]}'),
        '{"filterType":"EMAIL","filter\\u0056alue":"a@example.com","filterValue":"b@example.com"}',
        'ERR_DUPLICATE_KEY',
      ],
      [
        'invalid UTF-8',
        Buffer.concat([Buffer.from(submit('{"userTagName":"')), Buffer.from([0xff, 0xfe]), Buffer.from('","userIds":[]}')]),
        Buffer.concat([Buffer.from('{"filterType":"EMAIL","filterValue":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
        'ERR_MALFORMED_JSON',
      ],
      [
        'overlong UTF-8',
        Buffer.concat([Buffer.from(submit('{"userTagName":"')), Buffer.from([0xc0, 0xaf]), Buffer.from('","userIds":[]}')]),
        Buffer.concat([Buffer.from('{"filterType":"EMAIL","filterValue":"'), Buffer.from([0xe0, 0x80, 0xaf]), Buffer.from('"}')]),
        'ERR_MALFORMED_JSON',
      ],
      [
        'UTF-8 encoded surrogate',
        Buffer.concat([Buffer.from(submit('{"userTagName":"')), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('","userIds":[]}')]),
        Buffer.concat([Buffer.from('{"filterType":"EMAIL","filterValue":"'), Buffer.from([0xed, 0xbf, 0xbf]), Buffer.from('"}')]),
        'ERR_MALFORMED_JSON',
      ],
      [
        'byte-order mark',
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(submit('{"userTagName":"bom","userIds":[]}'))]),
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"filterType":"EMAIL","filterValue":"a@example.com"}')]),
        'ERR_MALFORMED_JSON',
      ],
    ];
    for (const [what, activityBody, proxyBody, code] of cases) {
      const onActivity = await stamped('/public/v1/submit/create_user_tag', activityBody);
      const onProxy = await proxy('account', proxyBody);
      tally.refused('parsing', `${what} (activity API)`, onActivity, 400, code);
      tally.refused('parsing', `${what} (proxy)`, onProxy, 400, code);
    }
    for (const padded of [`0${ts}`, `00${ts}`, `${ts}.0`, ` ${ts}`, `+${ts}`, '1.7e12']) {
      tally.refused(
        'parsing',
        `timestampMs ${padded}`,
        await stamped('/public/v1/submit/create_user_tag', submit('{"userTagName":"pad","userIds":[]}', padded)),
        400,
        'ERR_INVALID_REQUEST',
      );
    }
    const first = freshEmail('first');
    const second = freshEmail('second');
    tally.refused(
      'parsing',
      'duplicated contact',
      await proxy('otp_init_v2', `{"otpType":"OTP_TYPE_EMAIL","contact":"${first}","contact":"${second}"}`),
      400,
      'ERR_DUPLICATE_KEY',
    );
    expect(await listOutbox(s.store.db, { recipient: first })).toEqual([]);
    expect(await listOutbox(s.store.db, { recipient: second })).toEqual([]);
  });

  it('finding 5: given a newer code for the same contact, when the older one is verified, then it is refused like a wrong code and the newer one verifies', async () => {
    const contact = freshPhone();
    const key = generateP256KeyPair();
    const older = await requestCode(s, contact);
    const newer = await requestCode(s, contact);
    expect(newer.otpId).not.toBe(older.otpId);
    const stale = await verifyCode(s, older, older.code, key);
    const wrong = await verifyCode(s, newer, newer.code === '000000' ? '000001' : '000000', key);
    tally.refused('otp', 'older code after a newer one', stale, 401, 'ERR_OTP_INVALID');
    expect(stale.body).toEqual(wrong.body);
    expect((await verifyCode(s, newer, newer.code, key)).status).toBe(200);
  });

  it('finding 6: given an export to a target key, when the same key (in any spelling) is used for another export of the organization, then it is a 409 ERR_TARGET_KEY_REUSED and nothing is exported', async () => {
    const { walletId, addresses } = await s.client.run('create_wallet', ETH_WALLET);
    const target = generateP256KeyPair();
    await s.client.run('export_wallet', { walletId, targetPublicKey: target.publicKeyUncompressed });
    const reuses = [
      await s.client.submit('export_wallet', { walletId, targetPublicKey: target.publicKeyUncompressed }),
      await s.client.submit('export_wallet', { walletId, targetPublicKey: target.publicKeyUncompressed.toUpperCase() }),
      await s.client.submit('export_wallet', { walletId, targetPublicKey: compressPublicKey('p256', target.publicKeyUncompressed) }),
      await s.client.submit('export_wallet_account', { address: addresses[0]!, targetPublicKey: target.publicKeyUncompressed }),
    ];
    for (const reply of reuses) tally.refused('replays', 'export target reused', reply, 409, 'ERR_TARGET_KEY_REUSED');
    expect((await s.client.run('export_wallet', { walletId, targetPublicKey: generateP256KeyPair().publicKeyUncompressed })).exportBundle).toEqual(
      expect.any(String),
    );
  });

  it('finding 7: given an unknown key on an existing organization and on an unknown one, when stamped, then both get the same 401 body', async () => {
    const stranger = generateP256KeyPair();
    const body = (organizationId: string) => envelopeText('create_user_tag', organizationId, { userTagName: 'probe', userIds: [] });
    const existing = await sendStamped(s.url, '/public/v1/submit/create_user_tag', body(s.org.organizationId), stranger);
    const unknown = await sendStamped(s.url, '/public/v1/submit/create_user_tag', body('7d3c1d5e-0000-4000-8000-000000000000'), stranger);
    const rootOnUnknown = await sendStamped(s.url, '/public/v1/submit/create_user_tag', body('7d3c1d5e-0000-4000-8000-000000000001'), s.org.apiKey);
    for (const [what, reply] of [
      ['unknown key', existing],
      ['unknown organization', unknown],
      ['known key, unknown organization', rootOnUnknown],
    ] as const) {
      tally.refused('tenancy', what, reply, 401, 'ERR_STAMP_KEY_UNKNOWN');
    }
    expect(unknown.body).toEqual(existing.body);
    expect(rootOnUnknown.body).toEqual(existing.body);
    const query = (organizationId: string) => sendStamped(s.url, '/public/v1/query/whoami', JSON.stringify({ organizationId }), stranger);
    expect((await query('7d3c1d5e-0000-4000-8000-000000000000')).body).toEqual((await query(s.org.organizationId)).body);
  });
});
