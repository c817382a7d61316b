/**
 * Entry checks of the auth modal. They only catch typos before a code is sent; the server
 * validates again (protocol `Email` and `PhoneNumber` fields).
 */

/**
 * A plausible email address: one `@`, a dot in the domain, no spaces.
 * @example isValidEmail('ada@example.com') // true
 */
export function isValidEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@.]+$/.test(value.trim()) && value.trim().length <= 320;
}

/**
 * Normalize a phone number typed with spaces, dashes, dots or parentheses to E.164
 * (`+` then 8 to 15 digits, no leading zero), or undefined when it is not one.
 * @example toE164('+1 (415) 555-0100') // '+14155550100'
 */
export function toE164(value: string): string | undefined {
  const compact = value.replace(/[\s().-]/g, '');
  return /^\+[1-9]\d{7,14}$/.test(compact) ? compact : undefined;
}
