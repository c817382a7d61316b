/**
 * The environment the server reads (README's table): every variable checked where it is read,
 * so a typo stops the start with a message naming it instead of a library's error later.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig, startupWarnings } from '../src/config';
import { startTestServer } from './support/harness';
import { expectError } from './support/members';

describe('loadConfig', () => {
  it('given no LOG_LEVEL, then requests are logged at info', () => {
    expect(loadConfig({}).logLevel).toBe('info');
    expect(loadConfig({ LOG_LEVEL: '' }).logLevel).toBe('info');
  });

  it.each(['fatal', 'error', 'warn', 'info', 'debug', 'silent'])('given LOG_LEVEL=%s, then it is the level', (level) => {
    expect(loadConfig({ LOG_LEVEL: level }).logLevel).toBe(level);
  });

  it.each(['verbose', 'WARN', 'trace', ' warn'])('given LOG_LEVEL=%j, then the start stops with a message naming LOG_LEVEL and its levels', (level) => {
    expect(() => loadConfig({ LOG_LEVEL: level })).toThrow(/^LOG_LEVEL must be one of fatal, error, warn, info, debug, silent \(got /);
  });

  it('given a bad PORT, WALLETKIT_MASTER_KEY or WALLETKIT_SIGNER_THREADS, then the start stops with a message naming it', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/port/);
    expect(() => loadConfig({ WALLETKIT_MASTER_KEY: 'ab'.repeat(31) })).toThrow(/^WALLETKIT_MASTER_KEY must be 64 hex characters/);
    expect(() => loadConfig({ WALLETKIT_SIGNER_THREADS: '1.5' })).toThrow(/^WALLETKIT_SIGNER_THREADS must be a whole number/);
  });

  it('given no WALLETKIT_OTP_CODES_PER_WINDOW or _PER_DAY, then one contact gets 5 codes per 10 minutes and 20 a day, and nothing is said at start', () => {
    const config = loadConfig({ WALLETKIT_OTP_CODES_PER_WINDOW: '', SMTP_URL: 'smtp://127.0.0.1:1', SMS_WEBHOOK_URL: 'http://127.0.0.1:1/sms' });
    expect(config.otp).toEqual({ ttlSeconds: 300, maxAttempts: 3, maxPerContactPerWindow: 5, windowSeconds: 600, maxPerContactPerDay: 20 });
    expect(startupWarnings(config)).toEqual([]);
    // Lower limits are stricter: nothing to warn of either.
    expect(
      startupWarnings({ ...config, ...loadConfig({ WALLETKIT_OTP_CODES_PER_WINDOW: '2', WALLETKIT_OTP_CODES_PER_DAY: '4' }), delivery: config.delivery }),
    ).toEqual([]);
  });

  it('given raised code limits, then they are the limits and the start warns with the guesses they allow, dev outbox or not', () => {
    const env = {
      WALLETKIT_OTP_CODES_PER_WINDOW: '25',
      WALLETKIT_OTP_CODES_PER_DAY: '100',
      SMTP_URL: 'smtp://127.0.0.1:1',
      SMS_WEBHOOK_URL: 'http://127.0.0.1:1/sms',
    };
    const config = loadConfig(env);
    expect(config.otp).toMatchObject({ maxPerContactPerWindow: 25, maxPerContactPerDay: 100, maxAttempts: 3, ttlSeconds: 300 });
    const warning =
      'one-time codes: one contact may get 25 codes per 600 s and 100 per day (defaults 5 and 20), so up to 75 guesses per 600 s and 300 per day ' +
      "at one contact's code: raise them only for test accounts or with longer codes (otpLength, otpAlphanumeric)";
    expect(startupWarnings(config)).toEqual([warning]);
    expect(startupWarnings(loadConfig(env, { devOutbox: true }))).toEqual([expect.stringMatching(/^WARNING: the dev outbox is on/), warning]);
    // Only the day raised: still more guesses a day than the defaults allow.
    expect(startupWarnings(loadConfig({ ...env, WALLETKIT_OTP_CODES_PER_WINDOW: '5' }))).toEqual([
      expect.stringMatching(/^one-time codes: one contact may get 5 codes per 600 s and 100 per day/),
    ]);
  });

  it.each([
    ['WALLETKIT_OTP_CODES_PER_WINDOW', '0'],
    ['WALLETKIT_OTP_CODES_PER_WINDOW', '-1'],
    ['WALLETKIT_OTP_CODES_PER_WINDOW', '2.5'],
    ['WALLETKIT_OTP_CODES_PER_WINDOW', ' 5'],
    ['WALLETKIT_OTP_CODES_PER_WINDOW', '1e1'],
    ['WALLETKIT_OTP_CODES_PER_DAY', '10001'],
    ['WALLETKIT_OTP_CODES_PER_DAY', 'unlimited'],
  ])('given %s=%j, then the start stops with a message naming it and its range', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name} must be a whole number from 1 to 10000 \\(got `));
  });

  it('given more codes per window than per day, then the start stops naming both', () => {
    expect(() => loadConfig({ WALLETKIT_OTP_CODES_PER_WINDOW: '30' })).toThrow(
      'WALLETKIT_OTP_CODES_PER_WINDOW (30) must not be more than WALLETKIT_OTP_CODES_PER_DAY (20): raise both',
    );
  });

  it('given WALLETKIT_OTP_CODES_PER_WINDOW=2, when a contact asks for a third code in the window, then it is refused with ERR_RATE_LIMITED', async () => {
    const server = await startTestServer('pglite', { config: { otp: loadConfig({ WALLETKIT_OTP_CODES_PER_WINDOW: '2' }).otp, devOutbox: true } });
    try {
      const ask = (i: number) =>
        server.client.submit('init_otp', { otpType: 'OTP_TYPE_EMAIL', contact: 'limits@example.com' }, { timestampMs: String(Date.now() - i) });
      expect((await ask(1)).status).toBe(200);
      expect((await ask(2)).status).toBe(200);
      expectError(await ask(3), 429, 'ERR_RATE_LIMITED', 'contact');
    } finally {
      await server.dispose();
    }
  });
});
