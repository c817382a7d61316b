/**
 * The Ethereum half of `kit.wallet`: messages, typed data, transactions (filled from the
 * chain's RPC, serialized here with `@walletkit/crypto`, signed by `sign_transaction`),
 * broadcasting, EIP-7702 authorizations and balances. Every signature goes through the
 * Confirmer first.
 */
import { bytesToHex, type EthereumTransaction, type TypedData } from '@walletkit/crypto';
import type { ActivityClient } from '../activity-client.js';
import { confirmWith, currentOrigin, type Confirmer, type SignatureRequest, type SignOptions } from '../confirm.js';
import { toWalletKitError, WalletKitError } from '../errors.js';
import { loadEthereumHashing } from '../on-demand.js';
import type { ChainRegistry } from './chains.js';
import { prepareTransaction } from './prepare.js';
import { toQuantity } from './rpc.js';
import { maxFeeOf, normalizeTransactionRequest, quantity, transactionFields, type EthereumTransactionRequest, type Quantity } from './transaction.js';

/** A transaction to sign or send with `address`, on `chainId` (default: the kit's selected chain). */
export type EthereumTransactionParams = { address: string; transaction: EthereumTransactionRequest; chainId?: number | undefined } & SignOptions;

/** An EIP-7702 authorization's signature (`0x` 32-byte r and s, y parity 0 or 1). */
export interface AuthorizationSignature {
  r: `0x${string}`;
  s: `0x${string}`;
  yParity: 0 | 1;
}

/**
 * Ethereum signing actions of the session (part of `kit.wallet`).
 *
 * @example
 * ```ts
 * const hash = await kit.wallet.sendTransaction({ address, transaction: { to, value: 10n ** 16n } });
 * ```
 */
export interface EthereumActions {
  /** EIP-191 personal_sign: `0x` r || s || v (v = 27 or 28). A non-Ethereum account is `ERR_UNSUPPORTED_ACCOUNT`. */
  signMessage(params: { address: string; message: string | Uint8Array } & SignOptions): Promise<string>;
  /** EIP-712 eth_signTypedData_v4: `0x` r || s || v (v = 27 or 28). */
  signTypedData(params: { address: string; typedData: TypedData } & SignOptions): Promise<string>;
  /**
   * Fills what the transaction leaves out from the chain's RPC, asks the Confirmer, signs it
   * (`sign_transaction`) and returns the `0x` signed serialization (for `eth_sendRawTransaction`).
   * A `transaction.chainId` other than the requested (or selected) chain is `ERR_CHAIN_MISMATCH`.
   * A complete transaction (type, nonce, gas and fees given) needs no RPC: any chain id works.
   */
  signTransaction(params: EthereumTransactionParams): Promise<string>;
  /** {@link EthereumActions.signTransaction}, then broadcast; returns the transaction hash. */
  sendTransaction(params: EthereumTransactionParams): Promise<string>;
  /** Signs an EIP-7702 authorization (the account delegates its code to `authorization.address`). */
  signAuthorization(
    params: { address: string; authorization: { chainId: Quantity; address: string; nonce: Quantity } } & SignOptions,
  ): Promise<AuthorizationSignature>;
  /** The account's balance in wei on `chainId` (default: the selected chain). */
  getBalance(params: { address: string; chainId?: number | undefined }): Promise<bigint>;
}

const ETHEREUM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** True for an Ethereum address (0x + 40 hex characters, any case). */
export function isEthereumAddress(address: string): boolean {
  return ETHEREUM_ADDRESS.test(address);
}

function requireEthereum(address: string): void {
  if (!isEthereumAddress(address)) {
    throw new WalletKitError('ERR_UNSUPPORTED_ACCOUNT', `${address} is not an Ethereum account: this request needs an Ethereum (secp256k1) account.`);
  }
}

const word = (hex: string) => `0x${hex.replace(/^0x/, '').padStart(64, '0')}` as const;
const with0x = (hex: string) => (hex.startsWith('0x') ? hex : `0x${hex}`);

/**
 * Creates the {@link EthereumActions}.
 *
 * @example
 * ```ts
 * const eth = createEthereumActions({ activity, chains, confirm });
 * ```
 */
export function createEthereumActions(deps: { activity: ActivityClient; chains: ChainRegistry; confirm?: Confirmer | undefined }): EthereumActions {
  const { activity, chains } = deps;
  const confirm = (request: SignatureRequest, opts: SignOptions) => confirmWith(deps.confirm, request, opts);

  async function signDigest(address: string, digest: Uint8Array): Promise<string> {
    const { signatures } = await activity.submit('sign_raw_payloads', {
      signWith: address,
      payloads: [bytesToHex(digest)],
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    });
    const sig = signatures[0]!;
    const v = 27 + Number.parseInt(sig.v, 16);
    return `0x${sig.r.padStart(64, '0')}${sig.s.padStart(64, '0')}${v.toString(16)}`;
  }

  /** The chain a transaction is for: the requested or selected one, which the transaction's own chain id must match. */
  function chainOf(requested: number | undefined, own: bigint | undefined): bigint {
    const selected = requested ?? chains.selectedId();
    if (own !== undefined && selected !== undefined && BigInt(selected) !== own) {
      throw new WalletKitError('ERR_CHAIN_MISMATCH', `The transaction is for chain ${own}, but chain ${selected} is selected.`);
    }
    const chainId = own ?? (selected === undefined ? undefined : BigInt(selected));
    if (chainId === undefined) throw new WalletKitError('ERR_CHAIN_NOT_CONFIGURED', 'No chain is selected: configure `chains` or pass `chainId`.');
    return chainId;
  }

  async function confirmAndSign(address: string, tx: EthereumTransaction, send: boolean, opts: SignOptions): Promise<string> {
    const chainId = Number(tx.chainId);
    await confirm(
      {
        kind: 'transaction',
        address,
        origin: currentOrigin(),
        chain: chains.get(chainId) ?? { id: chainId },
        transaction: transactionFields(tx),
        maxFee: maxFeeOf(tx),
        send,
      },
      opts,
    );
    const { serializeEthereumTransaction } = await loadEthereumHashing();
    const { signedTransaction } = await activity.submit('sign_transaction', {
      signWith: address,
      unsignedTransaction: bytesToHex(serializeEthereumTransaction(tx)),
      type: 'TRANSACTION_TYPE_ETHEREUM',
    });
    return with0x(signedTransaction);
  }

  async function prepare({ address, transaction, chainId }: EthereumTransactionParams): Promise<EthereumTransaction> {
    requireEthereum(address);
    const request = normalizeTransactionRequest(transaction);
    if (request.from !== undefined && request.from !== address.toLowerCase()) {
      throw new WalletKitError('ERR_INVALID_TRANSACTION', `from (${transaction.from}) is not the signing account ${address}.`);
    }
    const chain = chainOf(chainId, request.chainId);
    return prepareTransaction(request, { from: address, chainId: chain, rpc: () => chains.rpc(Number(chain)) });
  }

  return {
    async signMessage({ address, message, ...opts }) {
      requireEthereum(address);
      await confirm({ kind: 'message', family: 'ethereum', address, message, origin: currentOrigin() }, opts);
      const { hashPersonalMessage } = await loadEthereumHashing();
      return signDigest(address, hashPersonalMessage(message));
    },
    async signTypedData({ address, typedData, ...opts }) {
      requireEthereum(address);
      const { hashTypedData } = await loadEthereumHashing();
      let digest: Uint8Array;
      try {
        digest = hashTypedData(typedData);
      } catch (error) {
        throw toWalletKitError(error, 'ERR_INVALID_PAYLOAD');
      }
      await confirm({ kind: 'typedData', address, typedData, origin: currentOrigin() }, opts);
      return signDigest(address, digest);
    },
    async signTransaction(params) {
      const tx = await prepare(params);
      return confirmAndSign(params.address, tx, false, params);
    },
    async sendTransaction(params) {
      const tx = await prepare(params);
      // Checked before asking the user: nothing is signed that cannot be sent.
      const rpc = chains.rpc(Number(tx.chainId));
      const signed = await confirmAndSign(params.address, tx, true, params);
      return rpc.request<string>('eth_sendRawTransaction', [signed]);
    },
    async signAuthorization({ address, authorization, ...opts }) {
      requireEthereum(address);
      if (typeof authorization?.address !== 'string' || !isEthereumAddress(authorization.address)) {
        throw new WalletKitError('ERR_INVALID_PAYLOAD', 'authorization.address must be the delegate contract address (0x + 40 hex characters).');
      }
      let chainId: bigint;
      let nonce: bigint;
      try {
        chainId = quantity(authorization.chainId, 'authorization.chainId');
        nonce = quantity(authorization.nonce, 'authorization.nonce', 64);
      } catch (error) {
        throw new WalletKitError('ERR_INVALID_PAYLOAD', (error as Error).message);
      }
      await confirm(
        { kind: 'authorization', address, authorization: { chainId: Number(chainId), address: authorization.address, nonce }, origin: currentOrigin() },
        opts,
      );
      const { r, s, v } = await activity.submit('sign_raw_payload', {
        signWith: address,
        payload: JSON.stringify({ chainId: toQuantity(chainId), address: authorization.address, nonce: toQuantity(nonce) }),
        encoding: 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION',
        hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE',
      });
      const parity = Number.parseInt(v, 16);
      return { r: word(r), s: word(s), yParity: (parity >= 27 ? parity - 27 : parity) as 0 | 1 };
    },
    async getBalance({ address, chainId }) {
      requireEthereum(address);
      const chain = chainId ?? chains.selectedId();
      if (chain === undefined) throw new WalletKitError('ERR_CHAIN_NOT_CONFIGURED', 'No chain is selected: configure `chains` or pass `chainId`.');
      return BigInt(await chains.rpc(chain).request<string>('eth_getBalance', [address, 'latest']));
    },
  };
}
