/**
 * Stampers against the real activity API: a non-extractable WebCrypto session key and an
 * EIP-1193 wallet (viem account) registered as API keys of the root user stamp accepted
 * activities; OTP encryption refuses a target bundle not signed by the pinned enclave key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, generateP256KeyPair, hexToBytes, parseApiKeyStamp, signBundle, utf8ToBytes, verifyP256Der } from '@walletkit/crypto';
import type { ProxyTestServer } from '../../server/test/support/proxy';
import {
  createActivityClient,
  createSessionKeyStamper,
  createWalletStamper,
  discoverWallets,
  encryptOtpCode,
  generateSessionKey,
  isWalletKitError,
  rawSignatureToDer,
  signWithSessionKey,
  type Eip1193Provider,
  type Stamper,
} from '../src/index';
import { startServer } from './support/kit';

/** An EIP-1193 provider backed by a viem local account, as an injected wallet would be. */
function viemProvider(privateKey: `0x${string}`): Eip1193Provider {
  const account = privateKeyToAccount(privateKey);
  return {
    async request({ method, params }) {
      if (method === 'eth_requestAccounts') return [account.address];
      if (method === 'personal_sign') return account.signMessage({ message: { raw: (params as [`0x${string}`])[0] } });
      throw new Error(`unsupported ${method}`);
    },
  };
}

describe('stampers against the real server', () => {
  let server: ProxyTestServer;
  const activityFor = (stamper: Stamper) =>
    createActivityClient({ apiUrl: server.url, fetch: (u, i) => fetch(u, i), auth: () => ({ stamper, organizationId: server.org.organizationId }) });

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.dispose());

  it('given a WebCrypto session key, when generated, then its private half cannot be exported and its signature converts to a DER that verifies', async () => {
    const key = await generateSessionKey();
    expect(key.keyPair.privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('pkcs8', key.keyPair.privateKey)).rejects.toThrow();
    expect(key.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    for (let i = 0; i < 20; i += 1) {
      const message = utf8ToBytes(`body ${i}`);
      const der = rawSignatureToDer(await signWithSessionKey(key, message));
      expect(verifyP256Der(key.publicKey, message, bytesToHex(der))).toBe(true);
    }
  });

  it('given a session key registered as an API key of the root user, when it stamps create_wallet, then the activity completes', async () => {
    const key = await generateSessionKey();
    await server.client.run('create_api_keys', {
      userId: server.org.userId,
      apiKeys: [{ apiKeyName: 'webcrypto', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }],
    });
    const stamper = createSessionKeyStamper(key);
    const stamp = parseApiKeyStamp((await stamper.stamp('{}')).value);
    expect(stamp).toMatchObject({ publicKey: key.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256' });
    const { walletId } = await activityFor(stamper).submit('create_wallet', { walletName: 'by webcrypto', accounts: [] });
    expect(walletId).toBeTruthy();
  });

  it('given an unregistered session key, when it stamps, then the server answers ERR_STAMP_KEY_UNKNOWN as a typed error', async () => {
    const error = await activityFor(createSessionKeyStamper(await generateSessionKey()))
      .query('whoami', {})
      .catch((e: unknown) => e);
    expect(isWalletKitError(error, 'ERR_STAMP_KEY_UNKNOWN')).toBe(true);
    expect((error as { status: number }).status).toBe(401);
  });

  it('given an EIP-1193 wallet whose key is registered for the root user, when it stamps an activity, then the recovered key and EIP-191 scheme are accepted', async () => {
    const privateKey = generatePrivateKey();
    const compressed = bytesToHex(secp256k1.getPublicKey(hexToBytes(privateKey.slice(2)), true));
    await server.client.run('create_api_keys', {
      userId: server.org.userId,
      apiKeys: [{ apiKeyName: 'wallet', publicKey: compressed, curveType: 'API_KEY_CURVE_SECP256K1' }],
    });
    const stamper = createWalletStamper({ provider: viemProvider(privateKey) });
    expect(await stamper.publicKey()).toBe(compressed);
    const { walletId } = await activityFor(stamper).submit('create_wallet', { walletName: 'by wallet', accounts: [] });
    expect(walletId).toBeTruthy();
    const whoami = await activityFor(stamper).query('whoami', {});
    expect(whoami.userId).toBe(server.org.userId);
  });

  it('given an announcing wallet, when discoverWallets runs, then it is found once', async () => {
    const target = new EventTarget();
    const provider = viemProvider(generatePrivateKey());
    const info = { uuid: 'u-1', name: 'Test Wallet', icon: 'data:,', rdns: 'example.test' };
    target.addEventListener('eip6963:requestProvider', () => {
      for (let i = 0; i < 2; i += 1) target.dispatchEvent(Object.assign(new Event('eip6963:announceProvider'), { detail: { info, provider } }));
    });
    const wallets = await discoverWallets({ target, timeoutMs: 10 });
    expect(wallets.map((w) => w.info.name)).toEqual(['Test Wallet']);
  });

  it('given an OTP target bundle signed by another key, when the code is encrypted, then it is refused with ERR_INVALID_SIGNATURE; the enclave-signed one is accepted', async () => {
    const key = await generateSessionKey();
    const data = { targetPublic: generateP256KeyPair().publicKeyUncompressed, organizationId: 'o', otpId: 'x' };
    const forged = JSON.stringify(signBundle(data, generateP256KeyPair().privateKey));
    const error = await encryptOtpCode({ bundle: forged, code: '123456', publicKey: key.publicKey, enclavePublicKey: server.enclave.signingPublicKey }).catch(
      (e: unknown) => e,
    );
    expect(isWalletKitError(error, 'ERR_INVALID_SIGNATURE')).toBe(true);

    const { otpEncryptionTargetBundle } = await server.browser
      .post('otp_init_v2', { otpType: 'OTP_TYPE_EMAIL', contact: 'bundle@example.com' })
      .then((r) => r.body);
    const sealed = JSON.parse(
      await encryptOtpCode({ bundle: otpEncryptionTargetBundle, code: '123456', publicKey: key.publicKey, enclavePublicKey: server.enclave.signingPublicKey }),
    );
    expect(sealed).toEqual({ encappedPublic: expect.stringMatching(/^04[0-9a-f]{128}$/), ciphertext: expect.stringMatching(/^[0-9a-f]+$/) });
  });

  it('given an unreachable server, when a request is sent, then it is ERR_NETWORK', async () => {
    const offline = createActivityClient({
      apiUrl: 'http://127.0.0.1:9',
      fetch: (u, i) => fetch(u, i),
      auth: async () => ({ stamper: { stamp: async () => ({ header: 'X-Stamp', value: 'x' }) }, organizationId: 'o' }),
    });
    const error = await offline.query('whoami', {}).catch((e: unknown) => e);
    expect(isWalletKitError(error, 'ERR_NETWORK')).toBe(true);
  });
});
