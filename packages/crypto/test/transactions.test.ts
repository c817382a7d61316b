/**
 * Transactions against the libraries that build them. Ethereum: random transactions of every
 * type serialized by viem and by ethers parse to the same fields, re-serialize byte for byte,
 * hash to keccak256 of the serialization, and sign into exactly what viem serializes with the
 * same signature; every non-canonical or unsupported form is ERR_INVALID_TRANSACTION. RLP:
 * viem's encodings decode and re-encode exactly; non-canonical ones are refused. Solana: legacy
 * and v0 transactions built by @solana/kit parse, the signature lands in the signer's slot,
 * kit decodes the result and the signature verifies over the message.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import fc from 'fast-check';
import { Signature as EthersSignature, Transaction as EthersTransaction } from 'ethers';
import { keccak256, recoverTransactionAddress, serializeTransaction, toRlp, type Hex, type TransactionSerializable } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  AccountRole,
  address as solanaAddress,
  appendTransactionMessageInstruction,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createTransactionMessage,
  generateKeyPairSigner,
  getAddressEncoder,
  getBase58Decoder,
  getTransactionDecoder,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Blockhash,
} from '@solana/kit';
import { describe, expect, it } from 'vitest';
import {
  bytesToHex,
  ethereumTransactionHash,
  hexToBytes,
  parseSolanaTransaction,
  parseUnsignedEthereumTransaction,
  prepareEthereumTransaction,
  serializeEthereumTransaction,
  solanaSignerIndex,
  withSolanaSignature,
  type EthereumTransaction,
} from '../src/index';
import { rlpDecode, rlpEncode, type RlpItem } from '../src/rlp';
import { codeOf } from './support';

const SECP_N = secp256k1.Point.CURVE().n;
const PRIVATE_KEY = `0x${'4c'.repeat(32)}` as const;
const SENDER = privateKeyToAccount(PRIVATE_KEY).address;

const hex = (bytes: Uint8Array) => `0x${bytesToHex(bytes)}` as Hex;
const bytes = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max }).map(hex);
const address = bytes(20, 20);
const uint = (bits: number) => fc.oneof(fc.constantFrom(0n, 1n, 127n, 128n, 255n, 256n, 2n ** BigInt(bits) - 1n), fc.bigInt(0n, 2n ** BigInt(bits) - 1n));
const accessList = fc.array(fc.record({ address, storageKeys: fc.array(bytes(32, 32), { maxLength: 3 }) }), { maxLength: 3 });
const scalar = fc.bigInt(1n, SECP_N - 1n);
/** Low-S, as ethers insists on and as every signer produces. */
const lowS = fc.bigInt(1n, SECP_N / 2n);
const authorization = fc.record({
  chainId: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2 ** 40 })),
  address,
  nonce: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  yParity: fc.constantFrom(0, 1),
  r: scalar,
  s: lowS,
});

const common = {
  // chainId * 2 + 35 must stay a safe integer for viem's legacy `v`.
  chainId: fc.integer({ min: 1, max: 2 ** 40 }),
  nonce: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  gas: uint(64),
  value: uint(256),
  data: bytes(0, 80),
};
const fees = fc.tuple(uint(256), uint(256)).map(([a, b]) => (a < b ? [a, b] : [b, a]) as [bigint, bigint]);

type Generated = { type: 'legacy' | 'eip2930' | 'eip1559' | 'eip7702' } & Record<string, any>;

const transactions: Record<Generated['type'], fc.Arbitrary<Generated>> = {
  legacy: fc.record({ ...common, to: fc.option(address, { nil: null }), gasPrice: uint(256) }).map((t) => ({ ...t, type: 'legacy' as const })),
  eip2930: fc.record({ ...common, to: fc.option(address, { nil: null }), gasPrice: uint(256), accessList }).map((t) => ({ ...t, type: 'eip2930' as const })),
  eip1559: fc
    .record({ ...common, to: fc.option(address, { nil: null }), fees, accessList })
    .map(({ fees: [tip, max], ...t }) => ({ ...t, type: 'eip1559' as const, maxPriorityFeePerGas: tip, maxFeePerGas: max })),
  eip7702: fc
    .record({ ...common, to: address, fees, accessList, authorizationList: fc.array(authorization, { minLength: 1, maxLength: 3 }) })
    .map(({ fees: [tip, max], ...t }) => ({ ...t, type: 'eip7702' as const, maxPriorityFeePerGas: tip, maxFeePerGas: max })),
};

const pad32 = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}` as Hex;

/** The generated transaction as viem takes it. */
function toViem(t: Generated): TransactionSerializable {
  const { authorizationList, ...rest } = t;
  const out: Record<string, unknown> = { ...rest, to: t.to ?? undefined };
  if (authorizationList) out.authorizationList = authorizationList.map((a: any) => ({ ...a, r: pad32(a.r), s: pad32(a.s) }));
  return out as TransactionSerializable;
}

/** The generated transaction as ethers takes it. */
function toEthers(t: Generated): EthersTransaction {
  return EthersTransaction.from({
    type: { legacy: 0, eip2930: 1, eip1559: 2, eip7702: 4 }[t.type],
    chainId: t.chainId,
    nonce: t.nonce,
    gasLimit: t.gas,
    to: t.to,
    value: t.value,
    data: t.data,
    ...(t.gasPrice !== undefined ? { gasPrice: t.gasPrice } : {}),
    ...(t.maxFeePerGas !== undefined ? { maxFeePerGas: t.maxFeePerGas, maxPriorityFeePerGas: t.maxPriorityFeePerGas } : {}),
    ...(t.accessList ? { accessList: t.accessList } : {}),
    ...(t.authorizationList
      ? {
          authorizationList: t.authorizationList.map((a: any) => ({
            address: a.address,
            nonce: a.nonce,
            chainId: a.chainId,
            signature: EthersSignature.from({ r: pad32(a.r), s: pad32(a.s), yParity: a.yParity }),
          })),
        }
      : {}),
  });
}

/** What parseUnsignedEthereumTransaction must return for the generated fields. */
function expected(t: Generated): EthereumTransaction {
  const out: EthereumTransaction = {
    type: t.type,
    chainId: BigInt(t.chainId),
    nonce: BigInt(t.nonce),
    gas: t.gas,
    to: t.to ?? null,
    value: t.value,
    data: t.data,
  };
  if (t.gasPrice !== undefined) out.gasPrice = t.gasPrice;
  if (t.maxFeePerGas !== undefined) Object.assign(out, { maxFeePerGas: t.maxFeePerGas, maxPriorityFeePerGas: t.maxPriorityFeePerGas });
  if (t.accessList) out.accessList = t.accessList;
  if (t.authorizationList) {
    out.authorizationList = t.authorizationList.map((a: any) => ({
      chainId: BigInt(a.chainId),
      address: a.address,
      nonce: BigInt(a.nonce),
      yParity: a.yParity,
      r: a.r,
      s: a.s,
    }));
  }
  return out;
}

/** ECDSA over the signing hash with the test key: (r, s, yParity). */
function sign(digest: Uint8Array): { r: bigint; s: bigint; yParity: 0 | 1 } {
  const recovered = secp256k1.sign(digest, hexToBytes(PRIVATE_KEY), { prehash: false, lowS: true, format: 'recovered' });
  return { yParity: recovered[0] as 0 | 1, r: BigInt(hex(recovered.subarray(1, 33))), s: BigInt(hex(recovered.subarray(33, 65))) };
}

describe.each(['legacy', 'eip2930', 'eip1559', 'eip7702'] as const)('Ethereum %s transactions', (type) => {
  it('given random fields serialized by viem, then they parse to the same fields, re-serialize byte for byte and hash to keccak256 of the serialization (property)', () => {
    fc.assert(
      fc.property(transactions[type], (t) => {
        const serialized = serializeTransaction(toViem(t));
        const tx = parseUnsignedEthereumTransaction(serialized);
        expect(tx).toEqual(expected(t));
        expect(hex(serializeEthereumTransaction(tx))).toBe(serialized);
        expect(hex(ethereumTransactionHash(tx))).toBe(keccak256(serialized));
        // The wire form @turnkey/viem sends: no 0x.
        expect(parseUnsignedEthereumTransaction(serialized.slice(2))).toEqual(tx);
      }),
      { numRuns: 150 },
    );
  });

  it('given random fields serialized by ethers, then they parse to the same fields and re-serialize byte for byte (property)', () => {
    fc.assert(
      fc.property(transactions[type], (t) => {
        const serialized = toEthers(t).unsignedSerialized as Hex;
        const tx = parseUnsignedEthereumTransaction(serialized);
        expect(tx).toEqual(expected(t));
        expect(hex(serializeEthereumTransaction(tx))).toBe(serialized);
      }),
      { numRuns: 100 },
    );
  });

  it('given a signature over the signing hash, then the signed serialization is what viem and ethers serialize with it, and the sender recovers (property)', async () => {
    await fc.assert(
      fc.asyncProperty(transactions[type], async (t) => {
        const unsigned = serializeTransaction(toViem(t));
        const tx = parseUnsignedEthereumTransaction(unsigned);
        const signature = sign(ethereumTransactionHash(tx));
        const signed = hex(serializeEthereumTransaction(tx, signature));
        // Signed from the bytes as sent (the server's path): the same fields, digest and bytes.
        const prepared = prepareEthereumTransaction(unsigned.slice(2));
        expect(prepared.transaction).toEqual(tx);
        expect(hex(prepared.digest)).toBe(keccak256(unsigned));
        expect(hex(prepared.withSignature(signature))).toBe(signed);
        const viemSignature =
          type === 'legacy'
            ? { r: pad32(signature.r), s: pad32(signature.s), v: 27n + BigInt(signature.yParity) }
            : { r: pad32(signature.r), s: pad32(signature.s), yParity: signature.yParity };
        expect(signed).toBe(serializeTransaction(toViem(t), viemSignature));
        const ethers = toEthers(t);
        ethers.signature = EthersSignature.from({ r: pad32(signature.r), s: pad32(signature.s), yParity: signature.yParity });
        expect(signed).toBe(ethers.serialized);
        expect(EthersTransaction.from(signed).from).toBe(SENDER);
        expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(SENDER);
        // A signed transaction is never taken for an unsigned one.
        expect(codeOf(() => parseUnsignedEthereumTransaction(signed))).toBe('ERR_INVALID_TRANSACTION');
      }),
      { numRuns: 40 },
    );
  });
});

// Hand-made transactions: viem and ethers refuse to build most of these.
const TO = `0x${'11'.repeat(20)}` as Hex;
const typed = (typeByte: string, fields: unknown[]) => `0x${typeByte}${toRlp(fields as never).slice(2)}`;
/** A valid EIP-1559 body: chainId, nonce, tip, max fee, gas, to, value, data, access list. */
const eip1559 = (patch: Record<number, unknown> = {}) =>
  typed(
    '02',
    ['0x01', '0x', '0x01', '0x02', '0x5208', TO, '0x01', '0x', []].map((f, i) => (i in patch ? patch[i] : f)),
  );
const AUTH = ['0x01', TO, '0x', '0x', `0x${'aa'.repeat(32)}`, `0x${'bb'.repeat(32)}`];
const eip7702 = (patch: Record<number, unknown> = {}) =>
  typed(
    '04',
    ['0x01', '0x', '0x01', '0x02', '0x5208', TO, '0x01', '0x', [], [AUTH]].map((f, i) => (i in patch ? patch[i] : f)),
  );
const legacy = (fields: unknown[]) => toRlp(fields as never);

describe('Ethereum refusals', () => {
  it('given the hand-made baselines, then they parse (the refusals below change one thing each)', () => {
    expect(parseUnsignedEthereumTransaction(eip1559()).type).toBe('eip1559');
    expect(parseUnsignedEthereumTransaction(eip7702()).authorizationList).toHaveLength(1);
    expect(parseUnsignedEthereumTransaction(legacy(['0x', '0x01', '0x5208', TO, '0x01', '0x', '0x01', '0x', '0x'])).type).toBe('legacy');
  });

  it.each([
    ['empty input', '0x'],
    ['not hex', '0xzz'],
    ['trailing bytes', `${eip1559()}00`],
    ['a legacy transaction without chain id (pre-EIP-155)', legacy(['0x', '0x01', '0x5208', TO, '0x01', '0x'])],
    ['a signed legacy transaction', legacy(['0x', '0x01', '0x5208', TO, '0x01', '0x', '0x25', '0x01', '0x01'])],
    ['a legacy transaction with 7 fields', legacy(['0x', '0x01', '0x5208', TO, '0x01', '0x', '0x01'])],
    ['legacy chain id 0', legacy(['0x', '0x01', '0x5208', TO, '0x01', '0x', '0x', '0x', '0x'])],
    ['typed chain id 0', eip1559({ 0: '0x' })],
    ['a signed EIP-1559 transaction', typed('02', ['0x01', '0x', '0x01', '0x02', '0x5208', TO, '0x01', '0x', [], '0x', '0x01', '0x01'])],
    ['an EIP-1559 transaction with 8 fields', typed('02', ['0x01', '0x', '0x01', '0x02', '0x5208', TO, '0x01', '0x'])],
    ['type 0x00', `0x00${eip1559().slice(4)}`],
    ['type 0x03 (blob transactions are not supported)', `0x03${eip1559().slice(4)}`],
    ['type 0x05', `0x05${eip1559().slice(4)}`],
    ['type 0x7f', `0x7f${eip1559().slice(4)}`],
    ['a first byte that is an RLP string', '0x8180'],
    ['a type byte alone', '0x02'],
    ['a typed body that is a string', '0x0280'],
    ['an integer with a leading zero', eip1559({ 1: '0x0001' })],
    ['a zero integer spelled 0x00', eip1559({ 6: '0x00' })],
    ['a nonce above 2^64', eip1559({ 1: `0x01${'00'.repeat(8)}` })],
    ['a value above 2^256', eip1559({ 6: `0x01${'00'.repeat(32)}` })],
    ['a list where an integer belongs', eip1559({ 1: [] })],
    ['a 19-byte to', eip1559({ 5: `0x${'11'.repeat(19)}` })],
    ['a 21-byte to', eip1559({ 5: `0x${'11'.repeat(21)}` })],
    ['an access list that is a string', eip1559({ 8: '0x' })],
    ['a 19-byte access-list address', eip1559({ 8: [[`0x${'11'.repeat(19)}`, []]] })],
    ['a 31-byte storage key', eip1559({ 8: [[TO, [`0x${'01'.repeat(31)}`]]] })],
    ['a 33-byte storage key', eip1559({ 8: [[TO, [`0x${'01'.repeat(33)}`]]] })],
    ['an access-list entry with a third field', eip1559({ 8: [[TO, [], '0x']] })],
    ['an access-list entry without its keys', eip1559({ 8: [[TO]] })],
    ['an EIP-7702 transaction without authorizations', eip7702({ 9: [] })],
    ['an EIP-7702 transaction creating a contract (empty to)', eip7702({ 5: '0x' })],
    ['an authorization with 5 fields', eip7702({ 9: [AUTH.slice(0, 5)] })],
    ['an authorization with a 19-byte address', eip7702({ 9: [[AUTH[0], `0x${'11'.repeat(19)}`, ...AUTH.slice(2)]] })],
    ['an authorization with yParity 2', eip7702({ 9: [[...AUTH.slice(0, 3), '0x02', ...AUTH.slice(4)]] })],
    ['an authorization nonce above 2^64', eip7702({ 9: [[AUTH[0], AUTH[1], `0x01${'00'.repeat(8)}`, ...AUTH.slice(3)]] })],
  ])('given %s, then ERR_INVALID_TRANSACTION', (_name, serialized) => {
    expect(codeOf(() => parseUnsignedEthereumTransaction(serialized))).toBe('ERR_INVALID_TRANSACTION');
    expect(codeOf(() => prepareEthereumTransaction(serialized))).toBe('ERR_INVALID_TRANSACTION');
  });

  it('given non-canonical RLP around a valid transaction, then ERR_INVALID_TRANSACTION', () => {
    const body = hexToBytes(eip1559()).subarray(1); // c0+len list, len <= 55
    expect(body[0]! < 0xf8).toBe(true);
    const longForm = Uint8Array.of(0x02, 0xf8, body[0]! - 0xc0, ...body.subarray(1));
    expect(codeOf(() => parseUnsignedEthereumTransaction(longForm))).toBe('ERR_INVALID_TRANSACTION');
    // The nonce 0x05 spelled as a one-byte string (0x81 0x05) instead of the byte itself.
    const fields = rlpDecode(body) as RlpItem[];
    const spelled = [rlpEncode(fields[0]!), Uint8Array.of(0x81, 0x05), ...fields.slice(2).map(rlpEncode)];
    const payload = spelled.reduce((n, b) => n + b.length, 0);
    const nonCanonical = Uint8Array.of(0x02, 0xc0 + payload, ...spelled.flatMap((b) => [...b]));
    expect(codeOf(() => parseUnsignedEthereumTransaction(nonCanonical))).toBe('ERR_INVALID_TRANSACTION');
    // Signing from the bytes as sent rests on this: no second spelling of a transaction parses.
    expect(codeOf(() => prepareEthereumTransaction(longForm))).toBe('ERR_INVALID_TRANSACTION');
    expect(codeOf(() => prepareEthereumTransaction(nonCanonical))).toBe('ERR_INVALID_TRANSACTION');
  });
});

/** Random RLP items: byte strings (every length class) nested up to three lists deep. */
const rlpItem: fc.Arbitrary<RlpItem> = fc.letrec<{ item: RlpItem }>((tie) => ({
  item: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.uint8Array({ maxLength: 2 }), fc.uint8Array({ minLength: 50, maxLength: 60 }), fc.uint8Array({ maxLength: 300 })),
    fc.array(tie('item'), { maxLength: 5 }),
  ),
})).item;

const toViemRlp = (item: RlpItem): unknown => (item instanceof Uint8Array ? hex(item) : item.map(toViemRlp));

describe('rlpDecode', () => {
  it('given random items encoded by viem, then they decode to the same items and re-encode byte for byte (property)', () => {
    fc.assert(
      fc.property(rlpItem, (item) => {
        const encoded = hexToBytes(toRlp(toViemRlp(item) as never));
        const decoded = rlpDecode(encoded);
        expect(toViemRlp(decoded)).toEqual(toViemRlp(item));
        expect(hex(rlpEncode(decoded))).toBe(hex(encoded));
      }),
      { numRuns: 200 },
    );
  });

  it('given any strict prefix or an extra byte, then ERR_INVALID_TRANSACTION (property)', () => {
    fc.assert(
      fc.property(rlpItem, fc.nat(), fc.integer({ min: 0, max: 255 }), (item, cut, extra) => {
        const encoded = rlpEncode(item);
        expect(codeOf(() => rlpDecode(encoded.subarray(0, cut % encoded.length)))).toBe('ERR_INVALID_TRANSACTION');
        expect(codeOf(() => rlpDecode(Uint8Array.of(...encoded, extra)))).toBe('ERR_INVALID_TRANSACTION');
      }),
      { numRuns: 200 },
    );
  });

  it.each([
    ['a single byte below 0x80 spelled as a string', [0x81, 0x05]],
    ['a short string in long form', [0xb8, 0x02, 0xaa, 0xbb]],
    ['a long string length with a leading zero', [0xb9, 0x00, 0x38, ...new Array(56).fill(0xaa)]],
    ['a short list in long form', [0xf8, 0x01, 0x80]],
    ['a long list length with a leading zero', [0xf9, 0x00, 0x38, ...new Array(56).fill(0x01)]],
    ['a string longer than the input', [0x83, 0x01, 0x02]],
    ['a list item overrunning its list', [0xc2, 0x82, 0x01, 0x02]],
    ['a length prefix cut short', [0xb9, 0x01]],
    ['nothing', []],
  ])('given %s, then ERR_INVALID_TRANSACTION', (_name, encoded) => {
    expect(codeOf(() => rlpDecode(Uint8Array.from(encoded)))).toBe('ERR_INVALID_TRANSACTION');
  });

  it('given nesting deeper than any transaction needs, then ERR_INVALID_TRANSACTION rather than a stack overflow', () => {
    const deep = new Uint8Array(100_000).fill(0xc0); // not even a valid length, but it must stop early
    expect(codeOf(() => rlpDecode(deep))).toBe('ERR_INVALID_TRANSACTION');
    let nested: RlpItem = [];
    for (let i = 0; i < 40; i++) nested = [nested];
    expect(codeOf(() => rlpDecode(rlpEncode(nested)))).toBe('ERR_INVALID_TRANSACTION');
  });
});

// ---- Solana ------------------------------------------------------------------------------

const BLOCKHASH = { blockhash: 'GfVcyD4kkTrj4bKc7WA9sZCin9JDbdT4Zkd3EittNR1W' as Blockhash, lastValidBlockHeight: 10n };
const MEMO = solanaAddress('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

interface Keys {
  address: Address;
  secret: Uint8Array;
  publicKey: Uint8Array;
}

function keypair(): Keys {
  const secret = ed25519.utils.randomSecretKey();
  const publicKey = ed25519.getPublicKey(secret);
  return { secret, publicKey, address: solanaAddress(getBase58Decoder().decode(publicKey)) };
}

/** A kit wire transaction paid by `payer`, optionally co-signed and (v0) with a lookup table. */
function kitTransaction(
  version: 'legacy' | 0,
  payer: Address,
  opts: { cosigner?: Address; lookup?: { table: Address; addresses: Address[] } } = {},
): Uint8Array {
  const accounts = [
    { address: payer, role: AccountRole.WRITABLE_SIGNER },
    ...(opts.cosigner ? [{ address: opts.cosigner, role: AccountRole.READONLY_SIGNER }] : []),
    ...(opts.lookup?.addresses ?? []).map((a) => ({ address: a, role: AccountRole.WRITABLE })),
  ];
  const message = pipe(
    createTransactionMessage({ version }),
    (m) => setTransactionMessageFeePayer(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(BLOCKHASH, m),
    (m) => appendTransactionMessageInstruction({ programAddress: MEMO, accounts, data: new TextEncoder().encode('hello') }, m),
  );
  // kit types the two versions apart; one builder for both reads better than two.
  const compiled =
    opts.lookup && version === 0
      ? compressTransactionMessageUsingAddressLookupTables(message as never, { [opts.lookup.table]: opts.lookup.addresses })
      : message;
  return new Uint8Array(getTransactionEncoder().encode(compileTransaction(compiled as never)));
}

describe.each([
  ['legacy', 'legacy'],
  ['v0', 0],
] as const)('Solana %s transactions', (_name, version) => {
  it('given one signer, then the message is what kit signs, the slot is the fee payer and the signature verifies where kit reads it', () => {
    const payer = keypair();
    const wire = kitTransaction(version, payer.address);
    const tx = parseSolanaTransaction(bytesToHex(wire));
    expect(tx.version).toBe(version);
    expect(tx.signatures).toEqual([new Uint8Array(64)]);
    expect(tx.message).toEqual(new Uint8Array(getTransactionDecoder().decode(wire).messageBytes));
    expect(tx.signers).toEqual([payer.publicKey]);
    expect(solanaSignerIndex(tx, payer.address)).toBe(0);
    expect(solanaSignerIndex(tx, payer.publicKey)).toBe(0);

    const signed = withSolanaSignature(tx, 0, ed25519.sign(tx.message, payer.secret));
    const decoded = getTransactionDecoder().decode(signed);
    const signature = decoded.signatures[payer.address]!;
    expect(ed25519.verify(new Uint8Array(signature), new Uint8Array(decoded.messageBytes), payer.publicKey)).toBe(true);
    expect(signed.length).toBe(wire.length);
    expect(parseSolanaTransaction(signed).message).toEqual(tx.message);
  });

  it('given two signers (and for v0 a lookup table), then each finds its slot, a signature leaves the other slot untouched and both verify', async () => {
    const payer = keypair();
    const cosigner = keypair();
    const lookup = version === 0 ? { table: keypair().address, addresses: [keypair().address, keypair().address] } : undefined;
    const wire = kitTransaction(version, payer.address, { cosigner: cosigner.address, ...(lookup ? { lookup } : {}) });
    const tx = parseSolanaTransaction(wire);
    expect(tx.signers).toEqual([payer.publicKey, cosigner.publicKey]);
    const stranger = keypair();
    expect(solanaSignerIndex(tx, stranger.address)).toBe(-1);
    expect(solanaSignerIndex(tx, lookup?.addresses[0] ?? stranger.address)).toBe(-1); // loaded from the table: never a signer
    expect(solanaSignerIndex(tx, 'not base58 0OIl')).toBe(-1);

    const slot = solanaSignerIndex(tx, cosigner.address);
    expect(slot).toBe(1);
    const once = withSolanaSignature(tx, slot, ed25519.sign(tx.message, cosigner.secret));
    const half = getTransactionDecoder().decode(once);
    expect(half.signatures[payer.address]).toBeNull();
    const reparsed = parseSolanaTransaction(once);
    const both = withSolanaSignature(reparsed, solanaSignerIndex(reparsed, payer.address), ed25519.sign(tx.message, payer.secret));
    const decoded = getTransactionDecoder().decode(both);
    for (const who of [payer, cosigner]) {
      expect(ed25519.verify(new Uint8Array(decoded.signatures[who.address]!), new Uint8Array(decoded.messageBytes), who.publicKey)).toBe(true);
    }
    if (lookup) expect(decoded.messageBytes[0]).toBe(0x80);
  });

  it('given a kit key pair signer, then its signature over the parsed message verifies in the slot', async () => {
    const signer = await generateKeyPairSigner();
    const tx = parseSolanaTransaction(kitTransaction(version, signer.address));
    const [signatures] = await signer.signMessages([{ content: tx.message, signatures: {} } as never]);
    const signed = withSolanaSignature(tx, 0, new Uint8Array((signatures as Record<string, Uint8Array>)[signer.address]!));
    const decoded = getTransactionDecoder().decode(signed);
    expect(ed25519.verify(new Uint8Array(decoded.signatures[signer.address]!), tx.message, new Uint8Array(getAddressEncoder().encode(signer.address)))).toBe(
      true,
    );
  });

  it('given any strict prefix or an extra byte, then ERR_INVALID_TRANSACTION (property)', () => {
    const wire = kitTransaction(version, keypair().address, { cosigner: keypair().address });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: wire.length - 1 }), fc.integer({ min: 0, max: 255 }), (cut, extra) => {
        expect(codeOf(() => parseSolanaTransaction(wire.subarray(0, cut)))).toBe('ERR_INVALID_TRANSACTION');
        expect(codeOf(() => parseSolanaTransaction(Uint8Array.of(...wire, extra)))).toBe('ERR_INVALID_TRANSACTION');
      }),
      { numRuns: 100 },
    );
  });
});

describe('Solana refusals', () => {
  const payer = keypair();
  const wire = kitTransaction('legacy', payer.address); // 1 slot, 1 signer, 2 accounts (payer, memo)
  const messageAt = 1 + 64;

  it.each([
    ['a non-minimal compact-u16 slot count (0x81 0x00 for 1)', () => Uint8Array.of(0x81, 0x00, ...wire.subarray(1))],
    ['two slots for one required signer', () => Uint8Array.of(0x02, ...new Uint8Array(64), ...wire.subarray(1))],
    ['no slot for one required signer', () => Uint8Array.of(0x00, ...wire.subarray(messageAt))],
    ['message version 1', () => Uint8Array.of(...wire.subarray(0, messageAt), 0x81, ...wire.subarray(messageAt))],
    ['message version 127', () => Uint8Array.of(...wire.subarray(0, messageAt), 0xff, ...wire.subarray(messageAt))],
    ['no required signer', () => Uint8Array.of(0x00, 0x00, ...wire.subarray(messageAt + 1))],
    [
      'more required signers than account keys',
      () => {
        const out = Uint8Array.of(0x03, ...new Uint8Array(128), ...wire.subarray(1));
        out[1 + 64 * 3] = 3;
        return out;
      },
    ],
    [
      'a read-only fee payer (every signer read-only)',
      () => {
        const out = wire.slice();
        out[messageAt + 1] = 1;
        return out;
      },
    ],
    [
      'more read-only unsigned accounts than unsigned accounts',
      () => {
        const out = wire.slice();
        out[messageAt + 2] = 2;
        return out;
      },
    ],
    [
      'an instruction naming a program outside the account keys',
      () => {
        const out = wire.slice();
        // header (3), key count (1), 2 keys, blockhash, instruction count (1), then the program index.
        out[messageAt + 3 + 1 + 64 + 32 + 1] = 9;
        return out;
      },
    ],
    ['not hex', () => 'zz'],
    ['nothing', () => new Uint8Array()],
  ])('given %s, then ERR_INVALID_TRANSACTION', (_name, make) => {
    expect(codeOf(() => parseSolanaTransaction(make()))).toBe('ERR_INVALID_TRANSACTION');
  });

  it('given a signature that is not 64 bytes or a slot that does not exist, then withSolanaSignature refuses', () => {
    const tx = parseSolanaTransaction(wire);
    expect(codeOf(() => withSolanaSignature(tx, 0, new Uint8Array(63)))).toBe('ERR_INVALID_TRANSACTION');
    expect(codeOf(() => withSolanaSignature(tx, 1, new Uint8Array(64)))).toBe('ERR_INVALID_TRANSACTION');
    expect(codeOf(() => withSolanaSignature(tx, -1, new Uint8Array(64)))).toBe('ERR_INVALID_TRANSACTION');
  });

  it('given 200 required signers (a two-byte slot count), then a signature round-trips through parse', () => {
    const keys = Array.from({ length: 201 }, (_, i) => Uint8Array.from({ length: 32 }, () => i % 256));
    // v0 (0x80): a legacy message cannot start with 200, the version bit.
    const message = Uint8Array.of(0x80, 200, 0, 1, 0xc9, 0x01, ...keys.flatMap((k) => [...k]), ...new Uint8Array(32), 0x00, 0x00);
    const wire200 = Uint8Array.of(0xc8, 0x01, ...new Uint8Array(64 * 200), ...message);
    const tx = parseSolanaTransaction(wire200);
    expect(tx.signatures).toHaveLength(200);
    const signed = withSolanaSignature(tx, 199, new Uint8Array(64).fill(7));
    expect(signed).toHaveLength(wire200.length);
    expect(parseSolanaTransaction(signed).signatures[199]).toEqual(new Uint8Array(64).fill(7));
  });
});
