/**
 * The authentication proxy (spec A) through real HTTP: a browser-like client calls /v1 with
 * the config id header and an Origin; the proxy forwards over the network to the activity API
 * of the same server, stamped with the proxy key.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateP256KeyPair } from '@walletkit/crypto';
import { disableProxy, enableProxy, updateProxySettings } from '../src/admin/proxy';
import { createOrganization } from '../src/admin/organizations';
import { expectProxyError, startProxyServer, submitOver, verificationTokenFor, type ProxyTestServer } from './support/proxy';
import { storeKinds } from './support/stores';

const APP = 'https://app.example';

describe.each(storeKinds)('proxy guard on %s', (kind) => {
  let s: ProxyTestServer;

  beforeAll(async () => {
    s = await startProxyServer(kind, { proxy: { origins: [APP, 'http://localhost:5173'] } });
  });
  afterAll(async () => s?.dispose());

  it('given no X-Auth-Proxy-Config-Id, when a request arrives, then it is a 400 ERR_CONFIG_ID_MISSING', async () => {
    expectProxyError(await s.browser.with({ configId: undefined }).post('wallet_kit_config', {}), 400, 'ERR_CONFIG_ID_MISSING');
  });

  it('given an unknown config id, when a request arrives, then it is a 404 ERR_CONFIG_NOT_FOUND', async () => {
    expectProxyError(await s.browser.with({ configId: randomUUID() }).post('wallet_kit_config', {}), 404, 'ERR_CONFIG_NOT_FOUND');
    expectProxyError(await s.browser.with({ configId: 'x'.repeat(500) }).post('wallet_kit_config', {}), 404, 'ERR_CONFIG_NOT_FOUND');
  });

  it('given a disabled proxy, when a request arrives, then it is a 403 ERR_PROXY_DISABLED, and re-enabling restores it', async () => {
    const other = await createOrganization(s.store, { name: 'Disabled Org' });
    const config = await enableProxy(s.store, s.enclave, { organizationId: other.organizationId, origins: [APP] });
    await disableProxy(s.store, other.organizationId);
    const client = s.browser.with({ configId: config.id });
    expectProxyError(await client.post('wallet_kit_config', {}), 403, 'ERR_PROXY_DISABLED');
    await enableProxy(s.store, s.enclave, { organizationId: other.organizationId });
    expect((await client.post('wallet_kit_config', {})).status).toBe(200);
  });

  it('given a listed origin, when a request arrives, then it is served and the origin is echoed with Vary: Origin', async () => {
    const reply = await s.browser.post('wallet_kit_config', {});
    expect(reply.status).toBe(200);
    expect(reply.headers.get('access-control-allow-origin')).toBe(APP);
    expect(reply.headers.get('vary')).toMatch(/Origin/);
  });

  it('given an origin not listed, a suffix trick, a prefix trick, another scheme or no origin, when a request arrives, then it is a 403 ERR_ORIGIN_NOT_ALLOWED without CORS headers', async () => {
    for (const origin of [
      'https://evil.example',
      'https://app.example.evil.com',
      'https://evilapp.example',
      'http://app.example',
      'https://app.example:8443',
      'null',
      undefined,
    ]) {
      const reply = await s.browser.with({ origin }).post('wallet_kit_config', {});
      expectProxyError(reply, 403, 'ERR_ORIGIN_NOT_ALLOWED');
      expect(reply.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('given a preflight from an allowed origin, when OPTIONS arrives without the config header, then it is a 204 allowing POST and the config header', async () => {
    const reply = await s.browser.with({ configId: undefined }).raw('OPTIONS', '/v1/otp_init_v2', undefined, {
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,x-auth-proxy-config-id,x-captcha-token',
    });
    expect(reply.status).toBe(204);
    expect(reply.headers.get('access-control-allow-origin')).toBe(APP);
    expect(reply.headers.get('access-control-allow-methods')).toBe('POST');
    // @turnkey/core sends X-Captcha-Token when the app passes a captcha token.
    expect(reply.headers.get('access-control-allow-headers')?.split(/,\s*/)).toEqual(
      expect.arrayContaining(['content-type', 'x-auth-proxy-config-id', 'x-captcha-token']),
    );
    expect(reply.headers.get('vary')).toMatch(/Origin/);
  });

  it('given a preflight from an origin no enabled config allows, when OPTIONS arrives, then it is refused without CORS headers', async () => {
    for (const origin of ['https://app.example.evil.com', 'https://evil.example']) {
      const reply = await s.browser
        .with({ configId: undefined, origin })
        .raw('OPTIONS', '/v1/otp_init_v2', undefined, { 'access-control-request-method': 'POST' });
      expectProxyError(reply, 403, 'ERR_ORIGIN_NOT_ALLOWED');
      expect(reply.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('given a body with an unknown field or the wrong type, when it arrives, then it is a 400 ERR_INVALID_REQUEST naming the field', async () => {
    expectProxyError(
      await s.browser.raw('POST', '/v1/otp_init_v2', JSON.stringify({ otpType: 'OTP_TYPE_EMAIL', contact: 'a@example.com', extra: 1 })),
      400,
      'ERR_INVALID_REQUEST',
    );
    expectProxyError(
      await s.browser.raw('POST', '/v1/account', JSON.stringify({ filterType: 'WALLET_NAME', filterValue: 'x' })),
      400,
      'ERR_INVALID_REQUEST',
      'filterType',
    );
    expectProxyError(await s.browser.raw('POST', '/v1/account', '{not json'), 400, 'ERR_MALFORMED_JSON');
  });

  it('given settings, when wallet_kit_config is asked, then it returns the enabled methods, client ids and session and OTP settings', async () => {
    await updateProxySettings(s.store, s.org.organizationId, {
      otpLength: 8,
      otpAlphanumeric: true,
      sessionExpirationSeconds: 1800,
      emailAppName: 'Acme Wallet',
      emailLogoUrl: 'https://app.example/logo.png',
      oauthRedirectUrl: 'https://app.example/oauth',
      methods: { smsOtp: false, wallet: false },
      social: { google: { enabled: true, clientIds: ['google-client'] }, discord: { enabled: false, clientIds: ['discord-client'] } },
    });
    const reply = await s.browser.post('wallet_kit_config', {});
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      organizationId: s.org.organizationId,
      enabledProviders: ['email', 'passkey', 'google'],
      oauthClientIds: { google: 'google-client' },
      oauthRedirectUrl: 'https://app.example/oauth',
      sessionExpirationSeconds: '1800',
      otpLength: '8',
      otpAlphanumeric: true,
      appName: 'Acme Wallet',
      logoUrl: 'https://app.example/logo.png',
      requireVerificationTokenForAccountLookup: false,
    });
    // A body-less POST is the empty request, with or without a JSON content type (Turnkey's
    // getAuthProxyConfig sends `Content-Type: application/json` and no body).
    expect((await s.browser.raw('POST', '/v1/wallet_kit_config')).status).toBe(200);
    const typedEmpty = await s.browser.raw('POST', '/v1/wallet_kit_config', undefined, { 'content-type': 'application/json' });
    expect(typedEmpty).toMatchObject({ status: 200, body: { organizationId: s.org.organizationId } });
    expectProxyError(await s.browser.raw('POST', '/v1/wallet_kit_config', 'null'), 400, 'ERR_INVALID_REQUEST');
  });

  it('given settings stored before a provider joined the provider table (its entry missing), then the proxy serves them with that provider off, and it can be turned on', async () => {
    const config = await createOrganization(s.store, { name: 'older settings' });
    const proxy = await enableProxy(s.store, s.enclave, { organizationId: config.organizationId, origins: [APP] });
    await s.store.db.execute(sql`update proxy_configs set settings = settings #- '{social,discord}' where id = ${proxy.id}`);
    const client = s.browser.with({ configId: proxy.id });
    const before = await client.post('wallet_kit_config', {});
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body.enabledProviders).not.toContain('discord');
    await updateProxySettings(s.store, config.organizationId, { social: { discord: { enabled: true, clientIds: ['discord-client'] } } });
    const after = await client.post('wallet_kit_config', {});
    expect(after.body).toMatchObject({ enabledProviders: expect.arrayContaining(['discord']), oauthClientIds: { discord: 'discord-client' } });
  });

  it('given wallet_kit_client_params, when a client asks with or without a body, then the reply is the empty object (no bot protection here)', async () => {
    expect(await s.browser.raw('POST', '/v1/wallet_kit_client_params', undefined, { 'content-type': 'application/json' })).toMatchObject({
      status: 200,
      body: {},
    });
    expect(await s.browser.post('wallet_kit_client_params', {})).toMatchObject({ status: 200, body: {} });
    expectProxyError(await s.browser.raw('POST', '/v1/wallet_kit_client_params', JSON.stringify({ turnstile: 1 })), 400, 'ERR_INVALID_REQUEST');
  });

  it('given SMS codes disabled, when otp_init_v2 asks for an SMS, then it is a 403 ERR_AUTH_METHOD_DISABLED and nothing is forwarded', async () => {
    await updateProxySettings(s.store, s.org.organizationId, { methods: { smsOtp: false } });
    expectProxyError(await s.browser.post('otp_init_v2', { otpType: 'OTP_TYPE_SMS', contact: '+15551234567' }), 403, 'ERR_AUTH_METHOD_DISABLED', 'otpType');
  });
});

describe.each(storeKinds)('proxy signup and account lookup on %s', (kind) => {
  let s: ProxyTestServer;

  beforeAll(async () => {
    s = await startProxyServer(kind);
  });
  afterAll(async () => s?.dispose());

  it('given an any-origin config, when a request comes from any origin, then it is served with that origin echoed', async () => {
    const reply = await s.browser.with({ origin: 'https://whatever.example' }).post('wallet_kit_config', {});
    expect(reply.status).toBe(200);
    expect(reply.headers.get('access-control-allow-origin')).toBe('https://whatever.example');
  });

  it('given a new verified email, when signup_v2 runs with an API key and a wallet, then a sub-organization exists whose key stamps activities and the wallet has the address', async () => {
    const key = generateP256KeyPair();
    const reply = await s.browser.post('signup_v2', {
      userEmail: 'Alice@Example.com',
      verificationToken: verificationTokenFor(s, 'alice@example.com'),
      apiKeys: [{ apiKeyName: 'device', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }],
      wallet: {
        walletName: 'main',
        accounts: [{ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }],
      },
    });
    expect(reply.status).toBe(200);
    const { organizationId, userId, wallet } = reply.body;
    expect(organizationId).toEqual(expect.any(String));
    expect(userId).toEqual(expect.any(String));
    expect(wallet.addresses[0]).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const created = await submitOver(s.url, key, organizationId, 'create_wallet', { walletName: 'second', accounts: [] });
    expect(created.status).toBe(200);
    expect(created.body.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');

    for (const [filterType, filterValue] of [
      ['EMAIL', 'alice@example.COM'],
      ['PUBLIC_KEY', key.publicKey],
      ['PUBLIC_KEY', key.publicKeyUncompressed],
    ] as const) {
      const found = await s.browser.post('account', { filterType, filterValue });
      expect(found).toMatchObject({ status: 200, body: { organizationId } });
    }
  });

  it('given no such account, when account is looked up, then the reply is the empty object (spec A: "an empty response")', async () => {
    for (const [filterType, filterValue] of [
      ['EMAIL', 'nobody@example.com'],
      ['PHONE_NUMBER', '+15550000000'],
      ['CREDENTIAL_ID', 'AAAA'],
      ['PUBLIC_KEY', generateP256KeyPair().publicKey],
    ] as const) {
      const reply = await s.browser.post('account', { filterType, filterValue });
      expect(reply).toEqual(expect.objectContaining({ status: 200, body: {} }));
    }
  });

  it('given an email already signed up, when signup_v2 runs again with a verification token for it, then the activity refuses it with 409 ERR_ALREADY_EXISTS and no second sub-organization exists', async () => {
    const reply = await s.browser.post('signup_v2', { userEmail: 'alice@example.com', verificationToken: verificationTokenFor(s, 'alice@example.com') });
    expectProxyError(reply, 409, 'ERR_ALREADY_EXISTS');
  });

  it("given a signup that gives a verified owner's email without a verification token, when it runs, then it is a separate account holding the address as unverified profile data, and the owner's lookups still find only their own", async () => {
    const key = generateP256KeyPair();
    const squatter = await s.browser.post('signup_v2', {
      userEmail: 'alice@example.com',
      apiKeys: [{ apiKeyName: 'k', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }],
    });
    expect(squatter.status).toBe(200);
    const owner = await s.browser.post('account', { filterType: 'EMAIL', filterValue: 'alice@example.com' });
    expect(owner.body.organizationId).not.toBe(squatter.body.organizationId);
    expect((await s.browser.post('account', { filterType: 'PUBLIC_KEY', filterValue: key.publicKey })).body.organizationId).toBe(squatter.body.organizationId);
  });

  it('given a signup with neither contact nor credential, when it arrives, then it is a 400 before anything is forwarded', async () => {
    expectProxyError(await s.browser.post('signup_v2', { userName: 'ghost' }), 400, 'ERR_INVALID_REQUEST');
  });

  it('given lookups that require a verification token, when account is asked without one, with a wrong contact or with a valid one, then 401, 401, and the answer', async () => {
    await updateProxySettings(s.store, s.org.organizationId, { requireVerificationTokenForAccountLookup: true });
    const token = (contact: string, organizationId = s.org.organizationId) =>
      s.enclave.signJwt({
        id: randomUUID(),
        verification_type: 'OTP_TYPE_EMAIL',
        contact,
        organization_id: organizationId,
        exp: Math.floor(Date.now() / 1000) + 600,
      });
    expectProxyError(await s.browser.post('account', { filterType: 'EMAIL', filterValue: 'alice@example.com' }), 401, 'ERR_VERIFICATION_TOKEN_REQUIRED');
    expectProxyError(
      await s.browser.post('account', { filterType: 'EMAIL', filterValue: 'alice@example.com', verificationToken: token('bob@example.com') }),
      401,
      'ERR_VERIFICATION_TOKEN_INVALID',
    );
    expectProxyError(
      await s.browser.post('account', { filterType: 'EMAIL', filterValue: 'alice@example.com', verificationToken: token('alice@example.com', randomUUID()) }),
      401,
      'ERR_VERIFICATION_TOKEN_INVALID',
    );
    const forged = `${token('alice@example.com').slice(0, -4)}AAAA`;
    expectProxyError(
      await s.browser.post('account', { filterType: 'EMAIL', filterValue: 'alice@example.com', verificationToken: forged }),
      401,
      'ERR_VERIFICATION_TOKEN_INVALID',
    );
    const ok = await s.browser.post('account', { filterType: 'EMAIL', filterValue: 'ALICE@example.com', verificationToken: token('alice@example.com') });
    expect(ok).toMatchObject({ status: 200, body: { organizationId: expect.any(String) } });
    await updateProxySettings(s.store, s.org.organizationId, { requireVerificationTokenForAccountLookup: false });
  });

  it('given a verification token for a contact without an account, when otp_login_v2 runs, then it is a 404 ERR_USER_NOT_FOUND', async () => {
    const key = generateP256KeyPair();
    const verificationToken = s.enclave.signJwt({
      id: randomUUID(),
      verification_type: 'OTP_TYPE_EMAIL',
      contact: 'new@example.com',
      organization_id: s.org.organizationId,
      public_key: key.publicKey,
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    const clientSignature = { publicKey: key.publicKey, scheme: 'CLIENT_SIGNATURE_SCHEME_API_P256' as const, message: '{}', signature: '00'.repeat(64) };
    expectProxyError(
      await s.browser.post('otp_login_v2', { verificationToken, publicKey: key.publicKey, clientSignature }),
      404,
      'ERR_USER_NOT_FOUND',
      'verificationToken',
    );
    expectProxyError(
      await s.browser.post('otp_login_v2', { verificationToken: 'not-a-jwt', publicKey: key.publicKey, clientSignature }),
      401,
      'ERR_VERIFICATION_TOKEN_INVALID',
    );
  });

  it('given no social login enabled, when oauth_login arrives, then it is a 403 ERR_AUTH_METHOD_DISABLED', async () => {
    const key = generateP256KeyPair();
    expectProxyError(await s.browser.post('oauth_login', { oidcToken: 'a.b.c', publicKey: key.publicKey }), 403, 'ERR_AUTH_METHOD_DISABLED');
  });
});
