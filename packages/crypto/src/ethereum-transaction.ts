// Ethereum transactions: parse an unsigned one (what sign_transaction receives), its signing
// hash, and its serialization with or without a signature. Legacy with an EIP-155 chain id,
// EIP-2930 (0x01), EIP-1559 (0x02) and EIP-7702 (0x04, with its signed authorization list).
// Strict: canonical RLP, minimal integers, no trailing bytes, no signature already present.
import { bytesToHex, concatBytes, hexToBytes } from './encoding.js';
import { CryptoError } from './errors.js';
import { keccak256 } from './keccak.js';
import { rlpDecode, rlpEncode, rlpEncodeList, rlpListPayload, type RlpItem } from './rlp.js';
import { bigIntToBytes } from './uint.js';

/** The four transaction types. */
export type EthereumTransactionType = 'legacy' | 'eip2930' | 'eip1559' | 'eip7702';

/** One access-list entry (EIP-2930). Addresses and keys are lowercase 0x-hex. */
export interface AccessListEntry {
  address: string;
  storageKeys: string[];
}

/** A signed EIP-7702 authorization as a transaction carries it. */
export interface SignedAuthorization {
  chainId: bigint;
  /** The delegate contract, lowercase 0x-hex. */
  address: string;
  nonce: bigint;
  yParity: 0 | 1;
  r: bigint;
  s: bigint;
}

/**
 * An unsigned Ethereum transaction. `to` is null for a contract creation; `data` is 0x-hex.
 *
 * @example
 * ```ts
 * const tx: EthereumTransaction = { type: 'eip1559', chainId: 1n, nonce: 0n, maxPriorityFeePerGas: 1n, maxFeePerGas: 2n, gas: 21000n, to: '0x…', value: 1n, data: '0x', accessList: [] };
 * ```
 */
export interface EthereumTransaction {
  type: EthereumTransactionType;
  chainId: bigint;
  nonce: bigint;
  gas: bigint;
  to: string | null;
  value: bigint;
  data: string;
  /** legacy and eip2930 */
  gasPrice?: bigint;
  /** eip1559 and eip7702 */
  maxPriorityFeePerGas?: bigint;
  maxFeePerGas?: bigint;
  /** every type but legacy */
  accessList?: AccessListEntry[];
  /** eip7702 */
  authorizationList?: SignedAuthorization[];
}

/** An ECDSA signature over the signing hash. */
export interface TransactionSignature {
  r: bigint;
  s: bigint;
  yParity: 0 | 1;
}

const TYPE_BYTE: Record<Exclude<EthereumTransactionType, 'legacy'>, number> = { eip2930: 0x01, eip1559: 0x02, eip7702: 0x04 };

function invalid(message: string): CryptoError {
  return new CryptoError('ERR_INVALID_TRANSACTION', message);
}

function bytesOf(item: RlpItem | undefined, name: string): Uint8Array {
  if (!(item instanceof Uint8Array)) throw invalid(`${name} must be a byte string`);
  return item;
}

function listOf(item: RlpItem | undefined, name: string): RlpItem[] {
  if (!Array.isArray(item)) throw invalid(`${name} must be a list`);
  return item;
}

/** A minimal big-endian integer of at most `bits` bits. */
function uintOf(item: RlpItem | undefined, name: string, bits = 256): bigint {
  const bytes = bytesOf(item, name);
  if (bytes.length > 0 && bytes[0] === 0) throw invalid(`${name} has a leading zero`);
  if (bytes.length * 8 > bits) throw invalid(`${name} is out of range`);
  return bytes.length === 0 ? 0n : BigInt(`0x${bytesToHex(bytes)}`);
}

function addressOf(item: RlpItem | undefined, name: string): string {
  const bytes = bytesOf(item, name);
  if (bytes.length !== 20) throw invalid(`${name} must be 20 bytes`);
  return `0x${bytesToHex(bytes)}`;
}

function toOf(item: RlpItem | undefined): string | null {
  const bytes = bytesOf(item, 'to');
  return bytes.length === 0 ? null : addressOf(bytes, 'to');
}

function accessListOf(item: RlpItem | undefined): AccessListEntry[] {
  return listOf(item, 'accessList').map((entry, i) => {
    const [address, keys, ...rest] = listOf(entry, `accessList.${i}`);
    if (rest.length) throw invalid(`accessList.${i} has extra fields`);
    return {
      address: addressOf(address, `accessList.${i}.address`),
      storageKeys: listOf(keys, `accessList.${i}.storageKeys`).map((k, j) => {
        const key = bytesOf(k, `accessList.${i}.storageKeys.${j}`);
        if (key.length !== 32) throw invalid(`accessList.${i}.storageKeys.${j} must be 32 bytes`);
        return `0x${bytesToHex(key)}`;
      }),
    };
  });
}

function authorizationListOf(item: RlpItem | undefined): SignedAuthorization[] {
  const list = listOf(item, 'authorizationList');
  if (list.length === 0) throw invalid('an EIP-7702 transaction needs at least one authorization');
  return list.map((entry, i) => {
    const fields = listOf(entry, `authorizationList.${i}`);
    if (fields.length !== 6) throw invalid(`authorizationList.${i} must have 6 fields`);
    const yParity = uintOf(fields[3], `authorizationList.${i}.yParity`, 8);
    if (yParity > 1n) throw invalid(`authorizationList.${i}.yParity must be 0 or 1`);
    return {
      chainId: uintOf(fields[0], `authorizationList.${i}.chainId`),
      address: addressOf(fields[1], `authorizationList.${i}.address`),
      nonce: uintOf(fields[2], `authorizationList.${i}.nonce`, 64),
      yParity: Number(yParity) as 0 | 1,
      r: uintOf(fields[4], `authorizationList.${i}.r`),
      s: uintOf(fields[5], `authorizationList.${i}.s`),
    };
  });
}

function dataOf(item: RlpItem | undefined): string {
  return `0x${bytesToHex(bytesOf(item, 'data'))}`;
}

function chainIdOf(item: RlpItem | undefined): bigint {
  const chainId = uintOf(item, 'chainId');
  if (chainId === 0n) throw invalid('the chain id must not be 0 (a transaction valid on every chain can be replayed on each)');
  return chainId;
}

/**
 * Parse the serialized unsigned transaction `sign_transaction` receives (hex or bytes):
 * `rlp([nonce, gasPrice, gas, to, value, data, chainId, 0, 0])` for legacy (EIP-155), or
 * `type || rlp([...])` for EIP-2930, EIP-1559 and EIP-7702, without the signature fields.
 * Throws `ERR_INVALID_TRANSACTION` for anything else (including a signed transaction and a
 * legacy one without chain id).
 *
 * @example
 * ```ts
 * const tx = parseUnsignedEthereumTransaction('02e5018084…'); // { type: 'eip1559', chainId: 1n, … }
 * ```
 */
export function parseUnsignedEthereumTransaction(serialized: string | Uint8Array): EthereumTransaction {
  return parseBytes(bytesOfInput(serialized));
}

function bytesOfInput(serialized: string | Uint8Array): Uint8Array {
  try {
    return typeof serialized === 'string' ? hexToBytes(serialized) : serialized;
  } catch {
    throw invalid('the transaction is not hexadecimal');
  }
}

function parseBytes(bytes: Uint8Array): EthereumTransaction {
  if (bytes.length === 0) throw invalid('the transaction is empty');
  const first = bytes[0]!;
  if (first >= 0xc0) {
    const fields = listOf(rlpDecode(bytes), 'transaction');
    if (fields.length === 6) throw invalid('a legacy transaction must carry its EIP-155 chain id (chainId, 0, 0)');
    if (fields.length !== 9) throw invalid('a legacy transaction has 9 fields (EIP-155)');
    if (bytesOf(fields[7], 'r').length !== 0 || bytesOf(fields[8], 's').length !== 0) throw invalid('the transaction is already signed');
    return {
      type: 'legacy',
      nonce: uintOf(fields[0], 'nonce', 64),
      gasPrice: uintOf(fields[1], 'gasPrice'),
      gas: uintOf(fields[2], 'gas', 64),
      to: toOf(fields[3]),
      value: uintOf(fields[4], 'value'),
      data: dataOf(fields[5]),
      chainId: chainIdOf(fields[6]),
    };
  }
  const type = (Object.keys(TYPE_BYTE) as Array<keyof typeof TYPE_BYTE>).find((t) => TYPE_BYTE[t] === first);
  if (!type) throw invalid(`unsupported transaction type 0x${first.toString(16).padStart(2, '0')}`);
  const fields = listOf(rlpDecode(bytes.subarray(1)), 'transaction');
  const expected = { eip2930: 8, eip1559: 9, eip7702: 10 }[type];
  if (fields.length === expected + 3) throw invalid('the transaction is already signed');
  if (fields.length !== expected) throw invalid(`a ${type} transaction has ${expected} fields`);
  if (type === 'eip2930') {
    return {
      type,
      chainId: chainIdOf(fields[0]),
      nonce: uintOf(fields[1], 'nonce', 64),
      gasPrice: uintOf(fields[2], 'gasPrice'),
      gas: uintOf(fields[3], 'gas', 64),
      to: toOf(fields[4]),
      value: uintOf(fields[5], 'value'),
      data: dataOf(fields[6]),
      accessList: accessListOf(fields[7]),
    };
  }
  const tx: EthereumTransaction = {
    type,
    chainId: chainIdOf(fields[0]),
    nonce: uintOf(fields[1], 'nonce', 64),
    maxPriorityFeePerGas: uintOf(fields[2], 'maxPriorityFeePerGas'),
    maxFeePerGas: uintOf(fields[3], 'maxFeePerGas'),
    gas: uintOf(fields[4], 'gas', 64),
    to: toOf(fields[5]),
    value: uintOf(fields[6], 'value'),
    data: dataOf(fields[7]),
    accessList: accessListOf(fields[8]),
  };
  if (type === 'eip7702') {
    if (tx.to === null) throw invalid('an EIP-7702 transaction cannot create a contract');
    tx.authorizationList = authorizationListOf(fields[9]);
  }
  return tx;
}

const int = (value: bigint) => bigIntToBytes(value);
const hex = (value: string) => hexToBytes(value);

function accessListItems(list: AccessListEntry[] | undefined): RlpItem[] {
  return (list ?? []).map((e) => [hex(e.address), e.storageKeys.map(hex)]);
}

function bodyOf(tx: EthereumTransaction): RlpItem[] {
  const to = tx.to === null ? new Uint8Array() : hex(tx.to);
  switch (tx.type) {
    case 'legacy':
      return [int(tx.nonce), int(tx.gasPrice ?? 0n), int(tx.gas), to, int(tx.value), hex(tx.data)];
    case 'eip2930':
      return [int(tx.chainId), int(tx.nonce), int(tx.gasPrice ?? 0n), int(tx.gas), to, int(tx.value), hex(tx.data), accessListItems(tx.accessList)];
    case 'eip1559':
    case 'eip7702': {
      const body: RlpItem[] = [
        int(tx.chainId),
        int(tx.nonce),
        int(tx.maxPriorityFeePerGas ?? 0n),
        int(tx.maxFeePerGas ?? 0n),
        int(tx.gas),
        to,
        int(tx.value),
        hex(tx.data),
        accessListItems(tx.accessList),
      ];
      if (tx.type === 'eip7702') {
        body.push((tx.authorizationList ?? []).map((a) => [int(a.chainId), hex(a.address), int(a.nonce), int(BigInt(a.yParity)), int(a.r), int(a.s)]));
      }
      return body;
    }
  }
}

/**
 * Serialize a transaction: unsigned (what is hashed and signed) or with its signature (what is
 * broadcast). Legacy: EIP-155 form unsigned, `v = chainId * 2 + 35 + yParity` signed.
 *
 * @example
 * ```ts
 * const raw = serializeEthereumTransaction(tx, { r, s, yParity }); // eth_sendRawTransaction
 * ```
 */
export function serializeEthereumTransaction(tx: EthereumTransaction, signature?: TransactionSignature): Uint8Array<ArrayBuffer> {
  const body = bodyOf(tx);
  if (tx.type === 'legacy') {
    const tail = signature
      ? [int(tx.chainId * 2n + 35n + BigInt(signature.yParity)), int(signature.r), int(signature.s)]
      : [int(tx.chainId), new Uint8Array(), new Uint8Array()];
    return rlpEncode([...body, ...tail]) as Uint8Array<ArrayBuffer>;
  }
  const fields = signature ? [...body, int(BigInt(signature.yParity)), int(signature.r), int(signature.s)] : body;
  return concatBytes(Uint8Array.of(TYPE_BYTE[tx.type]), rlpEncode(fields));
}

/**
 * The digest the sender's key signs: keccak256 of the unsigned serialization.
 *
 * @example
 * ```ts
 * const digest = ethereumTransactionHash(parseUnsignedEthereumTransaction(hex));
 * ```
 */
export function ethereumTransactionHash(tx: EthereumTransaction): Uint8Array<ArrayBuffer> {
  return keccak256(serializeEthereumTransaction(tx));
}

/** An unsigned transaction as `sign_transaction` receives it, ready to be signed. */
export interface UnsignedEthereumTransaction {
  transaction: EthereumTransaction;
  /** The digest the sender's key signs (as {@link ethereumTransactionHash}), hashed when read. */
  readonly digest: Uint8Array<ArrayBuffer>;
  /** The unsigned serialization, whose keccak-256 is `digest` (for a signer that hashes itself). */
  unsigned: Uint8Array;
  /** The signed serialization (as {@link serializeEthereumTransaction} with `signature`). */
  withSignature(signature: TransactionSignature): Uint8Array<ArrayBuffer>;
}

/**
 * Parse an unsigned transaction (as {@link parseUnsignedEthereumTransaction}, the same refusals)
 * and sign it from the bytes as given, without encoding it again: the parser admits one spelling
 * of each transaction (canonical RLP, minimal integers), so those bytes are its unsigned
 * serialization. The digest is their keccak256; the signed form is their field list with the
 * signature's three fields appended (legacy: in place of `chainId, 0, 0`). The same bytes as
 * re-encoding, at a fraction of the cost on a signing server's event loop (issue 14).
 *
 * @example
 * ```ts
 * const unsigned = prepareEthereumTransaction('02e5018084…');
 * const raw = unsigned.withSignature(signatureOver(unsigned.digest)); // eth_sendRawTransaction
 * ```
 */
export function prepareEthereumTransaction(serialized: string | Uint8Array): UnsignedEthereumTransaction {
  const bytes = bytesOfInput(serialized);
  const transaction = parseBytes(bytes);
  const typed = transaction.type !== 'legacy';
  // The field list's items, after the type byte (if any) and the list's header.
  let fields = rlpListPayload(bytes, typed ? 1 : 0);
  if (!typed) fields = fields.subarray(0, fields.length - rlpEncode(int(transaction.chainId)).length - 2); // chainId, 0x80, 0x80
  return {
    transaction,
    get digest() {
      return keccak256(bytes);
    },
    unsigned: bytes,
    withSignature(signature) {
      const v = typed ? BigInt(signature.yParity) : transaction.chainId * 2n + 35n + BigInt(signature.yParity);
      const list = rlpEncodeList(fields, [int(v), int(signature.r), int(signature.s)]);
      return typed ? concatBytes(Uint8Array.of(TYPE_BYTE[transaction.type as keyof typeof TYPE_BYTE]), list) : list;
    },
  };
}
