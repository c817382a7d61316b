import { Type } from '@sinclair/typebox';

/**
 * Field schemas shared by many operations and queries. Limits are this project's decisions
 * (the spec says "Array length limits ... not shown"); they are generous for real clients
 * and small enough that one request cannot ask the server for unbounded work.
 */

/** Most lists of ids or items in one request. */
export const MAX_ITEMS = 100;

/** Identifier of any resource (UUIDs here; Turnkey ids fit too). */
export const Id = Type.String({ minLength: 1, maxLength: 128 });

/** A list of identifiers, at most {@link MAX_ITEMS}. */
export const IdList = Type.Array(Id, { maxItems: MAX_ITEMS });

/** Human-readable name of a user, wallet, key, tag, policy, API key or authenticator. */
export const Name = Type.String({ minLength: 1, maxLength: 256 });

/** Free-form notes. */
export const Notes = Type.String({ maxLength: 4096 });

/** Hex-encoded public key (compressed or uncompressed P-256/secp256k1, or raw ed25519). */
export const PublicKeyHex = Type.String({ minLength: 2, maxLength: 256, pattern: '^[0-9a-fA-F]+$' });

/** Hex-encoded signature (DER or raw r||s). */
export const SignatureHex = Type.String({ minLength: 2, maxLength: 512, pattern: '^[0-9a-fA-F]+$' });

/** Lifetime in seconds as a decimal string (Turnkey sends uint64 as strings). */
export const ExpirationSeconds = Type.String({ pattern: '^(0|[1-9][0-9]{0,9})$' });

/** A signed JWT (verification token, session, OIDC token). */
export const Jwt = Type.String({ minLength: 1, maxLength: 16384 });

/** A bundle string (JSON or hex) produced or consumed by the enclave. */
export const Bundle = Type.String({ minLength: 1, maxLength: 65536 });

/** Email address; deliberately loose (the delivery step is the real check). */
export const Email = Type.String({ minLength: 3, maxLength: 320, pattern: '^[^@\\s]+@[^@\\s]+$' });

/** Phone number in E.164 format, e.g. `+13214567890`. */
export const PhoneNumber = Type.String({ pattern: '^\\+[1-9][0-9]{1,14}$' });

/** Blockchain address or other address string. */
export const Address = Type.String({ minLength: 1, maxLength: 256 });

/** BIP32 derivation path, e.g. `m/44'/60'/0'/0/0`. */
export const DerivationPath = Type.String({ minLength: 1, maxLength: 256 });

/** Timestamp of a record: ISO 8601 in this project (Turnkey uses {seconds, nanos}). */
export const Timestamp = Type.String({ minLength: 10, maxLength: 40, pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T' });

/** Quorum threshold: approvals needed, at least one. */
export const Threshold = Type.Integer({ minimum: 1, maximum: MAX_ITEMS });
