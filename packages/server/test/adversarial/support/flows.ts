/**
 * The honest user's flows through the proxy, as the kit runs them (codes read from the dev
 * outbox, which stands in for the user's mailbox or phone): the baseline every attack in the
 * adversarial suite is measured against.
 */
import { expect } from 'vitest';
import { generateP256KeyPair, type EcKeyPair } from '@walletkit/crypto';
import type { ProxyReply, ProxyTestServer } from '../../support/proxy';
import { outboxCode } from '../../support/proxy';
import { encryptOtpAttempt, loginSignature, otpTargetOf } from '../../support/otp';

/** One Ethereum account, the kit's default wallet. */
export const ETH_WALLET = {
  walletName: 'main',
  accounts: [
    {
      curve: 'CURVE_SECP256K1' as const,
      pathFormat: 'PATH_FORMAT_BIP32' as const,
      path: "m/44'/60'/0'/0/0",
      addressFormat: 'ADDRESS_FORMAT_ETHEREUM' as const,
    },
  ],
};

/** A code sent to `contact` (otp_init_v2), its id, its checked target and the code the user receives. */
export async function requestCode(s: ProxyTestServer, contact: string): Promise<{ otpId: string; targetPublic: string; code: string }> {
  const otpType = contact.includes('@') ? 'OTP_TYPE_EMAIL' : 'OTP_TYPE_SMS';
  const init = await s.browser.post('otp_init_v2', { otpType, contact });
  expect(init.status, JSON.stringify(init.body)).toBe(200);
  const target = otpTargetOf(init.body.otpEncryptionTargetBundle, s.enclave.signingPublicKey);
  return { otpId: init.body.otpId, targetPublic: target.targetPublic, code: await outboxCode(s.url, contact) };
}

/** otp_verify_v2 of `code` for `otpId`, bound to `key`. */
export async function verifyCode(
  s: ProxyTestServer,
  otp: { otpId: string; targetPublic: string },
  code: string,
  key: { publicKey: string },
): Promise<ProxyReply> {
  return s.browser.post('otp_verify_v2', { otpId: otp.otpId, encryptedOtpBundle: await encryptOtpAttempt(otp.targetPublic, code, key.publicKey) });
}

/** A verification token for `contact` bound to `key`, through the real code round trip. */
export async function verifiedToken(s: ProxyTestServer, contact: string, key: { publicKey: string }): Promise<string> {
  const otp = await requestCode(s, contact);
  const reply = await verifyCode(s, otp, otp.code, key);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.verificationToken;
}

/** Sign up by code (verified contact) with a wallet; returns the account and its device key. */
export async function signupByCode(s: ProxyTestServer, contact: string): Promise<{ organizationId: string; userId: string; key: EcKeyPair; address: string }> {
  const key = generateP256KeyPair();
  const token = await verifiedToken(s, contact, key);
  const field = contact.includes('@') ? { userEmail: contact } : { userPhoneNumber: contact };
  const reply = await s.browser.post('signup_v2', {
    ...field,
    verificationToken: token,
    clientSignature: loginSignature(key.privateKey, token, 'USAGE_TYPE_SIGNUP'),
    apiKeys: [{ apiKeyName: 'device', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }],
    wallet: ETH_WALLET,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return { organizationId: reply.body.organizationId, userId: reply.body.userId, key, address: reply.body.wallet.addresses[0] };
}

/** Log in by code: a session for a fresh key, as otp_login_v2 answers it. */
export async function loginByCode(s: ProxyTestServer, contact: string): Promise<{ reply: ProxyReply; key: EcKeyPair }> {
  const key = generateP256KeyPair();
  const token = await verifiedToken(s, contact, key);
  const reply = await s.browser.post('otp_login_v2', {
    verificationToken: token,
    publicKey: key.publicKey,
    clientSignature: loginSignature(key.privateKey, token),
  });
  return { reply, key };
}

/** A fresh address nobody used in this run. */
export const freshEmail = (label: string) => `${label}-${Math.random().toString(36).slice(2, 10)}@example.com`;
/** A fresh E.164 number. */
export const freshPhone = () => `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
