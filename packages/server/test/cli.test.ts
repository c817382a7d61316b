/**
 * The real CLI over real HTTP: `walletkit-server org create --json`, `start`, data that
 * survives a restart (PGlite and PostgreSQL), the embedded data-dir lock, and two server
 * instances on one PostgreSQL sharing enclave keys and activities.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateP256KeyPair, stampApiKey } from '@walletkit/crypto';
import { operations, type OperationName } from '@walletkit/protocol';
import { hashMessage, recoverAddress, type Hex } from 'viem';
import { cli, killChildren, startCli as start } from './support/cli';
import { createTestDatabase } from './support/stores';

function envelope(op: OperationName, organizationId: string, parameters: unknown): string {
  return JSON.stringify({ type: operations[op].type, timestampMs: String(Date.now()), organizationId, parameters });
}

async function post(url: string, op: OperationName, body: string, key: { publicKey: string; privateKey: string }) {
  const res = await fetch(`${url}${operations[op].path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-stamp': stampApiKey(body, key) },
    body,
  });
  return { status: res.status, body: (await res.json()) as any };
}

const policy = (name: string) => ({
  policyName: name,
  effect: 'EFFECT_ALLOW',
  condition: "activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS'",
  consensus: "approvers.any(user, user.id == 'x')",
  notes: 'cli',
});

afterAll(killChildren);

describe('walletkit-server CLI on the embedded database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'walletkit-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('given demo twice, then the first creates and the second reuses the organization, and the printed kit config reaches the proxy', async () => {
    const demoDir = mkdtempSync(join(tmpdir(), 'walletkit-cli-demo-'));
    try {
      const env = { WALLETKIT_DEMO_ORIGINS: 'http://localhost:5173' };
      const configs: Array<Record<string, string>> = [];
      for (const expected of ['created', 'reused']) {
        const server = await start(['--data-dir', demoDir], env, 'demo');
        expect(server.output()).toContain(`walletkit demo ${expected}`);
        const kit = JSON.parse(/kit config\s+(\{.*\})/.exec(server.output())![1]!) as Record<string, string>;
        configs.push(kit);
        // The printed config is what WalletKitProvider takes: base URLs (the kit adds /v1).
        expect(kit.proxyUrl).toBe(server.url);
        const res = await fetch(`${kit.proxyUrl}/v1/wallet_kit_config`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-auth-proxy-config-id': kit.configId!, origin: 'http://localhost:5173' },
          body: '{}',
        });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { organizationId: string }).organizationId).toBe(kit.organizationId);
        await server.stop();
      }
      const ids = ({ configId, organizationId, enclavePublicKey }: Record<string, string>) => ({ configId, organizationId, enclavePublicKey });
      expect(ids(configs[1]!)).toEqual(ids(configs[0]!));
    } finally {
      rmSync(demoDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('given org create, start, an activity and a restart, then the activity and keys survive and the data dir is locked while running', async () => {
    const created = await cli(['org', 'create', '--name', 'Acme', '--data-dir', dataDir, '--json'], {});
    expect(created.code, created.stderr).toBe(0);
    const org = JSON.parse(created.stdout);
    expect(org).toEqual({
      organizationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      userId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      apiKey: { publicKey: expect.stringMatching(/^0[23][0-9a-f]{64}$/), privateKey: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });

    let server = await start(['--data-dir', dataDir], {});
    const body = envelope('create_policy', org.organizationId, policy('survives'));
    const first = await post(server.url, 'create_policy', body, org.apiKey);
    expect(first.status).toBe(200);

    const wallet = await post(
      server.url,
      'create_wallet',
      envelope('create_wallet', org.organizationId, {
        walletName: 'main',
        accounts: [{ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }],
      }),
      org.apiKey,
    );
    const [address] = wallet.body.activity.result.createWalletResult.addresses;

    const locked = await cli(['org', 'create', '--name', 'Other', '--data-dir', dataDir, '--json'], {});
    expect(locked.code).not.toBe(0);
    expect(locked.stderr).toMatch(/in use/);

    await server.stop();
    server = await start(['--data-dir', dataDir], {});
    const replay = await post(server.url, 'create_policy', body, org.apiKey);
    expect(replay.status).toBe(200);
    expect(replay.body.activity.id).toBe(first.body.activity.id);
    const hash = hashMessage('after restart');
    const signed = await post(
      server.url,
      'sign_raw_payloads',
      envelope('sign_raw_payloads', org.organizationId, {
        signWith: address,
        payloads: [hash],
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NO_OP',
      }),
      org.apiKey,
    );
    const [sig] = signed.body.activity.result.signRawPayloadsResult.signatures;
    expect(await recoverAddress({ hash, signature: { r: `0x${sig.r}` as Hex, s: `0x${sig.s}` as Hex, yParity: Number.parseInt(sig.v, 16) } })).toBe(address);
    const unknown = await post(server.url, 'create_policy', envelope('create_policy', org.organizationId, policy('x')), generateP256KeyPair());
    expect(unknown.body.details[0].errorCode).toBe('ERR_STAMP_KEY_UNKNOWN');
    await server.stop();
  }, 120_000);
});

describe('walletkit-server CLI on PostgreSQL', () => {
  it('given two instances on one database, then one finishes what the other began and everything survives a restart', async () => {
    const db = await createTestDatabase();
    const env = { DATABASE_URL: db.url, WALLETKIT_MASTER_KEY: randomBytes(32).toString('hex') };
    try {
      const created = await cli(['org', 'create', '--name', 'PgOrg', '--json'], env);
      expect(created.code, created.stderr).toBe(0);
      const org = JSON.parse(created.stdout);
      const [a, b] = await Promise.all([start([], env), start([], env)]);

      const body = envelope('create_policy', org.organizationId, policy('shared'));
      const viaA = await post(a.url, 'create_policy', body, org.apiKey);
      const viaB = await post(b.url, 'create_policy', body, org.apiKey);
      expect(viaA.status).toBe(200);
      expect(viaB.body.activity.id).toBe(viaA.body.activity.id);

      // A client following only DESIGN section 2: wallet via A, signature via B, checked with viem.
      const wallet = await post(
        a.url,
        'create_wallet',
        envelope('create_wallet', org.organizationId, {
          walletName: 'main',
          accounts: [{ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }],
        }),
        org.apiKey,
      );
      expect(wallet.status).toBe(200);
      const [address] = wallet.body.activity.result.createWalletResult.addresses;
      const message = 'hello from instance B';
      const hash = hashMessage(message);
      const signed = await post(
        b.url,
        'sign_raw_payloads',
        envelope('sign_raw_payloads', org.organizationId, {
          signWith: address,
          payloads: [hash],
          encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
          hashFunction: 'HASH_FUNCTION_NO_OP',
        }),
        org.apiKey,
      );
      expect(signed.status).toBe(200);
      const [sig] = signed.body.activity.result.signRawPayloadsResult.signatures;
      const recovered = await recoverAddress({ hash, signature: { r: `0x${sig.r}` as Hex, s: `0x${sig.s}` as Hex, yParity: Number.parseInt(sig.v, 16) } });
      expect(recovered).toBe(address);

      const wa = await fetch(`${a.url}/.well-known/walletkit.json`).then((r) => r.json());
      const wb = await fetch(`${b.url}/.well-known/walletkit.json`).then((r) => r.json());
      expect(wb.enclaveSigningPublicKey).toBe(wa.enclaveSigningPublicKey);
      await Promise.all([a.stop(), b.stop()]);

      const c = await start([], env);
      const again = await post(c.url, 'create_policy', body, org.apiKey);
      expect(again.body.activity.id).toBe(viaA.body.activity.id);
      const wc = await fetch(`${c.url}/.well-known/walletkit.json`).then((r) => r.json());
      expect(wc.enclaveSigningPublicKey).toBe(wa.enclaveSigningPublicKey);
      const afterRestart = await post(
        c.url,
        'sign_raw_payloads',
        envelope('sign_raw_payloads', org.organizationId, {
          signWith: address,
          payloads: [hash],
          encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
          hashFunction: 'HASH_FUNCTION_NO_OP',
        }),
        org.apiKey,
      );
      const [sig2] = afterRestart.body.activity.result.signRawPayloadsResult.signatures;
      expect(await recoverAddress({ hash, signature: { r: `0x${sig2.r}` as Hex, s: `0x${sig2.s}` as Hex, yParity: Number.parseInt(sig2.v, 16) } })).toBe(
        address,
      );
      await c.stop();

      const noKey = await cli(['org', 'create', '--name', 'x', '--json'], { DATABASE_URL: db.url, WALLETKIT_MASTER_KEY: '' });
      expect(noKey.code).not.toBe(0);
      expect(noKey.stderr).toMatch(/WALLETKIT_MASTER_KEY is required/);
    } finally {
      await db.drop();
    }
  }, 120_000);
});
