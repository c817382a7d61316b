/**
 * The Solana half of `kit.wallet`: ed25519 message signatures (`sign_raw_payloads`, the
 * message itself is signed) and wire transactions signed in the account's slot
 * (`sign_transaction`, TRANSACTION_TYPE_SOLANA). Every signature goes through the Confirmer.
 */
import { bytesToHex, hexToBytes } from '@walletkit/crypto';
import type { ActivityClient } from '../activity-client.js';
import { confirmWith, currentOrigin, type Confirmer, type SignOptions } from '../confirm.js';
import { WalletKitError } from '../errors.js';
import { isEthereumAddress } from '../ethereum/actions.js';

/**
 * Solana signing actions of the session (part of `kit.wallet`).
 *
 * @example
 * ```ts
 * const signature = await kit.wallet.signSolanaMessage({ address, message: new TextEncoder().encode('hello') });
 * ```
 */
export interface SolanaActions {
  /** The 64-byte ed25519 signature of `message`. An Ethereum account is `ERR_UNSUPPORTED_ACCOUNT`. */
  signSolanaMessage(params: { address: string; message: Uint8Array } & SignOptions): Promise<Uint8Array>;
  /** Wire bytes in (legacy or v0, the account a required signer), the same bytes with the account's signature in its slot out. */
  signSolanaTransaction(params: { address: string; transaction: Uint8Array } & SignOptions): Promise<Uint8Array>;
}

const BASE58_KEY = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** True for what can be a Solana address (base58, 32 to 44 characters). */
export function isSolanaAddress(address: string): boolean {
  return BASE58_KEY.test(address) && !isEthereumAddress(address);
}

function requireSolana(address: string): void {
  if (!isSolanaAddress(address)) {
    throw new WalletKitError('ERR_UNSUPPORTED_ACCOUNT', `${address} is not a Solana account: this request needs a Solana (ed25519) account.`);
  }
}

/**
 * Creates the {@link SolanaActions}.
 *
 * @example
 * ```ts
 * const sol = createSolanaActions({ activity, confirm });
 * ```
 */
export function createSolanaActions(deps: { activity: ActivityClient; confirm?: Confirmer | undefined }): SolanaActions {
  const { activity } = deps;
  return {
    async signSolanaMessage({ address, message, ...opts }) {
      requireSolana(address);
      if (!(message instanceof Uint8Array)) throw new WalletKitError('ERR_INVALID_PAYLOAD', 'message must be bytes (Uint8Array).');
      await confirmWith(deps.confirm, { kind: 'message', family: 'solana', address, message, origin: currentOrigin() }, opts);
      const { signatures } = await activity.submit('sign_raw_payloads', {
        signWith: address,
        payloads: [bytesToHex(message)],
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE',
      });
      const { r, s } = signatures[0]!;
      return hexToBytes(r.padStart(64, '0') + s.padStart(64, '0'));
    },
    async signSolanaTransaction({ address, transaction, ...opts }) {
      requireSolana(address);
      if (!(transaction instanceof Uint8Array) || transaction.length === 0)
        throw new WalletKitError('ERR_INVALID_TRANSACTION', 'transaction must be the wire bytes (Uint8Array).');
      // The wire format is parsed by the server (ERR_INVALID_TRANSACTION for a malformed one or
      // one this account does not sign), not here: the parser and base58 would cost the main
      // bundle ~3 kB gzipped for an error the server gives anyway (decision 0015).
      await confirmWith(deps.confirm, { kind: 'solanaTransaction', address, transaction, send: false, origin: currentOrigin() }, opts);
      const { signedTransaction } = await activity.submit('sign_transaction', {
        signWith: address,
        unsignedTransaction: bytesToHex(transaction),
        type: 'TRANSACTION_TYPE_SOLANA',
      });
      return hexToBytes(signedTransaction);
    },
  };
}
