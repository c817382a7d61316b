import type { Translator } from '../i18n/catalog.js';

/** The largest time a JavaScript Date holds, in seconds (ECMA-262 21.4.1.1: 8.64e15 ms). */
const MAX_DATE_SECONDS = 8_640_000_000_000n;

/** Minutes in UTC, the zone named: the same request reads the same in every time zone. */
const UTC_MINUTES: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
};

/**
 * A Unix time in seconds as the translator's locale writes a UTC date and time (through
 * `Intl.DateTimeFormat`), or undefined when it is beyond any date ("forever").
 * @example deadlineText(1_893_456_000n, english) // 'Jan 1, 2030, 12:00 AM UTC'
 */
export function deadlineText(seconds: bigint, translator: Translator): string | undefined {
  if (seconds < 0n || seconds > MAX_DATE_SECONDS) return undefined;
  return translator.date(Number(seconds) * 1000, UTC_MINUTES);
}

/**
 * A Unix time in seconds (a permit's deadline or expiration) as an unambiguous UTC date, or
 * "no expiry" when it is beyond any date (apps pass `type(uint256).max` or uint48's max for
 * "forever"). UTC, not the local zone, so the same request reads the same for everyone.
 * @example formatDeadline(1_893_456_000n) // '2030-01-01 00:00 UTC'
 * @example formatDeadline(2n ** 256n - 1n) // 'no expiry'
 */
export function formatDeadline(seconds: bigint): string {
  if (seconds < 0n || seconds > MAX_DATE_SECONDS) return 'no expiry';
  const iso = new Date(Number(seconds) * 1000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
