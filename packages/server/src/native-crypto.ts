/**
 * `@walletkit/crypto` on node:crypto wherever the server runs: P-256 signatures and verifications
 * (activity/p256-node.ts) and HPKE (enclave/hpke-node.ts) in place of noble and the `hpke` library
 * over WebCrypto, and wallet signatures on secp256k1 by libsecp256k1 (`tiny-secp256k1`, compiled to
 * WebAssembly: about four times noble's speed) and SHA-256 on node:crypto (issue 14). Called by `build()`, by `Enclave.open` (its at-rest recipient is
 * prepared before `build()` runs) and by each signer worker thread (an isolate of its own).
 * Idempotent; browsers never load this module.
 */
import { hash } from 'node:crypto';
import { type NativeSecp256k1, type NativeSha256, useNativeHpke, useNativeP256, useNativeSecp256k1, useNativeSha256 } from '@walletkit/crypto';
import { signRecoverable } from 'tiny-secp256k1';
import { nodeP256 } from './activity/p256-node.js';

export { keepOwnSigningKey } from './activity/p256-node.js';
import { nodeHpke } from './enclave/hpke-node.js';

/** Wallet signatures on secp256k1 by libsecp256k1 (RFC 6979, low S: noble's bytes). */
export const wasmSecp256k1: NativeSecp256k1 = {
  signRecoverable(digest, privateKey) {
    const { signature, recoveryId } = signRecoverable(digest, privateKey);
    return { signature, recovery: recoveryId };
  },
};

/**
 * SHA-256 by OpenSSL, one-shot (`crypto.hash`, Node 20.12+): every activity's fingerprint is one
 * on the event loop, 10-12 µs each in noble under load on the Intel host's profile, and as much
 * through `createHash` (its Hash object and digest Buffer); the one-shot hex takes 0.5 µs in a
 * loop against noble's 3.7. Bytes are copied off the Buffer so callers get noble's type.
 */
export const nodeSha256: NativeSha256 = {
  bytes: (data) => new Uint8Array(hash('sha256', data, 'buffer')),
  hex: (data) => hash('sha256', data),
};

/** @example installNativeCrypto(); // before any key is prepared or any stamp verified */
export function installNativeCrypto(): void {
  useNativeP256(nodeP256);
  useNativeHpke(nodeHpke);
  useNativeSecp256k1(wasmSecp256k1);
  useNativeSha256(nodeSha256);
}
