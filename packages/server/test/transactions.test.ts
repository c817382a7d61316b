/**
 * sign_transaction and sign_raw_payload through the HTTP layer. Ethereum: every transaction
 * type viem serializes comes back signed by the account (viem and ethers recover the sender),
 * EIP-7702 authorizations signed as raw payloads recover, and legacy, EIP-1559 and EIP-7702
 * transactions are mined on a local Hardhat chain. Solana: transactions built with
 * @solana/kit get a signature in the account's slot that verifies over the message. Policies
 * read `eth.tx.to` / `eth.tx.value`. Every refusal is a 4xx with a stable code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPublicClient,
  http,
  parseTransaction,
  recoverTransactionAddress,
  serializeTransaction,
  toRlp,
  type Hex,
  type SignedAuthorization,
  type TransactionSerializable,
} from 'viem';
import { hardhat } from 'viem/chains';
import { privateKeyToAccount } from 'viem/accounts';
import { recoverAuthorizationAddress } from 'viem/utils';
import { Transaction as EthersTransaction } from 'ethers';
import { ed25519 } from '@noble/curves/ed25519.js';
import {
  AccountRole,
  address as solanaAddress,
  appendTransactionMessageInstruction,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Encoder,
  getTransactionDecoder,
  getTransactionEncoder,
  isFullySignedTransaction,
  partiallySignTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Blockhash,
  type KeyPairSigner,
} from '@solana/kit';
import { evaluatePolicyExpression, parsePolicyExpression, type Value } from '../src/activity/policy-language';
import { ethereumTransactionFields } from '../src/activity/policy-transaction';
import { startTestServer, type ActivityClient, type Reply, type TestServer } from './support/harness';
import { addOrganization, addUser, expectError } from './support/members';
import { storeKinds } from './support/stores';
import { DEV_ACCOUNTS, fund, startLocalChain, type LocalChain } from './support/chain';

const ETH = { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' } as const;
const SOLANA = { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' } as const;

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const DELEGATE = '0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B';
const CHAIN_ID = 31337;
/** Any third party's key, to sign the authorizations an EIP-7702 transaction carries. */
const AUTHORITY = privateKeyToAccount(DEV_ACCOUNTS[2].privateKey);

type EthereumType = 'legacy' | 'eip2930' | 'eip1559' | 'eip7702';

/** The body of a transaction of each type (EIP-155 chain id included). */
async function unsignedOf(type: EthereumType, overrides: Partial<TransactionSerializable> = {}): Promise<TransactionSerializable> {
  const base = { chainId: CHAIN_ID, nonce: 3, gas: 90_000n, to: RECIPIENT as Hex, value: 10n ** 15n, data: '0xdeadbeef' as Hex };
  const accessList = [{ address: DELEGATE as Hex, storageKeys: [`0x${'01'.repeat(32)}` as Hex] }];
  switch (type) {
    case 'legacy':
      return { ...base, type, gasPrice: 2_000_000_000n, ...overrides } as TransactionSerializable;
    case 'eip2930':
      return { ...base, type, gasPrice: 2_000_000_000n, accessList, ...overrides } as TransactionSerializable;
    case 'eip1559':
      return { ...base, type, maxFeePerGas: 3_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n, accessList, ...overrides } as TransactionSerializable;
    case 'eip7702': {
      const authorization = await AUTHORITY.signAuthorization({ chainId: CHAIN_ID, address: DELEGATE as Hex, nonce: 0 });
      return {
        ...base,
        type,
        maxFeePerGas: 3_000_000_000n,
        maxPriorityFeePerGas: 1_000_000_000n,
        authorizationList: [authorization],
        ...overrides,
      } as TransactionSerializable;
    }
  }
}

/** The unsigned serialization as sign_transaction takes it (hex without 0x, as @turnkey/viem sends). */
const wire = (tx: TransactionSerializable) => serializeTransaction(tx).slice(2);

async function signTransaction(
  client: ActivityClient,
  signWith: string,
  unsignedTransaction: string,
  type: 'TRANSACTION_TYPE_ETHEREUM' | 'TRANSACTION_TYPE_SOLANA',
): Promise<string> {
  return (await client.run('sign_transaction', { signWith, unsignedTransaction, type })).signedTransaction;
}

const submitTransaction = (
  client: ActivityClient,
  signWith: string,
  unsignedTransaction: string,
  type: 'TRANSACTION_TYPE_ETHEREUM' | 'TRANSACTION_TYPE_SOLANA' = 'TRANSACTION_TYPE_ETHEREUM',
) => client.submit('sign_transaction', { signWith, unsignedTransaction, type });

/** A signed authorization from sign_raw_payload's `{r, s, v}` (hex without 0x). */
function authorizationOf(auth: { chainId: number; address: string; nonce: number }, sig: { r: string; s: string; v: string }): SignedAuthorization {
  return { ...auth, address: auth.address as Hex, r: `0x${sig.r}`, s: `0x${sig.s}`, yParity: Number.parseInt(sig.v, 16) };
}

const BLOCKHASH = { blockhash: 'GfVcyD4kkTrj4bKc7WA9sZCin9JDbdT4Zkd3EittNR1W' as Blockhash, lastValidBlockHeight: 1000n };
const MEMO_PROGRAM = solanaAddress('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

/**
 * A kit transaction paid by `feePayer`, with `cosigner` as a second required signer when given
 * and, for v0, two read-only accounts moved into an address lookup table.
 */
function solanaTransaction(version: 'legacy' | 0, feePayer: Address, cosigner?: KeyPairSigner, lookup?: { table: Address; addresses: Address[] }): Uint8Array {
  const accounts = [
    { address: feePayer, role: AccountRole.WRITABLE_SIGNER },
    ...(cosigner ? [{ address: cosigner.address, role: AccountRole.READONLY_SIGNER }] : []),
    ...(lookup?.addresses ?? []).map((address) => ({ address, role: AccountRole.READONLY })),
  ];
  const instruction = { programAddress: MEMO_PROGRAM, accounts, data: new TextEncoder().encode('walletkit') };
  const message = pipe(
    createTransactionMessage({ version }),
    (m) => setTransactionMessageFeePayer(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(BLOCKHASH, m),
    (m) => appendTransactionMessageInstruction(instruction, m),
  );
  // kit types the two versions apart; one builder for both is simpler to read than two.
  const compiled =
    lookup && version === 0 ? compressTransactionMessageUsingAddressLookupTables(message as never, { [lookup.table]: lookup.addresses }) : message;
  return new Uint8Array(getTransactionEncoder().encode(compileTransaction(compiled as never)));
}

const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const bytesOf = (hex: string) => new Uint8Array(Buffer.from(hex, 'hex'));

/** The reply with the one value that names the request (an address) blanked, to compare refusals. */
function withoutName(reply: Reply, name: string): unknown {
  return JSON.parse(JSON.stringify(reply.body).split(name).join('<signWith>'));
}

describe.each(storeKinds)('sign_transaction and sign_raw_payload: %s', (kind) => {
  let server: TestServer;
  let client: ActivityClient;
  let ethAddress: string;
  let solAddress: string;
  let theirEthAddress: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    client = server.client;
    [ethAddress, solAddress] = (await client.run('create_wallet', { walletName: 'Transactions', accounts: [ETH, SOLANA] })).addresses as [string, string];
    const other = await addOrganization(server);
    [theirEthAddress] = (await other.client.run('create_wallet', { walletName: 'Theirs', accounts: [ETH] })).addresses as [string];
  });
  afterAll(() => server?.dispose());

  it.each(['legacy', 'eip2930', 'eip1559', 'eip7702'] as const)(
    'given an unsigned %s transaction serialized by viem, when signed, then viem and ethers recover the account as sender and the fields are untouched',
    async (type) => {
      const unsigned = await unsignedOf(type);
      const signed = `0x${await signTransaction(client, ethAddress, wire(unsigned), 'TRANSACTION_TYPE_ETHEREUM')}` as Hex;

      expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(ethAddress);
      expect(EthersTransaction.from(signed).from).toBe(ethAddress);
      const { r, s, v, yParity, ...fields } = parseTransaction(signed);
      expect(serializeTransaction(fields as TransactionSerializable)).toBe(serializeTransaction(unsigned));
      if (type === 'legacy') expect(v).toBe(BigInt(CHAIN_ID * 2 + 35 + yParity!)); // EIP-155
      expect(BigInt(s!)).toBeLessThanOrEqual(0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n); // low-S
      expect(r).toMatch(/^0x[0-9a-f]+$/);
    },
  );

  it('given the unsigned transaction with a 0x prefix, when signed, then the result is the same hex without 0x', async () => {
    const unsigned = wire(await unsignedOf('eip1559', { nonce: 9 }));
    const plain = await signTransaction(client, ethAddress, unsigned, 'TRANSACTION_TYPE_ETHEREUM');
    const prefixed = await signTransaction(client, ethAddress, `0x${unsigned}`, 'TRANSACTION_TYPE_ETHEREUM');
    expect(prefixed).toBe(plain); // RFC 6979: deterministic
    expect(plain).toMatch(/^02[0-9a-f]+$/);
  });

  it.each(['HASH_FUNCTION_KECCAK256', 'HASH_FUNCTION_NO_OP'] as const)(
    'given an EIP-7702 authorization as a raw payload with %s, when signed, then viem recovers the account as its authority',
    async (hashFunction) => {
      const auth = { address: DELEGATE, chainId: CHAIN_ID, nonce: 5 };
      const sig = await client.run('sign_raw_payload', {
        signWith: ethAddress,
        payload: JSON.stringify(auth),
        encoding: 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION',
        hashFunction,
      });
      expect(await recoverAuthorizationAddress({ authorization: authorizationOf(auth, sig) })).toBe(ethAddress);
    },
  );

  it('given @turnkey/viem-shaped payloads (an EIP-191 digest with NO_OP, EIP-712 JSON with NO_OP), when signed, then they recover', async () => {
    const typed = {
      domain: { name: 'Mail', version: '1', chainId: CHAIN_ID, verifyingContract: DELEGATE as Hex },
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        Note: [{ name: 'body', type: 'string' }],
      },
      primaryType: 'Note',
      message: { body: 'hello' },
    } as const;
    const { hashTypedData, hashMessage, recoverAddress } = await import('viem');
    const typedSig = await client.run('sign_raw_payload', {
      signWith: ethAddress,
      payload: JSON.stringify(typed),
      encoding: 'PAYLOAD_ENCODING_EIP712',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    });
    const digest = hashTypedData(typed as never);
    expect(await recoverAddress({ hash: digest, signature: { r: `0x${typedSig.r}`, s: `0x${typedSig.s}`, yParity: Number(typedSig.v) } })).toBe(ethAddress);
    const messageSig = await client.run('sign_raw_payload', {
      signWith: ethAddress,
      payload: hashMessage('hi'),
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    });
    expect(
      await recoverAddress({ hash: hashMessage('hi'), signature: { r: `0x${messageSig.r}`, s: `0x${messageSig.s}`, yParity: Number(messageSig.v) } }),
    ).toBe(ethAddress);
  });

  it.each([
    ['legacy', undefined],
    ['v0', undefined],
    ['legacy with a second signer', 'cosigner'],
    ['v0 with a second signer and an address lookup table', 'cosigner+lookup'],
  ] as const)('given a @solana/kit %s transaction, when signed, then the account slot verifies over the message and kit decodes it', async (name, extra) => {
    const version = name.startsWith('v0') ? 0 : 'legacy';
    const cosigner = extra ? await generateKeyPairSigner() : undefined;
    const lookup =
      extra === 'cosigner+lookup'
        ? { table: (await generateKeyPairSigner()).address, addresses: [(await generateKeyPairSigner()).address, (await generateKeyPairSigner()).address] }
        : undefined;
    const unsigned = solanaTransaction(version, solanaAddress(solAddress), cosigner, lookup);

    const signed = bytesOf(await signTransaction(client, solAddress, hexOf(unsigned), 'TRANSACTION_TYPE_SOLANA'));

    const decoded = getTransactionDecoder().decode(signed);
    const signature = decoded.signatures[solanaAddress(solAddress)];
    expect(signature).toBeTruthy();
    expect(ed25519.verify(signature!, new Uint8Array(decoded.messageBytes), new Uint8Array(getBase58Encoder().encode(solAddress)))).toBe(true);
    expect(signed.length).toBe(unsigned.length);
    if (lookup) expect(decoded.messageBytes[0]).toBe(0x80); // v0, the table kept
    if (cosigner) {
      expect(isFullySignedTransaction(decoded)).toBe(false);
      const complete = await partiallySignTransaction([cosigner.keyPair], decoded);
      expect(isFullySignedTransaction(complete)).toBe(true);
      expect(complete.signatures[solanaAddress(solAddress)]).toEqual(signature);
    } else {
      expect(isFullySignedTransaction(decoded)).toBe(true);
    }
  });

  it('given a Solana transaction whose required signers do not include the account, then ERR_INVALID_TRANSACTION', async () => {
    const stranger = await generateKeyPairSigner();
    const unsigned = solanaTransaction(0, stranger.address);
    expectError(await submitTransaction(client, solAddress, hexOf(unsigned), 'TRANSACTION_TYPE_SOLANA'), 400, 'ERR_INVALID_TRANSACTION', 'unsignedTransaction');
  });

  it('given a key of the wrong curve for the transaction type, then ERR_INVALID_TRANSACTION both ways', async () => {
    const solanaTx = hexOf(solanaTransaction('legacy', solanaAddress(solAddress)));
    expectError(await submitTransaction(client, ethAddress, solanaTx, 'TRANSACTION_TYPE_SOLANA'), 400, 'ERR_INVALID_TRANSACTION');
    expectError(await submitTransaction(client, solAddress, wire(await unsignedOf('eip1559')), 'TRANSACTION_TYPE_ETHEREUM'), 400, 'ERR_INVALID_TRANSACTION');
  });

  it.each([
    ['odd-length hex', async () => '02c'],
    ['an empty list', async () => 'c0'],
    ['an unknown type byte', async () => '05c0'],
    ['trailing bytes', async () => `${wire(await unsignedOf('eip1559'))}00`],
    ['a signed transaction', async () => (await AUTHORITY.signTransaction(await unsignedOf('eip1559'))).slice(2)],
    // viem refuses to serialize chain id 0, hence the hand-made RLP.
    ['chain id 0', async () => `02${toRlp(['0x', '0x01', '0x01', '0x02', '0x5208', RECIPIENT as Hex, '0x01', '0x', []]).slice(2)}`],
    [
      'a legacy transaction without chain id',
      async () => serializeTransaction({ type: 'legacy', nonce: 0, gas: 21000n, gasPrice: 1n, to: RECIPIENT as Hex, value: 1n }).slice(2),
    ],
    [
      'an EIP-7702 transaction without authorizations',
      async () => `04${toRlp(['0x7a69', '0x01', '0x01', '0x02', '0x5208', RECIPIENT as Hex, '0x01', '0x', [], []]).slice(2)}`,
    ],
  ])('given %s, then ERR_INVALID_TRANSACTION (400) on unsignedTransaction', async (_name, make) => {
    const reply = await submitTransaction(client, ethAddress, await make());
    expectError(reply, 400, 'ERR_INVALID_TRANSACTION', 'unsignedTransaction');
  });

  it('given a Solana transaction that is truncated or has trailing bytes, then ERR_INVALID_TRANSACTION', async () => {
    const unsigned = solanaTransaction(0, solanaAddress(solAddress));
    for (const bad of [unsigned.subarray(0, unsigned.length - 1), new Uint8Array([...unsigned, 0])]) {
      expectError(await submitTransaction(client, solAddress, hexOf(bad), 'TRANSACTION_TYPE_SOLANA'), 400, 'ERR_INVALID_TRANSACTION', 'unsignedTransaction');
    }
  });

  it('given a non-hex unsignedTransaction or an unknown type, then the schema refuses it with 400', async () => {
    const notHex = await submitTransaction(client, ethAddress, 'zz');
    expect(notHex.status).toBe(400);
    const badType = await client.submit('sign_transaction', {
      signWith: ethAddress,
      unsignedTransaction: 'c0',
      type: 'TRANSACTION_TYPE_BITCOIN' as 'TRANSACTION_TYPE_ETHEREUM',
    });
    expect(badType.status).toBe(400);
  });

  it("given another organization's account or an unknown address, then the same ERR_WALLET_ACCOUNT_NOT_FOUND reply", async () => {
    const unsigned = wire(await unsignedOf('eip1559', { nonce: 12 }));
    const unknown = privateKeyToAccount(`0x${'42'.repeat(32)}`).address;
    const theirs = await submitTransaction(client, theirEthAddress, unsigned);
    const nobody = await submitTransaction(client, unknown, unsigned);
    expectError(theirs, 404, 'ERR_WALLET_ACCOUNT_NOT_FOUND', 'signWith');
    expectError(nobody, 404, 'ERR_WALLET_ACCOUNT_NOT_FOUND', 'signWith');
    expect(withoutName(theirs, theirEthAddress)).toEqual(withoutName(nobody, unknown));
    const raw = await client.submit('sign_raw_payload', {
      signWith: theirEthAddress,
      payload: `0x${'ab'.repeat(32)}`,
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    });
    expectError(raw, 404, 'ERR_WALLET_ACCOUNT_NOT_FOUND', 'signWith');
  });

  it('given a bad raw payload, then ERR_INVALID_PAYLOAD names the payload field', async () => {
    const reply = await client.submit('sign_raw_payload', {
      signWith: ethAddress,
      payload: 'abc',
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    });
    expectError(reply, 400, 'ERR_INVALID_PAYLOAD', 'payload');
    const sha = await client.submit('sign_raw_payload', {
      signWith: ethAddress,
      payload: '{}',
      encoding: 'PAYLOAD_ENCODING_EIP712',
      hashFunction: 'HASH_FUNCTION_SHA256',
    });
    expectError(sha, 400, 'ERR_INVALID_PAYLOAD', 'payload');
  });
});

describe('eth.tx in the policy language', () => {
  const evaluate = (src: string, env: Record<string, Value>) => evaluatePolicyExpression(parsePolicyExpression(src), new Map(Object.entries(env)));

  it('given wei amounts beyond 2^53, then comparisons are exact (bigint values and literals)', () => {
    const env = { eth: { tx: { value: 10n ** 18n + 1n, nonce: 3n } } };
    expect(evaluate('eth.tx.value > 1000000000000000000', env)).toBe(true);
    expect(evaluate('eth.tx.value <= 1000000000000000000', env)).toBe(false);
    expect(evaluate('eth.tx.value == 1000000000000000001', env)).toBe(true);
    expect(evaluate('eth.tx.nonce == 3 && eth.tx.nonce < 3.5 && eth.tx.nonce in [1, 2, 3]', env)).toBe(true);
    expect(evaluate("eth.tx.value == '1000000000000000001'", env)).toBe(false);
  });

  it('given an address in checksum and in lowercase spelling, then they are equal; other strings stay case-sensitive', () => {
    const env = { eth: { tx: { to: RECIPIENT.toLowerCase(), data: '0xa9059CBB00' } } };
    expect(evaluate(`eth.tx.to == '${RECIPIENT}'`, env)).toBe(true);
    expect(evaluate(`eth.tx.to in ['${DELEGATE}', '${RECIPIENT}']`, env)).toBe(true);
    expect(evaluate("eth.tx.data[0..10] == '0xa9059cbb'", env)).toBe(true);
    expect(evaluate("'Abc' == 'abc'", env)).toBe(false);
  });

  it('given sign_transaction parameters, then eth.tx carries the parsed fields; anything else has no eth.tx', async () => {
    const unsigned = wire(await unsignedOf('eip1559'));
    expect(ethereumTransactionFields('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_ETHEREUM', unsignedTransaction: unsigned })).toEqual({
      to: RECIPIENT.toLowerCase(),
      value: 10n ** 15n,
      chain_id: 31337n,
      nonce: 3n,
      gas: 90_000n,
      max_fee_per_gas: 3_000_000_000n,
      max_priority_fee_per_gas: 1_000_000_000n,
      data: '0xdeadbeef',
    });
    expect(ethereumTransactionFields('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_SOLANA', unsignedTransaction: unsigned })).toBeUndefined();
    expect(ethereumTransactionFields('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_ETHEREUM', unsignedTransaction: 'c0' })).toBeUndefined();
    expect(
      ethereumTransactionFields('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', { type: 'TRANSACTION_TYPE_ETHEREUM', unsignedTransaction: unsigned }),
    ).toBeUndefined();
  });
});

describe('policies over sign_transaction (pglite)', () => {
  let server: TestServer;
  let ethAddress: string;
  let user: ActivityClient;

  beforeAll(async () => {
    server = await startTestServer('pglite');
    [ethAddress] = (await server.client.run('create_wallet', { walletName: 'Policy', accounts: [ETH] })).addresses as [string];
    const member = await addUser(server);
    user = member.client;
    // A checksummed recipient and a wei cap beyond 2^53: both must compare exactly.
    await server.client.run('create_policy', {
      policyName: 'send up to 1 ETH to the recipient',
      effect: 'EFFECT_ALLOW',
      condition: `activity.type == 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2' && eth.tx.to == '${RECIPIENT}' && eth.tx.value <= 1000000000000000001 && eth.tx.chain_id == ${CHAIN_ID}`,
      consensus: `approvers.any(user, user.id == '${member.userId}')`,
    });
    await server.client.run('create_policy', {
      policyName: 'never to the delegate',
      effect: 'EFFECT_DENY',
      condition: `eth.tx.to == '${DELEGATE.toLowerCase()}'`,
    });
  });
  afterAll(() => server?.dispose());

  it('given an ALLOW on eth.tx.to and eth.tx.value, when a non-root user signs within it, then the transaction is signed', async () => {
    const unsigned = wire(await unsignedOf('eip1559', { to: RECIPIENT.toLowerCase() as Hex, value: 10n ** 18n + 1n }));
    const reply = await submitTransaction(user, ethAddress, unsigned);
    expect(reply.status).toBe(200);
    expect(await recoverTransactionAddress({ serializedTransaction: `0x${reply.body.activity.result.signTransactionResult.signedTransaction}` as never })).toBe(
      ethAddress,
    );
  });

  it('given one wei above the cap, another recipient, a denied recipient or a raw payload, then ERR_PERMISSION_DENIED', async () => {
    const over = wire(await unsignedOf('eip1559', { value: 10n ** 18n + 2n }));
    expectError(await submitTransaction(user, ethAddress, over), 403, 'ERR_PERMISSION_DENIED');
    const elsewhere = wire(await unsignedOf('eip1559', { to: DEV_ACCOUNTS[2].address as Hex }));
    expectError(await submitTransaction(user, ethAddress, elsewhere), 403, 'ERR_PERMISSION_DENIED');
    const denied = wire(await unsignedOf('eip1559', { to: DELEGATE as Hex }));
    expectError(await submitTransaction(user, ethAddress, denied), 403, 'ERR_PERMISSION_DENIED');
    const raw = await user.submit('sign_raw_payload', {
      signWith: ethAddress,
      payload: `0x${'ab'.repeat(32)}`,
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    });
    expectError(raw, 403, 'ERR_PERMISSION_DENIED');
  });
});

describe('on a local Hardhat chain (pglite)', () => {
  let server: TestServer;
  let chain: LocalChain;
  let ethAddress: Hex;
  let rpc: ReturnType<typeof createPublicClient>;

  beforeAll(async () => {
    [server, chain] = await Promise.all([startTestServer('pglite'), startLocalChain()]);
    rpc = createPublicClient({ chain: hardhat, transport: http(chain.rpcUrl) });
    [ethAddress] = (await server.client.run('create_wallet', { walletName: 'Chain', accounts: [ETH] })).addresses as [Hex];
    await fund(chain, ethAddress, 10n ** 19n);
  }, 120_000);
  afterAll(async () => {
    await server?.dispose();
    await chain?.close();
  });

  async function broadcast(unsigned: TransactionSerializable) {
    const signed = `0x${await signTransaction(server.client, ethAddress, wire(unsigned), 'TRANSACTION_TYPE_ETHEREUM')}` as Hex;
    const hash = await rpc.sendRawTransaction({ serializedTransaction: signed });
    return rpc.waitForTransactionReceipt({ hash });
  }

  it('given a legacy and an EIP-1559 transfer signed by the server, when broadcast, then both are mined with status success and the recipient is paid', async () => {
    const before = await rpc.getBalance({ address: RECIPIENT as Hex });
    const gasPrice = await rpc.getGasPrice();
    const fees = await rpc.estimateFeesPerGas();
    const legacy = await broadcast({
      type: 'legacy',
      chainId: CHAIN_ID,
      nonce: await rpc.getTransactionCount({ address: ethAddress }),
      gas: 21_000n,
      gasPrice,
      to: RECIPIENT as Hex,
      value: 10n ** 16n,
    });
    expect(legacy).toMatchObject({ status: 'success', from: ethAddress.toLowerCase() });
    const eip1559 = await broadcast({
      type: 'eip1559',
      chainId: CHAIN_ID,
      nonce: await rpc.getTransactionCount({ address: ethAddress }),
      gas: 21_000n,
      ...fees,
      to: RECIPIENT as Hex,
      value: 10n ** 16n,
    });
    expect(eip1559).toMatchObject({ status: 'success', from: ethAddress.toLowerCase(), type: 'eip1559' });
    expect(await rpc.getBalance({ address: RECIPIENT as Hex })).toBe(before + 2n * 10n ** 16n);
  });

  it('given an authorization signed with sign_raw_payload (NO_OP) and carried by an EIP-7702 transaction from the same account, when mined, then its code is the delegation designator', async () => {
    const nonce = await rpc.getTransactionCount({ address: ethAddress });
    // Self-sponsored: the transaction bumps the nonce before the authorization is applied.
    const auth = { address: DELEGATE, chainId: CHAIN_ID, nonce: nonce + 1 };
    const sig = await server.client.run('sign_raw_payload', {
      signWith: ethAddress,
      payload: JSON.stringify(auth),
      encoding: 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    });
    const fees = await rpc.estimateFeesPerGas();
    const receipt = await broadcast({
      type: 'eip7702',
      chainId: CHAIN_ID,
      nonce,
      gas: 100_000n,
      ...fees,
      to: ethAddress,
      value: 0n,
      authorizationList: [authorizationOf(auth, sig)],
    });
    expect(receipt).toMatchObject({ status: 'success', type: 'eip7702' });
    expect(await rpc.getCode({ address: ethAddress })).toBe(`0xef0100${DELEGATE.slice(2).toLowerCase()}`);
  });
});
