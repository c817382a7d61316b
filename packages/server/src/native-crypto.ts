/**
 * `@walletkit/crypto` on node:crypto wherever the server runs: P-256 signatures and verifications
 * (activity/p256-node.ts) and HPKE (enclave/hpke-node.ts) in place of noble and the `hpke` library
 * over WebCrypto (issue 14). Called by `build()`, by `Enclave.open` (its at-rest recipient is
 * prepared before `build()` runs) and by each signer worker thread (an isolate of its own).
 * Idempotent; browsers never load this module.
 */
import { useNativeHpke, useNativeP256 } from '@walletkit/crypto';
import { nodeP256 } from './activity/p256-node.js';

export { keepOwnSigningKey } from './activity/p256-node.js';
import { nodeHpke } from './enclave/hpke-node.js';

/** @example installNativeCrypto(); // before any key is prepared or any stamp verified */
export function installNativeCrypto(): void {
  useNativeP256(nodeP256);
  useNativeHpke(nodeHpke);
}
