/**
 * A read's X-Stamp (plugin.ts `/query/<name>`, authenticate.ts): checked before the read reads a
 * table, refuses or answers. A bad stamp is answered 401 ERR_STAMP_INVALID whatever the read would
 * have answered (an answer served from memory, a 404, a read not served from memory) and reaches
 * no table; a good one is answered, its stamp checked once.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stampApiKey } from '@walletkit/crypto';
import type { QueryName } from '@walletkit/protocol';
import { startTestServer, type Reply, type TestServer } from './support/harness';
import { expectError } from './support/members';

const ETH = { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' } as const;

const cases = [
  ['pglite', 1],
  ['pglite', 0],
  ['postgres', 1],
] as const;

describe.each(cases)('a read and its stamp: %s, %i signer threads', (kind, threads) => {
  let server: TestServer;
  let walletId: string;
  let checks: ReturnType<typeof vi.spyOn>;
  let selects: ReturnType<typeof vi.spyOn>;

  /** A query stamped by the root key over its own body (`good`) or over another body (a bad stamp). */
  const read = (name: QueryName, request: Record<string, unknown>, good: boolean): Promise<Reply> => {
    const text = JSON.stringify({ organizationId: server.org.organizationId, ...request });
    return server.client.post(`/public/v1/query/${name}`, text, { 'x-stamp': stampApiKey(good ? text : `${text} `, server.client.key) });
  };

  beforeAll(async () => {
    server = await startTestServer(kind, { config: { signerThreads: threads } });
    ({ walletId } = await server.client.run('create_wallet', { walletName: 'Read', accounts: [ETH] }));
    checks = vi.spyOn(server.enclave.stamps, 'checkStamp');
    selects = vi.spyOn(server.store.db, 'select');
    // Warm: read until the key's facts and the answer come from memory (on PostgreSQL the change
    // feed goes live, and the wallet's own change arrives, a moment after the start).
    for (let i = 0; ; i++) {
      selects.mockClear();
      expect((await read('list_wallets', {}, true)).status).toBe(200);
      if (selects.mock.calls.length === 0) break;
      if (i > 100) throw new Error('the read was never served from memory');
      await new Promise((r) => setTimeout(r, 20));
    }
  });
  afterAll(async () => {
    checks?.mockRestore();
    selects?.mockRestore();
    await server?.dispose();
  });

  it('given an answer served from memory, when the stamp is good, then the answer, its stamp checked once and no table read', async () => {
    checks.mockClear();
    selects.mockClear();
    const reply = await read('list_wallets', {}, true);
    expect(reply.status).toBe(200);
    expect(reply.body.wallets.map((w: { walletId: string }) => w.walletId)).toContain(walletId);
    expect(checks).toHaveBeenCalledTimes(1);
    expect(selects).not.toHaveBeenCalled();
  });

  it('given an answer served from memory, when the stamp is bad, then 401 ERR_STAMP_INVALID and not the answer', async () => {
    const reply = await read('list_wallets', {}, false);
    expectError(reply, 401, 'ERR_STAMP_INVALID');
    expect(JSON.stringify(reply.body)).not.toContain(walletId);
  });

  it('given a read that would be refused, when the stamp is bad, then ERR_STAMP_INVALID wins; with a good stamp, the refusal', async () => {
    const unknown = { walletId: '00000000-0000-4000-8000-000000000000' };
    expectError(await read('get_wallet', unknown, false), 401, 'ERR_STAMP_INVALID');
    expectError(await read('get_wallet', unknown, true), 404, 'ERR_WALLET_NOT_FOUND');
  });

  it('given reads not served from memory, when the stamp is bad, then 401 ERR_STAMP_INVALID before any table is read; with a good stamp, the answer', async () => {
    for (const [name, request] of [
      ['list_private_keys', {}],
      ['get_wallet', { walletId }],
    ] as Array<[QueryName, Record<string, unknown>]>) {
      selects.mockClear();
      expect({ name, code: (await read(name, request, false)).body?.details?.[0]?.errorCode }).toEqual({ name, code: 'ERR_STAMP_INVALID' });
      expect({ name, selects: selects.mock.calls.length }).toEqual({ name, selects: 0 });
      expect({ name, status: (await read(name, request, true)).status }).toEqual({ name, status: 200 });
    }
  });
});
