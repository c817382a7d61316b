/**
 * `@walletkit/crypto`: the isomorphic (browser + node) cryptography of walletkit, wire-
 * compatible with Turnkey's public formats (DESIGN section 2). Depends only on `@noble/*`,
 * `@scure/*` and `@hpke/core`; no `node:` imports.
 *
 * @example
 * ```ts
 * import { generateP256KeyPair, stampApiKey } from '@walletkit/crypto';
 * const key = generateP256KeyPair();
 * const stamp = stampApiKey(body, key);
 * ```
 * @packageDocumentation
 */
export { CryptoError, isCryptoError, type CryptoErrorCode } from './errors';
export {
  base64urlDecode,
  base64urlEncode,
  bytesToHex,
  bytesToUtf8,
  concatBytes,
  equalBytes,
  hexToBytes,
  utf8ToBytes,
} from './encoding';
export { keccak256, sha256, sha256Hex } from './hash';
export {
  compressPublicKey,
  generateEd25519KeyPair,
  generateP256KeyPair,
  generateSecp256k1KeyPair,
  p256PublicKey,
  uncompressPublicKey,
  type EcKeyPair,
  type Ed25519KeyPair,
  type WeierstrassCurve,
} from './keys';
export { verifyP256Der } from './ecdsa';
export {
  parseApiKeyStamp,
  stampApiKey,
  verifyApiKeyStamp,
  type ParsedStamp,
  type StampKey,
  type StampScheme,
  type VerifyStampOptions,
} from './stamp';
export {
  checkWebAuthnStampChallenge,
  parseWebAuthnStamp,
  webAuthnChallengeForBody,
  type WebAuthnStamp,
} from './webauthnStamp';
export { hpkeOpen, hpkeSeal, type HpkeCiphertext } from './hpke';
export { signBundle, verifyBundle, type SignedBundle } from './bundle';
export { generateMnemonic, mnemonicToSeed, validateMnemonic, type MnemonicWordCount } from './mnemonic';
export { HARDENED_OFFSET, parsePath } from './path';
export { deriveKey, publicKeyFromPrivate, type Curve, type DerivedKey } from './derive';
export { checksumAddress, deriveAccount, formatAddress, type AddressFormat, type DerivedAccount } from './address';
export { hashPersonalMessage } from './eip191';
export { hashTypedData, type TypedData, type TypedDataField } from './eip712';
export { hashEip7702Authorization, type Eip7702Authorization } from './eip7702';
export { payloadDigest, type HashFunction, type PayloadEncoding, type PayloadRequest } from './payload';
export { signRawPayload, verifyRawSignature, type RawSignature } from './sign';
export { decodeJwt, signJwt, verifyJwt, type VerifyJwtOptions } from './jwt';
export { createClientSignature, verifyClientSignature, type ClientSignature } from './clientSignature';
export { signAppProof, verifyAppProof, type AppProof } from './appProof';
export {
  ethereumTransactionHash,
  parseUnsignedEthereumTransaction,
  serializeEthereumTransaction,
  type AccessListEntry,
  type EthereumTransaction,
  type EthereumTransactionType,
  type SignedAuthorization,
  type TransactionSignature,
} from './ethereum-transaction';
export { parseSolanaTransaction, solanaSignerIndex, withSolanaSignature, type SolanaTransaction } from './solana-transaction';
