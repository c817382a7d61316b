'use client';

/**
 * `@walletkit/react/confirm`: the kit's confirmation dialog (`SignatureRequestDialog`, any
 * SignatureRequest in words) and the pure decoders behind it, for an integrator who places the
 * dialog over their own state or writes their own confirmation (`createWalletKitClient({
 * confirm })`) and wants the same reading of a request: ERC-20 calldata, typed data as a tree,
 * permits, messages, Solana transactions, exact amounts. A separate entry, so the kit's first chunk stays
 * small (`WalletKitProvider` loads this after its first render).
 *
 * @example
 * ```ts
 * import { decodeCalldata, recognizePermit } from '@walletkit/react/confirm';
 * const call = decodeCalldata(request.transaction.data); // { kind: 'erc20Approve', spender, amount, unlimited: true }
 * ```
 * @packageDocumentation
 */
export { SignatureRequestDialog, requestWording, type SignatureRequestDialogProps } from './SignatureRequestDialog.js';
export { RequestDetails } from './RequestDetails.js';
export { decodeCalldata, ERC20_APPROVE, ERC20_TRANSFER, type DecodedCall } from './calldata.js';
export { describeTypedData, leafText, type TypedDataView, type TypedField } from './typed-data.js';
export { expiryText, permitSentence, recognizePermit, type Permit, type PermitAllowance, type PermitExpiry } from './permits.js';
export { isUnlimitedAmount } from './unlimited.js';
export { formatDeadline } from './time.js';
export { describeMessage, type MessageView } from './message.js';
export { base58, summarizeSolanaTransaction, type SolanaInstructionView, type SolanaTransactionView } from './solana.js';
export { chainLabel } from './chain.js';
export { formatAmount, formatUnits, parseUnits } from '../units.js';
