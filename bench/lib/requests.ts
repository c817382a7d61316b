/**
 * The requests the figures send, each unique (a new activity every time: no idempotent replay)
 * and stamped as the real client stamps them. `runTag` keeps bodies of one run apart from the
 * bodies of an earlier run on the same database.
 */
import { randomBytes } from 'node:crypto';
import { operations, queries } from '@walletkit/protocol';
import { serializeTransaction } from 'viem';
import { newKey, stamp } from './client-crypto.js';
import type { Req } from './load.js';
import { type Account, envelope, ETH_WALLET, type World } from './world.js';

const runTag = randomBytes(4).toString('hex');
/** Numbers every request of the run: `i` restarts at each measurement, this does not. */
let sequence = 0;
const JSON_TYPE = { 'content-type': 'application/json' };

/** A submit request stamped by `key`. */
function submit(op: keyof typeof operations, organizationId: string, parameters: unknown, key: Account['key']): Req {
  const body = envelope(op, organizationId, parameters);
  return { path: operations[op].path, body, headers: { ...JSON_TYPE, 'x-stamp': stamp(body, key) } };
}

/** `sign_raw_payloads` of one UTF-8 payload (keccak-256), stamped by the probe. */
export function signRawPayloads(probe: Account, _i?: number): Req {
  const i = sequence++;
  return submit(
    'sign_raw_payloads',
    probe.organizationId,
    { signWith: probe.address, payloads: [`bench ${runTag} payload ${i}`], encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', hashFunction: 'HASH_FUNCTION_KECCAK256' },
    probe.key,
  );
}

const RECIPIENT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

/** An unsigned EIP-1559 transfer (nonce `i`, so each one differs), hex without 0x as @turnkey/viem sends it. */
export function unsignedEip1559(i: number): string {
  return serializeTransaction({
    type: 'eip1559',
    chainId: 1,
    nonce: i,
    to: RECIPIENT,
    value: 1_000_000_000_000n + BigInt(i),
    gas: 21_000n,
    maxFeePerGas: 30_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
  }).slice(2);
}

/** `sign_transaction` of an unsigned EIP-1559 transaction from the probe's Ethereum address. */
export function signTransaction(probe: Account, _i?: number): Req {
  const i = sequence++;
  return submit(
    'sign_transaction',
    probe.organizationId,
    { signWith: probe.address, unsignedTransaction: unsignedEip1559(i), type: 'TRANSACTION_TYPE_ETHEREUM' },
    probe.key,
  );
}

/** A stamped read of the probe's own organization. */
function query(name: 'list_wallets' | 'list_wallet_accounts', probe: Account, extra: Record<string, unknown>): Req {
  const body = JSON.stringify({ organizationId: probe.organizationId, ...extra });
  return { path: queries[name].path, body, headers: { ...JSON_TYPE, 'x-stamp': stamp(body, probe.key) } };
}

export const listWallets = (probe: Account): Req => query('list_wallets', probe, {});
export const listWalletAccounts = (probe: Account): Req => query('list_wallet_accounts', probe, { walletId: probe.walletId });

/**
 * Signup with a wallet as an integrator's backend does it: `create_sub_organization` stamped by
 * the parent organization's root API key, one root user (email, one P-256 API key) and one
 * Ethereum account wallet.
 */
export function createSubOrganization(world: World, _i?: number): Req {
  const i = sequence++;
  const email = `signup-${runTag}-${i}@bench.test`;
  return submit(
    'create_sub_organization',
    world.parent.organizationId,
    {
      subOrganizationName: `signup-${runTag}-${i}`,
      rootUsers: [
        {
          userName: email,
          userEmail: email,
          apiKeys: [{ apiKeyName: 'device', publicKey: newKey().publicKey, curveType: 'API_KEY_CURVE_P256' }],
          authenticators: [],
          oauthProviders: [],
        },
      ],
      rootQuorumThreshold: 1,
      wallet: ETH_WALLET,
    },
    world.parent.key,
  );
}

/** The same request sent to the ceiling server's `route`. */
export const toCeiling = (req: Req, route: '/sign' | '/read'): Req => ({ ...req, path: route });
