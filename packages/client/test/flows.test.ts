/**
 * The kit's flows against the real server over HTTP: an email OTP signup and login ending in
 * a session whose key stamps accepted requests, then the wallet actions, each proven by an
 * independent implementation (viem).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mnemonicToAccount } from 'viem/accounts';
import { verifyMessage, verifyTypedData } from 'viem';
import { updateProxySettings } from '../../server/src/admin/proxy';
import type { ProxyTestServer } from '../../server/test/support/proxy';
import { isWalletKitError, type WalletKitClient } from '../src/index';
import { freshEmail, kitFor, outboxCode, startServer } from './support/kit';
import { ETHER_MAIL_TYPED_DATA } from '../../crypto/test/fixtures';

const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const ABANDON_ETH_0 = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';

const TYPED_DATA = ETHER_MAIL_TYPED_DATA;

describe('client flows against the real server', () => {
  let server: ProxyTestServer;
  let kit: WalletKitClient;
  let address: `0x${string}`;

  beforeAll(async () => {
    server = await startServer();
    kit = kitFor(server);
  });
  afterAll(async () => {
    kit?.session.close();
    await server?.dispose();
  });

  it('given a new email, when the user completes the OTP read from the outbox, then an account with an Ethereum wallet exists and the session key stamps an accepted request', async () => {
    const email = freshEmail('alice');
    const { otpId } = await kit.auth.startEmailOtp(email);
    const session = await kit.auth.completeOtp({ otpId, code: await outboxCode(server.url, email) });

    expect(session.organizationId).not.toBe(server.org.organizationId);
    const whoami = await kit.activity.query('whoami', {});
    expect(whoami).toMatchObject({ organizationId: session.organizationId, userId: session.userId });
    const accounts = await kit.wallet.listAccounts();
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' });
    address = accounts[0]!.address as `0x${string}`;
  });

  it('given the same email later, when the OTP completes again, then it logs in to the same account with a new key', async () => {
    const before = kit.session.current()!;
    const email = (await kit.activity.query('get_user', { userId: before.userId })).user.userEmail!;
    const again = kitFor(server);
    const { otpId } = await again.auth.startEmailOtp(email);
    const session = await again.auth.completeOtp({ otpId, code: await outboxCode(server.url, email) });
    expect(session).toMatchObject({ organizationId: before.organizationId, userId: before.userId });
    expect(session.publicKey).not.toBe(before.publicKey);
    expect((await again.wallet.listWallets()).map((w) => w.walletName)).toEqual(['Default wallet']);
    again.session.close();
  });

  it('given a new phone number, when the user completes the SMS OTP read from the outbox, then an account exists for it and a second SMS login reaches the same account', async () => {
    const phone = `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const first = kitFor(server);
    const pending = await first.auth.startSmsOtp(phone);
    expect(pending).toMatchObject({ otpType: 'OTP_TYPE_SMS', contact: phone });
    const session = await first.auth.completeOtp({ otpId: pending.otpId, code: await outboxCode(server.url, phone) });
    expect((await first.activity.query('get_user', { userId: session.userId })).user.userPhoneNumber).toBe(phone);
    first.session.close();

    const second = kitFor(server);
    const { otpId } = await second.auth.startSmsOtp(phone);
    const again = await second.auth.completeOtp({ otpId, code: await outboxCode(server.url, phone) });
    expect(again).toMatchObject({ organizationId: session.organizationId, userId: session.userId });
    expect((await second.activity.query('whoami', {})).organizationId).toBe(session.organizationId);
    second.session.close();
  });

  it('given a wrong code, when the OTP completes, then it fails with ERR_OTP_INVALID and no session is stored', async () => {
    const fresh = kitFor(server);
    const email = freshEmail('mallory');
    const { otpId } = await fresh.auth.startEmailOtp(email);
    const code = await outboxCode(server.url, email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(code.length, '0');
    const error = await fresh.auth.completeOtp({ otpId, code: wrong }).catch((e: unknown) => e);
    expect(isWalletKitError(error, 'ERR_OTP_INVALID')).toBe(true);
    expect(await fresh.session.restore()).toBeUndefined();
    fresh.session.close();
  });

  it('given the account, when it signs a message, then viem verifies the signature against the address', async () => {
    const signature = (await kit.wallet.signMessage({ address, message: 'Sign in to walletkit' })) as `0x${string}`;
    expect(signature).toMatch(/^0x[0-9a-f]{128}(1b|1c)$/);
    expect(await verifyMessage({ address, message: 'Sign in to walletkit', signature })).toBe(true);
    expect(await verifyMessage({ address, message: 'something else', signature })).toBe(false);
  });

  it('given EIP-712 typed data, when signed, then viem verifyTypedData accepts it', async () => {
    const signature = (await kit.wallet.signTypedData({ address, typedData: TYPED_DATA as never })) as `0x${string}`;
    expect(await verifyTypedData({ address, signature, ...TYPED_DATA })).toBe(true);
  });

  it('given a new wallet, when it is exported, then the mnemonic decrypted in the client reproduces its address', async () => {
    const { walletId, addresses } = await kit.wallet.createWallet({ walletName: 'Exportable' });
    const mnemonic = await kit.wallet.exportWallet({ walletId });
    expect(mnemonic.split(' ')).toHaveLength(12);
    expect(mnemonicToAccount(mnemonic).address).toBe(addresses[0]);
  });

  it('given an account, when its key is exported, then the private key derives the address', async () => {
    const { privateKeyToAccount } = await import('viem/accounts');
    const key = await kit.wallet.exportAccount({ address });
    expect(privateKeyToAccount(`0x${key.replace(/^0x/, '')}`).address).toBe(address);
  });

  it("given the 'abandon … about' mnemonic, when imported, then m/44'/60'/0'/0/0 is the known address", async () => {
    const { addresses } = await kit.wallet.importWallet({ mnemonic: ABANDON, walletName: 'Imported' });
    expect(addresses).toEqual([ABANDON_ETH_0]);
    const { addresses: more } = await kit.wallet.createAccounts({
      walletId: (await kit.wallet.listWallets()).find((w) => w.walletName === 'Imported')!.walletId,
      accounts: [{ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/1", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }],
    });
    expect(more).toEqual([mnemonicToAccount(ABANDON, { addressIndex: 1 }).address]);
  });

  it('given a logout, when an activity is attempted, then it is ERR_NO_SESSION and the stored key is gone', async () => {
    await kit.session.logout();
    const error = await kit.wallet.listWallets().catch((e: unknown) => e);
    expect(isWalletKitError(error, 'ERR_NO_SESSION')).toBe(true);
    expect(await kit.session.restore()).toBeUndefined();
  });

  it('given a configured session lifetime, when an account signs up and later refreshes, then every session lasts that long', async () => {
    await updateProxySettings(server.store, server.org.organizationId, { sessionExpirationSeconds: 120 });
    try {
      const short = kitFor(server);
      const email = freshEmail('lifetime');
      const { otpId } = await short.auth.startEmailOtp(email);
      // A signup ends with stamp_login stamped by the signup key (not the proxy's otp_login).
      const signedUp = await short.auth.completeOtp({ otpId, code: await outboxCode(server.url, email) });
      expect(Math.round((signedUp.expiresAt - Date.now()) / 1000)).toBeLessThanOrEqual(120);
      expect(Math.round((signedUp.expiresAt - Date.now()) / 1000)).toBeGreaterThan(100);
      const refreshed = (await short.session.refresh())!;
      expect(refreshed.publicKey).not.toBe(signedUp.publicKey);
      expect(Math.round((refreshed.expiresAt - Date.now()) / 1000)).toBeGreaterThan(100);
      expect(Math.round((refreshed.expiresAt - Date.now()) / 1000)).toBeLessThanOrEqual(120);
      short.session.close();
    } finally {
      await updateProxySettings(server.store, server.org.organizationId, { sessionExpirationSeconds: 900 });
    }
  });
});
