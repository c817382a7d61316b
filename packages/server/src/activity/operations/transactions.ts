/**
 * sign_transaction (Turnkey's SIGN_TRANSACTION_V2): parse the unsigned transaction, find what
 * the signer's key signs, and only then let the enclave open the key. Ethereum: the keccak256
 * signing hash of a legacy (EIP-155), EIP-2930, EIP-1559 or EIP-7702 transaction, answered with
 * the signed serialization. Solana: the message of a legacy or v0 wire transaction, answered
 * with the signature in the signer's slot. The result is hex without `0x`, as Turnkey returns
 * it (@turnkey/viem prefixes it itself). docs/decisions/0014-transactions-server.md.
 */
import {
  bytesToHex,
  hexToBytes,
  isCryptoError,
  parseSolanaTransaction,
  prepareEthereumTransaction,
  solanaSignerIndex,
  withSolanaSignature,
  type Curve,
} from '@walletkit/crypto';
import type { TransactionType } from '@walletkit/protocol';
import type { RawSignature } from '../../enclave/index.js';
import { ApiError } from '../../errors.js';
import { inTransaction } from './compute.js';
import type { ComputeTable } from '../context.js';
import { signWithSigner } from './signers.js';

/** What one transaction needs signed, and how the signature goes back in. */
interface Signable {
  curve: Curve;
  message: Uint8Array;
  /** `message` is still to be hashed with keccak-256, on the signer thread. */
  keccak?: boolean;
  /** Checked before the key is opened: may this public key (hex, as stored) sign it? */
  admit?(publicKey: string): void;
  /** The signed transaction. */
  place(signature: RawSignature): Uint8Array;
}

const FIELD = 'unsignedTransaction';

function invalid(message: string, cause?: unknown): ApiError {
  return new ApiError('ERR_INVALID_TRANSACTION', message, FIELD, cause === undefined ? undefined : { cause });
}

/** Parsers throw CryptoError ERR_INVALID_TRANSACTION with a message fit for the caller. */
function parsed<T>(parse: () => T): T {
  try {
    return parse();
  } catch (cause) {
    throw invalid(isCryptoError(cause) ? cause.message : 'the transaction cannot be parsed', cause);
  }
}

function ethereum(unsigned: string): Signable {
  // Hashed and signed from the bytes as sent: the strict parser admits one spelling of each. The
  // keccak-256 of those bytes is taken on the signer thread, off the event loop.
  const tx = parsed(() => prepareEthereumTransaction(unsigned));
  return {
    curve: 'CURVE_SECP256K1',
    message: tx.unsigned,
    keccak: true,
    place: ({ r, s, v }) => tx.withSignature({ r: BigInt(`0x${r}`), s: BigInt(`0x${s}`), yParity: Number.parseInt(v, 16) === 1 ? 1 : 0 }),
  };
}

function solana(unsigned: string): Signable {
  const tx = parsed(() => parseSolanaTransaction(unsigned));
  let slot = -1;
  return {
    curve: 'CURVE_ED25519',
    message: tx.message,
    admit: (publicKey) => {
      slot = solanaSignerIndex(tx, hexToBytes(publicKey));
      if (slot < 0) throw invalid("signWith is not one of the transaction's required signers");
    },
    place: ({ r, s }) => withSolanaSignature(tx, slot, hexToBytes(`${r}${s}`)),
  };
}

const SIGNABLE: Record<TransactionType, (unsigned: string) => Signable> = {
  TRANSACTION_TYPE_ETHEREUM: ethereum,
  TRANSACTION_TYPE_SOLANA: solana,
};

const CURVE_NAME: Record<Curve, string> = { CURVE_SECP256K1: 'secp256k1', CURVE_ED25519: 'ed25519' };

/** Signing a transaction reads and computes only: it runs outside any transaction (context.ts, ComputeContext). */
export const transactionCompute = {
  sign_transaction: async (params, ctx) => {
    // Parse and hash first: a malformed transaction costs no key lookup and no unseal.
    const signable = SIGNABLE[params.type](params.unsignedTransaction);
    const signer = await ctx.signer(params.signWith);
    if (signer.key.curve !== signable.curve) {
      throw invalid(`${params.type} needs a ${CURVE_NAME[signable.curve]} key; signWith is ${CURVE_NAME[signer.key.curve]}`);
    }
    signable.admit?.(signer.publicKey);
    const [signature] = await signWithSigner(ctx, signer, [signable.message], signable.keccak === true);
    return { signedTransaction: bytesToHex(signable.place(signature!)) };
  },
} satisfies ComputeTable;

/** The same, inside a transaction (an activity approved by consensus runs there). */
export const transactionHandlers = inTransaction(transactionCompute);
