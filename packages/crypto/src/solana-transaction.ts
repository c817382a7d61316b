// Solana wire transactions (legacy and v0): the signatures, the message they sign, and which
// signature slot belongs to which key. Enough to put one signer's ed25519 signature in its slot
// and leave every other byte as the client built it. Strict: canonical compact-u16 lengths,
// as many signature slots as required signers, the whole message parsed, no trailing bytes.
import { base58 } from '@scure/base';
import { concatBytes, equalBytes, hexToBytes } from './encoding.js';
import { CryptoError } from './errors.js';

/** A parsed wire transaction. `message` is the exact bytes every signer signs. */
export interface SolanaTransaction {
  version: 'legacy' | 0;
  /** One 64-byte slot per required signer, in account order (zeros where not signed yet). */
  signatures: Uint8Array[];
  message: Uint8Array;
  /** The public keys of the required signers, in slot order. */
  signers: Uint8Array[];
}

function invalid(message: string): CryptoError {
  return new CryptoError('ERR_INVALID_TRANSACTION', `Solana transaction: ${message}`);
}

/** A cursor over the bytes with the wire's primitives. */
class Reader {
  at = 0;
  readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  take(n: number, what: string): Uint8Array {
    if (this.at + n > this.bytes.length) throw invalid(`truncated ${what}`);
    const out = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  u8(what: string): number {
    return this.take(1, what)[0]!;
  }

  /** compact-u16 (1 to 3 bytes, 7 bits each, low first); only the shortest spelling. */
  shortVec(what: string): number {
    let value = 0;
    for (let i = 0; i < 3; i++) {
      const b = this.u8(what);
      value |= (b & 0x7f) << (7 * i);
      if ((b & 0x80) === 0) {
        if (i > 0 && b === 0) throw invalid(`${what} length is not in its shortest form`);
        if (value > 0xffff) throw invalid(`${what} length is out of range`);
        return value;
      }
    }
    throw invalid(`${what} length is out of range`);
  }
}

/** Skip a message after its header and account keys: blockhash, instructions, lookups. */
function skipMessageBody(r: Reader, version: 'legacy' | 0, accountCount: number): void {
  r.take(32, 'recent blockhash');
  const instructions = r.shortVec('instructions');
  for (let i = 0; i < instructions; i++) {
    // Program ids are static account keys in both versions (v0 cannot load them from a table).
    if (r.u8('program index') >= accountCount) throw invalid('an instruction names a program that is not an account key');
    r.take(r.shortVec('instruction accounts'), 'instruction accounts');
    r.take(r.shortVec('instruction data'), 'instruction data');
  }
  if (version === 'legacy') return;
  const lookups = r.shortVec('address table lookups');
  for (let i = 0; i < lookups; i++) {
    r.take(32, 'lookup table address');
    r.take(r.shortVec('writable indexes'), 'writable indexes');
    r.take(r.shortVec('readonly indexes'), 'readonly indexes');
  }
}

/**
 * Parse a wire transaction (hex or bytes): signature slots, then a legacy or v0 message.
 * Throws `ERR_INVALID_TRANSACTION` for anything else.
 *
 * @example
 * ```ts
 * const tx = parseSolanaTransaction(bytes); // { version: 0, signatures: [zeros], message, signers: [feePayer] }
 * ```
 */
export function parseSolanaTransaction(serialized: string | Uint8Array): SolanaTransaction {
  let bytes: Uint8Array;
  try {
    bytes = typeof serialized === 'string' ? hexToBytes(serialized) : serialized;
  } catch {
    throw invalid('not hexadecimal');
  }
  const r = new Reader(bytes);
  const slots = r.shortVec('signatures');
  const signatures = Array.from({ length: slots }, () => r.take(64, 'signature'));
  const messageStart = r.at;
  const prefix = r.bytes[r.at];
  let version: 'legacy' | 0 = 'legacy';
  if (prefix !== undefined && (prefix & 0x80) !== 0) {
    if ((prefix & 0x7f) !== 0) throw invalid(`unsupported message version ${prefix & 0x7f}`);
    version = 0;
    r.at += 1;
  }
  const required = r.u8('header');
  const readonlySigned = r.u8('header');
  const readonlyUnsigned = r.u8('header');
  const accountCount = r.shortVec('account keys');
  const accounts = Array.from({ length: accountCount }, () => r.take(32, 'account key'));
  if (required === 0) throw invalid('a transaction needs a fee payer (one required signer at least)');
  if (required > accountCount) throw invalid('more required signers than account keys');
  // The runtime's own sanitization: the fee payer is writable, the counts fit the keys.
  if (readonlySigned >= required) throw invalid('the fee payer must be writable');
  if (readonlyUnsigned > accountCount - required) throw invalid('more read-only unsigned accounts than unsigned accounts');
  if (slots !== required) throw invalid(`${slots} signature slots for ${required} required signers`);
  skipMessageBody(r, version, accountCount);
  if (r.at !== bytes.length) throw invalid('trailing bytes');
  return { version, signatures, message: bytes.subarray(messageStart), signers: accounts.slice(0, required) };
}

/**
 * The slot of `signer` (a base58 address or 32-byte key) among the required signers, or -1.
 *
 * @example
 * ```ts
 * const slot = solanaSignerIndex(tx, 'Gh9Z…'); // 0 for the fee payer
 * ```
 */
export function solanaSignerIndex(tx: SolanaTransaction, signer: string | Uint8Array): number {
  let key: Uint8Array;
  try {
    key = typeof signer === 'string' ? base58.decode(signer) : signer;
  } catch {
    return -1;
  }
  return tx.signers.findIndex((s) => equalBytes(s, key));
}

/**
 * The wire bytes of `tx` with `signature` in slot `index` (other slots untouched).
 *
 * @example
 * ```ts
 * const signed = withSolanaSignature(tx, slot, ed25519Signature);
 * ```
 */
export function withSolanaSignature(tx: SolanaTransaction, index: number, signature: Uint8Array): Uint8Array<ArrayBuffer> {
  if (signature.length !== 64) throw invalid('an ed25519 signature is 64 bytes');
  if (index < 0 || index >= tx.signatures.length) throw invalid('no such signature slot');
  const slots = tx.signatures.map((s, i) => (i === index ? signature : s));
  const count = tx.signatures.length;
  const length =
    count < 0x80
      ? Uint8Array.of(count)
      : count < 0x4000
        ? Uint8Array.of((count & 0x7f) | 0x80, count >> 7)
        : Uint8Array.of((count & 0x7f) | 0x80, ((count >> 7) & 0x7f) | 0x80, count >> 14);
  return concatBytes(length, ...slots, tx.message);
}
