/**
 * X-Stamp-Attested under attack (decision 0020), over real HTTP: the stamp @turnkey/core's
 * AttestedStamper makes, carried to other activities and reads, its signature and key tampered with, its
 * verification token raced, replayed after its login, re-signed with other algorithms, or
 * presented by someone who saw it but does not hold the key it binds.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base64urlEncode, decodeJwt, generateP256KeyPair, uncompressPublicKey, utf8ToBytes, type EcKeyPair } from '@walletkit/crypto';
import { operations, queries, type OperationName } from '@walletkit/protocol';
import { apiKeys, usedVerificationTokens } from '../../src/store/schema';
import { attestedStamp, decodeAttested, encodeAttested, signUpWithToken, stampLoginBody, verifiedToken } from '../support/attested';
import { startTestServer, type TestServer } from '../support/harness';
import { envelopeText, sendRaw } from './support/http';
import { adversarialTally } from './support/tally';

const tally = adversarialTally('attested');
const COPIES = 20;

describe('attested stamps under attack (PGlite, real HTTP)', () => {
  let s: TestServer;
  let url: string;
  let parentId: string;
  let tick = 0;
  /** Every call is a new millisecond: two bodies are never one activity by accident. */
  const clock = () => Date.now() + tick++;

  beforeAll(async () => {
    s = await startTestServer('pglite', { clock, config: { devOutbox: true } });
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    const address = s.app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    parentId = s.org.organizationId;
  });
  afterAll(async () => s?.dispose());

  const freshEmail = (label: string) => `${label}-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const login = (body: string, header: string) => sendRaw(url, operations.stamp_login.path, body, { 'x-stamp-attested': header });
  const sessionRows = async (key: EcKeyPair) => (await s.store.db.select().from(apiKeys).where(eq(apiKeys.publicKey, key.publicKey))).length;
  const tokenRows = async (token: string) =>
    (
      await s.store.db
        .select()
        .from(usedVerificationTokens)
        .where(eq(usedVerificationTokens.tokenId, decodeJwt<{ id: string }>(token).id))
    ).length;

  /** A user with an account, and a fresh token for their email bound to a fresh key. */
  async function victim(label: string): Promise<{ contact: string; key: EcKeyPair; token: string; subOrganizationId: string }> {
    const contact = freshEmail(label);
    const { subOrganizationId } = await signUpWithToken(s, contact, generateP256KeyPair());
    const key = generateP256KeyPair();
    return { contact, key, token: await verifiedToken(s, contact, key), subOrganizationId };
  }

  it('given a genuine attested stamp, when it is carried to other activities (a new API key, a wallet, a signature, new users) and to reads, each body valid and signed for its path, then each is 401 ERR_STAMP_NOT_ACCEPTED and the token then still logs in once', async () => {
    const { key, token, subOrganizationId } = await victim('carried');
    const attacker = generateP256KeyPair();
    const eth = { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' } as const;
    const userId = (await s.client.query('list_users', { organizationId: subOrganizationId })).body.users[0].userId as string;
    const activities: Array<[OperationName, unknown]> = [
      ['create_api_keys', { userId, apiKeys: [{ apiKeyName: 'mine now', publicKey: attacker.publicKey, curveType: 'API_KEY_CURVE_P256' }] }],
      ['create_wallet', { walletName: 'mine', accounts: [eth] }],
      [
        'sign_raw_payload',
        { signWith: `0x${'11'.repeat(20)}`, payload: 'hello', encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', hashFunction: 'HASH_FUNCTION_KECCAK256' },
      ],
      ['create_users', { users: [{ userName: 'intruder', userTags: [], apiKeys: [], authenticators: [], oauthProviders: [] }] }],
    ];
    for (const [op, parameters] of activities) {
      const body = envelopeText(op, subOrganizationId, parameters, String(clock()));
      const reply = await sendRaw(url, operations[op].path, body, { 'x-stamp-attested': await attestedStamp(body, key, { verificationToken: token }) });
      tally.refused('stamps', `attested stamp on ${op}`, reply, 401, 'ERR_STAMP_NOT_ACCEPTED');
    }
    for (const name of ['whoami', 'list_wallets', 'get_api_keys', 'list_users'] as const) {
      const body = JSON.stringify({ organizationId: subOrganizationId });
      const reply = await sendRaw(url, queries[name].path, body, { 'x-stamp-attested': await attestedStamp(body, key, { verificationToken: token }) });
      tally.refused('stamps', `attested stamp on query ${name}`, reply, 401, 'ERR_STAMP_NOT_ACCEPTED');
    }
    expect(await tokenRows(token)).toBe(0);
    expect(await sessionRows(attacker)).toBe(0);
    const control = stampLoginBody(parentId, key.publicKey, clock());
    expect((await login(control, await attestedStamp(control, key, { verificationToken: token }))).status).toBe(200);
  });

  it('given one verification token, when 20 distinct stamp_login requests with it arrive at once, then one session opens and the rest are 401 ERR_VERIFICATION_TOKEN_INVALID', async () => {
    const { key, token } = await victim('race');
    const bodies = Array.from({ length: COPIES }, () => stampLoginBody(parentId, key.publicKey, clock()));
    const headers = await Promise.all(bodies.map((b) => attestedStamp(b, key, { verificationToken: token })));
    const replies = await Promise.all(bodies.map((b, i) => login(b, headers[i]!)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    for (const reply of replies.filter((r) => r.status !== 200))
      tally.refused('replays', 'stamp_login race on one token', reply, 401, 'ERR_VERIFICATION_TOKEN_INVALID');
    tally.duplicates('replays', 'attested logins with one token: session key rows', (await sessionRows(key)) - 1);
    expect(await sessionRows(key)).toBe(1);
  });

  it('given a token just spent on a signup, when 20 distinct logins with it arrive at once, then exactly one session opens', async () => {
    const key = generateP256KeyPair();
    const signup = await signUpWithToken(s, freshEmail('signup-race'), key);
    const bodies = Array.from({ length: COPIES }, () => stampLoginBody(signup.subOrganizationId, key.publicKey, clock()));
    const headers = await Promise.all(bodies.map((b) => attestedStamp(b, key, { verificationToken: signup.token })));
    const replies = await Promise.all(bodies.map((b, i) => login(b, headers[i]!)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    for (const reply of replies.filter((r) => r.status !== 200))
      tally.refused('replays', 'login race after signup', reply, 401, 'ERR_VERIFICATION_TOKEN_INVALID');
    tally.duplicates('replays', 'logins after one signup: session key rows', (await sessionRows(key)) - 1);
    expect(await sessionRows(key)).toBe(1);
  });

  it('given a token seen in transit, when the eavesdropper stamps with their own key (naming it, or naming the bound key), or grafts the genuine signature onto another body, then each is 401 ERR_STAMP_INVALID', async () => {
    const { key, token } = await victim('eavesdrop');
    const attacker = generateP256KeyPair();
    const cases: Array<[string, string, string]> = [];
    const own = stampLoginBody(parentId, attacker.publicKey, clock());
    cases.push(['own key named', own, await attestedStamp(own, attacker, { verificationToken: token })]);
    const named = stampLoginBody(parentId, key.publicKey, clock());
    cases.push(['bound key named, signed by another', named, await attestedStamp(named, attacker, { verificationToken: token }, key.publicKey)]);
    const genuineBody = stampLoginBody(parentId, key.publicKey, clock());
    const genuine = await attestedStamp(genuineBody, key, { verificationToken: token });
    const graftedBody = stampLoginBody(parentId, key.publicKey, clock(), { invalidateExisting: true });
    cases.push(['genuine signature on another body', graftedBody, genuine]);
    const { signature } = decodeAttested(genuine);
    const flipped = signature.slice(0, -2) + (signature.endsWith('00') ? '01' : '00');
    cases.push(['one signature byte flipped', genuineBody, encodeAttested({ ...decodeAttested(genuine), signature: flipped })]);
    cases.push(['signature truncated', genuineBody, encodeAttested({ ...decodeAttested(genuine), signature: signature.slice(0, -2) })]);
    for (const [what, body, header] of cases) tally.refused('stamps', `attested: ${what}`, await login(body, header), 401, 'ERR_STAMP_INVALID');
    expect(await sessionRows(attacker)).toBe(0);
    expect(await tokenRows(token)).toBe(0);
    // The uncompressed spelling of the bound key is the same key: the honest control, accepted once.
    const control = stampLoginBody(parentId, key.publicKey, clock());
    const uncompressed = encodeAttested({
      ...decodeAttested(await attestedStamp(control, key, { verificationToken: token })),
      publicKey: uncompressPublicKey('p256', key.publicKey),
    });
    expect((await login(control, uncompressed)).status).toBe(200);
  });

  it('given the verification token re-signed as alg none, as HS256 with the enclave public key, or with its signature removed, when presented, then each is 401 ERR_VERIFICATION_TOKEN_INVALID', async () => {
    const { key, token } = await victim('alg');
    const [, payload] = token.split('.');
    const segment = (value: unknown) => base64urlEncode(utf8ToBytes(JSON.stringify(value)));
    const { createHmac } = await import('node:crypto');
    const hsHead = segment({ alg: 'HS256', typ: 'JWT' });
    const hs = `${hsHead}.${payload}.${createHmac('sha256', s.enclave.signingPublicKey).update(`${hsHead}.${payload}`).digest('base64url')}`;
    const forged: Array<[string, string]> = [
      ['alg none', `${segment({ alg: 'none', typ: 'JWT' })}.${payload}.`],
      ['HS256 keyed with the enclave public key', hs],
      ['signature removed', `${token.split('.').slice(0, 2).join('.')}.`],
      ['two segments', token.split('.').slice(0, 2).join('.')],
    ];
    for (const [what, bad] of forged) {
      const body = stampLoginBody(parentId, key.publicKey, clock());
      const reply = await login(body, await attestedStamp(body, key, { verificationToken: bad }));
      tally.refused('stamps', `attested token: ${what}`, reply, 401, 'ERR_VERIFICATION_TOKEN_INVALID');
    }
    expect(await sessionRows(key)).toBe(0);
  });

  it('given a login that succeeded, when its token is presented again with new bodies and again with the same key after invalidateExisting, then each is refused and exactly one session key row remains', async () => {
    const { key, token } = await victim('after');
    const first = stampLoginBody(parentId, key.publicKey, clock());
    expect((await login(first, await attestedStamp(first, key, { verificationToken: token }))).status).toBe(200);
    for (const invalidateExisting of [false, true]) {
      const body = stampLoginBody(parentId, key.publicKey, clock(), { invalidateExisting });
      tally.refused(
        'replays',
        `attested token after its login (invalidateExisting ${invalidateExisting})`,
        await login(body, await attestedStamp(body, key, { verificationToken: token })),
        401,
        'ERR_VERIFICATION_TOKEN_INVALID',
      );
    }
    tally.duplicates('replays', 'token after its login: session key rows', (await sessionRows(key)) - 1);
    expect(await sessionRows(key)).toBe(1);
  });
});
