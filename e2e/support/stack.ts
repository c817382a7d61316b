/**
 * Everything the e2e suite runs against, started in one child process by global-setup.ts:
 * the OTP sink (SMTP + SMS webhook), a local OpenID Provider standing in for Google, local
 * OAuth 2.0 servers standing in for X and Discord, the walletkit server on a fresh data
 * directory (embedded database, production mode: no dev outbox), and the production build of
 * the demo served on three origins, and a local Hardhat chain with the demo ERC-20
 * (apps/demo/chain) that the main demo transacts on:
 *   main     the demo organization: every method, Google, X and Discord enabled
 *   short    a second organization whose sessions last 60 s (refresh and expiry)
 *   foreign  the main organization's config on an origin its proxy does not allow
 *   core     an empty directory on an origin the main organization's proxy allows: the page of
 *            e2e/turnkey-core.spec.ts (Turnkey's @turnkey/core), bundled there by the spec
 * Prints one line `WK_E2E_READY <json>` (StackInfo) once ready; SIGTERM stops it all.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hpkeSeal, stampApiKey, utf8ToBytes } from '@walletkit/crypto';
import { operations } from '@walletkit/protocol';
import { createOrganization, enableProxy, loadConfig, startServer, type ProxySettingsPatch, type RunningServer } from '@walletkit/server';
import { startOAuth2Provider } from '../../packages/server/test/support/oauth2-provider';
import { startOidcIssuer } from '../../packages/server/test/support/oidc-issuer';
import { startDemoChain } from '../../apps/demo/chain/local';
import { serveDemo } from '../../apps/demo/host';
import type { DemoConfig } from '../../apps/demo/src/config';
import { examplesMissing, nextExampleHost, viteExampleHost, type ExampleHost } from '../../examples/support/serve';
import { startMailbox } from './mailbox';
import { DISCORD_CLIENT_ID, GOOGLE_CLIENT_ID, READY_PREFIX, X_CLIENT_ID, type StackInfo } from './stack-info';

const CALLBACK = '/oauth/callback';

async function main(): Promise<void> {
  const disposers: Array<() => Promise<unknown>> = [];
  const dataDir = await mkdtemp(join(tmpdir(), 'walletkit-e2e-'));
  disposers.push(() => rm(dataDir, { recursive: true, force: true }));
  const stop = async () => {
    for (const dispose of disposers.reverse()) await dispose().catch(() => undefined);
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());

  const dist = join(import.meta.dirname, '../../apps/demo/dist');
  // Hosts first: their origins go into the providers' redirect URIs and the proxy configs.
  const configs = { main: {} as DemoConfig, short: {} as DemoConfig, foreign: {} as DemoConfig, strict: {} as DemoConfig, core: {} as DemoConfig };
  const coreDir = await mkdtemp(join(tmpdir(), 'walletkit-e2e-turnkey-core-'));
  disposers.push(() => rm(coreDir, { recursive: true, force: true }));
  // The strict host sends a Content-Security-Policy with no inline script or style (filled below, once the URLs are known).
  const strictHeaders: Record<string, string> = {};
  const hosts = {
    main: await serveDemo({ dir: dist, port: 0, config: configs.main }),
    strict: await serveDemo({ dir: dist, port: 0, config: configs.strict, headers: strictHeaders }),
    short: await serveDemo({ dir: dist, port: 0, config: configs.short }),
    foreign: await serveDemo({ dir: dist, port: 0, config: configs.foreign }),
    core: await serveDemo({ dir: coreDir, port: 0, config: configs.core }),
  };
  for (const h of Object.values(hosts)) disposers.push(() => h.close());
  // The example apps installed from the packed tarballs by examples/test (when it ran first).
  const examplesProblem = examplesMissing();
  const examples: { vite: ExampleHost; nextjs: ExampleHost } | undefined = examplesProblem
    ? undefined
    : { vite: await viteExampleHost(), nextjs: await nextExampleHost() };
  for (const h of Object.values(examples ?? {})) disposers.push(() => h.close());
  const redirectUris = Object.values(hosts).map((h) => `${h.url}${CALLBACK}`);

  const chain = await startDemoChain();
  disposers.push(() => chain.close());

  const mailbox = await startMailbox();
  disposers.push(() => mailbox.close());
  const google = await startOidcIssuer({
    clientId: 'headless',
    clientSecret: randomBytes(16).toString('hex'),
    redirectUri: redirectUris[0]!,
    browserClient: { clientId: GOOGLE_CLIENT_ID, redirectUris },
  });
  disposers.push(() => google.close());
  const secrets = { discord: randomBytes(16).toString('hex'), x: randomBytes(16).toString('hex') };
  const discord = await startOAuth2Provider({ clientId: DISCORD_CLIENT_ID, clientSecret: secrets.discord, shape: 'discord' });
  disposers.push(() => discord.close());
  const x = await startOAuth2Provider({ clientId: X_CLIENT_ID, clientSecret: secrets.x, shape: 'x' });
  disposers.push(() => x.close());

  const config = loadConfig(
    {},
    {
      port: 0,
      dataDir,
      masterKey: randomBytes(32).toString('hex'),
      webauthn: { rpId: 'localhost', origins: [hosts.main.url, hosts.short.url] },
      oidcProviders: [{ name: 'google', issuer: google.issuer, jwksUri: google.jwksUri }],
      oauth2Providers: {
        OAUTH2_PROVIDER_DISCORD: { tokenUrl: discord.tokenUrl, userInfoUrl: discord.userInfoUrl, issuer: discord.url },
        OAUTH2_PROVIDER_X: { tokenUrl: x.tokenUrl, userInfoUrl: x.userInfoUrl, issuer: x.url },
      },
      delivery: { smtpUrl: mailbox.smtpUrl, smsWebhookUrl: mailbox.smsWebhookUrl, emailFrom: 'walletkit demo <no-reply@localhost>' },
      logLevel: 'warn',
    },
  );
  const server: RunningServer = await startServer(config);
  disposers.push(() => server.close());

  /** A top-level organization whose root key registers the OAuth 2.0 client secrets (stamped activities over HTTP). */
  const organization = async (name: string) => {
    const org = await createOrganization(server.store, { name });
    const run = async (op: 'create_oauth2_credential', parameters: unknown) => {
      const body = JSON.stringify({ type: operations[op].type, timestampMs: String(Date.now()), organizationId: org.organizationId, parameters });
      const res = await fetch(`${server.url}${operations[op].path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-stamp': stampApiKey(body, org.apiKey) },
        body,
      });
      const reply = (await res.json()) as { activity?: { result?: Record<string, { oauth2CredentialId?: string }> } };
      const id = Object.values(reply.activity?.result ?? {})[0]?.oauth2CredentialId;
      if (!res.ok || !id) throw new Error(`${op}: ${res.status} ${JSON.stringify(reply)}`);
      return id;
    };
    const credential = async (provider: 'OAUTH2_PROVIDER_DISCORD' | 'OAUTH2_PROVIDER_X', clientId: string, secret: string) => {
      const encryptedClientSecret = JSON.stringify(await hpkeSeal({ plaintext: utf8ToBytes(secret), receiverPublicKey: server.enclave.encryptionPublicKey }));
      return run('create_oauth2_credential', { provider, clientId, encryptedClientSecret });
    };
    return { ...org, credential };
  };

  const kitOf = (organizationId: string, configId: string): DemoConfig['kit'] => ({
    proxyUrl: server.url,
    apiUrl: server.url,
    configId,
    organizationId,
    enclavePublicKey: server.enclave.signingPublicKey,
  });
  const oauthAuthorizeUrls = { google: `${google.issuer}/auth`, discord: `${discord.url}/authorize`, x: `${x.url}/authorize` };

  const mainOrg = await organization('walletkit demo');
  const social: ProxySettingsPatch['social'] = {
    google: { enabled: true, clientIds: [GOOGLE_CLIENT_ID] },
    discord: {
      enabled: true,
      clientIds: [DISCORD_CLIENT_ID],
      oauth2CredentialId: await mainOrg.credential('OAUTH2_PROVIDER_DISCORD', DISCORD_CLIENT_ID, secrets.discord),
    },
    x: { enabled: true, clientIds: [X_CLIENT_ID], oauth2CredentialId: await mainOrg.credential('OAUTH2_PROVIDER_X', X_CLIENT_ID, secrets.x) },
  };
  const mainProxy = await enableProxy(server.store, server.enclave, {
    organizationId: mainOrg.organizationId,
    origins: [hosts.main.url, hosts.strict.url, hosts.core.url],
    settings: { emailAppName: 'walletkit demo', social },
  });
  Object.assign(configs.main, {
    kit: { ...kitOf(mainOrg.organizationId, mainProxy.id), chains: [chain.info.chain] },
    token: chain.info.token,
    oauthAuthorizeUrls,
  });
  const styleNonce = randomBytes(16).toString('base64');
  Object.assign(configs.strict, { kit: { ...kitOf(mainOrg.organizationId, mainProxy.id), chains: [chain.info.chain] }, token: chain.info.token, styleNonce });
  strictHeaders['content-security-policy'] = [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${styleNonce}'`,
    `connect-src 'self' ${server.url} ${chain.info.chain.rpcUrl}`,
    `frame-src ${server.url}`,
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
  Object.assign(configs.foreign, { kit: kitOf(mainOrg.organizationId, mainProxy.id), oauthAuthorizeUrls });
  Object.assign(configs.core, { kit: kitOf(mainOrg.organizationId, mainProxy.id) });

  const shortOrg = await organization('walletkit demo (short sessions)');
  const shortProxy = await enableProxy(server.store, server.enclave, {
    organizationId: shortOrg.organizationId,
    origins: [hosts.short.url],
    settings: { emailAppName: 'walletkit demo', sessionExpirationSeconds: 60 },
  });
  Object.assign(configs.short, { kit: kitOf(shortOrg.organizationId, shortProxy.id) });

  if (examples) {
    const exampleOrg = await organization('walletkit examples');
    const exampleProxy = await enableProxy(server.store, server.enclave, {
      organizationId: exampleOrg.organizationId,
      origins: [examples.vite.url, examples.nextjs.url],
      settings: { emailAppName: 'walletkit examples' },
    });
    const settings = {
      url: server.url,
      organizationId: exampleOrg.organizationId,
      configId: exampleProxy.id,
      enclavePublicKey: server.enclave.signingPublicKey,
    };
    await Promise.all([examples.vite.start(settings), examples.nextjs.start(settings)]);
  }

  const info: StackInfo = {
    serverUrl: server.url,
    mailboxUrl: mailbox.url,
    demo: { main: hosts.main.url, short: hosts.short.url, foreign: hosts.foreign.url, strict: hosts.strict.url },
    turnkeyCore: { url: hosts.core.url, dir: coreDir },
    chain: { rpcUrl: chain.info.chain.rpcUrl, chainId: chain.info.chain.id, token: chain.info.token.address },
    examples: examples ? { vite: examples.vite.url, nextjs: examples.nextjs.url } : { missing: examplesProblem! },
  };
  process.stdout.write(`${READY_PREFIX}${JSON.stringify(info)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`e2e stack failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
