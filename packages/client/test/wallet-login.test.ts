/**
 * External-wallet login against the real server: an EIP-1193 provider backed by a viem local
 * account signs up (an organization with a wallet), logs in again from a fresh store to the
 * same organization, and a refused signature leaves no session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, hexToBytes } from '@walletkit/crypto';
import type { ProxyTestServer } from '../../server/test/support/proxy';
import { isWalletKitError, type Eip1193Provider } from '../src/index';
import { kitFor, startServer } from './support/kit';

/** An injected wallet: a viem local account; `reject` makes it refuse every signature (EIP-1193 code 4001). */
function viemProvider(privateKey: `0x${string}`, reject = false): Eip1193Provider {
  const account = privateKeyToAccount(privateKey);
  return {
    async request({ method, params }) {
      if (method === 'eth_requestAccounts') return [account.address];
      if (method === 'personal_sign') {
        if (reject) throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
        return account.signMessage({ message: { raw: (params as [`0x${string}`])[0] } });
      }
      throw new Error(`unsupported ${method}`);
    },
  };
}

describe('external-wallet login against the real server', () => {
  let server: ProxyTestServer;
  const privateKey = generatePrivateKey();
  const compressed = bytesToHex(secp256k1.getPublicKey(hexToBytes(privateKey.slice(2)), true));
  let organizationId: string;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.dispose());

  it('given a wallet no account holds, when it connects, then an organization with a wallet exists, the wallet key is its API key and the session key stamps an accepted activity', async () => {
    const kit = kitFor(server);
    const session = await kit.auth.connectWallet({ provider: viemProvider(privateKey) });
    organizationId = session.organizationId;

    expect(organizationId).not.toBe(server.org.organizationId);
    expect(session.publicKey).not.toBe(compressed);
    const { user } = await kit.activity.query('get_user', { userId: session.userId });
    expect(user.apiKeys.map((k) => k.credential.publicKey)).toContain(compressed);
    const accounts = await kit.wallet.listAccounts();
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' });
    const { walletId } = await kit.activity.submit('create_wallet', { walletName: 'second', accounts: [] });
    expect(walletId).toBeTruthy();
    kit.session.close();
  });

  it('given the same wallet in a fresh browser profile, when it connects, then it logs in to the same organization with a new session key', async () => {
    const kit = kitFor(server);
    const session = await kit.auth.connectWallet({ provider: viemProvider(privateKey) });
    expect(session.organizationId).toBe(organizationId);
    const whoami = await kit.activity.query('whoami', {});
    expect(whoami.organizationId).toBe(organizationId);
    expect((await kit.wallet.listWallets()).map((w) => w.walletName)).toEqual(['Default wallet', 'second']);
    kit.session.close();
  });

  it('given a user who rejects the signature, when the wallet connects, then it is ERR_WALLET_REJECTED and there is no session', async () => {
    const kit = kitFor(server);
    const error = await kit.auth.connectWallet({ provider: viemProvider(generatePrivateKey(), true) }).catch((e: unknown) => e);
    expect(isWalletKitError(error, 'ERR_WALLET_REJECTED')).toBe(true);
    expect(kit.session.current()).toBeUndefined();
    expect(await kit.session.restore()).toBeUndefined();
    kit.session.close();
  });
});
