/**
 * `@walletkit/client/solana` and the Solana half of `kit.wallet`, against the real server:
 * transactions built with @solana/kit and signed through the Wallet Standard features verify
 * against the account's address; messages too; accounts of the wrong family are refused; the
 * wallet registers with Wallet Standard apps; signAndSendTransaction reaches the cluster's RPC.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AccountRole,
  address as solanaAddress,
  appendTransactionMessageInstruction,
  compileTransaction,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getPublicKeyFromAddress,
  getTransactionDecoder,
  getTransactionEncoder,
  isFullySignedTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  signatureBytes,
  verifySignature,
  type Address,
  type Blockhash,
} from '@solana/kit';
import type { Wallet, WalletAccount } from '@wallet-standard/base';
import type { ProxyTestServer } from '../../server/test/support/proxy';
import { createEthereumProvider, solanaAccount, type WalletKitClient } from '../src/index';
import { createSolanaWallet, registerSolanaWallet } from '../src/solana';
import { kitFor, startServer } from './support/kit';
import { loggedInKit, recordingConfirmer, type RecordingConfirmer } from './support/ethereum';

const MEMO_PROGRAM = solanaAddress('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
const BLOCKHASH = 'EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N' as Blockhash;

/** A @solana/kit memo transaction paid (and signed) by `feePayer`. */
function memoTransaction(version: 'legacy' | 0, feePayer: Address, memo = 'walletkit'): Uint8Array {
  const message = pipe(
    createTransactionMessage({ version: version as 0 }),
    (m) => setTransactionMessageFeePayer(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: BLOCKHASH, lastValidBlockHeight: 100n }, m),
    (m) =>
      appendTransactionMessageInstruction(
        { programAddress: MEMO_PROGRAM, accounts: [{ address: feePayer, role: AccountRole.WRITABLE_SIGNER }], data: new TextEncoder().encode(memo) },
        m,
      ),
  );
  return new Uint8Array(getTransactionEncoder().encode(compileTransaction(message)));
}

/** True when `signature` is `address`'s ed25519 signature of `message` (verified by @solana/kit). */
async function verifies(address: string, signature: Uint8Array, message: Uint8Array): Promise<boolean> {
  return verifySignature(await getPublicKeyFromAddress(solanaAddress(address)), signatureBytes(signature), message);
}

describe('Solana: Wallet Standard wallet and kit actions', () => {
  let server: ProxyTestServer;
  let kit: WalletKitClient;
  let ethAddress: string;
  let solAddress: string;
  let confirmer: RecordingConfirmer;
  let wallet: ReturnType<typeof createSolanaWallet>;
  let account: WalletAccount;

  beforeAll(async () => {
    server = await startServer();
    confirmer = recordingConfirmer();
    ({ kit, address: ethAddress } = await loggedInKit(server, { confirm: confirmer.confirm }));
    solAddress = (await kit.wallet.createWallet({ walletName: 'Solana', accounts: [solanaAccount(0)] })).addresses[0]!;
    wallet = createSolanaWallet(kit);
    [account] = (await wallet.features['standard:connect'].connect()).accounts as [WalletAccount];
  });
  afterAll(async () => {
    kit?.session.close();
    await server?.dispose();
  });

  it('given a session with a Solana account, when an app connects, then the wallet exposes exactly that account with its public key and the Solana features', async () => {
    expect(wallet.accounts).toEqual([account]);
    expect(account.address).toBe(solAddress);
    expect(Array.from(account.publicKey)).toEqual(
      Array.from(new Uint8Array(await crypto.subtle.exportKey('raw', await getPublicKeyFromAddress(solanaAddress(solAddress))))),
    );
    expect(account.features).toEqual(['solana:signMessage', 'solana:signTransaction']);
    expect(wallet.features['solana:signTransaction'].supportedTransactionVersions).toEqual(['legacy', 0]);
  });

  it.each(['legacy', 0] as const)(
    'given a @solana/kit %s transaction paid by the account, when signed through solana:signTransaction, then the signature in its slot verifies against the address and the transaction is fully signed',
    async (version) => {
      const unsigned = memoTransaction(version, solanaAddress(solAddress));
      const asked = confirmer.requests.length;

      const [{ signedTransaction }] = (await wallet.features['solana:signTransaction'].signTransaction({ account, transaction: unsigned })) as [
        { signedTransaction: Uint8Array },
      ];

      const decoded = getTransactionDecoder().decode(signedTransaction);
      const signature = decoded.signatures[solanaAddress(solAddress)];
      expect(signature).toBeTruthy();
      expect(await verifies(solAddress, signature!, new Uint8Array(decoded.messageBytes))).toBe(true);
      expect(isFullySignedTransaction(decoded)).toBe(true);
      expect(confirmer.requests.slice(asked)).toMatchObject([{ kind: 'solanaTransaction', address: solAddress, transaction: unsigned, send: false }]);
    },
  );

  it('given a message, when signed through solana:signMessage, then the ed25519 signature verifies against the address and the confirmation named it a Solana message', async () => {
    const message = new TextEncoder().encode('Sign in to walletkit');

    const [output] = await wallet.features['solana:signMessage'].signMessage({ account, message });

    expect(output!.signedMessage).toEqual(message);
    expect(await verifies(solAddress, output!.signature, message)).toBe(true);
    expect(confirmer.requests.at(-1)).toMatchObject({ kind: 'message', family: 'solana', address: solAddress, message });
  });

  it('given a Solana account, when asked for an EIP-191 signature (kit or provider), then ERR_UNSUPPORTED_ACCOUNT / 4100 and nothing is confirmed; an Ethereum account for a Solana signature is ERR_UNSUPPORTED_ACCOUNT too', async () => {
    const asked = confirmer.requests.length;

    await expect(kit.wallet.signMessage({ address: solAddress, message: 'hello' })).rejects.toMatchObject({ code: 'ERR_UNSUPPORTED_ACCOUNT' });
    await expect(createEthereumProvider(kit).request({ method: 'personal_sign', params: ['0x6869', solAddress] })).rejects.toMatchObject({ code: 4100 });
    await expect(kit.wallet.signSolanaMessage({ address: ethAddress, message: new Uint8Array([1]) })).rejects.toMatchObject({
      code: 'ERR_UNSUPPORTED_ACCOUNT',
    });
    await expect(kit.wallet.signSolanaTransaction({ address: ethAddress, transaction: memoTransaction(0, solanaAddress(solAddress)) })).rejects.toMatchObject({
      code: 'ERR_UNSUPPORTED_ACCOUNT',
    });
    expect(confirmer.requests.length).toBe(asked);
  });

  it('given a transaction the account does not have to sign, or bytes that are no transaction, when signed, then ERR_INVALID_TRANSACTION from the server', async () => {
    const stranger = (await generateKeyPairSigner()).address;
    await expect(kit.wallet.signSolanaTransaction({ address: solAddress, transaction: memoTransaction(0, stranger), confirm: false })).rejects.toMatchObject({
      code: 'ERR_INVALID_TRANSACTION',
      status: 400,
    });
    await expect(kit.wallet.signSolanaTransaction({ address: solAddress, transaction: new Uint8Array([1, 2, 3]), confirm: false })).rejects.toMatchObject({
      code: 'ERR_INVALID_TRANSACTION',
      status: 400,
    });
  });

  it('given a page with a Wallet Standard app, when the wallet registers before and after the app is ready, then the app receives the wallet both ways', async () => {
    const window = new EventTarget();
    const registered: Wallet[] = [];
    const api = {
      register: (...wallets: Wallet[]) => {
        registered.push(...wallets);
        return () => undefined;
      },
    };
    window.addEventListener('wallet-standard:register-wallet', (event) => (event as unknown as { detail: (a: typeof api) => void }).detail(api));
    (globalThis as { window?: EventTarget }).window = window;
    try {
      const standard = registerSolanaWallet(kit, { name: 'Acme Wallet' });
      expect(registered).toEqual([standard]);
      // An app that loads later announces itself; the wallet answers it.
      const appReady = Object.assign(new Event('wallet-standard:app-ready'), { detail: api });
      window.dispatchEvent(appReady);
      expect(registered).toEqual([standard, standard]);
      expect(standard).toMatchObject({
        version: '1.0.0',
        name: 'Acme Wallet',
        chains: ['solana:mainnet', 'solana:devnet', 'solana:testnet', 'solana:localnet'],
      });
      expect(standard.icon).toMatch(/^data:image\/svg\+xml;base64,/);
    } finally {
      delete (globalThis as { window?: EventTarget }).window;
    }
  });

  it('given an RPC for devnet, when an app signs and sends, then the cluster receives the signed wire transaction and the app gets its signature', async () => {
    let received: Uint8Array | undefined;
    const rpc: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const call = JSON.parse(body) as { id: number; method: string; params: [string, { encoding: string }] };
        received = new Uint8Array(Buffer.from(call.params[0], 'base64'));
        const signature = getBase58Decoder().decode(received.subarray(1, 65));
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({ jsonrpc: '2.0', id: call.id, result: call.method === 'sendTransaction' && call.params[1].encoding === 'base64' ? signature : null }),
        );
      });
    });
    await new Promise<void>((resolve) => rpc.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(rpc.address() as { port: number }).port}`;
      const sender = createSolanaWallet(kit, { rpcUrls: { 'solana:devnet': url } });
      const [connected] = (await sender.features['standard:connect'].connect()).accounts;
      const asked = confirmer.requests.length;

      const [output] = await sender.features['solana:signAndSendTransaction']!.signAndSendTransaction({
        account: connected!,
        chain: 'solana:devnet',
        transaction: memoTransaction(0, solanaAddress(solAddress)),
      });

      const decoded = getTransactionDecoder().decode(received!);
      expect(await verifies(solAddress, output!.signature, new Uint8Array(decoded.messageBytes))).toBe(true);
      expect(confirmer.requests.slice(asked)).toMatchObject([{ kind: 'solanaTransaction', send: true }]);
    } finally {
      await new Promise((resolve) => rpc.close(resolve));
    }
  });

  it('given a connected app, when the user logs out, then the wallet has no accounts and the app heard a change; a logged-out connect fails with ERR_NO_SESSION, a silent one returns no accounts', async () => {
    const other = kitFor(server);
    const { kit: user } = await loggedInKit(server);
    await user.wallet.createWallet({ walletName: 'Solana', accounts: [solanaAccount(0)] });
    const standard = createSolanaWallet(user);
    await standard.features['standard:connect'].connect();
    const changes: number[] = [];
    standard.features['standard:events'].on('change', ({ accounts }) => changes.push(accounts!.length));

    await user.session.logout();

    expect(standard.accounts).toEqual([]);
    expect(changes).toEqual([0]);
    const loggedOut = createSolanaWallet(other);
    await expect(loggedOut.features['standard:connect'].connect()).rejects.toMatchObject({ code: 'ERR_NO_SESSION' });
    expect(await loggedOut.features['standard:connect'].connect({ silent: true })).toEqual({ accounts: [] });
    user.session.close();
    other.session.close();
  });
});
