/**
 * `@walletkit/crypto`: the isomorphic (browser + node) cryptography of walletkit, wire-
 * compatible with Turnkey's public formats (DESIGN section 2). Depends only on `@noble/*`,
 * `@scure/*` and `hpke`; no `node:` imports.
 *
 * @example
 * ```ts
 * import { generateP256KeyPair, stampApiKey } from '@walletkit/crypto';
 * const key = generateP256KeyPair();
 * const stamp = stampApiKey(body, key);
 * ```
 * @packageDocumentation
 */
export { CryptoError, isCryptoError, type CryptoErrorCode } from './errors.js';
export {
  base64urlDecode,
  base64urlEncode,
  bytesToHex,
  bytesToUtf8,
  concatBytes,
  equalBytes,
  hexToBytes,
  utf8ToBytes,
} from './encoding.js';
export { activityFingerprint, keccak256, type NativeSha256, sha256, sha256Hex, useNativeSha256 } from './hash.js';
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
} from './keys.js';
export { useNativeP256, verifyP256Der, type NativeP256 } from './ecdsa.js';
export { useNativeSecp256k1, type NativeSecp256k1 } from './native-secp256k1.js';
export {
  encodeApiKeyStamp,
  parseApiKeyStamp,
  stampApiKey,
  verifyApiKeyStamp,
  type ParsedStamp,
  type ParseStampOptions,
  type StampKey,
  type StampScheme,
  type VerifyStampOptions,
} from './stamp.js';
export {
  checkWebAuthnStampChallenge,
  parseWebAuthnStamp,
  webAuthnChallengeForBody,
  type WebAuthnStamp,
} from './webauthnStamp.js';
export { hpkeOpen, hpkeRecipient, hpkeSeal, useNativeHpke, type HpkeCiphertext, type HpkeRecipient, type NativeHpke } from './hpke.js';
export { signBundle, verifyBundle, type SignedBundle } from './bundle.js';
export { BIP39_ENGLISH, generateMnemonic, mnemonicToSeed, validateMnemonic, type MnemonicWordCount } from './mnemonic.js';
export { HARDENED_OFFSET, parsePath } from './path.js';
export { deriveKey, publicKeyFromPrivate, type Curve, type DerivedKey } from './derive.js';
export { checksumAddress, deriveAccount, formatAddress, type AddressFormat, type DerivedAccount } from './address.js';
export { hashPersonalMessage } from './eip191.js';
export { hashTypedData, type TypedData, type TypedDataField } from './eip712.js';
export { hashEip7702Authorization, type Eip7702Authorization } from './eip7702.js';
export { payloadDigest, payloadToSign, type HashFunction, type PayloadEncoding, type PayloadRequest } from './payload.js';
export { signRawPayload, verifyRawSignature, type RawSignature } from './sign.js';
export { checkJwtTimes, decodeJwt, signJwt, verifyJwt, type VerifyJwtOptions } from './jwt.js';
export { createClientSignature, verifyClientSignature, type ClientSignature } from './clientSignature.js';
export { signAppProof, verifyAppProof, type AppProof } from './appProof.js';
export { appProofParts } from './appProofParts.js';
export {
  ethereumTransactionHash,
  parseUnsignedEthereumTransaction,
  prepareEthereumTransaction,
  serializeEthereumTransaction,
  type AccessListEntry,
  type EthereumTransaction,
  type EthereumTransactionType,
  type SignedAuthorization,
  type TransactionSignature,
  type UnsignedEthereumTransaction,
} from './ethereum-transaction.js';
export { parseSolanaTransaction, solanaSignerIndex, withSolanaSignature, type SolanaTransaction } from './solana-transaction.js';
