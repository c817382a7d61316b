import type { ChainConfig, SignatureRequest } from '@walletkit/client';
import { checksumAddress } from '@walletkit/crypto';
import { formatAmount } from '../units.js';
import { AuthorizationWarning } from './AuthorizationDetails.js';
import { decodeCalldata, type DecodedCall } from './calldata.js';
import { chainLabel } from './chain.js';
import { Fields, SectionTitle, Warning, type FieldRow } from './parts.js';

type TransactionRequest = Extract<SignatureRequest, { kind: 'transaction' }>;

const TYPE_NAMES = { legacy: 'Legacy', eip2930: 'EIP-2930 (access list)', eip1559: 'EIP-1559', eip7702: 'EIP-7702 (account delegation)' } as const;

/** Native amounts in the chain's unit; without a configured chain, in wei (exact, never guessed). */
function nativeAmount(value: bigint, chain: TransactionRequest['chain']): string {
  return 'nativeCurrency' in chain && chain.nativeCurrency ? formatAmount(value, chain.nativeCurrency) : `${value} wei`;
}

/** What the calldata does, decoded where it can be: ERC-20 transfer and approve, else a contract call. */
function CallDetails({ call, token }: { call: DecodedCall; token: string | null }) {
  switch (call.kind) {
    case 'none':
      return null;
    case 'erc20Transfer':
      return (
        <>
          <SectionTitle>Token transfer</SectionTitle>
          <Fields
            rows={[
              { label: 'Token', value: token, mono: true },
              { label: 'Recipient', value: call.recipient, mono: true },
              { label: 'Amount', value: `${call.amount} (in the token's smallest unit)`, mono: true, testId: 'wk-confirm-amount' },
            ]}
          />
        </>
      );
    case 'erc20Approve':
      return (
        <>
          <SectionTitle>Token approval</SectionTitle>
          <Fields
            rows={[
              { label: 'Token', value: token, mono: true },
              { label: 'Spender', value: call.spender, mono: true },
              {
                label: 'Amount',
                value: call.unlimited ? 'Unlimited' : `${call.amount} (in the token's smallest unit)`,
                mono: true,
                testId: 'wk-confirm-amount',
              },
            ]}
          />
          {call.unlimited && (
            <Warning title="Unlimited approval.">
              {call.spender} will be able to spend all of this token in your account, now and in the future, until you revoke it. Approve only the amount you
              need unless you fully trust this contract.
            </Warning>
          )}
        </>
      );
    case 'contractCall':
      return (
        <>
          <SectionTitle>Contract call</SectionTitle>
          <Fields
            rows={[
              { label: 'Function selector', value: call.selector ?? 'none (under 4 bytes)', mono: true },
              { label: 'Data', value: `${call.byteLength} bytes`, testId: 'wk-confirm-data-size' },
            ]}
          />
          <details className="wk-details">
            <summary>Raw data</summary>
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable) */}
            {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the name is what a screen reader announces when that focus stop is reached */}
            <pre className="wk-code" tabIndex={0} aria-label="Raw transaction data">
              {call.data}
            </pre>
          </details>
        </>
      );
  }
}

/**
 * An Ethereum transaction in words: network, sender, recipient, value and fee in the native
 * unit, the decoded call, and any EIP-7702 delegation it carries.
 * @example <TransactionDetails request={request} chains={chains} />
 */
export function TransactionDetails({ request, chains }: { request: TransactionRequest; chains: readonly ChainConfig[] }) {
  const { transaction, chain } = request;
  // EIP-55 spelling: the one people compare against what they copied (and the checksum makes a
  // changed character visible).
  const tx = { ...transaction, to: transaction.to === null ? null : checksumAddress(transaction.to) };
  const call = decodeCalldata(tx.data);
  const rows: FieldRow[] = [
    { label: 'Network', value: chainLabel(chain.id, chain.name ? [{ id: chain.id, name: chain.name }] : chains), testId: 'wk-confirm-network' },
    { label: 'From', value: request.address, mono: true },
    { label: 'To', value: tx.to ?? 'A new contract (deployment)', mono: tx.to !== null, testId: 'wk-confirm-to' },
    { label: 'Value', value: nativeAmount(tx.value, chain), mono: true, testId: 'wk-confirm-value' },
    { label: 'Network fee', value: `up to ${nativeAmount(request.maxFee, chain)}`, mono: true, testId: 'wk-confirm-fee' },
    { label: 'Type', value: TYPE_NAMES[tx.type] ?? tx.type },
    { label: 'Nonce', value: tx.nonce.toString(), mono: true },
  ];
  return (
    <>
      <Fields rows={rows} label="Transaction" />
      {tx.to === null ? (
        <p className="wk-hint">Deploys a contract from {Math.ceil((tx.data.length - 2) / 2)} bytes of code.</p>
      ) : (
        <CallDetails call={call} token={tx.to} />
      )}
      {(tx.authorizationList ?? []).map((a, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a list drawn once per request (a new request remounts), never reordered; its items have no identity and may repeat
        <AuthorizationWarning key={i} authorization={a} chains={chains} />
      ))}
    </>
  );
}
