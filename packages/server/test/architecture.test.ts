/**
 * The boundaries of decision 0021, read off the source: the auth proxy is a client of the
 * activity API (no store, no drizzle, no activity handler or query code under src/proxy), and the
 * enclave has no method that hands a plaintext secret to its caller.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Enclave } from '../src/enclave';
import { ApiKeyStamps } from '../src/enclave/api-key-stamps';

const SRC = join(import.meta.dirname, '../src');

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The module specifiers a file imports (static and dynamic), resolved against src/ when relative. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  return specifiers.map((s) => (s.startsWith('.') ? relative(SRC, join(file, '..', s)) : s));
}

describe('architecture', () => {
  it('given the proxy sources, when their imports are read, then none reaches the store, drizzle or the activity handlers and queries', () => {
    const files = sources(join(SRC, 'proxy'));
    expect(files.length).toBeGreaterThan(10);
    const offending = files.flatMap((file) =>
      importsOf(file)
        .filter(
          (s) =>
            s.startsWith('store/') ||
            s.startsWith('drizzle-orm') ||
            s.startsWith('activity/operations/') ||
            s.startsWith('activity/queries/') ||
            s === 'pg' ||
            s.startsWith('@electric-sql'),
        )
        .map((s) => `${relative(SRC, file)} -> ${s}`),
    );
    expect(offending).toEqual([]);
  });

  it('given the enclave, when its methods are listed, then none reveals a sealed value (revealSecret is gone) and the proxy key is made and used inside it', () => {
    const stamps = Object.getOwnPropertyNames(ApiKeyStamps.prototype);
    const methods = [...Object.getOwnPropertyNames(Enclave.prototype), ...stamps];
    expect(methods).not.toContain('revealSecret');
    expect(methods).not.toContain('sealSecret');
    expect(methods).toEqual(expect.arrayContaining(['oauth2Login', 'issueOtp', 'checkOtpAttempt']));
    // `Enclave.stamps`: the proxy key is generated, stamps and is checked there, and nothing else.
    expect(stamps.sort()).toEqual(['checkStamp', 'constructor', 'createSealedApiKey', 'passesHeld', 'stampInProcess', 'stampSealed', 'stampWith']);
    // Nothing outside the enclave opens HPKE ciphertext sealed at rest.
    const outside = sources(SRC).filter((f) => !relative(SRC, f).startsWith('enclave/') && /\bhpkeOpen\b/.test(readFileSync(f, 'utf8')));
    expect(outside.map((f) => relative(SRC, f))).toEqual([]);
  });
});
