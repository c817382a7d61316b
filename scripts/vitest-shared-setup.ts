/**
 * Runs before each test file of the `node` project (vitest.config.ts), whose files share their
 * worker's module graph: what a file finds installed in `@walletkit/crypto` is what a fresh import
 * gives (no native P-256, HPKE or secp256k1), whatever the file before it installed. A server a
 * file starts installs node:crypto again (`installNativeCrypto` in `build()`), as it would when
 * the file ran alone; the crypto and client suites test the library's own (browser) path.
 */
import { useNativeHpke, useNativeP256, useNativeSecp256k1 } from '@walletkit/crypto';
import { beforeAll } from 'vitest';

beforeAll(() => {
  useNativeP256(undefined);
  useNativeHpke(undefined);
  useNativeSecp256k1(undefined);
});
