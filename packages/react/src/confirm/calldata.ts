import { checksumAddress } from '@walletkit/crypto';
import { isUnlimitedAmount } from './unlimited.js';

/**
 * A transaction's `data` as the confirmation explains it. Only what can be decoded exactly is
 * named: the two ERC-20 calls that move or grant tokens. Anything else is a contract call by
 * selector and size (the raw bytes stay available, folded away).
 */
export type DecodedCall =
  | { kind: 'none' }
  | { kind: 'erc20Transfer'; recipient: string; amount: bigint }
  | { kind: 'erc20Approve'; spender: string; amount: bigint; unlimited: boolean }
  | { kind: 'contractCall'; selector: string | undefined; byteLength: number; data: string };

/** `transfer(address,uint256)` */
export const ERC20_TRANSFER = '0xa9059cbb';
/** `approve(address,uint256)` */
export const ERC20_APPROVE = '0x095ea7b3';

/** 32-byte ABI word `i` after the selector, as 64 hex characters. */
const word = (hex: string, i: number) => hex.slice(8 + 64 * i, 8 + 64 * (i + 1));

/** An ABI-encoded address word (12 zero bytes, then the address) as EIP-55, else undefined (not canonical). */
function addressWord(w: string): string | undefined {
  return /^0{24}[0-9a-f]{40}$/.test(w) ? checksumAddress(`0x${w.slice(24)}`) : undefined;
}

/**
 * Decode calldata: ERC-20 `transfer` and `approve` when they are exactly canonical (selector,
 * two words, clean address padding); any other bytes as a contract call. A call that looks like
 * `transfer` but carries extra or malformed bytes is not called a transfer: the token contract
 * decides what they mean, not the wallet.
 * @example decodeCalldata('0x') // { kind: 'none' }
 * @example decodeCalldata('0x095ea7b3' + spenderWord + 'f'.repeat(64)) // { kind: 'erc20Approve', spender, amount: 2n ** 256n - 1n, unlimited: true }
 */
export function decodeCalldata(data: string): DecodedCall {
  const hex = data.replace(/^0x/i, '').toLowerCase();
  if (hex === '') return { kind: 'none' };
  const byteLength = Math.ceil(hex.length / 2);
  const selector = hex.length >= 8 ? `0x${hex.slice(0, 8)}` : undefined;
  const fallback: DecodedCall = { kind: 'contractCall', selector, byteLength, data: `0x${hex}` };
  if (!/^[0-9a-f]*$/.test(hex) || hex.length !== 8 + 64 * 2) return fallback;
  const target = addressWord(word(hex, 0));
  if (target === undefined) return fallback;
  const amount = BigInt(`0x${word(hex, 1)}`);
  if (selector === ERC20_TRANSFER) return { kind: 'erc20Transfer', recipient: target, amount };
  if (selector === ERC20_APPROVE) return { kind: 'erc20Approve', spender: target, amount, unlimited: isUnlimitedAmount(amount) };
  return fallback;
}
