/**
 * Passkey flows through @simplewebauthn/browser with a fake `navigator.credentials` backed by a
 * software authenticator: signup registers the passkey and yields a session; login is
 * stamp_login stamped by the passkey; a dismissed prompt is ERR_PASSKEY_CANCELLED.
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
    kit.session.close();
  });
});
