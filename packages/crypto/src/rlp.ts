// Minimal RLP (Ethereum Yellow Paper, appendix B): byte strings and lists only; the decoder
// accepts canonical encodings alone (one item, one spelling).
import { concatBytes } from './encoding.js';
import { CryptoError } from './errors.js';
import { bigIntToBytes } from './uint.js';

/** An RLP item: a byte string or a list of items. */
export type RlpItem = Uint8Array | RlpItem[];

function header(offset: number, length: number): Uint8Array {
  if (length <= 55) return Uint8Array.of(offset + length);
  const lengthBytes = bigIntToBytes(BigInt(length));
  return concatBytes(Uint8Array.of(offset + 55 + lengthBytes.length), lengthBytes);
}

/** @internal RLP-encodes an item. Integers must be passed as minimal big-endian bytes. */
export function rlpEncode(item: RlpItem): Uint8Array {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && item[0]! < 0x80) return item;
    return concatBytes(header(0x80, item.length), item);
  }
  const payload = concatBytes(...item.map(rlpEncode));
  return concatBytes(header(0xc0, payload.length), payload);
}

/** @internal The payload (its items, encoded) of the canonical RLP list that starts at `at` and fills `bytes`. */
export function rlpListPayload(bytes: Uint8Array, at: number): Uint8Array {
  if (at >= bytes.length || bytes[at]! < 0xc0) throw malformed('not a list');
  const [start, len] = lengthOf(bytes, at, 0xc0);
  if (start + len !== bytes.length) throw malformed('the list does not fill its bytes');
  return bytes.subarray(start);
}

/** @internal RLP-encodes a list whose first items are already encoded (`encoded`), then `items`. */
export function rlpEncodeList(encoded: Uint8Array, items: RlpItem[]): Uint8Array<ArrayBuffer> {
  const payload = concatBytes(encoded, ...items.map(rlpEncode));
  return concatBytes(header(0xc0, payload.length), payload);
}

function malformed(message: string): CryptoError {
  return new CryptoError('ERR_INVALID_TRANSACTION', `RLP: ${message}`);
}

/** Length prefix at `at` -> [payload offset, payload length]; canonical forms only. */
function lengthOf(bytes: Uint8Array, at: number, short: number): [number, number] {
  const b = bytes[at]!;
  if (b - short <= 55) return [at + 1, b - short];
  const n = b - short - 55;
  if (at + 1 + n > bytes.length) throw malformed('truncated length');
  if (bytes[at + 1] === 0) throw malformed('length with a leading zero');
  let len = 0;
  for (let i = 0; i < n; i++) len = len * 256 + bytes[at + 1 + i]!;
  if (len <= 55) throw malformed('long form for a short length');
  return [at + 1 + n, len];
}

function decodeAt(bytes: Uint8Array, at: number, depth: number): [RlpItem, number] {
  if (at >= bytes.length) throw malformed('truncated');
  if (depth > 16) throw malformed('nested too deep');
  const b = bytes[at]!;
  if (b < 0x80) return [bytes.subarray(at, at + 1), at + 1];
  if (b < 0xc0) {
    const [start, len] = lengthOf(bytes, at, 0x80);
    if (start + len > bytes.length) throw malformed('truncated string');
    if (len === 1 && bytes[start]! < 0x80) throw malformed('single byte below 0x80 encoded as a string');
    return [bytes.subarray(start, start + len), start + len];
  }
  const [start, len] = lengthOf(bytes, at, 0xc0);
  const end = start + len;
  if (end > bytes.length) throw malformed('truncated list');
  const items: RlpItem[] = [];
  let cursor = start;
  while (cursor < end) {
    const [item, next] = decodeAt(bytes, cursor, depth + 1);
    if (next > end) throw malformed('item overruns its list');
    items.push(item);
    cursor = next;
  }
  return [items, end];
}

/**
 * @internal decodes exactly one RLP item filling `bytes`; non-canonical encodings and
 * trailing bytes are ERR_INVALID_TRANSACTION.
 */
export function rlpDecode(bytes: Uint8Array): RlpItem {
  const [item, end] = decodeAt(bytes, 0, 0);
  if (end !== bytes.length) throw malformed('trailing bytes');
  return item;
}
