/**
 * The environment the server reads (README's table): every variable checked where it is read,
 * so a typo stops the start with a message naming it instead of a library's error later.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';

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
});
