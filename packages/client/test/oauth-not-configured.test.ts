/**
 * A social provider the site has not finished setting up (no client id, or no redirect URL):
 * logInWithOAuth refuses with ERR_OAUTH_NOT_CONFIGURED before any popup opens, rather than
 * sending the user to the provider's own error page (or saying the method is turned off).
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { createWalletKitClient, indexedDbSessionKeyStore, isWalletKitError } from '../src/index';
import { popupWindow } from './support/social';

function offlineKit() {
  // Nothing here reaches the network: the refusal comes first.
  const fetch = vi.fn(async () => new Response('{}', { status: 500 }));
  const kit = createWalletKitClient({
    proxyUrl: 'https://proxy.invalid',
    apiUrl: 'https://api.invalid',
    configId: 'cfg',
    organizationId: 'org',
    enclavePublicKey: '04',
    fetch,
    storage: indexedDbSessionKeyStore({ dbName: `walletkit-${randomUUID()}` }),
    channel: null,
  });
  return { kit, fetch };
}

describe('logInWithOAuth without its configuration', () => {
  for (const [what, params] of [
    ['no client id', { clientId: '', redirectUri: 'https://app.example/oauth/callback' }],
    ['no redirect URL', { clientId: 'google-client', redirectUri: '' }],
  ] as const) {
    it(`given ${what}, when a social login starts, then it rejects with ERR_OAUTH_NOT_CONFIGURED and opens no popup`, async () => {
      const { kit, fetch } = offlineKit();
      const { win } = popupWindow();
      const error = await kit.auth.logInWithOAuth({ provider: 'google', ...params, window: win }).catch((e: unknown) => e);
      expect(isWalletKitError(error, 'ERR_OAUTH_NOT_CONFIGURED')).toBe(true);
      expect((error as Error).message).toContain('Google');
      expect(win.open).not.toHaveBeenCalled();
      expect(fetch).not.toHaveBeenCalled();
      kit.session.close();
    });
  }
});
