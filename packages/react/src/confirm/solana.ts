import { formatUnits } from '../units.js';

/** One instruction of a Solana transaction, as far as the confirmation can name it. */
export interface SolanaInstructionView {
  /** The program's address (base58), or undefined when it comes from an address lookup table. */
  program: string | undefined;
  /** A well-known program's name. */
  programName?: string;
  /** A System Program transfer, decoded. */
  transfer?: { lamports: bigint; sol: string; to: string | undefined };
}

/** A short summary of a wire transaction, or only its size when the bytes do not parse. */
export interface SolanaTransactionView {
  byteLength: number;
  version?: 'legacy' | 0;
  signers?: number;
  instructions?: SolanaInstructionView[];
}

const PROGRAMS: Record<string, string> = {
  '11111111111111111111111111111111': 'System Program',
  TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA: 'Token Program',
  TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb: 'Token-2022 Program',
  ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL: 'Associated Token Account Program',
  ComputeBudget111111111111111111111111111111: 'Compute Budget Program',
  MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr: 'Memo Program',
};

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 (Bitcoin alphabet), as Solana writes addresses; leading zero bytes become '1's. */
export function base58(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)]! + out;
    n /= 58n;
  }
  for (let i = 0; i < bytes.length && bytes[i] === 0; i++) out = `1${out}`;
  return out;
}

class Reader {
  at = 0;
  readonly bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }
  take(n: number): Uint8Array {
    if (this.at + n > this.bytes.length) throw new RangeError('truncated');
    const start = this.at;
    this.at += n;
    return this.bytes.subarray(start, this.at);
  }
  u8(): number {
    return this.take(1)[0]!;
  }
  /** compact-u16 */
  len(): number {
    let value = 0;
    for (let i = 0; i < 3; i++) {
      const b = this.u8();
      value |= (b & 0x7f) << (7 * i);
      if ((b & 0x80) === 0) return value;
    }
    throw new RangeError('bad length');
  }
}

/** A System Program `Transfer` (instruction 2, u64 little-endian lamports). */
function systemTransfer(data: Uint8Array, accounts: Uint8Array, keys: string[]): SolanaInstructionView['transfer'] {
  if (data.length !== 12 || new DataView(data.buffer, data.byteOffset).getUint32(0, true) !== 2 || accounts.length < 2) return undefined;
  const lamports = new DataView(data.buffer, data.byteOffset).getBigUint64(4, true);
  return { lamports, sol: formatUnits(lamports, 9), to: keys[accounts[1]!] };
}

/**
 * Summarise a Solana wire transaction (legacy or v0): size, signer count, and each
 * instruction's program, with System transfers decoded. Bytes that do not parse still get
 * their size (the server parses strictly before signing; this is only the explanation).
 * @example summarizeSolanaTransaction(bytes) // { byteLength: 215, version: 0, signers: 1, instructions: [{ program: '111…1', programName: 'System Program', transfer: { lamports: 1000000n, sol: '0.001', to: '…' } }] }
 */
export function summarizeSolanaTransaction(bytes: Uint8Array): SolanaTransactionView {
  const byteLength = bytes.length;
  try {
    const r = new Reader(bytes);
    r.take(64 * r.len());
    const first = r.u8();
    const version = first & 0x80 ? ((first & 0x7f) === 0 ? 0 : undefined) : 'legacy';
    if (version === undefined) return { byteLength };
    const signers = version === 'legacy' ? first : r.u8();
    r.take(2);
    const keys = Array.from({ length: r.len() }, () => base58(r.take(32)));
    r.take(32);
    const instructions = Array.from({ length: r.len() }, (): SolanaInstructionView => {
      const program = keys[r.u8()];
      const accounts = r.take(r.len());
      const data = r.take(r.len());
      const programName = program === undefined ? undefined : PROGRAMS[program];
      const transfer = programName === 'System Program' ? systemTransfer(data, accounts, keys) : undefined;
      return { program, ...(programName ? { programName } : {}), ...(transfer ? { transfer } : {}) };
    });
    return { byteLength, version, signers, instructions };
  } catch {
    return { byteLength };
  }
}
