// Minimal RLP encoder (Ethereum Yellow Paper, appendix B): byte strings and lists only.
import { concatBytes } from './encoding';
import { bigIntToBytes } from './uint';

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
