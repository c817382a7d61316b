/**
 * The activity API pipeline, independent of any one operation: envelope and parameter
 * validation, stamps (three API-key schemes), organization scoping, liveness, idempotency
 * under racing replays, reply shape, App Proofs, discovery, and the error table.
 * A probe handler for create_policy counts its effects in the policies table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { generateEd25519KeyPair, generateP256KeyPair, generateSecp256k1KeyPair, stampApiKey, verifyAppProof } from '@walletkit/crypto';
import { operations } from '@walletkit/protocol';
import type { HandlerTable } from '../src/activity/context';
import { handlers } from '../src/activity/operations';
import { computeActivityFingerprint } from '@turnkey/crypto';
import { CommittedFailure } from '../src/activity/refusals';
import { ApiError } from '../src/errors';
import { newId } from '../src/store/ids';
import { apiKeys, organizations, policies, rootQuorumMembers, users } from '../src/store/schema';
import { startTestServer, type TestServer } from './support/harness';
import { storeKinds } from './support/stores';

const probe: HandlerTable = {
  // Records an effect, then fails in a way that must still commit (like a counted OTP attempt).
  update_policy: async (params, ctx) => {
    await ctx.tx.insert(policies).values({ id: newId(), organizationId: ctx.organizationId, name: params.policyName, effect: params.policyEffect });
    throw new CommittedFailure(new ApiError('ERR_INVALID_PARAMETER', 'counted, then refused', 'policyId'));
  },
  create_policy: async (params, ctx) => {
    const policyId = newId();
    await ctx.tx.insert(policies).values({
      id: policyId,
      organizationId: ctx.organizationId,
      name: params.policyName,
      effect: params.effect,
      condition: params.condition ?? null,
      consensus: params.consensus ?? null,
    });
    return { policyId };
  },
};

const policyParams = (name: string) => ({
  policyName: name,
  effect: 'EFFECT_ALLOW' as const,
  condition: 'true',
  consensus: "approvers.any(user, user.id == 'nobody')",
  notes: '',
});

describe.each(storeKinds)('activity API pipeline on %s', (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(kind, { deps: { handlers: { ...handlers, ...probe } } });
  });
  afterAll(() => s?.dispose());

  const policyCount = async (name: string) => (await s.store.db.select({ n: count() }).from(policies).where(eq(policies.name, name)))[0]!.n;

  async function addUser(organizationId: string, key: { publicKey: string }, curve: string, opts: { root?: boolean; expiresAt?: Date } = {}) {
    const userId = newId();
    await s.store.db.insert(users).values({ id: userId, organizationId, userName: `u-${userId.slice(0, 6)}` });
    if (opts.root) await s.store.db.insert(rootQuorumMembers).values({ organizationId, userId });
    await s.store.db
      .insert(apiKeys)
      .values({ id: newId(), organizationId, userId, name: 'k', publicKey: key.publicKey, curve, expiresAt: opts.expiresAt ?? null });
    return userId;
  }

  it('given a valid stamped envelope, when submitted, then the reply is the completed activity record echoing the intent', async () => {
    const reply = await s.client.submit('create_policy', policyParams('shape'));
    expect(reply.status).toBe(200);
    const a = reply.body.activity;
    expect(a).toMatchObject({
      organizationId: s.org.organizationId,
      status: 'ACTIVITY_STATUS_COMPLETED',
      type: 'ACTIVITY_TYPE_CREATE_POLICY_V3',
      intent: { createPolicyIntentV3: policyParams('shape') },
      votes: [],
      canApprove: false,
      canReject: false,
    });
    expect(a.result.createPolicyResult.policyId).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(new Date(a.createdAt).toISOString()).toBe(a.createdAt);
    expect(reply.body).toMatchObject({ id: a.id, status: a.status, type: a.type, organizationId: a.organizationId, result: a.result });
    expect(reply.body.timestampMs).toMatch(/^\d+$/);
    expect(await policyCount('shape')).toBe(1);
  });

  it('given one body replayed, when sent again, then the same activity id comes back and the effect happened once', async () => {
    const body = s.client.envelope('create_policy', policyParams('replayed'));
    const first = await s.client.post(operations.create_policy.path, body);
    const second = await s.client.post(operations.create_policy.path, body);
    expect(second.status).toBe(200);
    expect(second.body.activity.id).toBe(first.body.activity.id);
    expect(await policyCount('replayed')).toBe(1);
  });

  it('given 20 copies of one body racing, when all complete, then one activity id and one effect', async () => {
    const body = s.client.envelope('create_policy', policyParams('raced'));
    const replies = await Promise.all(Array.from({ length: 20 }, () => s.client.post(operations.create_policy.path, body)));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(replies.map((r) => r.body.activity.id)).size).toBe(1);
    expect(await policyCount('raced')).toBe(1);
  });

  it('given a handler that fails with CommittedFailure, then its writes commit, the caller gets the 4xx, and a replay repeats the error without running again', async () => {
    const body = s.client.envelope('update_policy', { policyId: newId(), policyName: 'committed-failure', policyEffect: 'EFFECT_DENY' });
    const first = await s.client.post(operations.update_policy.path, body);
    expect(first.status).toBe(400);
    expect(first.body.details[0]).toMatchObject({ errorCode: 'ERR_INVALID_PARAMETER' });
    const replay = await s.client.post(operations.update_policy.path, body);
    expect(replay.status).toBe(400);
    expect(replay.body.details[0].errorCode).toBe('ERR_INVALID_PARAMETER');
    expect(await policyCount('committed-failure')).toBe(1);
  });

  it('given malformed JSON, unknown fields, wrong types or a mismatched type, then 400 with a stable code and nothing written', async () => {
    const path = operations.create_policy.path;
    const bad = async (body: string) => s.client.post(path, body);
    expect((await bad('{"type":')).body.details[0].errorCode).toBe('ERR_MALFORMED_JSON');
    const good = JSON.parse(s.client.envelope('create_policy', policyParams('bad-shape')));
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...good, extra: 1 }, 'ERR_INVALID_REQUEST'],
      [{ ...good, parameters: { ...good.parameters, surprise: 'x' } }, 'ERR_INVALID_REQUEST'],
      [{ ...good, parameters: { ...good.parameters, effect: 'EFFECT_MAYBE' } }, 'ERR_INVALID_REQUEST'],
      [{ ...good, parameters: { ...good.parameters, policyName: 42 } }, 'ERR_INVALID_REQUEST'],
      [{ ...good, timestampMs: 12345 }, 'ERR_INVALID_REQUEST'],
      [{ ...good, type: 'ACTIVITY_TYPE_UPDATE_POLICY_V2' }, 'ERR_ACTIVITY_TYPE_MISMATCH'],
    ];
    for (const [body, code] of cases) {
      const r = await bad(JSON.stringify(body));
      expect(r.status, code).toBe(400);
      expect(r.body.details[0].errorCode).toBe(code);
      expect(typeof r.body.code).toBe('number');
      expect(r.body.message.length).toBeGreaterThan(0);
    }
    expect(await policyCount('bad-shape')).toBe(0);
  });

  it('given a missing, garbled, foreign or unknown stamp, then 401 with the specific code', async () => {
    const path = operations.create_policy.path;
    const body = s.client.envelope('create_policy', policyParams('stamps'));
    const other = generateP256KeyPair();
    const codeOf = async (headers: Record<string, string>) => (await s.client.post(path, body, headers)).body.details[0].errorCode;
    expect(await codeOf({})).toBe('ERR_STAMP_MISSING');
    expect(await codeOf({ 'x-stamp': 'not-base64-json' })).toBe('ERR_STAMP_MALFORMED');
    expect(await codeOf({ 'x-stamp': stampApiKey(`${body} `, s.client.key) })).toBe('ERR_STAMP_INVALID');
    expect(await codeOf({ 'x-stamp': stampApiKey(body, other) })).toBe('ERR_STAMP_KEY_UNKNOWN');
    expect(await policyCount('stamps')).toBe(0);
  });

  it('given timestamps outside the liveness window, then 400 ERR_TIMESTAMP_OUT_OF_WINDOW', async () => {
    const now = Date.now();
    for (const ts of [now - 60 * 60 * 1000 - 5_000, now + 5 * 60 * 1000 + 5_000]) {
      const r = await s.client.submit('create_policy', policyParams(`ts-${ts}`), { timestampMs: String(ts) });
      expect(r.status).toBe(400);
      expect(r.body.details[0].errorCode).toBe('ERR_TIMESTAMP_OUT_OF_WINDOW');
    }
    const ok = await s.client.submit('create_policy', policyParams('ts-ok'), { timestampMs: String(now - 59 * 60 * 1000) });
    expect(ok.status).toBe(200);
  });

  it('given secp256k1 (EIP-191) and ed25519 API keys of root users, when they stamp, then the activity is accepted', async () => {
    const k1 = generateSecp256k1KeyPair();
    const ed = generateEd25519KeyPair();
    await addUser(s.org.organizationId, k1, 'API_KEY_CURVE_SECP256K1', { root: true });
    await addUser(s.org.organizationId, ed, 'API_KEY_CURVE_ED25519', { root: true });
    const viaK1 = s.client.with({ key: { ...k1, scheme: 'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191' } as never });
    const viaEd = s.client.with({ key: { ...ed, scheme: 'SIGNATURE_SCHEME_TK_API_ED25519' } as never });
    expect((await viaK1.submit('create_policy', policyParams('k1'))).status).toBe(200);
    expect((await viaEd.submit('create_policy', policyParams('ed'))).status).toBe(200);
    expect(await policyCount('k1')).toBe(1);
    expect(await policyCount('ed')).toBe(1);
  });

  it('given an expired API key, then 401 ERR_API_KEY_EXPIRED', async () => {
    const key = generateP256KeyPair();
    await addUser(s.org.organizationId, key, 'API_KEY_CURVE_P256', { root: true, expiresAt: new Date(Date.now() - 1000) });
    const r = await s.client.with({ key }).submit('create_policy', policyParams('expired'));
    expect(r.status).toBe(401);
    expect(r.body.details[0].errorCode).toBe('ERR_API_KEY_EXPIRED');
  });

  it('given organizations A, B and a sub-organization of A, then A acts on its sub-org, and neither acts on B nor the sub-org user on A', async () => {
    const b = generateP256KeyPair();
    const orgB = newId();
    await s.store.db.insert(organizations).values({ id: orgB, name: 'B' });
    await addUser(orgB, b, 'API_KEY_CURVE_P256', { root: true });
    const sub = newId();
    await s.store.db.insert(organizations).values({ id: sub, name: 'sub', parentOrganizationId: s.org.organizationId });
    const subKey = generateP256KeyPair();
    await addUser(sub, subKey, 'API_KEY_CURVE_P256', { root: true });

    expect((await s.client.submit('create_policy', policyParams('on-sub'), { organizationId: sub })).status).toBe(200);
    const onB = await s.client.submit('create_policy', policyParams('on-b'), { organizationId: orgB });
    expect(onB.status).toBe(401);
    expect(onB.body.details[0].errorCode).toBe('ERR_STAMP_KEY_UNKNOWN');
    const subOnParent = await s.client.with({ key: subKey }).submit('create_policy', policyParams('sub-on-parent'));
    expect(subOnParent.body.details[0].errorCode).toBe('ERR_STAMP_KEY_UNKNOWN');
    // An unknown organization is refused exactly like an unknown key: no existence oracle.
    const unknownOrg = await s.client.submit('create_policy', policyParams('nowhere'), { organizationId: newId() });
    expect(unknownOrg.status).toBe(401);
    expect(unknownOrg.body).toEqual(onB.body);
  });

  it('given a non-root user with no policy, then 403 ERR_PERMISSION_DENIED and nothing written', async () => {
    const key = generateP256KeyPair();
    await addUser(s.org.organizationId, key, 'API_KEY_CURVE_P256');
    const r = await s.client.with({ key }).submit('create_policy', policyParams('non-root'));
    expect(r.status).toBe(403);
    expect(r.body.details[0].errorCode).toBe('ERR_PERMISSION_DENIED');
    expect(await policyCount('non-root')).toBe(0);
  });

  it('given generateAppProofs, then the reply carries an App Proof that verifies against the published enclave key', async () => {
    const r = await s.client.submit('create_policy', policyParams('proofs'), { generateAppProofs: true });
    expect(r.status).toBe(200);
    const wellKnown = JSON.parse((await s.app.inject({ method: 'GET', url: '/.well-known/walletkit.json' })).body);
    const [proof] = r.body.activity.appProofs;
    expect(verifyAppProof(proof, wellKnown.enclaveSigningPublicKey)).toBe(true);
    const payload = JSON.parse(proof.proofPayload);
    expect(payload).toMatchObject({ activityId: r.body.activity.id, organizationId: s.org.organizationId });
    expect(payload.result).toEqual(r.body.activity.result);
    expect(verifyAppProof({ ...proof, proofPayload: proof.proofPayload.replace(r.body.activity.id, newId()) }, wellKnown.enclaveSigningPublicKey)).toBe(false);
  });

  it("given a submitted body, then the activity's fingerprint is Turnkey's: sha256:<hex> of the exact bytes (@turnkey/crypto computeActivityFingerprint)", async () => {
    const body = JSON.stringify({
      type: operations.create_policy.type,
      timestampMs: String(Date.now()),
      organizationId: s.org.organizationId,
      parameters: policyParams('fp'),
    });
    const res = await s.app.inject({
      method: 'POST',
      url: operations.create_policy.path,
      payload: body,
      headers: { 'content-type': 'application/json', 'x-stamp': stampApiKey(body, s.org.apiKey) },
    });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body).activity.fingerprint).toBe(computeActivityFingerprint(body));
  });

  it('given discovery requests, then the enclave key and JWKS are published', async () => {
    const wk = JSON.parse((await s.app.inject({ method: 'GET', url: '/.well-known/walletkit.json' })).body);
    expect(wk).toMatchObject({
      version: expect.any(String),
      activityApiUrl: expect.stringMatching(/\/public\/v1$/),
    });
    // The auth proxy's base as the kit and Turnkey's SDKs take it: they add /v1/<endpoint>.
    expect(wk.authProxyUrl).toBe(wk.activityApiUrl.replace(/\/public\/v1$/, ''));
    expect(wk.enclaveSigningPublicKey).toMatch(/^04[0-9a-f]{128}$/);
    const jwks = JSON.parse((await s.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).body);
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });
  });

  it('given unknown routes, other media types or oversized bodies, then 404, 415 and 413 with stable codes', async () => {
    const notFound = await s.app.inject({ method: 'POST', url: '/public/v1/submit/nope', payload: '{}', headers: { 'content-type': 'application/json' } });
    expect([notFound.statusCode, JSON.parse(notFound.body).details[0].errorCode]).toEqual([404, 'ERR_ROUTE_NOT_FOUND']);
    const media = await s.app.inject({ method: 'POST', url: operations.create_policy.path, payload: 'x=1', headers: { 'content-type': 'text/plain' } });
    expect([media.statusCode, JSON.parse(media.body).details[0].errorCode]).toEqual([415, 'ERR_UNSUPPORTED_MEDIA_TYPE']);
    const big = await s.app.inject({
      method: 'POST',
      url: operations.create_policy.path,
      payload: 'x'.repeat(2 * 1024 * 1024),
      headers: { 'content-type': 'application/json' },
    });
    expect([big.statusCode, JSON.parse(big.body).details[0].errorCode]).toEqual([413, 'ERR_PAYLOAD_TOO_LARGE']);
  });

  it('given a browser page on any origin, then preflights allow the stamp headers and replies, errors included, are readable', async () => {
    const path = operations.create_policy.path;
    const preflight = await s.app.inject({
      method: 'OPTIONS',
      url: path,
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-stamp' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('x-stamp');
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
    const body = s.client.envelope('create_policy', policyParams('cors'));
    const ok = await s.app.inject({
      method: 'POST',
      url: path,
      payload: body,
      headers: { origin: 'https://app.example', 'content-type': 'application/json', 'x-stamp': stampApiKey(body, s.client.key) },
    });
    expect([ok.statusCode, ok.headers['access-control-allow-origin']]).toEqual([200, '*']);
    const unstamped = await s.app.inject({
      method: 'POST',
      url: path,
      payload: body,
      headers: { origin: 'https://app.example', 'content-type': 'application/json' },
    });
    expect([unstamped.statusCode, unstamped.headers['access-control-allow-origin'], JSON.parse(unstamped.body).details[0].errorCode]).toEqual([
      401,
      '*',
      'ERR_STAMP_MISSING',
    ]);
  });
});
