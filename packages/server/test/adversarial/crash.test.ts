/**
 * Crash consistency of the real server process: `walletkit-server start` on the embedded
 * database (PGlite in a data dir) and on PostgreSQL, flooded with concurrent signups with
 * wallets (stamped create_sub_organization by the organization's root key, and proxy
 * signup_v2 with an API key), killed with SIGKILL at a random moment while requests are in
 * flight, then recovered on the same data. Every acknowledged signup must survive and sign;
 * every request that never got a reply must exist fully or not at all; no partial row may
 * remain anywhere (checked in SQL over the store, as the recovered database holds it).
 *
 * PGlite runs PostgreSQL with fsync off (`-F` among its default start parameters) but its
 * NODEFS file system writes through to the OS at every commit, so a killed process loses
 * nothing the OS received and WAL replay on the next open repairs the rest: what this proves
 * is recovery from a process crash, not from a power loss.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { generateP256KeyPair, type EcKeyPair } from '@walletkit/crypto';
import { operations } from '@walletkit/protocol';
import { sql } from 'drizzle-orm';
import { hashMessage, recoverAddress, type Hex } from 'viem';
import { createOrganization, type CreatedOrganization } from '../../src/admin/organizations';
import { enableProxy } from '../../src/admin/proxy';
import { loadConfig } from '../../src/config';
import { openServices } from '../../src/main';
import { openStore, type Store } from '../../src/store/db';
import { killChildren, startCli, type CliServer } from '../support/cli';
import { createTestDatabase, createTestDataDir, storeKinds, type StoreKind } from '../support/stores';
import { ETH_WALLET } from './support/flows';
import { envelopeText, proxyHeaders, sendRaw, sendStamped, type RawReply } from './support/http';
import { adversarialTally } from './support/tally';

const tally = adversarialTally('crash');
const APP = 'https://crash.example';
/** Signups fired at once per round; the kill lands after 2..SIGNUPS/2 acknowledgements. */
const SIGNUPS = 24;
/** Kill-and-restart rounds: one more on the embedded database, whose recovery is PGlite's own. */
const ROUNDS: Record<StoreKind, number> = { pglite: 4, postgres: 3 };

const SUB = operations.create_sub_organization;
const COMPLETED = 'ACTIVITY_STATUS_COMPLETED';

afterAll(killChildren);

/** One signup as its client knows it: a unique name, the root user's key and what the server answered. */
interface Signup {
  name: string;
  via: 'activity' | 'proxy';
  key: EcKeyPair;
  /** The exact body sent (a retry after the crash resends these bytes). */
  body: string;
  reply?: RawReply;
  /** From an acknowledgement (or the database, for a lost reply that committed). */
  organizationId?: string;
  address?: string;
}

/** The rows a query returns, whichever driver is underneath. */
async function rows(store: Store, text: string): Promise<Array<Record<string, unknown>>> {
  const res = (await store.db.execute(sql.raw(text))) as unknown as { rows: Array<Record<string, unknown>> };
  return res.rows;
}

// JSON paths into a create_sub_organization activity (constants of the protocol, not input).
const intent = `a.intent->'${SUB.intentKey}'`;
const result = `a.result->'${SUB.resultKey}'`;
const signupActivity = `a.type = '${SUB.type}' AND a.status = '${COMPLETED}'`;

/**
 * Every invariant of a consistent store, each a query of the rows that break it. The data of
 * one request is written in one transaction, so after any crash each must return nothing.
 */
const INVARIANTS: Array<[string, string]> = [
  [
    'sub-organization whose parent is missing',
    `SELECT o.id FROM organizations o LEFT JOIN organizations p ON p.id = o.parent_organization_id WHERE o.parent_organization_id IS NOT NULL AND p.id IS NULL`,
  ],
  [
    'sub-organization without users',
    `SELECT o.id FROM organizations o WHERE o.parent_organization_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM users u WHERE u.organization_id = o.id)`,
  ],
  [
    'sub-organization without root quorum',
    `SELECT o.id FROM organizations o WHERE o.parent_organization_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM root_quorum_members m WHERE m.organization_id = o.id)`,
  ],
  [
    'sub-organization whose quorum exceeds its members',
    `SELECT o.id FROM organizations o WHERE o.root_quorum_threshold > (SELECT count(*) FROM root_quorum_members m WHERE m.organization_id = o.id)`,
  ],
  [
    'sub-organization without the completed activity that created it',
    `SELECT o.id FROM organizations o WHERE o.parent_organization_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM activities a WHERE a.organization_id = o.parent_organization_id AND ${signupActivity} AND ${result}->>'subOrganizationId' = o.id)`,
  ],
  [
    'sub-organization created twice by one request (same name)',
    `SELECT parent_organization_id, name, count(*) AS n FROM organizations WHERE parent_organization_id IS NOT NULL GROUP BY parent_organization_id, name HAVING count(*) > 1`,
  ],
  [
    'quorum member missing or of another organization',
    `SELECT m.organization_id, m.user_id FROM root_quorum_members m LEFT JOIN users u ON u.id = m.user_id WHERE u.id IS NULL OR u.organization_id <> m.organization_id`,
  ],
  [
    'completed signup naming a missing sub-organization',
    `SELECT a.id FROM activities a LEFT JOIN organizations o ON o.id = ${result}->>'subOrganizationId' WHERE ${signupActivity} AND (o.id IS NULL OR o.parent_organization_id IS DISTINCT FROM a.organization_id)`,
  ],
  [
    'completed signup whose root user is not in the quorum',
    `SELECT a.id, uid FROM activities a, jsonb_array_elements_text(${result}->'rootUserIds') uid WHERE ${signupActivity} AND NOT EXISTS (SELECT 1 FROM root_quorum_members m JOIN users u ON u.id = m.user_id WHERE m.user_id = uid AND m.organization_id = ${result}->>'subOrganizationId' AND u.organization_id = m.organization_id)`,
  ],
  [
    'completed signup missing the API keys it was given',
    `SELECT a.id FROM activities a WHERE ${signupActivity} AND (SELECT count(*) FROM api_keys k WHERE k.organization_id = ${result}->>'subOrganizationId' AND NOT k.is_session) <> (SELECT coalesce(sum(jsonb_array_length(ru->'apiKeys')), 0) FROM jsonb_array_elements(${intent}->'rootUsers') ru)`,
  ],
  [
    'completed signup with a wallet that is missing or short of accounts',
    `SELECT a.id FROM activities a WHERE ${signupActivity} AND ${intent}->'wallet' IS NOT NULL AND NOT EXISTS (SELECT 1 FROM wallets w WHERE w.id = ${result}->'wallet'->>'walletId' AND w.organization_id = ${result}->>'subOrganizationId' AND (SELECT count(*) FROM wallet_accounts wa WHERE wa.wallet_id = w.id) = jsonb_array_length(${intent}->'wallet'->'accounts'))`,
  ],
  [
    'completed signup whose answered address has no account',
    `SELECT a.id, addr FROM activities a, jsonb_array_elements_text(${result}->'wallet'->'addresses') addr WHERE ${signupActivity} AND NOT EXISTS (SELECT 1 FROM wallet_accounts wa WHERE wa.wallet_id = ${result}->'wallet'->>'walletId' AND wa.organization_id = ${result}->>'subOrganizationId' AND wa.address = addr)`,
  ],
  ['activity left unfinished (status CREATED)', `SELECT a.id, a.type FROM activities a WHERE a.status = 'ACTIVITY_STATUS_CREATED'`],
  ['wallet without accounts', `SELECT w.id FROM wallets w WHERE NOT EXISTS (SELECT 1 FROM wallet_accounts wa WHERE wa.wallet_id = w.id)`],
  [
    'account without wallet (or of another organization)',
    `SELECT wa.id FROM wallet_accounts wa LEFT JOIN wallets w ON w.id = wa.wallet_id WHERE w.id IS NULL OR w.organization_id <> wa.organization_id`,
  ],
  [
    'API key without its user (or of another organization)',
    `SELECT k.id FROM api_keys k LEFT JOIN users u ON u.id = k.user_id WHERE u.id IS NULL OR u.organization_id <> k.organization_id`,
  ],
  ...['users', 'api_keys', 'wallets', 'wallet_accounts', 'root_quorum_members', 'authenticators', 'activities'].map((table): [string, string] => [
    `${table} row of a missing organization`,
    `SELECT t.organization_id FROM ${table} t LEFT JOIN organizations o ON o.id = t.organization_id WHERE o.id IS NULL`,
  ]),
  [
    'identity pointing to a missing or foreign sub-organization',
    `SELECT i.kind, i.value FROM sub_org_identities i LEFT JOIN organizations o ON o.id = i.sub_organization_id WHERE o.id IS NULL OR o.parent_organization_id IS DISTINCT FROM i.parent_organization_id`,
  ],
  [
    'API-key identity without its key',
    `SELECT i.value FROM sub_org_identities i WHERE i.kind = 'PUBLIC_KEY' AND NOT EXISTS (SELECT 1 FROM api_keys k WHERE k.organization_id = i.sub_organization_id AND k.public_key = i.value AND NOT k.is_session)`,
  ],
  [
    'sub-organization API key without its identity',
    `SELECT k.id FROM api_keys k JOIN organizations o ON o.id = k.organization_id WHERE o.parent_organization_id IS NOT NULL AND NOT k.is_session AND NOT EXISTS (SELECT 1 FROM sub_org_identities i WHERE i.sub_organization_id = k.organization_id AND i.kind = 'PUBLIC_KEY' AND i.value = k.public_key)`,
  ],
];

/** Every broken invariant of the store, one line each. */
async function brokenInvariants(store: Store): Promise<string[]> {
  const found: string[] = [];
  for (const [what, query] of INVARIANTS) {
    for (const row of await rows(store, query)) found.push(`${what}: ${JSON.stringify(row)}`);
  }
  return found;
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * What the store holds of one signup: its sub-organization (by its unique name), the
 * activities whose intent names it, the root key and the wallet account.
 */
async function footprint(store: Store, s: Signup, parentId: string) {
  const orgs = await rows(store, `SELECT id FROM organizations WHERE parent_organization_id = ${quote(parentId)} AND name = ${quote(s.name)}`);
  const acts = await rows(
    store,
    `SELECT a.id, a.status, ${result}->>'subOrganizationId' AS sub FROM activities a WHERE a.type = '${SUB.type}' AND ${intent}->>'subOrganizationName' = ${quote(s.name)}`,
  );
  const keys = await rows(store, `SELECT organization_id FROM api_keys WHERE public_key = ${quote(s.key.publicKey)}`);
  const accounts = orgs.length === 1 ? await rows(store, `SELECT address FROM wallet_accounts WHERE organization_id = ${quote(String(orgs[0]!.id))}`) : [];
  return { orgs, acts, keys, accounts };
}

/** A hash signed by `s`'s wallet, stamped with its own root key; the address it recovers to. */
async function signerOf(url: string, s: Signup): Promise<string> {
  const hash = hashMessage(`crash ${s.name}`);
  const body = envelopeText('sign_raw_payloads', s.organizationId!, {
    signWith: s.address!,
    payloads: [hash],
    encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
    hashFunction: 'HASH_FUNCTION_NO_OP',
  });
  const reply = await sendStamped(url, '/public/v1/submit/sign_raw_payloads', body, s.key);
  if (reply.status !== 200) return `no signature: ${reply.status} ${JSON.stringify(reply.body)}`;
  const [sig] = reply.body.activity.result.signRawPayloadsResult.signatures as Array<{ r: string; s: string; v: string }>;
  return recoverAddress({ hash, signature: { r: `0x${sig!.r}` as Hex, s: `0x${sig!.s}` as Hex, yParity: Number.parseInt(sig!.v, 16) } });
}

describe.each(storeKinds)('kill -9 under concurrent signups on %s', (kind: StoreKind) => {
  it(`given ${ROUNDS[kind]} rounds of ${SIGNUPS} concurrent signups with wallets killed at a random moment, when the server restarts on the same data, then every acknowledged signup survives and signs, every unanswered one exists fully or not at all, and no partial row remains`, async () => {
    const dir = kind === 'pglite' ? createTestDataDir() : undefined;
    const database = kind === 'postgres' ? await createTestDatabase() : undefined;
    const env: NodeJS.ProcessEnv = dir
      ? { WALLETKIT_DATA_DIR: dir.dataDir }
      : { DATABASE_URL: database!.url, WALLETKIT_MASTER_KEY: randomBytes(32).toString('hex') };
    const open = () => openStore(dir ? { dataDir: dir.dataDir } : { databaseUrl: database!.url, poolSize: 2 });
    let server: CliServer | undefined;
    try {
      // What `org create` and `proxy enable` run, in this process (each CLI boot costs seconds).
      const setup = await openServices(loadConfig(env));
      let org: CreatedOrganization;
      let configId: string;
      try {
        org = await createOrganization(setup.store, { name: `crash-${kind}` });
        configId = (await enableProxy(setup.store, setup.enclave, { organizationId: org.organizationId, origins: [APP] })).id;
      } finally {
        await setup.store.close();
      }
      const survivors: Signup[] = [];
      server = await startCli([], env);

      for (let round = 0; round < ROUNDS[kind]; round++) {
        const url = server.url;
        const signups: Signup[] = Array.from({ length: SIGNUPS }, (_, i) => {
          const key = generateP256KeyPair();
          const name = `r${round}-${i}-${randomBytes(4).toString('hex')}`;
          const apiKeys = [{ apiKeyName: 'device', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' as const }];
          // Even: the integrator's backend; odd: a browser through the proxy.
          return i % 2 === 0
            ? {
                name,
                via: 'activity' as const,
                key,
                body: envelopeText('create_sub_organization', org.organizationId, {
                  subOrganizationName: name,
                  rootUsers: [{ userName: name, apiKeys, authenticators: [], oauthProviders: [] }],
                  rootQuorumThreshold: 1,
                  wallet: ETH_WALLET,
                }),
              }
            : { name, via: 'proxy' as const, key, body: JSON.stringify({ userName: name, apiKeys, wallet: ETH_WALLET }) };
        });

        // The kill lands after a random number of acknowledgements, plus a random few ms.
        const killAfter = 2 + Math.floor(Math.random() * (SIGNUPS / 2 - 1));
        let acked = 0;
        let fireKill!: () => void;
        const victim = server;
        const killed = new Promise<void>((resolve) => (fireKill = resolve)).then(() => victim.kill());
        const inFlight = signups.map(async (s) => {
          try {
            s.reply =
              s.via === 'activity'
                ? await sendStamped(url, SUB.path, s.body, org.apiKey)
                : await sendRaw(url, '/v1/signup_v2', s.body, proxyHeaders(configId, APP));
            if (++acked === killAfter) setTimeout(fireKill, Math.floor(Math.random() * 15));
          } catch {
            // The connection died with the server: no reply.
          }
        });
        // Should every reply come before the kill fires, kill anyway (the round then proves less, asserted below).
        await Promise.all(inFlight);
        fireKill();
        await killed;
        tally.crashRound();

        const answered = signups.filter((s) => s.reply);
        const unanswered = signups.filter((s) => !s.reply);
        // A reply before the kill is a success: under load nothing may fail.
        tally.violations(
          'crash',
          `round ${round}: signups refused under load`,
          answered.filter((s) => s.reply!.status !== 200).map((s) => `${s.via} ${s.name}: ${s.reply!.status} ${JSON.stringify(s.reply!.body)}`),
        );
        for (const s of answered) {
          const b = s.reply!.body;
          s.organizationId = s.via === 'activity' ? b.activity.result[SUB.resultKey].subOrganizationId : b.organizationId;
          s.address = s.via === 'activity' ? b.activity.result[SUB.resultKey].wallet.addresses[0] : b.wallet.addresses[0];
          if (s.via === 'activity') expect(b.activity.status).toBe(COMPLETED);
        }
        expect(unanswered.length, `round ${round}: the kill must catch requests in flight`).toBeGreaterThan(0);

        // The recovered database, as the next process opens it.
        const store = await open();
        try {
          tally.violations('crash', `round ${round} (${kind}): broken invariants after kill -9`, await brokenInvariants(store));
          const lost: string[] = [];
          for (const s of answered) {
            const f = await footprint(store, s, org.organizationId);
            const held =
              f.orgs.length === 1 &&
              f.orgs[0]!.id === s.organizationId &&
              f.keys.some((k) => k.organization_id === s.organizationId) &&
              f.accounts.some((a) => a.address === s.address);
            if (!held) lost.push(`acknowledged ${s.via} signup ${s.name} (${s.organizationId}): ${JSON.stringify(f)}`);
          }
          tally.violations('crash', `round ${round} (${kind}): acknowledged signups lost`, lost);
          const partial: string[] = [];
          for (const s of unanswered) {
            const f = await footprint(store, s, org.organizationId);
            if (f.orgs.length === 0) {
              // Never committed: nothing of it anywhere.
              if (f.acts.length || f.keys.length) partial.push(`unanswered ${s.name} has no organization but ${JSON.stringify(f)}`);
              continue;
            }
            const id = String(f.orgs[0]!.id);
            const whole =
              f.orgs.length === 1 &&
              f.acts.length === 1 &&
              f.acts[0]!.status === COMPLETED &&
              f.acts[0]!.sub === id &&
              f.keys.length === 1 &&
              f.keys[0]!.organization_id === id &&
              f.accounts.length === 1;
            if (!whole) partial.push(`unanswered ${s.name} exists in part: ${JSON.stringify(f)}`);
            else Object.assign(s, { organizationId: id, address: String(f.accounts[0]!.address) });
          }
          tally.violations('crash', `round ${round} (${kind}): unanswered signups half-written`, partial);
          // Nothing else appeared: the sub-organizations are exactly the ones accounted for.
          const [count] = await rows(store, `SELECT count(*)::int AS n FROM organizations WHERE parent_organization_id = ${quote(org.organizationId)}`);
          expect(Number(count!.n)).toBe(survivors.length + signups.filter((s) => s.organizationId !== undefined).length);
        } finally {
          await store.close();
        }

        server = await startCli([], env);
        const restarted = server.url;
        // The integrator's backend retries its unanswered requests with the same bytes: a
        // committed one answers with the sub-organization the database holds, the others run now.
        const retries = unanswered.filter((u) => u.via === 'activity');
        const again = await Promise.all(retries.map((s) => sendStamped(restarted, SUB.path, s.body, org.apiKey)));
        const retried: string[] = [];
        for (const [i, s] of retries.entries()) {
          const reply = again[i]!;
          const got = reply.body?.activity?.result?.[SUB.resultKey];
          if (reply.status !== 200 || reply.body.activity.status !== COMPLETED) retried.push(`${s.name}: ${reply.status} ${JSON.stringify(reply.body)}`);
          else if (s.organizationId !== undefined && got.subOrganizationId !== s.organizationId)
            retried.push(`${s.name}: retry made ${got.subOrganizationId}, stored ${s.organizationId}`);
          else Object.assign(s, { organizationId: got.subOrganizationId, address: got.wallet.addresses[0] });
        }
        tally.violations('crash', `round ${round} (${kind}): retries after restart`, retried);
        survivors.push(...signups.filter((s) => s.organizationId !== undefined));

        // Every wallet known so far (earlier rounds too) still signs after this crash.
        const signers = await Promise.all(survivors.map((s) => signerOf(restarted, s)));
        const unsigned = survivors.flatMap((s, i) => (signers[i] === s.address ? [] : [`${s.via} ${s.name} (${s.address}): ${signers[i]}`]));
        tally.violations('crash', `round ${round} (${kind}): wallets that no longer sign`, unsigned);
      }
    } finally {
      await server?.kill();
      dir?.remove();
      await database?.drop();
    }
  }, 120_000);
});
