// The native P-256 a server may install in place of noble's (node:crypto is about 20x faster):
// one registry read by ecdsa.ts (signatures), point.ts (public keys of private keys) and keys.ts
// (key pairs and public-key encodings).

/** Signature encodings: ASN.1 DER, or fixed-width `r || s` (JOSE / P1363). */
export type EcdsaFormat = 'der' | 'compact';

/**
 * A native ECDSA-P256-SHA256 implementation a server may install ({@link useNativeP256}) in
 * place of noble's. Same contract as noble's: `sign` returns the low-S `r || s` (64 bytes) over
 * SHA-256 of `message`; `verify` accepts a compressed or uncompressed key (hex) and a DER or
 * `r || s` signature, high-S included, and never throws. The optional members, when present,
 * replace noble's point arithmetic too: `publicKey` gives the public key of a valid private key;
 * `convertPublicKey` re-encodes a 33- or 65-byte public key and throws unless it is a point of
 * the curve (not the identity).
 */
export interface NativeP256 {
  /** `publicKey`, when the caller has it, is the uncompressed (65-byte) public key of `privateKey`: it spares deriving it. */
  sign(privateKey: Uint8Array, message: Uint8Array, publicKey?: Uint8Array): Uint8Array;
  verify(publicKeyHex: string, message: Uint8Array, signature: Uint8Array, format: EcdsaFormat): boolean;
  publicKey?(privateKey: Uint8Array, compressed: boolean): Uint8Array;
  convertPublicKey?(publicKey: Uint8Array, compressed: boolean): Uint8Array;
}

let native: NativeP256 | undefined;

/**
 * Installs (or, with undefined, removes) a native P-256 for every SHA-256 ECDSA signature and
 * verification of this package (stamps, bundles, JWTs, client signatures, App Proofs), and, with
 * its optional members, for P-256 public keys. For servers; browsers keep noble.
 * @example useNativeP256(nodeP256); // the server's node:crypto implementation
 */
export function useNativeP256(impl: NativeP256 | undefined): void {
  native = impl;
}

/** @internal The installed native P-256, if any. */
export function nativeP256(): NativeP256 | undefined {
  return native;
}
