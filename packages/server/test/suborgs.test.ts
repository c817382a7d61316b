/**
 * list_suborgs (Turnkey's get_sub_org_ids), which is also the proxy's account lookup: optional
 * filters with pagination, the NAME and WALLET_ACCOUNT_ADDRESS filters, and the proofs the proxy
 * passes on (verificationToken, oidcToken) and the apiKeyCurve narrowing (decision 0021), each
 * verified before the reply says anything.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, generateP256KeyPair, generateSecp256k1KeyPair } from '@walletkit/crypto';
import { updateProxySettings } from '../src/admin/proxy';
import { usedVerificationTokens } from '../src/store/schema';
import { ETH_WALLET, freshEmail } from './adversarial/support/flows';
import { expectError } from './support/members';
import { startOidcIssuer, type LocalOidcIssuer } from './support/oidc-issuer';
import { startProxyServer, verificationTokenFor, type ProxyTestServer } from './support/proxy';
import { storeKinds } from './support/stores';

const CLIENT_ID = 'suborgs-test.apps.googleusercontent.example';

describe.each(storeKinds)('list_suborgs on %s', (kind) => {
  let s: ProxyTestServer;
  let google: LocalOidcIssuer;
  /** Sub-organizations made here, oldest first: name, email, wallet address. */
  const made: Array<{ organizationId: string; name: string; email: string; address: string }> = [];
  const list = (request: Record<string, unknown>) => s.client.query('list_suborgs', request);

  beforeAll(async () => {
    google = await startOidcIssuer({ clientId: CLIENT_ID, clientSecret: 'secret', redirectUri: 'https://app.example/cb' });
    s = await startProxyServer(kind, { config: { oidcProviders: [{ name: 'google', issuer: google.issuer, jwksUri: google.jwksUri }] } });
    await updateProxySettings(s.store, s.org.organizationId, { social: { google: { enabled: true, clientIds: [CLIENT_ID] } } });
    const tag = randomUUID().slice(0, 8);
    for (let i = 0; i < 3; i += 1) {
      const email = freshEmail(`suborgs-${i}`);
      const name = `acme-${tag}-${i}`;
      const reply = await s.client.run('create_sub_organization', {
        subOrganizationName: name,
        rootUsers: [{ userName: `user ${i}`, userEmail: email, apiKeys: [], authenticators: [], oauthProviders: [] }],
        rootQuorumThreshold: 1,
        wallet: ETH_WALLET,
      });
      made.push({ organizationId: reply.subOrganizationId, name, email, address: reply.wallet!.addresses[0]! });
    }
  }, 60_000);
  afterAll(async () => {
    await s?.dispose();
    await google?.close();
  });

  it('given no filter, when pages are asked for, then every sub-organization comes oldest first, page by page, as Turnkey paginates', async () => {
    const all: string[] = [];
    let after: string | undefined;
    for (;;) {
      const reply = await list({ organizationId: s.org.organizationId, paginationOptions: { limit: '2', ...(after ? { after } : {}) } });
      expect(reply.status).toBe(200);
      const ids: string[] = reply.body.organizationIds;
      expect(ids.length).toBeLessThanOrEqual(2);
      all.push(...ids);
      if (ids.length < 2) break;
      after = ids[ids.length - 1];
    }
    const mine = made.map((m) => m.organizationId);
    expect(all.filter((id) => mine.includes(id))).toEqual(mine);
    expect(new Set(all).size).toBe(all.length);
    const before = await list({ organizationId: s.org.organizationId, paginationOptions: { limit: '1', before: made[2]!.organizationId } });
    expect(before.body.organizationIds).toEqual([made[1]!.organizationId]);
    expectError(
      await list({ organizationId: s.org.organizationId, paginationOptions: { after: randomUUID() } }),
      400,
      'ERR_INVALID_PARAMETER',
      'paginationOptions.after',
    );
  });

  it('given NAME, WALLET_ACCOUNT_ADDRESS (checksummed or lowercase) and EMAIL filters, when listed, then each finds its sub-organization and nothing else', async () => {
    const [first, second] = made;
    expect((await list({ organizationId: s.org.organizationId, filterType: 'NAME', filterValue: first!.name })).body.organizationIds).toEqual([
      first!.organizationId,
    ]);
    for (const address of [second!.address, second!.address.toLowerCase()]) {
      expect((await list({ organizationId: s.org.organizationId, filterType: 'WALLET_ACCOUNT_ADDRESS', filterValue: address })).body.organizationIds).toEqual([
        second!.organizationId,
      ]);
    }
    expect((await list({ organizationId: s.org.organizationId, filterType: 'NAME', filterValue: 'nobody' })).body.organizationIds).toEqual([]);
  });

  it('given a filter type without a value (or a value without a type), when listed, then it is a 400 naming the missing field', async () => {
    expectError(await list({ organizationId: s.org.organizationId, filterType: 'EMAIL' }), 400, 'ERR_INVALID_REQUEST', 'filterValue');
    expectError(await list({ organizationId: s.org.organizationId, filterValue: 'a@example.com' }), 400, 'ERR_INVALID_REQUEST', 'filterType');
    expectError(
      await list({ organizationId: s.org.organizationId, filterType: 'EMAIL', filterValue: 'a@example.com', apiKeyCurve: 'API_KEY_CURVE_SECP256K1' }),
      400,
      'ERR_INVALID_REQUEST',
      'apiKeyCurve',
    );
  });

  it('given an identity filter, when asked with and without a cursor and a limit, then both ways of reading it (the built lookup and the general query) answer alike', async () => {
    const { email, organizationId } = made[1]!;
    const ids = async (request: Record<string, unknown>) =>
      (await list({ organizationId: s.org.organizationId, filterType: 'EMAIL', filterValue: email, ...request })).body.organizationIds;
    // The lookup a login makes (no cursor): the email in any letter case.
    expect(await ids({})).toEqual([organizationId]);
    expect(await ids({ filterValue: email.toUpperCase() })).toEqual([organizationId]);
    expect(await ids({ paginationOptions: { limit: '1' } })).toEqual([organizationId]);
    // With a cursor: the general query, the same sub-organization around it.
    expect(await ids({ paginationOptions: { after: made[0]!.organizationId } })).toEqual([organizationId]);
    expect(await ids({ paginationOptions: { before: made[2]!.organizationId } })).toEqual([organizationId]);
    expect(await ids({ paginationOptions: { after: organizationId } })).toEqual([]);
    // An email no sub-organization has: nothing.
    expect(await ids({ filterValue: freshEmail('nobody') })).toEqual([]);
  });

  it('given a verification token as proof, when it is for the contact, unused and of this organization, then the lookup answers; otherwise it is a 401 whatever exists', async () => {
    const { email, organizationId } = made[0]!;
    const lookup = (verificationToken: string, filterValue = email) =>
      list({ organizationId: s.org.organizationId, filterType: 'EMAIL', filterValue, verificationToken });
    expect((await lookup(verificationTokenFor(s, email))).body.organizationIds).toEqual([organizationId]);
    // Another contact's token, an SMS token, a foreign organization's, an expired one, a forged one, a used one.
    const other = verificationTokenFor(s, freshEmail('other'));
    const sms = verificationTokenFor(s, email, { type: 'OTP_TYPE_SMS' });
    const foreign = verificationTokenFor(s, email, { organizationId: randomUUID() });
    const expired = verificationTokenFor(s, email, { expiresInSeconds: -60 });
    const forged = `${verificationTokenFor(s, email).slice(0, -6)}AAAAAA`;
    const used = verificationTokenFor(s, email);
    await s.store.db.insert(usedVerificationTokens).values({ tokenId: decodeJwt<{ id: string }>(used).id });
    for (const token of [other, sms, foreign, expired, forged, used])
      expectError(await lookup(token), 401, 'ERR_VERIFICATION_TOKEN_INVALID', 'verificationToken');
    // Nobody's email with a bad token: the same 401, so the reply tells nothing about existence.
    expectError(await lookup(forged, freshEmail('nobody')), 401, 'ERR_VERIFICATION_TOKEN_INVALID', 'verificationToken');
    // Nobody's email with a good token: no account; once that token is used, the same 401 as above
    // (whether it was used is read with the lookup's row when there is one, and alone when not).
    const nobody = freshEmail('nobody');
    const nobodys = verificationTokenFor(s, nobody);
    expect((await lookup(nobodys, nobody)).body.organizationIds).toEqual([]);
    await s.store.db.insert(usedVerificationTokens).values({ tokenId: decodeJwt<{ id: string }>(nobodys).id });
    expectError(await lookup(nobodys, nobody), 401, 'ERR_VERIFICATION_TOKEN_INVALID', 'verificationToken');
  });

  it('given an id token as proof, when its verified email is the filter value, then the lookup answers; an unverified email or a phone filter is a 401', async () => {
    const { email, organizationId } = made[1]!;
    const iat = Math.floor(Date.now() / 1000);
    const token = (claims: Record<string, unknown>) => google.sign({ aud: CLIENT_ID, sub: randomUUID(), iat, exp: iat + 600, ...claims });
    const ok = await list({
      organizationId: s.org.organizationId,
      filterType: 'EMAIL',
      filterValue: email,
      oidcToken: await token({ email, email_verified: true }),
    });
    expect(ok.body.organizationIds).toEqual([organizationId]);
    const unverified = await list({
      organizationId: s.org.organizationId,
      filterType: 'EMAIL',
      filterValue: email,
      oidcToken: await token({ email, email_verified: false }),
    });
    expectError(unverified, 401, 'ERR_OIDC_TOKEN_INVALID', 'oidcToken');
    const phone = await list({
      organizationId: s.org.organizationId,
      filterType: 'PHONE_NUMBER',
      filterValue: '+15550001111',
      oidcToken: await token({ email, email_verified: true }),
    });
    expectError(phone, 401, 'ERR_OIDC_TOKEN_INVALID', 'oidcToken');
  });

  it('given apiKeyCurve, when a PUBLIC_KEY filter is narrowed to secp256k1, then only a sub-organization holding it as a secp256k1 API key matches', async () => {
    const wallet = generateSecp256k1KeyPair();
    const device = generateP256KeyPair();
    const reply = await s.client.run('create_sub_organization', {
      subOrganizationName: 'keys',
      rootUsers: [
        {
          userName: 'keys',
          apiKeys: [
            { apiKeyName: 'wallet', publicKey: wallet.publicKey, curveType: 'API_KEY_CURVE_SECP256K1' },
            { apiKeyName: 'device', publicKey: device.publicKey, curveType: 'API_KEY_CURVE_P256' },
          ],
          authenticators: [],
          oauthProviders: [],
        },
      ],
      rootQuorumThreshold: 1,
    });
    const narrowed = (publicKey: string) =>
      list({ organizationId: s.org.organizationId, filterType: 'PUBLIC_KEY', filterValue: publicKey, apiKeyCurve: 'API_KEY_CURVE_SECP256K1' });
    expect((await narrowed(wallet.publicKey)).body.organizationIds).toEqual([reply.subOrganizationId]);
    expect((await narrowed(device.publicKey)).body.organizationIds).toEqual([]);
    expect((await list({ organizationId: s.org.organizationId, filterType: 'PUBLIC_KEY', filterValue: device.publicKey })).body.organizationIds).toEqual([
      reply.subOrganizationId,
    ]);
  });
});
