/**
 * Passkey flows through @simplewebauthn/browser with a fake `navigator.credentials` backed by a
 * software authenticator: signup registers the passkey and yields a session; login is
 * stamp_login stamped by the passkey; a second passkey added by the user logs in too; WebAuthn
 * failures become ERR_PASSKEY_CANCELLED, ERR_PASSKEY_UNSUPPORTED or ERR_PASSKEY_FAILED (with the
 * platform error as cause).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SoftwareAuthenticator } from '../../server/test/support/authenticator';
import type { ProxyTestServer } from '../../server/test/support/proxy';
import { isWalletKitError } from '../src/index';
import { fakeCredentials } from './support/credentials';
import { kitFor, startServer } from './support/kit';

describe('passkey flows', () => {
  let server: ProxyTestServer;
  const passkey = new SoftwareAuthenticator();
  const { credentials, state } = fakeCredentials(passkey);

  beforeAll(async () => {
    server = await startServer();
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    vi.stubGlobal('navigator', { credentials });
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    await server?.dispose();
  });

  let organizationId: string;

  it('given a new user, when they sign up with a passkey, then the account holds the passkey and a wallet, and the session key stamps', async () => {
    const kit = kitFor(server);
    const session = await kit.auth.signUpWithPasskey({ userName: 'pat', authenticatorName: 'laptop' });
    organizationId = session.organizationId;
    const { authenticators } = await kit.activity.query('get_authenticators', { userId: session.userId });
    expect(authenticators.map((a: { credentialId: string }) => a.credentialId)).toEqual([passkey.credentialId]);
    expect(await kit.wallet.listAccounts()).toHaveLength(1);
    kit.session.close();
  });

  it('given that account, when a new page logs in with the passkey, then it finds the account and the session key stamps', async () => {
    const kit = kitFor(server);
    const session = await kit.auth.logInWithPasskey();
    expect(session.organizationId).toBe(organizationId);
    expect((await kit.activity.query('whoami', {})).organizationId).toBe(organizationId);
    kit.session.close();
  });

  it('given a dismissed prompt, when logging in, then it is ERR_PASSKEY_CANCELLED', async () => {
    const kit = kitFor(server);
    state.cancel = true;
    const error = await kit.auth.logInWithPasskey({ organizationId }).catch((e: unknown) => e);
    expect(isWalletKitError(error, 'ERR_PASSKEY_CANCELLED')).toBe(true);
    expect(kit.session.current()).toBeUndefined();
    kit.session.close();
  });

  it('given a logged-in user, when they add a second passkey, then the account lists both and the new passkey alone logs in to the same account', async () => {
    const kit = kitFor(server);
    const session = await kit.auth.logInWithPasskey({ organizationId });
    const phone = new SoftwareAuthenticator();
    state.authenticator = phone;
    await kit.wallet.addPasskey({ authenticatorName: 'phone', userName: 'pat' });
    const { authenticators } = await kit.activity.query('get_authenticators', { userId: session.userId });
    expect(authenticators.map((a: { credentialId: string }) => a.credentialId).sort()).toEqual([passkey.credentialId, phone.credentialId].sort());
    kit.session.close();

    const other = kitFor(server);
    const again = await other.auth.logInWithPasskey();
    expect(again).toMatchObject({ organizationId, userId: session.userId });
    expect((await other.activity.query('whoami', {})).organizationId).toBe(organizationId);
    other.session.close();
    state.authenticator = passkey;
  });

  it('given a browser without WebAuthn, when signing up or logging in with a passkey, then it is ERR_PASSKEY_UNSUPPORTED', async () => {
    const kit = kitFor(server);
    vi.stubGlobal('PublicKeyCredential', undefined);
    try {
      const signup = await kit.auth.signUpWithPasskey({ userName: 'nope' }).catch((e: unknown) => e);
      expect(isWalletKitError(signup, 'ERR_PASSKEY_UNSUPPORTED')).toBe(true);
      const login = await kit.auth.logInWithPasskey({ organizationId }).catch((e: unknown) => e);
      expect(isWalletKitError(login, 'ERR_PASSKEY_UNSUPPORTED')).toBe(true);
    } finally {
      vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    }
    kit.session.close();
  });

  it('given an authenticator failing for another reason, when logging in or registering, then it is ERR_PASSKEY_FAILED with the platform error as cause', async () => {
    const kit = kitFor(server);
    const broken = Object.assign(new Error('the authenticator exploded'), { name: 'UnknownError' });
    state.fail = broken;
    const login = await kit.auth.logInWithPasskey({ organizationId }).catch((e: unknown) => e);
    expect(isWalletKitError(login, 'ERR_PASSKEY_FAILED')).toBe(true);
    expect(causes(login)).toContain(broken);

    const odd = new TypeError('bad options');
    state.fail = odd;
    const signup = await kit.auth.signUpWithPasskey({ userName: 'odd' }).catch((e: unknown) => e);
    expect(isWalletKitError(signup, 'ERR_PASSKEY_FAILED')).toBe(true);
    expect(causes(signup)).toContain(odd);
    kit.session.close();
  });
});

/** The chain of `cause`s below an error (the library may wrap the platform error once). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = (error as { cause?: unknown }).cause; e !== undefined; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}
