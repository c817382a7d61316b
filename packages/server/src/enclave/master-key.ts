import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Resolve the 32-byte master key that seals the enclave's keys.
 * WALLETKIT_MASTER_KEY wins; in embedded mode (no DATABASE_URL) a key is generated into
 * `<dataDir>/master.key` (mode 0600) on first start. With PostgreSQL every instance must
 * share one key, so it must be given explicitly.
 */
export function resolveMasterKey(opts: { masterKey: string | undefined; dataDir: string; databaseUrl: string | undefined }): Buffer {
  if (opts.masterKey) return Buffer.from(opts.masterKey, 'hex');
  if (opts.databaseUrl) {
    throw new Error('WALLETKIT_MASTER_KEY is required when DATABASE_URL is set (every instance must share it)');
  }
  const file = join(opts.dataDir, 'master.key');
  if (existsSync(file)) {
    const hex = readFileSync(file, 'utf8').trim();
    if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error(`${file} does not hold a 64-hex-character key`);
    return Buffer.from(hex, 'hex');
  }
  mkdirSync(opts.dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
