/**
 * What the chain-facing client tests share: a logged-in kit (email OTP against the real
 * server) configured for the local Hardhat chain, and a Confirmer that records every request
 * and can be told to decline.
 */
import type { ProxyTestServer } from '../../../server/test/support/proxy';
import type { LocalChain } from '../../../server/test/support/chain';
import { userRejected, type ChainConfig, type Confirmer, type SignatureRequest, type WalletKitClient, type WalletKitConfig } from '../../src/index';
import { freshEmail, kitFor, outboxCode } from './kit';

export { DEV_ACCOUNTS, fund, startLocalChain, type LocalChain } from '../../../server/test/support/chain';

/** The kit's view of the local chain. */
export function hardhatChain(chain: LocalChain): ChainConfig {
  return { id: chain.chainId, name: 'Hardhat', rpcUrl: chain.rpcUrl, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } };
}

/** A Confirmer that records what it is asked and approves, unless `decline` is set. */
export interface RecordingConfirmer {
  confirm: Confirmer;
  requests: SignatureRequest[];
  decline: boolean;
}

export function recordingConfirmer(): RecordingConfirmer {
  const recorder: RecordingConfirmer = {
    requests: [],
    decline: false,
    confirm: async (request) => {
      recorder.requests.push(request);
      if (recorder.decline) throw userRejected();
    },
  };
  return recorder;
}

/** Signs up a fresh email on `server` and returns the logged-in kit with its first (Ethereum) account. */
export async function loggedInKit(
  server: ProxyTestServer,
  overrides: Partial<WalletKitConfig> = {},
): Promise<{ kit: WalletKitClient; address: `0x${string}` }> {
  const kit = kitFor(server, overrides);
  const email = freshEmail('chain');
  const { otpId } = await kit.auth.startEmailOtp(email);
  await kit.auth.completeOtp({ otpId, code: await outboxCode(server.url, email) });
  const [account] = await kit.wallet.listAccounts();
  return { kit, address: account!.address as `0x${string}` };
}

/** One JSON-RPC call to the chain, outside the kit (what the test checks with). */
export async function chainRpc<T>(chain: LocalChain, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(chain.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}
