/**
 * A real server (packages/server test harness: PGlite, proxy enabled for any origin, dev
 * outbox) and a kit wired to it over real HTTP. The kit's key store is IndexedDB (fake-indexeddb).
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { startProxyServer, type ProxyTestServer } from '../../../server/test/support/proxy';
import { createWalletKitClient, indexedDbSessionKeyStore, type WalletKitClient, type WalletKitConfig } from '../../src/index';

export { outboxCode } from '../../../server/test/support/proxy';

/** Starts the server; `dispose()` it in afterAll. */
export function startServer(): Promise<ProxyTestServer> {
  return startProxyServer('pglite');
}

/** A kit for `server` with its own IndexedDB database (one "browser profile"). */
export function kitFor(server: ProxyTestServer, overrides: Partial<WalletKitConfig> = {}): WalletKitClient {
  return createWalletKitClient({
    proxyUrl: server.url,
    apiUrl: server.url,
    configId: server.proxy.id,
    organizationId: server.org.organizationId,
    enclavePublicKey: server.enclave.signingPublicKey,
    storage: indexedDbSessionKeyStore({ dbName: `walletkit-${randomUUID()}` }),
    channel: null,
    ...overrides,
  });
}

/** A fresh email, so that no two tests share a contact or its throttle. */
export const freshEmail = (who: string) => `${who}-${randomUUID().slice(0, 8)}@example.com`;
