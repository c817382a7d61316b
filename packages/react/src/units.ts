/**
 * Exact conversions between integer base units (wei, lamports, token units) and the decimal
 * text people read and type. Bigints and strings only: a float cannot hold 0.1 ETH in wei, and
 * a confirmation that rounds what is signed is lying.
 */

/**
 * `value` base units as a decimal string with `decimals` places, trailing zeros dropped.
 * @example formatUnits(10_000_000_000_000_000n, 18) // '0.01'
 * @example formatUnits(-1n, 18) // '-0.000000000000000001'
 */
export function formatUnits(value: bigint, decimals: number): string {
  if (!Number.isInteger(decimals) || decimals < 0) throw new RangeError('decimals must be a non-negative integer');
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * `value` base units with the currency's symbol, e.g. for a chain's native currency.
 * @example formatAmount(21_000n * 10n ** 9n, { decimals: 18, symbol: 'ETH' }) // '0.000021 ETH'
 */
export function formatAmount(value: bigint, currency: { decimals: number; symbol: string }): string {
  return `${formatUnits(value, currency.decimals)} ${currency.symbol}`;
}

/**
 * Decimal text ("0.01", "1,5" is refused) as base units, or undefined when it is not a
 * non-negative decimal number or has more fraction digits than `decimals` (the extra digits
 * could not be sent, and dropping them silently would send another amount).
 * @example parseUnits('0.01', 18) // 10_000_000_000_000_000n
 * @example parseUnits('0.0000000000000000001', 18) // undefined
 */
export function parseUnits(text: string, decimals: number): bigint | undefined {
  const match = /^(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!match) return undefined;
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  if (whole === '' && fraction === '') return undefined;
  if (fraction.length > decimals) return undefined;
  return BigInt(whole || '0') * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
}
