/**
 * A stamp as sent: the header name and its value. API keys and wallets stamp with `X-Stamp`,
 * passkeys with `X-Stamp-WebAuthn` (DESIGN section 2).
 *
 * @example
 * ```ts
 * const { header, value } = await stamper.stamp(body);
 * await fetch(url, { method: 'POST', body, headers: { [header]: value } });
 * ```
 */
export interface Stamp {
  header: 'X-Stamp' | 'X-Stamp-WebAuthn';
  value: string;
}

/**
 * Anything that can authorize a request body: a session key, a passkey, an external wallet.
 *
 * @example
 * ```ts
 * const stamper: Stamper = createSessionKeyStamper(key);
 * ```
 */
export interface Stamper {
  /** Signs the exact body text that will be sent. */
  stamp(body: string): Promise<Stamp>;
}
