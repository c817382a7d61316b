/**
 * logInWithOAuth for Discord end to end: the popup opens synchronously, the local OAuth 2.0
 * provider issues a code for the PKCE challenge in the URL, the callback message carries it
 * back, the server exchanges it (client secret from the enclave-held credential) for an
 * id token bound to the session key's nonce, then signup (first time) or login (again).
 */
import { describe, expect, it, vi } from 'vitest';
import { DISCORD_CLIENT_ID, popupWindow, REDIRECT_URI, socialSuite } from './support/social';

describe('logInWithOAuth (Discord, code + PKCE)', () => {
  const suite = socialSuite();

  /** One login as the Discord user `user` in a fresh browser profile. */
  async function discordLogin(user: { id: string; username: string; email?: string }) {
    const kit = suite.kit();
    const { win, popup, post } = popupWindow();
    const login = kit.auth.logInWithOAuth({
      provider: 'discord',
      clientId: DISCORD_CLIENT_ID,
      redirectUri: REDIRECT_URI,
      window: win,
      userName: user.username,
    });
    expect(win.open).toHaveBeenCalledWith('about:blank', expect.any(String), expect.any(String));
    await vi.waitFor(() => expect(popup.location.href).toContain('code_challenge='));
    const url = new URL(popup.location.href);
    // The user consents at the provider, which redirects the popup to the callback with a code.
    const code = suite.social.discord.authorize({
      user,
      redirectUri: url.searchParams.get('redirect_uri')!,
      codeChallenge: url.searchParams.get('code_challenge')!,
    });
    post({ type: 'walletkit:oauth', state: url.searchParams.get('state'), code });
    return { kit, session: await login };
  }

  let organizationId: string;

  it('given a new Discord user, when they log in, then an account with a wallet is created and the session key stamps', async () => {
    const exchanges = suite.social.discord.tokenRequests.length;
    const { kit, session } = await discordLogin({ id: '80351110224678912', username: 'nelly', email: 'nelly@example.com' });
    expect(suite.social.discord.tokenRequests.length).toBe(exchanges + 1);
    expect(session.organizationId).not.toBe(suite.social.server.org.organizationId);
    expect((await kit.activity.query('whoami', {})).organizationId).toBe(session.organizationId);
    expect((await kit.wallet.listAccounts()).map((a) => a.addressFormat)).toEqual(['ADDRESS_FORMAT_ETHEREUM']);
    organizationId = session.organizationId;
  });

  it('given the same Discord user in another browser, when they log in again, then it is the same organization with a new key and no second account', async () => {
    const first = suite.kits[0]!.session.current()!;
    const { kit, session } = await discordLogin({ id: '80351110224678912', username: 'nelly', email: 'nelly@example.com' });
    expect(session).toMatchObject({ organizationId, userId: first.userId });
    expect(session.publicKey).not.toBe(first.publicKey);
    expect((await kit.activity.query('whoami', {})).organizationId).toBe(organizationId);
    expect(await kit.wallet.listWallets()).toHaveLength(1);
  });
});
