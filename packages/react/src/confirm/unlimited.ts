/**
 * Whether an allowance amount means "everything, forever". Apps ask for `type(uint256).max`
 * (2^256 - 1) so the user never approves again; some subtract a little, or use another huge
 * constant, and Permit2 caps amounts at uint160. Wallets treat anything from half the type's
 * range up as unlimited: no token has a supply anywhere near it, so the grant is the same.
 * @example isUnlimitedAmount(2n ** 256n - 1n) // true
 * @example isUnlimitedAmount(2n ** 160n - 1n, 160) // true (Permit2's max)
 * @example isUnlimitedAmount(1_000_000n) // false
 */
export function isUnlimitedAmount(amount: bigint, bits = 256): boolean {
  return amount >= 2n ** BigInt(bits - 1);
}
