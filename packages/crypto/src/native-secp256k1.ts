// The native secp256k1 a server may install in place of noble's for wallet signatures
// (signRawPayload): libsecp256k1 signs about four times faster than noble here (decision 0022).

/**
 * A secp256k1 signer a server may install ({@link useNativeSecp256k1}) in place of noble's for
 * {@link signRawPayload}. Same contract as noble's `sign(digest, key, { prehash: false, lowS: true })`:
 * RFC 6979 deterministic nonce, `signature` is the low-S `r || s` (64 bytes) over the 32-byte
 * `digest` as given (not hashed again), `recovery` the recovery id (0 or 1). Throws for a private
 * key that is not a valid scalar.
 */
export interface NativeSecp256k1 {
  signRecoverable(digest: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recovery: number };
}

let native: NativeSecp256k1 | undefined;

/**
 * Installs (or, with undefined, removes) a native secp256k1 for the wallet signatures of this
 * package. For servers; browsers keep noble.
 * @example useNativeSecp256k1({ signRecoverable: (d, k) => { const s = tiny.signRecoverable(d, k); return { signature: s.signature, recovery: s.recoveryId }; } });
 */
export function useNativeSecp256k1(impl: NativeSecp256k1 | undefined): void {
  native = impl;
}

/** @internal The installed native secp256k1, if any. */
export function nativeSecp256k1(): NativeSecp256k1 | undefined {
  return native;
}
