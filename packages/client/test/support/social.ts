/**
 * A real server with social login enabled: Google through a local OpenID Provider (id_token)
 * and Discord through a local OAuth 2.0 provider (code + PKCE, exchanged by the server with the
 * client secret held as an enclave-encrypted OAuth 2.0 credential).
 */
import { afterAll, beforeAll, vi } from 'vitest';
import { hpkeSeal, utf8ToBytes } from '@walletkit/crypto';
import type { OAuthWindow, WalletKitClient, WalletKitConfig } from '../../src/index';
import { kitFor } from './kit';
import { updateProxySettings } from '../../../server/src/admin/proxy';
import { startOAuth2Provider, type LocalOAuth2Provider } from '../../../server/test/support/oauth2-provider';
import { startOidcIssuer, type LocalOidcIssuer } from '../../../server/test/support/oidc-issuer';
import { startProxyServer, type ProxyTestServer } from '../../../server/test/support/proxy';

export const APP = 'https://app.example';
export const REDIRECT_URI = `${APP}/oauth/callback`;
export const GOOGLE_CLIENT_ID = 'walletkit-web.apps.googleusercontent.example';
export const DISCORD_CLIENT_ID = 'walletkit-discord-client';
const DISCORD_SECRET = 'discord client secret';

export interface SocialServer {
  server: ProxyTestServer;
  google: LocalOidcIssuer;
  discord: LocalOAuth2Provider;
  dispose(): Promise<void>;
}

/** Starts the providers and the server, enables Google and Discord; `dispose()` in afterAll. */
export async function startSocialServer(): Promise<SocialServer> {
  const google = await startOidcIssuer({ clientId: GOOGLE_CLIENT_ID, clientSecret: 'secret', redirectUri: REDIRECT_URI });
  const discord = await startOAuth2Provider({ clientId: DISCORD_CLIENT_ID, clientSecret: DISCORD_SECRET, shape: 'discord' });
  const endpoints = { tokenUrl: discord.tokenUrl, userInfoUrl: discord.userInfoUrl, issuer: discord.url };
  const server = await startProxyServer('pglite', {
    config: {
      oidcProviders: [{ name: 'google', issuer: google.issuer, jwksUri: google.jwksUri }],
      oauth2Providers: { OAUTH2_PROVIDER_DISCORD: endpoints, OAUTH2_PROVIDER_X: endpoints },
    },
  });
  const encryptedClientSecret = JSON.stringify(
    await hpkeSeal({ plaintext: utf8ToBytes(DISCORD_SECRET), receiverPublicKey: server.enclave.encryptionPublicKey }),
  );
  const { oauth2CredentialId } = await server.client.run('create_oauth2_credential', {
    provider: 'OAUTH2_PROVIDER_DISCORD',
    clientId: DISCORD_CLIENT_ID,
    encryptedClientSecret,
  });
  await updateProxySettings(server.store, server.org.organizationId, {
    social: { google: { enabled: true, clientIds: [GOOGLE_CLIENT_ID] }, discord: { enabled: true, clientIds: [DISCORD_CLIENT_ID], oauth2CredentialId } },
  });
  return {
    server,
    google,
    discord,
    async dispose() {
      await server.dispose();
      await google.close();
      await discord.close();
    },
  };
}

/** A page whose popup the test drives: it reads the URL the kit set and posts the callback message. */
export function popupWindow(origin: string = APP) {
  const page = new EventTarget();
  const popup = { closed: false, close: vi.fn(), location: { href: '' } };
  const win: OAuthWindow = {
    open: vi.fn(() => popup),
    addEventListener: (t, fn) => page.addEventListener(t, fn as EventListener),
    removeEventListener: (t, fn) => page.removeEventListener(t, fn as EventListener),
    location: { origin, assign: vi.fn() },
  };
  const post = (data: unknown) => page.dispatchEvent(Object.assign(new Event('message'), { origin, data }));
  return { win, popup, post };
}

/**
 * A suite on one social server: started in beforeAll; `kit()` gives a kit (one browser
 * profile) that is closed with the server in afterAll.
 * @example const suite = socialSuite(); ... const kit = suite.kit(); suite.social.discord.authorize(...)
 */
export function socialSuite() {
  const kits: WalletKitClient[] = [];
  const suite = {
    social: undefined as unknown as SocialServer,
    kits,
    kit(overrides: Partial<WalletKitConfig> = {}): WalletKitClient {
      const kit = kitFor(suite.social.server, overrides);
      kits.push(kit);
      return kit;
    },
  };
  beforeAll(async () => {
    suite.social = await startSocialServer();
  });
  afterAll(async () => {
    for (const kit of kits) kit.session.close();
    await suite.social?.dispose();
  });
  return suite;
}
