/** `npm start`'s bootstrap: the demo organization and its proxy are created once and reused. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapDemo } from '../src/admin/demo';
import { startTestServer, type TestServer } from './support/harness';
import { storeKinds } from './support/stores';

describe.each(storeKinds)('demo bootstrap on %s', (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(kind);
  });
  afterAll(() => s?.dispose());

  it('given two starts, when bootstrapped twice, then the same organization and proxy config are reused', async () => {
    const first = await bootstrapDemo(s.store, s.enclave, { origins: ['http://localhost:5173'] });
    const second = await bootstrapDemo(s.store, s.enclave, { origins: ['http://localhost:5173'] });
    expect(first.created).toBe(true);
    expect(second).toEqual({ ...first, created: false });
    expect(first.enclavePublicKey).toBe(s.enclave.signingPublicKey);
    const config = await s.app.inject({
      method: 'POST',
      url: '/v1/wallet_kit_config',
      payload: '{}',
      headers: { 'content-type': 'application/json', 'x-auth-proxy-config-id': first.configId, origin: 'http://localhost:5173' },
    });
    expect(config.statusCode).toBe(200);
  });
});
