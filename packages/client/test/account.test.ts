/**
 * Account management against the real server (proxy, dev outbox, local Google and Discord):
 * the profile from get_user and the wallets, linking a phone by SMS code and changing the email
 * by a code to the new address (tokens bound to the session's key), linking Google (id_token)
 * and Discord (code exchange) through the popup without logging in again, unlinking, revoking
 * another session, and the last way to sign in refused by the client before anything is sent.
 */
import { describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '@walletkit/crypto';
import { canRemove, isWalletKitError, type UserProfile, type WalletKitClient } from '../src/index';
import { freshEmail, outboxCode } from './support/kit';
import { DISCORD_CLIENT_ID, GOOGLE_CLIENT_ID, popupWindow, REDIRECT_URI, socialSuite } from './support/social';

const freshPhone = () => `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

describe('account management against the real server', () => {
  const suite = socialSuite();
  const url = () => suite.social.server.url;

  /** A user signed up by email code: the email is their one way to sign in. */
  async function emailUser(overrides: Parameters<typeof suite.kit>[0] = {}): Promise<{ kit: WalletKitClient; email: string }> {
    const kit = suite.kit(overrides);
    const email = freshEmail('account');
    const { otpId } = await kit.auth.startEmailOtp(email);
    await kit.auth.completeOtp({ otpId, code: await outboxCode(url(), email) });
    return { kit, email };
  }

  it('given a user signed up by email, when the profile is read, then it holds the verified email, this session marked current, and the signup wallet with its address', async () => {
    const { kit, email } = await emailUser();
    const profile = await kit.account.profile();
    const session = kit.session.current()!;
    expect(profile).toMatchObject({
      userId: session.userId,
      organizationId: session.organizationId,
      email: { value: email, verified: true },
      phone: undefined,
    });
    expect(profile.oauthProviders).toEqual([]);
    expect(profile.passkeys).toEqual([]);
    expect(profile.sessions.filter((s) => s.current)).toHaveLength(1);
    expect(profile.sessions[0]!.current).toBe(true);
    // The record's expiry counts from its creation in milliseconds; the JWT's in seconds.
    expect(Math.abs(profile.sessions[0]!.expiresAt! - session.expiresAt)).toBeLessThan(1000);
    expect(profile.wallets).toHaveLength(1);
    expect(profile.wallets[0]!.accounts.map((a) => a.address)).toEqual((await kit.wallet.listAccounts()).map((a) => a.address));
  });

  it('given the email as the only way in, when the user unlinks it, then the client refuses with ERR_LAST_SIGN_IN_METHOD before submitting anything and the email stays', async () => {
    const submitted: string[] = [];
    const { kit, email } = await emailUser({
      fetch: (input, init) => {
        if (String(input).includes('/submit/')) submitted.push(new URL(String(input)).pathname);
        return fetch(input, init);
      },
    });
    submitted.length = 0;
    await expect(kit.account.unlinkContact('email')).rejects.toMatchObject({ code: 'ERR_LAST_SIGN_IN_METHOD' });
    expect(submitted).toEqual([]);
    expect((await kit.account.profile()).email).toEqual({ value: email, verified: true });
  });

  it('given a signed-in user, when they link a phone by the SMS code, then it is verified in the profile, the same session stays, and a new SMS login reaches this account; unlinking it then goes through', async () => {
    const { kit } = await emailUser();
    const before = kit.session.current()!;
    const phone = freshPhone();
    const pending = await kit.account.startContactVerification({ kind: 'phone', contact: phone });
    await kit.account.verifyContact({ otpId: pending.otpId, code: await outboxCode(url(), phone) });
    expect((await kit.account.profile()).phone).toEqual({ value: phone, verified: true });
    expect(kit.session.current()).toEqual(before);

    const other = suite.kit();
    const { otpId } = await other.auth.startSmsOtp(phone);
    const session = await other.auth.completeOtp({ otpId, code: await outboxCode(url(), phone) });
    expect(session).toMatchObject({ organizationId: before.organizationId, userId: before.userId });

    await kit.account.unlinkContact('phone');
    expect((await kit.account.profile()).phone).toBeUndefined();
  });

  it('given a signed-in user, when they change the email with a code sent to the new address, then the new one is verified and the old one no longer logs in here', async () => {
    const { kit, email } = await emailUser();
    const next = freshEmail('changed');
    const pending = await kit.account.startContactVerification({ kind: 'email', contact: next });
    await expect(kit.account.verifyContact({ otpId: pending.otpId, code: '000000' })).rejects.toMatchObject({ code: 'ERR_OTP_INVALID' });
    // A wrong code leaves the pending verification usable with a new code request.
    const again = await kit.account.startContactVerification({ kind: 'email', contact: next });
    await kit.account.verifyContact({ otpId: again.otpId, code: await outboxCode(url(), next) });
    expect((await kit.account.profile()).email).toEqual({ value: next, verified: true });

    const old = suite.kit();
    const { otpId } = await old.auth.startEmailOtp(email);
    const elsewhere = await old.auth.completeOtp({ otpId, code: await outboxCode(url(), email) });
    expect(elsewhere.organizationId).not.toBe(kit.session.current()!.organizationId);
  });

  it('given a signed-in user, when they link Google through the popup, then the id token is bound to the session key, the provider is listed, and a Google login reaches this account; unlinking it then goes through', async () => {
    const { kit } = await emailUser();
    const session = kit.session.current()!;
    const { win, popup, post } = popupWindow();
    const link = kit.account.linkOAuth({ provider: 'google', clientId: GOOGLE_CLIENT_ID, redirectUri: REDIRECT_URI, window: win });
    expect(win.open).toHaveBeenCalledWith('about:blank', expect.any(String), expect.any(String));
    await vi.waitFor(() => expect(popup.location.href).toContain('nonce='));
    const target = new URL(popup.location.href);
    expect(target.searchParams.get('nonce')).toBe(sha256Hex(session.publicKey));
    const sub = `google-${crypto.randomUUID()}`;
    post({
      type: 'walletkit:oauth',
      state: target.searchParams.get('state'),
      idToken: await suite.social.google.login({ sub, nonce: target.searchParams.get('nonce')!, email: freshEmail('g') }),
    });
    const { providerId } = await link;
    expect(kit.session.current()).toEqual(session);
    const profile = await kit.account.profile();
    expect(profile.oauthProviders).toEqual([expect.objectContaining({ providerId, providerName: 'google', subject: sub })]);

    // Log in with Google elsewhere: the same account.
    const other = suite.kit();
    const popup2 = popupWindow();
    const login = other.auth.logInWithOAuth({ provider: 'google', clientId: GOOGLE_CLIENT_ID, redirectUri: REDIRECT_URI, window: popup2.win });
    await vi.waitFor(() => expect(popup2.popup.location.href).toContain('nonce='));
    const url2 = new URL(popup2.popup.location.href);
    popup2.post({
      type: 'walletkit:oauth',
      state: url2.searchParams.get('state'),
      idToken: await suite.social.google.login({ sub, nonce: url2.searchParams.get('nonce')! }),
    });
    expect((await login).organizationId).toBe(session.organizationId);

    await kit.account.unlinkOAuth(providerId);
    expect((await kit.account.profile()).oauthProviders).toEqual([]);
  });

  it('given a signed-in user, when they link Discord (code + PKCE, exchanged by the server), then it is listed; with the email gone it is the last way in and cannot be unlinked', async () => {
    const { kit } = await emailUser();
    const { win, popup, post } = popupWindow();
    const link = kit.account.linkOAuth({ provider: 'discord', clientId: DISCORD_CLIENT_ID, redirectUri: REDIRECT_URI, window: win });
    await vi.waitFor(() => expect(popup.location.href).toContain('code_challenge='));
    const target = new URL(popup.location.href);
    const id = String(Math.floor(Math.random() * 1e17));
    const code = suite.social.discord.authorize({
      user: { id, username: `discord-${id.slice(0, 6)}`, email: freshEmail('d') },
      redirectUri: target.searchParams.get('redirect_uri')!,
      codeChallenge: target.searchParams.get('code_challenge')!,
    });
    post({ type: 'walletkit:oauth', state: target.searchParams.get('state'), code });
    const { providerId } = await link;
    expect((await kit.account.profile()).oauthProviders.map((p) => p.providerName)).toEqual(['discord']);

    await kit.account.unlinkContact('email');
    expect((await kit.account.profile()).email).toBeUndefined();
    const refused = await kit.account.unlinkOAuth(providerId).catch((e: unknown) => e);
    expect(isWalletKitError(refused, 'ERR_LAST_SIGN_IN_METHOD')).toBe(true);
    expect((await kit.account.profile()).oauthProviders).toHaveLength(1);
  });

  it('given a blocked popup, when the user links a provider, then it rejects with ERR_POPUP_BLOCKED and the page is not sent away', async () => {
    const { kit } = await emailUser();
    const { win } = popupWindow();
    win.open = vi.fn(() => null);
    await expect(kit.account.linkOAuth({ provider: 'google', clientId: GOOGLE_CLIENT_ID, redirectUri: REDIRECT_URI, window: win })).rejects.toMatchObject({
      code: 'ERR_POPUP_BLOCKED',
    });
    expect(win.location.assign).not.toHaveBeenCalled();
  });

  it('given two sessions of one account, when one revokes the other, then the other is listed no more and its key is refused', async () => {
    const { kit, email } = await emailUser();
    const second = suite.kit();
    const { otpId } = await second.auth.startEmailOtp(email);
    await second.auth.completeOtp({ otpId, code: await outboxCode(url(), email) });
    const sessions = (await kit.account.profile()).sessions;
    expect(sessions).toHaveLength(2);
    const other = sessions.find((s) => !s.current)!;
    await kit.account.revokeSession(other.apiKeyId);
    expect((await kit.account.profile()).sessions.map((s) => s.apiKeyId)).not.toContain(other.apiKeyId);
    await expect(second.activity.query('whoami', {})).rejects.toMatchObject({ code: 'ERR_STAMP_KEY_UNKNOWN' });
  });

  it('given profiles, when canRemove is asked, then only a removal leaving a verified contact, provider, passkey or lasting key passes', () => {
    const base: UserProfile = {
      userId: 'u',
      organizationId: 'o',
      userName: 'u',
      email: { value: 'a@example.com', verified: true },
      phone: { value: '+14155550100', verified: false },
      oauthProviders: [],
      passkeys: [],
      sessions: [],
      apiKeys: [{ apiKeyId: 'k', name: 'signup', curve: 'p256', publicKey: '02', createdAt: '', expiresAt: Date.now() + 1000 }],
      wallets: [],
    };
    expect(canRemove(base, { kind: 'email' })).toBe(false);
    expect(canRemove(base, { kind: 'phone' })).toBe(true);
    const withPasskey = { ...base, passkeys: [{ authenticatorId: 'p', name: 'laptop', credentialId: 'c', createdAt: '' }] };
    expect(canRemove(withPasskey, { kind: 'email' })).toBe(true);
    expect(canRemove(withPasskey, { kind: 'passkey', authenticatorId: 'p' })).toBe(true);
    expect(canRemove({ ...withPasskey, email: undefined }, { kind: 'passkey', authenticatorId: 'p' })).toBe(false);
    const wallet = { ...base, email: undefined, apiKeys: [{ ...base.apiKeys[0]!, curve: 'secp256k1' as const, expiresAt: undefined }] };
    expect(canRemove(wallet, { kind: 'apiKey', apiKeyId: 'k' })).toBe(false);
  });
});
