/**
 * Transactions under attack, over real HTTP on both databases: malformed Ethereum and Solana
 * transactions of every kind the parsers refuse (non-canonical RLP, lengths that claim more
 * than is there, nesting bombs, signed or chainless transactions, unknown types and versions,
 * wrong sizes), type confusion in the envelope, keys of the wrong curve or of another
 * organization, oversized fields and bodies, and 20 identical submits at once. Each is a 4xx
 * with its stable code, never a 5xx, and one stamped body runs once.
 */
import { createHash } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverTransactionAddress, serializeTransaction, toRlp, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { base58 } from '@scure/base';
import { stampApiKey } from '@walletkit/crypto';
import { operations } from '@walletkit/protocol';
import { activities } from '../../src/store/schema';
import { outcomes, startProxyServer, type ProxyTestServer } from '../support/proxy';
import { storeKinds } from '../support/stores';
import { envelopeText, sendRaw, type RawReply } from './support/http';
import { adversarialTally } from './support/tally';

const tally = adversarialTally('transactions');
const COPIES = 20;

const ETH = { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' } as const;
const SOLANA = { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' } as const;
const TO = `0x${'11'.repeat(20)}` as Hex;
const INVALID = 'ERR_INVALID_TRANSACTION';

/** hex without 0x of `typeByte || rlp(fields)`. */
const typed = (typeByte: string, fields: unknown[]) => `${typeByte}${toRlp(fields as never).slice(2)}`;
const eip1559 = (patch: Record<number, unknown> = {}) =>
  typed(
    '02',
    ['0x7a69', '0x', '0x01', '0x02', '0x5208', TO, '0x01', '0x', []].map((f, i) => (i in patch ? patch[i] : f)),
  );
const AUTH = ['0x7a69', TO, '0x', '0x', `0x${'aa'.repeat(32)}`, `0x${'bb'.repeat(32)}`];
const eip7702 = (patch: Record<number, unknown> = {}) =>
  typed(
    '04',
    ['0x7a69', '0x', '0x01', '0x02', '0x5208', TO, '0x01', '0x', [], [AUTH]].map((f, i) => (i in patch ? patch[i] : f)),
  );
const legacy = (fields: unknown[]) => toRlp(fields as never).slice(2);

/** A short RLP list (hex) of already-encoded items, spelled exactly as given. */
function rawList(items: string[]): string {
  const payload = items.join('');
  return `${(0xc0 + payload.length / 2).toString(16)}${payload}`;
}

/** Lists nested `depth` deep around nothing (built here: viem's encoder recurses and overflows first). */
function nested(depth: number): string {
  let item = 'c0';
  for (let i = 0; i < depth; i++) {
    const length = item.length / 2;
    if (length <= 55) {
      item = `${(0xc0 + length).toString(16)}${item}`;
    } else {
      let bytes = length.toString(16);
      if (bytes.length % 2) bytes = `0${bytes}`;
      item = `${(0xf7 + bytes.length / 2).toString(16)}${bytes}${item}`;
    }
  }
  return item;
}

/** A one-signer legacy Solana wire transaction (hex), fee payer `payer` (32 bytes). */
function solanaWire(payer: Uint8Array, opts: { slots?: number[]; header?: number[]; version?: number } = {}): string {
  const program = new Uint8Array(32).fill(2);
  const message = [
    ...(opts.version !== undefined ? [opts.version] : []),
    ...(opts.header ?? [1, 0, 1]),
    2,
    ...payer,
    ...program,
    ...new Uint8Array(32), // blockhash
    1,
    1,
    1,
    0,
    0, // one instruction: program index 1, one account (0), no data
    ...(opts.version !== undefined ? [0] : []), // v0: no lookups
  ];
  const slots = opts.slots ?? [1];
  return Buffer.from(Uint8Array.of(...slots, ...new Uint8Array(64 * (slots[0] ?? 0)), ...message)).toString('hex');
}

describe.each(storeKinds)('transactions under attack on %s', (kind) => {
  let s: ProxyTestServer;
  let ethAddress: string;
  let solAddress: string;
  let solKey: Uint8Array;
  let theirs: string;

  beforeAll(async () => {
    s = await startProxyServer(kind);
    const created = await s.client.run('create_wallet', { walletName: 'Targets', accounts: [ETH, SOLANA] });
    [ethAddress, solAddress] = created.addresses as [string, string];
    solKey = base58.decode(solAddress);
    const { createOrganization } = await import('../../src/admin/organizations');
    const other = await createOrganization(s.store, { name: 'Victim Org' });
    const victim = s.client.with({ key: other.apiKey, organizationId: other.organizationId });
    [theirs] = (await victim.run('create_wallet', { walletName: 'Victim', accounts: [ETH] })).addresses as [string];
  });
  afterAll(() => s?.dispose());

  const org = () => s.org.organizationId;
  const post = (parameters: unknown, op: 'sign_transaction' | 'sign_raw_payload' = 'sign_transaction'): Promise<RawReply> => {
    const body = envelopeText(op, org(), parameters);
    return sendRaw(s.url, operations[op].path, body, { 'x-stamp': stampApiKey(body, s.org.apiKey) });
  };
  const ethereum = (unsignedTransaction: unknown, signWith: unknown = ethAddress) => post({ signWith, unsignedTransaction, type: 'TRANSACTION_TYPE_ETHEREUM' });
  const solana = (unsignedTransaction: unknown, signWith: unknown = solAddress) => post({ signWith, unsignedTransaction, type: 'TRANSACTION_TYPE_SOLANA' });

  it('given malformed Ethereum transactions of every kind, then each is 400 ERR_INVALID_TRANSACTION', async () => {
    const signed = (
      await privateKeyToAccount(`0x${'42'.repeat(32)}`).signTransaction({
        type: 'eip1559',
        chainId: 31337,
        nonce: 0,
        gas: 21000n,
        maxFeePerGas: 2n,
        maxPriorityFeePerGas: 1n,
        to: TO,
        value: 1n,
      })
    ).slice(2);
    const body = Buffer.from(eip1559(), 'hex').subarray(1);
    const cases: Array<[string, string]> = [
      ['0x alone', '0x'],
      ['odd-length hex', '02c'],
      ['one byte', '02'],
      ['an empty list', 'c0'],
      ['an RLP string', '8180'],
      ['trailing bytes', `${eip1559()}00`],
      ['trailing garbage after a legacy list', `${legacy(['0x', '0x01', '0x5208', TO, '0x01', '0x', '0x7a69', '0x', '0x'])}ff`],
      ['a signed transaction', signed],
      ['a signed legacy transaction', legacy(['0x', '0x01', '0x5208', TO, '0x01', '0x', '0xf4f5', '0x01', '0x01'])],
      ['a legacy transaction without chain id', legacy(['0x', '0x01', '0x5208', TO, '0x01', '0x'])],
      ['legacy chain id 0', legacy(['0x', '0x01', '0x5208', TO, '0x01', '0x', '0x', '0x', '0x'])],
      ['typed chain id 0', eip1559({ 0: '0x' })],
      ['type 0x00', `00${eip1559().slice(2)}`],
      ['type 0x03 (blob)', `03${eip1559().slice(2)}`],
      ['type 0x05', `05${eip1559().slice(2)}`],
      ['type 0x7f', `7f${eip1559().slice(2)}`],
      ['type 0x76 (Tempo, not supported)', `76${eip1559().slice(2)}`],
      ['too few fields', typed('02', ['0x7a69', '0x'])],
      ['too many fields', typed('02', ['0x7a69', '0x', '0x01', '0x02', '0x5208', TO, '0x01', '0x', [], '0x'])],
      ['a leading-zero nonce', eip1559({ 1: '0x0001' })],
      ['a nonce above 2^64', eip1559({ 1: `0x01${'00'.repeat(8)}` })],
      ['a value above 2^256', eip1559({ 6: `0x01${'00'.repeat(32)}` })],
      ['a list as the value', eip1559({ 6: [[], []] })],
      ['a 19-byte to', eip1559({ 5: `0x${'11'.repeat(19)}` })],
      ['a 32-byte to', eip1559({ 5: `0x${'11'.repeat(32)}` })],
      ['an access list of strings', eip1559({ 8: ['0x01'] })],
      ['a 21-byte access-list address', eip1559({ 8: [[`0x${'11'.repeat(21)}`, []]] })],
      ['a 31-byte storage key', eip1559({ 8: [[TO, [`0x${'01'.repeat(31)}`]]] })],
      ['a 64-byte storage key', eip1559({ 8: [[TO, [`0x${'01'.repeat(64)}`]]] })],
      ['an EIP-7702 transaction without authorizations', eip7702({ 9: [] })],
      ['an EIP-7702 transaction with an empty to', eip7702({ 5: '0x' })],
      ['an authorization of the wrong arity', eip7702({ 9: [AUTH.slice(0, 3)] })],
      ['an authorization with yParity 27', eip7702({ 9: [[...AUTH.slice(0, 3), '0x1b', ...AUTH.slice(4)]] })],
      ['a list as an authorization chain id', eip7702({ 9: [[[], ...AUTH.slice(1)]] })],
      ['a short list in long form', `02f8${(body[0]! - 0xc0).toString(16).padStart(2, '0')}${body.subarray(1).toString('hex')}`],
      ['a single byte spelled as a string (tip 0x01 as 81 01)', `02${rawList(['827a69', '80', '8101', '02', '825208', `94${TO.slice(2)}`, '01', '80', 'c0'])}`],
      ['a string claiming 2^64-1 bytes', `02bf${'ff'.repeat(8)}`],
      ['a list claiming 2^64-1 bytes', `02ff${'ff'.repeat(8)}`],
      ['a list claiming 1 MB that is not there', `02fa100000${'80'.repeat(10)}`],
      ['lists nested 20 deep', `02${nested(20)}`],
      ['lists nested 5000 deep (a stack bomb)', `02${nested(5000)}`],
      ['5000 open list headers', `02${'c1'.repeat(5000)}`],
    ];
    for (const [what, hex] of cases) {
      const reply = await ethereum(hex);
      tally.refused('transactions', `Ethereum: ${what}`, reply, 400, INVALID);
      expect(reply.body.details[0].field, what).toBe('unsignedTransaction');
    }
  });

  it('given malformed Solana wire transactions of every kind, then each is 400 ERR_INVALID_TRANSACTION', async () => {
    const good = solanaWire(solKey);
    // The baseline is signable: every case below changes one thing.
    expect((await solana(good)).status).toBe(200);
    const cases: Array<[string, string]> = [
      ['nothing (0x alone)', '0x'],
      ['truncated by one byte', good.slice(0, -2)],
      ['truncated to its signatures', good.slice(0, 130)],
      ['trailing bytes', `${good}00`],
      ['a non-minimal slot count (0x81 0x00)', `8100${good.slice(2)}`],
      ['a slot count with a fourth byte (ff ff ff 7f)', `ffffff7f${good.slice(2)}`],
      ['a slot count above 65535 (ff ff 7f)', `ffff7f${good.slice(2)}`],
      ['65535 slots claimed', `ffff03${good.slice(2)}`],
      ['two slots for one signer', solanaWire(solKey, { slots: [2] })],
      ['no slot for one signer', solanaWire(solKey, { slots: [0] })],
      ['no required signer', solanaWire(solKey, { slots: [0], header: [0, 0, 1] })],
      ['a read-only fee payer', solanaWire(solKey, { header: [1, 1, 1] })],
      ['more read-only accounts than accounts', solanaWire(solKey, { header: [1, 0, 5] })],
      ['message version 1', solanaWire(solKey, { version: 0x81 })],
      ['message version 127', solanaWire(solKey, { version: 0xff })],
      ['an Ethereum transaction as Solana', eip1559()],
      ['an account count claiming 65535 keys', `${good.slice(0, 130)}010001ffff03`],
    ];
    for (const [what, hex] of cases) {
      const reply = await solana(hex);
      tally.refused('transactions', `Solana: ${what}`, reply, 400, INVALID);
    }
  });

  it("given the wrong curve, a non-signer, or another organization's account, then 400 or the 404 an unknown address gets", async () => {
    tally.refused('transactions', 'a Solana transaction for an Ethereum key', await solana(solanaWire(solKey), ethAddress), 400, INVALID);
    tally.refused('transactions', 'an Ethereum transaction for a Solana key', await ethereum(eip1559(), solAddress), 400, INVALID);
    tally.refused('transactions', 'a Solana transaction this key is not a signer of', await solana(solanaWire(new Uint8Array(32).fill(9))), 400, INVALID);
    tally.refused('transactions', "another organization's Ethereum account", await ethereum(eip1559(), theirs), 404, 'ERR_WALLET_ACCOUNT_NOT_FOUND');
    tally.refused('transactions', 'an unknown address', await ethereum(eip1559(), TO), 404, 'ERR_WALLET_ACCOUNT_NOT_FOUND');
    tally.refused(
      'transactions',
      'a private key id of nothing',
      await ethereum(eip1559(), '00000000-0000-4000-8000-000000000000'),
      404,
      'ERR_WALLET_ACCOUNT_NOT_FOUND',
    );
  });

  it('given type confusion and oversized fields in the envelope, then 400 (413 for the body), never a 5xx', async () => {
    const schema = (what: string, reply: RawReply) => tally.refused('transactions', what, reply, 400, 'ERR_INVALID_REQUEST');
    schema('unsignedTransaction as a number', await ethereum(12));
    schema('unsignedTransaction as an array', await ethereum(['02']));
    schema('unsignedTransaction as null', await ethereum(null));
    schema('unsignedTransaction that is not hex', await ethereum('02zz'));
    schema('unsignedTransaction with whitespace', await ethereum(' 02c0'));
    schema('signWith as an object', await ethereum(eip1559(), { address: ethAddress }));
    schema('an empty signWith', await ethereum(eip1559(), ''));
    schema('a 300-character signWith', await ethereum(eip1559(), 'a'.repeat(300)));
    schema('an unknown transaction type', await post({ signWith: ethAddress, unsignedTransaction: eip1559(), type: 'TRANSACTION_TYPE_TRON' }));
    schema('a missing type', await post({ signWith: ethAddress, unsignedTransaction: eip1559() }));
    schema('an extra parameter', await post({ signWith: ethAddress, unsignedTransaction: eip1559(), type: 'TRANSACTION_TYPE_ETHEREUM', chainId: 1 }));
    schema('an unsignedTransaction over 262144 characters', await ethereum('0'.repeat(262146)));
    const big = envelopeText('sign_transaction', org(), { signWith: ethAddress, unsignedTransaction: '00'.repeat(600_000), type: 'TRANSACTION_TYPE_ETHEREUM' });
    tally.refused(
      'transactions',
      'a body over the 1 MiB limit',
      await sendRaw(s.url, operations.sign_transaction.path, big, { 'x-stamp': stampApiKey(big, s.org.apiKey) }),
      413,
      'ERR_PAYLOAD_TOO_LARGE',
    );
    const payload = (parameters: Record<string, unknown>) => post({ signWith: ethAddress, ...parameters }, 'sign_raw_payload');
    tally.refused(
      'transactions',
      'an EIP-712 payload that is not JSON (NO_OP)',
      await payload({ payload: '{', encoding: 'PAYLOAD_ENCODING_EIP712', hashFunction: 'HASH_FUNCTION_NO_OP' }),
      400,
      'ERR_INVALID_PAYLOAD',
    );
    tally.refused(
      'transactions',
      'a digest as an EIP-712 payload (NO_OP)',
      await payload({ payload: `0x${'ab'.repeat(32)}`, encoding: 'PAYLOAD_ENCODING_EIP712', hashFunction: 'HASH_FUNCTION_NO_OP' }),
      400,
      'ERR_INVALID_PAYLOAD',
    );
    tally.refused(
      'transactions',
      'an EIP-7702 authorization with SHA256',
      await payload({
        payload: JSON.stringify({ chainId: 1, address: TO, nonce: 0 }),
        encoding: 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION',
        hashFunction: 'HASH_FUNCTION_SHA256',
      }),
      400,
      'ERR_INVALID_PAYLOAD',
    );
    tally.refused(
      'transactions',
      'an EIP-7702 authorization with a 2^64 nonce',
      await payload({
        payload: JSON.stringify({ chainId: 1, address: TO, nonce: '18446744073709551616' }),
        encoding: 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION',
        hashFunction: 'HASH_FUNCTION_NO_OP',
      }),
      400,
      'ERR_INVALID_PAYLOAD',
    );
    const selfReferencing = { types: { A: [{ name: 'a', type: 'A' }] }, primaryType: 'A', domain: {}, message: { a: { a: { a: {} } } } };
    tally.refused(
      'transactions',
      'a self-referencing EIP-712 type',
      await payload({ payload: JSON.stringify(selfReferencing), encoding: 'PAYLOAD_ENCODING_EIP712', hashFunction: 'HASH_FUNCTION_NO_OP' }),
      400,
      'ERR_INVALID_PAYLOAD',
    );
  });

  it('given the largest transaction the schema allows (131 kB of data), then it is signed and recovers, without a 5xx', async () => {
    const data = `0x${'ab'.repeat(130_000)}` as Hex;
    const unsigned = serializeTransaction({
      type: 'eip1559',
      chainId: 31337,
      nonce: 1,
      gas: 3_000_000n,
      maxFeePerGas: 2n,
      maxPriorityFeePerGas: 1n,
      to: TO,
      value: 0n,
      data,
    }).slice(2);
    const reply = await ethereum(unsigned);
    expect(reply.status).toBe(200);
    const signed = `0x${reply.body.activity.result.signTransactionResult.signedTransaction}`;
    expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(ethAddress);
  });

  it(`given one stamped sign_transaction body sent ${COPIES} times at once, then all answer the same signed transaction from one activity; a refused body ${COPIES} times gives one stored refusal`, async () => {
    const fingerprintOf = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
    const rows = async (text: string) => {
      const [row] = await s.store.db
        .select({ n: count() })
        .from(activities)
        .where(and(eq(activities.organizationId, org()), eq(activities.fingerprint, fingerprintOf(text))));
      return Number(row?.n ?? 0);
    };
    const send = (text: string) => {
      const stamp = stampApiKey(text, s.org.apiKey);
      return Promise.all(Array.from({ length: COPIES }, () => sendRaw(s.url, operations.sign_transaction.path, text, { 'x-stamp': stamp })));
    };

    const body = envelopeText('sign_transaction', org(), {
      signWith: ethAddress,
      unsignedTransaction: eip1559({ 1: '0x2a' }),
      type: 'TRANSACTION_TYPE_ETHEREUM',
    });
    const replies = await send(body);
    expect(outcomes(replies)).toEqual({ OK: COPIES });
    expect(new Set(replies.map((r) => r.body.activity.id)).size).toBe(1);
    expect(new Set(replies.map((r) => r.body.activity.result.signTransactionResult.signedTransaction)).size).toBe(1);
    tally.duplicates('transactions', `${COPIES} identical sign_transaction bodies`, (await rows(body)) - 1);

    const refused = envelopeText('sign_transaction', org(), {
      signWith: ethAddress,
      unsignedTransaction: eip1559({ 0: '0x' }),
      type: 'TRANSACTION_TYPE_ETHEREUM',
    });
    const refusals = await send(refused);
    for (const reply of refusals) tally.refused('transactions', `${COPIES} identical chain-id-0 bodies`, reply, 400, INVALID);
    tally.duplicates('transactions', `${COPIES} identical refused bodies`, (await rows(refused)) - 1);
  });
});
