/**
 * Replays on both databases (and across two server instances on PostgreSQL): one stamped body
 * sent 20 times at once must run once (same activity id, one effect counted in the rows), one
 * verification code, token or signup raced 20 times through the proxy must have one effect,
 * and a body replayed later (after its success or its failure) must answer what it answered
 * the first time without running again, even when the state has changed in between.
 */
import { createHash } from 'node:crypto';
import { and, count, eq, inArray, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, generateP256KeyPair, stampApiKey } from '@walletkit/crypto';
import { operations, type OperationName } from '@walletkit/protocol';
import {
  activities,
  apiKeys,
  organizations,
  otps,
  usedExportTargets,
  usedVerificationTokens,
  userTags,
  users,
  walletAccounts,
  wallets,
} from '../../src/store/schema';
import { encryptOtpAttempt, loginSignature } from '../support/otp';
import { outcomes, startProxyServer, startSecondInstance, type ProxyReply, type ProxyTestServer } from '../support/proxy';
import { storeKinds } from '../support/stores';
import { ETH_WALLET, freshEmail, requestCode, verifiedToken, verifyCode } from './support/flows';
import { envelopeText, sendRaw, type RawReply } from './support/http';
import { adversarialTally, errorCodeOf } from './support/tally';

const tally = adversarialTally('replays');
const APP = 'https://app.example';
const COPIES = 20;

/** Turnkey's fingerprint form: sha256:<hex> of the exact body. */
const fingerprintOf = (body: string) => `sha256:${createHash('sha256').update(body).digest('hex')}`;

describe.each(storeKinds)('replays on %s', (kind) => {
  let s: ProxyTestServer;
  let second: { url: string; close(): Promise<void> } | undefined;
  /** Request `i` goes to instance A or B alternately (on PGlite there is only A). */
  const urlFor = (i: number) => (i % 2 === 1 && second ? second.url : s.url);

  beforeAll(async () => {
    s = await startProxyServer(kind, { proxy: { origins: [APP] }, origin: APP });
    if (kind === 'postgres') second = await startSecondInstance(s as ProxyTestServer & { store: { location: string } });
  });
  afterAll(async () => {
    await second?.close();
    await s?.dispose();
  });

  const org = () => s.org.organizationId;
  const db = () => s.store.db;
  /** Rows of `table` matching `where`. */
  const rows = async (table: PgTable, where: SQL | undefined): Promise<number> => {
    const [row] = await db().select({ n: count() }).from(table).where(where);
    return Number(row?.n ?? 0);
  };
  const activityRows = (body: string) =>
    rows(activities, and(eq(activities.organizationId, JSON.parse(body).organizationId), eq(activities.fingerprint, fingerprintOf(body))));

  /** `n` copies of one stamped body at once, spread over the instances. */
  function copies(op: OperationName, body: string, n = COPIES): Promise<RawReply[]> {
    const stamp = stampApiKey(body, s.org.apiKey);
    return Promise.all(Array.from({ length: n }, (_, i) => sendRaw(urlFor(i), operations[op].path, body, { 'x-stamp': stamp })));
  }

  /** A stamped submit that must succeed (setup). */
  async function run(op: OperationName, parameters: unknown): Promise<any> {
    const body = envelopeText(op, org(), parameters);
    const reply = await sendRaw(s.url, operations[op].path, body, { 'x-stamp': stampApiKey(body, s.org.apiKey) });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.activity.result[operations[op].resultKey];
  }

  /** All copies answered 200 with one and the same activity. */
  function expectOneActivity(what: string, replies: RawReply[]): string {
    expect(outcomes(replies), what).toEqual({ OK: COPIES });
    const ids = new Set(replies.map((r) => r.body.activity.id));
    expect(ids.size, `${what}: activity ids`).toBe(1);
    return [...ids][0] as string;
  }

  it(`given one stamped body per operation (create_wallet, sign_raw_payloads, create_sub_organization with a wallet, create_api_keys, export_wallet), when ${COPIES} copies are sent at once, then all are 200 with the same activity id and the rows show exactly one effect`, async () => {
    const tag = Math.random().toString(36).slice(2, 10);

    // create_wallet: one wallet, one account, one activity row.
    const walletName = `race wallet ${tag}`;
    const walletBody = envelopeText('create_wallet', org(), { walletName, accounts: ETH_WALLET.accounts });
    const walletReplies = await copies('create_wallet', walletBody);
    expectOneActivity('create_wallet', walletReplies);
    const made = await db()
      .select({ id: wallets.id })
      .from(wallets)
      .where(and(eq(wallets.organizationId, org()), eq(wallets.name, walletName)));
    const accounts = made.length
      ? await rows(
          walletAccounts,
          inArray(
            walletAccounts.walletId,
            made.map((w) => w.id),
          ),
        )
      : 0;
    tally.duplicates('replays', 'create_wallet copies: wallets', made.length - 1);
    tally.duplicates('replays', 'create_wallet copies: accounts', accounts - 1);
    tally.duplicates('replays', 'create_wallet copies: activity rows', (await activityRows(walletBody)) - 1);

    // sign_raw_payloads: one activity, one signature answered to all.
    const signWith = walletReplies[0]!.body.activity.result.createWalletResult.addresses[0] as string;
    const signBody = envelopeText('sign_raw_payloads', org(), {
      signWith,
      payloads: [`0x${createHash('sha256').update(tag).digest('hex')}`],
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    });
    const signReplies = await copies('sign_raw_payloads', signBody);
    expectOneActivity('sign_raw_payloads', signReplies);
    expect(new Set(signReplies.map((r) => JSON.stringify(r.body.activity.result))).size).toBe(1);
    tally.duplicates('replays', 'sign_raw_payloads copies: activity rows', (await activityRows(signBody)) - 1);

    // create_sub_organization with a wallet: one sub-organization, one root user, one wallet, one key.
    const subName = `race sub ${tag}`;
    const subKey = generateP256KeyPair();
    const subBody = envelopeText('create_sub_organization', org(), {
      subOrganizationName: subName,
      rootUsers: [
        {
          userName: 'racer',
          apiKeys: [{ apiKeyName: 'device', publicKey: subKey.publicKey, curveType: 'API_KEY_CURVE_P256' }],
          authenticators: [],
          oauthProviders: [],
        },
      ],
      rootQuorumThreshold: 1,
      wallet: ETH_WALLET,
    });
    expectOneActivity('create_sub_organization', await copies('create_sub_organization', subBody));
    const subs = await db()
      .select({ id: organizations.id })
      .from(organizations)
      .where(and(eq(organizations.parentOrganizationId, org()), eq(organizations.name, subName)));
    const subIds = subs.map((o) => o.id);
    tally.duplicates('replays', 'create_sub_organization copies: sub-organizations', subs.length - 1);
    tally.duplicates('replays', 'create_sub_organization copies: users', (subIds.length ? await rows(users, inArray(users.organizationId, subIds)) : 0) - 1);
    tally.duplicates(
      'replays',
      'create_sub_organization copies: wallets',
      (subIds.length ? await rows(wallets, inArray(wallets.organizationId, subIds)) : 0) - 1,
    );
    tally.duplicates('replays', 'create_sub_organization copies: API keys', (await rows(apiKeys, eq(apiKeys.publicKey, subKey.publicKey))) - 1);

    // create_api_keys: one key row.
    const extra = generateP256KeyPair();
    const keyBody = envelopeText('create_api_keys', org(), {
      userId: s.org.userId,
      apiKeys: [{ apiKeyName: `race ${tag}`, publicKey: extra.publicKey, curveType: 'API_KEY_CURVE_P256' }],
    });
    expectOneActivity('create_api_keys', await copies('create_api_keys', keyBody));
    tally.duplicates('replays', 'create_api_keys copies: key rows', (await rows(apiKeys, eq(apiKeys.publicKey, extra.publicKey))) - 1);

    // export_wallet: one claimed target key, one bundle answered to all (none refused as a reuse).
    const walletId = walletReplies[0]!.body.activity.result.createWalletResult.walletId as string;
    const target = generateP256KeyPair();
    const exportBody = envelopeText('export_wallet', org(), { walletId, targetPublicKey: target.publicKeyUncompressed });
    const exportReplies = await copies('export_wallet', exportBody);
    expectOneActivity('export_wallet', exportReplies);
    expect(new Set(exportReplies.map((r) => r.body.activity.result.exportWalletResult.exportBundle)).size).toBe(1);
    tally.duplicates(
      'replays',
      'export_wallet copies: claimed targets',
      (await rows(
        usedExportTargets,
        and(eq(usedExportTargets.organizationId, org()), inArray(usedExportTargets.targetPublicKey, [target.publicKeyUncompressed, target.publicKey])),
      )) - 1,
    );
    tally.duplicates('replays', 'export_wallet copies: activity rows', (await activityRows(exportBody)) - 1);
  });

  describe('the proxy under 20 parallel calls', () => {
    /**
     * The refusals of a race: each must be one of `allowed` (status and code); counted.
     * @example refusedAmong('otp_verify', replies, [[401, 'ERR_OTP_INVALID']])
     */
    function refusedAmong(what: string, replies: ProxyReply[], allowed: Array<[number, string]>): void {
      for (const reply of replies.filter((r) => r.status !== 200)) {
        const match = allowed.find(([status, code]) => status === reply.status && code === errorCodeOf(reply)) ?? allowed[0]!;
        tally.refused('replays', what, reply, match[0], match[1]);
      }
    }
    const browserFor = (i: number) => (i % 2 === 1 && second ? s.browser.with({ baseUrl: second.url }) : s.browser);

    it('given one correct code, when otp_verify_v2 of it runs 20 times at once, then one verification token is issued (the rest are refused) and the code is spent', async () => {
      const contact = freshEmail('verify-race');
      const key = generateP256KeyPair();
      const otp = await requestCode(s, contact);
      // The very same request 20 times (one encrypted attempt), as a replaying attacker sends it.
      const bundle = await encryptOtpAttempt(otp.targetPublic, otp.code, key.publicKey);
      const replies = await Promise.all(
        Array.from({ length: COPIES }, (_, i) => browserFor(i).post('otp_verify_v2', { otpId: otp.otpId, encryptedOtpBundle: bundle })),
      );
      const tokens = new Set(replies.filter((r) => r.status === 200).map((r) => decodeJwt<{ id: string }>(r.body.verificationToken).id));
      tally.duplicates('replays', 'otp_verify_v2 of one code: tokens', tokens.size - 1);
      expect(tokens.size).toBe(1);
      refusedAmong('otp_verify_v2 of a spent code', replies, [
        [401, 'ERR_OTP_INVALID'],
        [429, 'ERR_OTP_ATTEMPTS_EXCEEDED'],
      ]);
      const [row] = await db().select().from(otps).where(eq(otps.id, otp.otpId));
      expect(row!.usedAt).not.toBeNull();
      expect(row!.attempts).toBeLessThanOrEqual(row!.maxAttempts);
    });

    it('given one verification token, when otp_login_v2 with it runs 20 times at once, then one session key row exists and the rest are 401 ERR_VERIFICATION_TOKEN_INVALID', async () => {
      const contact = freshEmail('login-race');
      const device = generateP256KeyPair();
      const signupToken = await verifiedToken(s, contact, device);
      const signup = await s.browser.post('signup_v2', {
        userEmail: contact,
        verificationToken: signupToken,
        clientSignature: loginSignature(device.privateKey, signupToken, 'USAGE_TYPE_SIGNUP'),
      });
      expect(signup.status).toBe(200);

      const sessionKey = generateP256KeyPair();
      const token = await verifiedToken(s, contact, sessionKey);
      const login = { verificationToken: token, publicKey: sessionKey.publicKey, clientSignature: loginSignature(sessionKey.privateKey, token) };
      const replies = await Promise.all(Array.from({ length: COPIES }, (_, i) => browserFor(i).post('otp_login_v2', login)));
      const sessions = new Set(replies.filter((r) => r.status === 200).map((r) => r.body.session));
      expect(sessions.size).toBe(1);
      refusedAmong('otp_login_v2 with a used token', replies, [[401, 'ERR_VERIFICATION_TOKEN_INVALID']]);
      tally.duplicates(
        'replays',
        'otp_login_v2 with one token: session key rows',
        (await rows(apiKeys, and(eq(apiKeys.publicKey, sessionKey.publicKey), eq(apiKeys.organizationId, signup.body.organizationId)))) - 1,
      );
      tally.duplicates(
        'replays',
        'otp_login_v2 with one token: spent token rows',
        (await rows(usedVerificationTokens, eq(usedVerificationTokens.tokenId, decodeJwt<{ id: string }>(token).id))) - 1,
      );
    });

    it('given one verification token, when signup_v2 with it runs 20 times at once, then one sub-organization is created and the rest are refused', async () => {
      const contact = freshEmail('signup-race');
      const device = generateP256KeyPair();
      const token = await verifiedToken(s, contact, device);
      const body = {
        userEmail: contact,
        verificationToken: token,
        clientSignature: loginSignature(device.privateKey, token, 'USAGE_TYPE_SIGNUP'),
        apiKeys: [{ apiKeyName: 'device', publicKey: device.publicKey, curveType: 'API_KEY_CURVE_P256' as const }],
        wallet: ETH_WALLET,
      };
      const replies = await Promise.all(Array.from({ length: COPIES }, (_, i) => browserFor(i).post('signup_v2', body)));
      const created = new Set(replies.filter((r) => r.status === 200).map((r) => r.body.organizationId));
      expect(created.size).toBe(1);
      refusedAmong('signup_v2 with a used token', replies, [
        [401, 'ERR_VERIFICATION_TOKEN_INVALID'],
        [409, 'ERR_ALREADY_EXISTS'],
      ]);
      const holders = await db().select({ organizationId: users.organizationId }).from(users).where(eq(users.userEmail, contact));
      tally.duplicates('replays', 'signup_v2 with one token: sub-organizations', new Set(holders.map((h) => h.organizationId)).size - 1);
      tally.duplicates('replays', 'signup_v2 with one token: device keys', (await rows(apiKeys, eq(apiKeys.publicKey, device.publicKey))) - 1);
      const subIds = [...created] as string[];
      tally.duplicates('replays', 'signup_v2 with one token: wallets', (await rows(wallets, inArray(wallets.organizationId, subIds))) - 1);
    });
  });

  describe('a body replayed later', () => {
    it('given a completed activity, when its exact body is replayed after other activities ran, then the same activity comes back and nothing runs again', async () => {
      const name = `replayed-${Math.random().toString(36).slice(2)}`;
      const body = envelopeText('create_user_tag', org(), { userTagName: name, userIds: [] });
      const stamp = stampApiKey(body, s.org.apiKey);
      const first = await sendRaw(s.url, operations.create_user_tag.path, body, { 'x-stamp': stamp });
      expect(first.status).toBe(200);
      await run('create_user_tag', { userTagName: `${name}-other`, userIds: [] });
      for (const [i, url] of [s.url, urlFor(1), s.url].entries()) {
        const again = await sendRaw(url, operations.create_user_tag.path, body, { 'x-stamp': stamp });
        expect(again.status, `replay ${i}`).toBe(200);
        expect(again.body.activity).toEqual(first.body.activity);
      }
      tally.duplicates(
        'replays',
        'completed activity replayed later: tags',
        (await rows(userTags, and(eq(userTags.organizationId, org()), eq(userTags.name, name)))) - 1,
      );
      tally.duplicates('replays', 'completed activity replayed later: activity rows', (await activityRows(body)) - 1);
    });

    it('given a refused create_api_keys (the key already existed), when the key is revoked and the refused body replayed, then the replay answers the same refusal and the revoked key does not come back', async () => {
      const key = generateP256KeyPair();
      const params = (name: string) => ({
        userId: s.org.userId,
        apiKeys: [{ apiKeyName: name, publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' as const }],
      });
      const { apiKeyIds } = await run('create_api_keys', params('first'));
      const refusedBody = envelopeText('create_api_keys', org(), params('second'));
      const stamp = stampApiKey(refusedBody, s.org.apiKey);
      const refused = await sendRaw(s.url, operations.create_api_keys.path, refusedBody, { 'x-stamp': stamp });
      tally.refused('replays', 'create_api_keys of an existing key', refused, 409, 'ERR_ALREADY_EXISTS');

      // The key is revoked; whoever captured the refused request replays it, on either instance.
      await run('delete_api_keys', { userId: s.org.userId, apiKeyIds });
      for (const url of [s.url, urlFor(1)]) {
        const replay = await sendRaw(url, operations.create_api_keys.path, refusedBody, { 'x-stamp': stamp });
        tally.refused('replays', 'refused create_api_keys replayed after the revocation', replay, 409, 'ERR_ALREADY_EXISTS');
        expect(replay.body).toEqual(refused.body);
      }
      tally.duplicates('replays', 'revoked key brought back by a replay', await rows(apiKeys, eq(apiKeys.publicKey, key.publicKey)));
      expect(await activityRows(refusedBody)).toBe(1);
    });

    it('given a refused create_user_tag (the name was taken), when the name is freed and the refused body replayed, then the replay answers the same refusal and creates nothing', async () => {
      const name = `taken-${Math.random().toString(36).slice(2)}`;
      const { userTagId } = await run('create_user_tag', { userTagName: name, userIds: [] });
      const refusedBody = envelopeText('create_user_tag', org(), { userTagName: name, userIds: [] }, String(Date.now() + 1));
      const stamp = stampApiKey(refusedBody, s.org.apiKey);
      tally.refused(
        'replays',
        'create_user_tag of a taken name',
        await sendRaw(s.url, operations.create_user_tag.path, refusedBody, { 'x-stamp': stamp }),
        409,
        'ERR_ALREADY_EXISTS',
      );
      await run('delete_user_tags', { userTagIds: [userTagId] });
      const replay = await sendRaw(urlFor(1), operations.create_user_tag.path, refusedBody, { 'x-stamp': stamp });
      tally.refused('replays', 'refused create_user_tag replayed after the name was freed', replay, 409, 'ERR_ALREADY_EXISTS');
      tally.duplicates(
        'replays',
        'tag created by the replay of a refused body',
        await rows(userTags, and(eq(userTags.organizationId, org()), eq(userTags.name, name))),
      );
    });

    it('given a wrong code verified through the activity API (a committed failure), when the same body is replayed, then it answers the same 401 and the attempt is not counted again', async () => {
      const otp = await requestCode(s, freshEmail('committed'));
      const wrong = otp.code === '000000' ? '000001' : '000000';
      const body = envelopeText('verify_otp', org(), {
        otpId: otp.otpId,
        encryptedOtpBundle: await encryptOtpAttempt(otp.targetPublic, wrong, generateP256KeyPair().publicKey),
      });
      const stamp = stampApiKey(body, s.org.apiKey);
      tally.refused('replays', 'wrong code', await sendRaw(s.url, operations.verify_otp.path, body, { 'x-stamp': stamp }), 401, 'ERR_OTP_INVALID');
      const attempts = async () => (await db().select().from(otps).where(eq(otps.id, otp.otpId)))[0]!.attempts;
      const before = await attempts();
      for (const url of [s.url, urlFor(1), s.url]) {
        tally.refused(
          'replays',
          'committed failure replayed',
          await sendRaw(url, operations.verify_otp.path, body, { 'x-stamp': stamp }),
          401,
          'ERR_OTP_INVALID',
        );
      }
      expect(await attempts()).toBe(before);
      expect(await activityRows(body)).toBe(1);
      // The right code still verifies: the replays spent none of the code's tries.
      expect((await verifyCode(s, otp, otp.code, generateP256KeyPair())).status).toBe(200);
    });
  });
});
