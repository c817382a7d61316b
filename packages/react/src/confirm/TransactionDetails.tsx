import type { ChainConfig, SignatureRequest } from '@walletkit/client';
import { checksumAddress } from '@walletkit/crypto';
import type { Translator } from '../i18n/catalog.js';
import { useI18n } from '../i18n/context.js';
import { AuthorizationWarning } from './AuthorizationDetails.js';
import { decodeCalldata, type DecodedCall } from './calldata.js';
import { chainLabel } from './chain.js';
import { Fields, SectionTitle, Warning, type FieldRow } from './parts.js';
import { integerText } from './words.js';

type TransactionRequest = Extract<SignatureRequest, { kind: 'transaction' }>;

const TYPE_KEYS = {
  legacy: 'confirm.typeLegacy',
  eip2930: 'confirm.typeEip2930',
  eip1559: 'confirm.typeEip1559',
  eip7702: 'confirm.typeEip7702',
} as const;

/** Native amounts in the chain's unit (exact, in the locale's digits); without a configured chain, in wei (never guessed). */
function nativeAmount(value: bigint, chain: TransactionRequest['chain'], translator: Translator): string {
  return 'nativeCurrency' in chain && chain.nativeCurrency
    ? translator.amount(value, chain.nativeCurrency)
    : translator.amount(value, { decimals: 0, symbol: 'wei' });
}

/** What the calldata does, decoded where it can be: ERC-20 transfer and approve, else a contract call. */
function CallDetails({ call, token }: { call: DecodedCall; token: string | null }) {
  const translator = useI18n();
  const { t, plural } = translator;
  const smallest = (amount: bigint) => t('confirm.smallestUnit', { amount: integerText(amount, translator) });
  switch (call.kind) {
    case 'none':
      return null;
    case 'erc20Transfer':
      return (
        <>
          <SectionTitle>{t('confirm.tokenTransfer')}</SectionTitle>
          <Fields
            rows={[
              { label: t('confirm.token'), value: token, mono: true },
              { label: t('confirm.recipient'), value: call.recipient, mono: true },
              { label: t('confirm.amount'), value: smallest(call.amount), mono: true, testId: 'wk-confirm-amount' },
            ]}
          />
        </>
      );
    case 'erc20Approve':
      return (
        <>
          <SectionTitle>{t('confirm.tokenApproval')}</SectionTitle>
          <Fields
            rows={[
              { label: t('confirm.token'), value: token, mono: true },
              { label: t('confirm.spender'), value: call.spender, mono: true },
              { label: t('confirm.amount'), value: call.unlimited ? t('confirm.unlimited') : smallest(call.amount), mono: true, testId: 'wk-confirm-amount' },
            ]}
          />
          {call.unlimited && <Warning title={t('confirm.unlimitedTitle')}>{t('confirm.unlimitedApproveWarning', { spender: call.spender })}</Warning>}
        </>
      );
    case 'contractCall':
      return (
        <>
          <SectionTitle>{t('confirm.contractCall')}</SectionTitle>
          <Fields
            rows={[
              { label: t('confirm.selector'), value: call.selector ?? t('confirm.noSelector'), mono: true },
              { label: t('confirm.data'), value: plural('confirm.bytes', call.byteLength), testId: 'wk-confirm-data-size' },
            ]}
          />
          <details className="wk-details">
            <summary>{t('confirm.rawData')}</summary>
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable) */}
            {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the name is what a screen reader announces when that focus stop is reached */}
            <pre className="wk-code" tabIndex={0} aria-label={t('confirm.rawDataLabel')} dir="ltr">
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
  const translator = useI18n();
  const { t, plural } = translator;
  const { transaction, chain } = request;
  // EIP-55 spelling: the one people compare against what they copied (and the checksum makes a
  // changed character visible).
  const tx = { ...transaction, to: transaction.to === null ? null : checksumAddress(transaction.to) };
  const call = decodeCalldata(tx.data);
  const rows: FieldRow[] = [
    {
      label: t('confirm.network'),
      value: chainLabel(chain.id, chain.name ? [{ id: chain.id, name: chain.name }] : chains, translator),
      testId: 'wk-confirm-network',
    },
    { label: t('confirm.from'), value: request.address, mono: true },
    { label: t('confirm.to'), value: tx.to ?? t('confirm.newContract'), mono: tx.to !== null, testId: 'wk-confirm-to' },
    { label: t('confirm.value'), value: nativeAmount(tx.value, chain, translator), mono: true, testId: 'wk-confirm-value' },
    { label: t('confirm.fee'), value: t('confirm.feeUpTo', { amount: nativeAmount(request.maxFee, chain, translator) }), mono: true, testId: 'wk-confirm-fee' },
    { label: t('confirm.type'), value: tx.type in TYPE_KEYS ? t(TYPE_KEYS[tx.type as keyof typeof TYPE_KEYS]) : tx.type },
    { label: t('confirm.nonce'), value: tx.nonce.toString(), mono: true },
  ];
  return (
    <>
      <Fields rows={rows} label={t('confirm.transaction')} />
      {tx.to === null ? <p className="wk-hint">{plural('confirm.deploys', Math.ceil((tx.data.length - 2) / 2))}</p> : <CallDetails call={call} token={tx.to} />}
      {(tx.authorizationList ?? []).map((a, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a list drawn once per request (a new request remounts), never reordered; its items have no identity and may repeat
        <AuthorizationWarning key={i} authorization={a} chains={chains} />
      ))}
    </>
  );
}
