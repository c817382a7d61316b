import { oauthProvider } from '@walletkit/protocol/wire';
import {
  type AccountActions,
  type AccountRemoval,
  canRemove,
  currentSession,
  type OAuthLinkParams,
  type PendingContact,
  profileOf,
  type UserProfile,
} from './account.js';
import type { ActivityClient } from './activity-client.js';
import { WalletKitError } from './errors.js';
import type { OAuthResult } from './oauth.js';
import { encryptOtpCode } from './otp.js';
import type { ProxyClient } from './proxy-client.js';
import type { Session } from './session.js';

/**
 * The account actions' work, loaded on first use (`account.ts` `createAccountActions` imports this
 * file dynamically): a page that never manages the account does not load it. The OAuth popup is
 * opened by `account.ts` itself, in the click; this file finishes the link with its reply.
 * @internal
 */
export interface AccountFlows extends Omit<AccountActions, 'linkOAuth'> {
  /** After the popup: the code exchanged when the provider sent one, then create_oauth_providers. */
  finishLink(input: {
    params: OAuthLinkParams;
    session: Session;
    nonce: string;
    codeVerifier: string | undefined;
    reply: OAuthResult;
  }): Promise<{ providerId: string }>;
}

/** Dependencies of the account actions. @internal */
export interface AccountDeps {
  proxy: ProxyClient;
  activity: ActivityClient;
  /** The current session (`ERR_NO_SESSION` when none). */
  session: () => Session | undefined;
  enclavePublicKey: string;
  now?: (() => number) | undefined;
}

/** @internal */
export function createAccountFlows(deps: AccountDeps): AccountFlows {
  const { proxy, activity } = deps;
  const now = deps.now ?? Date.now;
  const pending = new Map<string, PendingContact>();
  const current = () => currentSession(deps);

  async function profile(): Promise<UserProfile> {
    const session = current();
    const [{ user }, { wallets }, { accounts }] = await Promise.all([
      activity.query('get_user', { userId: session.userId }),
      activity.query('list_wallets', {}),
      activity.query('list_wallet_accounts', { paginationOptions: { limit: '100' } }),
    ]);
    const withAccounts = wallets.map((w) => ({
      walletId: w.walletId,
      walletName: w.walletName,
      accounts: accounts.filter((a) => a.walletId === w.walletId).map((a) => ({ address: a.address, addressFormat: a.addressFormat, path: a.path })),
    }));
    return profileOf(user, withAccounts, session, now());
  }

  /** The client's side of the rule (the server holds it too): fetched fresh, never from a cache. */
  async function assertRemovable(what: AccountRemoval): Promise<string> {
    const p = await profile();
    if (!canRemove(p, what)) throw new WalletKitError('ERR_LAST_SIGN_IN_METHOD');
    return p.userId;
  }

  return {
    profile,

    async startContactVerification({ kind, contact }) {
      current();
      const otpType = kind === 'email' ? 'OTP_TYPE_EMAIL' : 'OTP_TYPE_SMS';
      const reply = await proxy.otpInit({ otpType, contact });
      const p: PendingContact = { otpId: reply.otpId, kind, contact, otpEncryptionTargetBundle: reply.otpEncryptionTargetBundle };
      pending.set(p.otpId, p);
      return p;
    },

    async verifyContact({ otpId, code, pending: given }) {
      const session = current();
      const p = given ?? pending.get(otpId);
      if (!p) throw new WalletKitError('ERR_INVALID_PARAMETER', 'unknown otpId: start the verification in this page or pass `pending`');
      // The token is bound to the session's key: only this session can spend it.
      const encryptedOtpBundle = await encryptOtpCode({
        bundle: p.otpEncryptionTargetBundle,
        code,
        publicKey: session.publicKey,
        enclavePublicKey: deps.enclavePublicKey,
      });
      const { verificationToken } = await proxy.otpVerify({ otpId, encryptedOtpBundle });
      pending.delete(otpId);
      if (p.kind === 'email') await activity.submit('update_user_email', { userId: session.userId, userEmail: p.contact, verificationToken });
      else await activity.submit('update_user_phone_number', { userId: session.userId, userPhoneNumber: p.contact, verificationToken });
    },

    async unlinkContact(kind) {
      const userId = await assertRemovable({ kind });
      if (kind === 'email') await activity.submit('update_user_email', { userId, userEmail: '' });
      else await activity.submit('update_user_phone_number', { userId, userPhoneNumber: '' });
    },

    async finishLink({ params, session, nonce, codeVerifier, reply }) {
      let oidcToken = reply.idToken;
      if (!oidcToken) {
        const spec = oauthProvider(params.provider);
        if (spec.kind !== 'oauth2' || !codeVerifier)
          throw new WalletKitError('ERR_OAUTH_CALLBACK_INVALID', `${spec.name} answers with an id token, not a code`);
        ({ oidcToken } = await proxy.oauth2Authenticate({
          provider: spec.oauth2Provider,
          authCode: reply.code!,
          redirectUri: params.redirectUri,
          codeVerifier,
          nonce,
          clientId: params.clientId,
        }));
      }
      const { providerIds } = await activity.submit('create_oauth_providers', {
        userId: session.userId,
        oauthProviders: [{ providerName: params.provider, oidcToken }],
      });
      return { providerId: providerIds[0]! };
    },

    async unlinkOAuth(providerId) {
      const userId = await assertRemovable({ kind: 'oauth', providerId });
      await activity.submit('delete_oauth_providers', { userId, providerIds: [providerId] });
    },

    async removePasskey(authenticatorId) {
      const userId = await assertRemovable({ kind: 'passkey', authenticatorId });
      await activity.submit('delete_authenticators', { userId, authenticatorIds: [authenticatorId] });
    },

    async revokeSession(apiKeyId) {
      const userId = await assertRemovable({ kind: 'apiKey', apiKeyId });
      await activity.submit('delete_api_keys', { userId, apiKeyIds: [apiKeyId] });
    },
  };
}
