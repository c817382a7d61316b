/**
 * The wallet method toggle through real HTTP: with `methods.wallet` off, an external-wallet
 * signup (a secp256k1 API key) and a PUBLIC_KEY account lookup of a secp256k1 key are refused
 * with ERR_AUTH_METHOD_DISABLED, while P-256 keys are untouched; turned back on, both work.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateP256KeyPair, generateSecp256k1KeyPair, uncompressPublicKey } from '@walletkit/crypto';
import { updateProxySettings } from '../src/admin/proxy';
import { expectProxyError, startProxyServer, type ProxyTestServer } from './support/proxy';
import { storeKinds } from './support/stores';

describe.each(storeKinds)('proxy wallet method on %s', (kind) => {
  let s: ProxyTestServer;
  const setWallet = (wallet: boolean) => updateProxySettings(s.store, s.org.organizationId, { methods: { wallet } });
  const walletSignup = (publicKey: string) =>
    s.browser.post('signup_v2', { userName: 'wallet user', apiKeys: [{ apiKeyName: 'external wallet', publicKey, curveType: 'API_KEY_CURVE_SECP256K1' }] });
  const lookup = (filterValue: string) => s.browser.post('account', { filterType: 'PUBLIC_KEY', filterValue });

  beforeAll(async () => {
    s = await startProxyServer(kind);
  });
  afterAll(async () => {
    await s?.dispose();
  });
  beforeEach(() => setWallet(true));

  it('given the wallet method on, when a secp256k1 key signs up, then the lookup finds its sub-organization by either key encoding', async () => {
    const key = generateSecp256k1KeyPair();
    const signup = await walletSignup(key.publicKey);
    expect(signup.status).toBe(200);
    expect((await lookup(key.publicKey)).body).toEqual({ organizationId: signup.body.organizationId });
    expect((await lookup(uncompressPublicKey('secp256k1', key.publicKey))).body).toEqual({ organizationId: signup.body.organizationId });
  });

  it('given the wallet method off, when a secp256k1 key signs up, then it is refused with 403 and no account holds the key', async () => {
    const key = generateSecp256k1KeyPair();
    await setWallet(false);
    expectProxyError(await walletSignup(key.publicKey), 403, 'ERR_AUTH_METHOD_DISABLED', 'apiKeys');
    await setWallet(true);
    expect((await lookup(key.publicKey)).body).toEqual({});
  });

  it('given the wallet method off, when a secp256k1 key is looked up (registered, or uncompressed), then it is refused with 403', async () => {
    const registered = generateSecp256k1KeyPair();
    expect((await walletSignup(registered.publicKey)).status).toBe(200);
    await setWallet(false);
    expectProxyError(await lookup(registered.publicKey), 403, 'ERR_AUTH_METHOD_DISABLED', 'filterValue');
    expectProxyError(await lookup(uncompressPublicKey('secp256k1', generateSecp256k1KeyPair().publicKey)), 403, 'ERR_AUTH_METHOD_DISABLED', 'filterValue');
    await setWallet(true);
    expect((await lookup(registered.publicKey)).status).toBe(200);
  });

  it('given the wallet method off, when a P-256 API key signs up and is looked up, then both still work', async () => {
    await setWallet(false);
    const key = generateP256KeyPair();
    const signup = await s.browser.post('signup_v2', {
      userName: 'api user',
      apiKeys: [{ apiKeyName: 'device', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }],
    });
    expect(signup.status).toBe(200);
    expect((await lookup(key.publicKey)).body).toEqual({ organizationId: signup.body.organizationId });
    expect((await lookup(uncompressPublicKey('p256', key.publicKey))).body).toEqual({ organizationId: signup.body.organizationId });
    expect((await s.browser.post('wallet_kit_config', {})).body.enabledProviders).not.toContain('wallet');
  });
});
