import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { ChainConfig } from '@walletkit/client';
import { ErrorText } from '../auth/ErrorText.js';
import { useI18n } from '../i18n/context.js';
import { useKitQueryClient, useWalletKitContext } from '../provider/context.js';
import { useKitMutation } from '../provider/hooks.js';
import { balanceQueryOptions, sendTransactionMutationOptions } from '../queries.js';
import { checkEthereumAddress } from './address.js';
import { parseAmountInput } from './amount-input.js';
import { currencyOf } from './Balance.js';
import { CopyButton } from './CopyButton.js';

/** Props of {@link SendForm}. */
export interface SendFormProps {
  /** The sending account. */
  address: string;
  /** The networks to choose from, and the one chosen first. */
  chains: readonly ChainConfig[];
  defaultChainId: number;
}

/** Where a block explorer shows a transaction, when the chain has one. */
export function explorerTxUrl(chain: ChainConfig | undefined, hash: string): string | undefined {
  return chain?.blockExplorerUrl ? `${chain.blockExplorerUrl.replace(/\/+$/, '')}/tx/${hash}` : undefined;
}

/**
 * Send the native currency: recipient (checked, EIP-55 when mixed case), amount in the
 * network's unit (exact: parsed to wei without floats, in the locale's digits and decimal
 * separator too), network. The kit's confirmation shows the filled transaction before it is
 * signed; then the hash, with a block-explorer link when the chain has one. Errors are
 * explained by code (a decline is `ERR_USER_REJECTED`).
 * @example <SendForm address={address} chains={chains} defaultChainId={31337} />
 */
export function SendForm({ address, chains, defaultChainId }: SendFormProps) {
  const id = useId();
  const { client } = useWalletKitContext();
  const { t, amount: formatAmount, number, locale } = useI18n();
  const [to, setTo] = useState('');
  const [amount, setAmount] = useState('');
  const [chainId, setChainId] = useState(defaultChainId);
  const [errors, setErrors] = useState<{ to?: string; amount?: string }>({});
  const chain = chains.find((c) => c.id === chainId);
  const balance = useQuery(balanceQueryOptions(client, { address, chainId }), useKitQueryClient());
  const send = useKitMutation((c, q) => sendTransactionMutationOptions(c, q));
  const currency = currencyOf(chain);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (send.isPending) return;
    const recipient = checkEthereumAddress(to);
    const value = parseAmountInput(amount, currency.decimals, locale);
    const next: typeof errors = {};
    if (!recipient.ok) next.to = t(recipient.error === 'checksum' ? 'wallet.sendChecksum' : 'wallet.sendAddressFormat');
    if (value === undefined)
      next.amount = t('wallet.sendAmountFormat', { symbol: currency.symbol, example: number(0.01), decimals: number(currency.decimals) });
    else if (value === 0n) next.amount = t('wallet.sendAmountZero');
    else if (balance.data !== undefined && value > balance.data)
      next.amount = t('wallet.sendAmountOverBalance', { balance: formatAmount(balance.data, currency) });
    setErrors(next);
    if (!recipient.ok || value === undefined || next.amount) return;
    send.mutate({ address, chainId, transaction: { to: recipient.address, value } });
  };

  const hash = send.data;
  const link = hash ? explorerTxUrl(chain, hash) : undefined;
  const field = (name: 'to' | 'amount') => ({
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
  });

  return (
    <form className="wk-stack" onSubmit={submit} noValidate aria-label={t('wallet.sendForm')}>
      <label className="wk-label" htmlFor={`${id}-to`}>
        {t('wallet.sendRecipient')}
      </label>
      <input
        id={`${id}-to`}
        className="wk-input wk-mono"
        dir="ltr"
        autoComplete="off"
        spellCheck={false}
        placeholder="0x…"
        value={to}
        onChange={(e) => setTo(e.currentTarget.value)}
        {...field('to')}
      />
      <ErrorText error={errors.to} id={`${id}-to-error`} />
      <label className="wk-label" htmlFor={`${id}-amount`}>
        {t('wallet.sendAmount', { symbol: currency.symbol })}
      </label>
      <input
        id={`${id}-amount`}
        className="wk-input wk-amount-input"
        inputMode="decimal"
        autoComplete="off"
        placeholder={number(0.01)}
        value={amount}
        onChange={(e) => setAmount(e.currentTarget.value)}
        {...field('amount')}
      />
      <ErrorText error={errors.amount} id={`${id}-amount-error`} />
      <p className="wk-hint">
        {balance.data !== undefined
          ? t('wallet.sendAvailable', { amount: formatAmount(balance.data, currency) })
          : balance.isError
            ? t('wallet.balanceUnavailable')
            : t('common.loading')}
      </p>
      {chains.length > 1 && (
        <>
          <label className="wk-label" htmlFor={`${id}-chain`}>
            {t('wallet.network')}
          </label>
          <select id={`${id}-chain`} className="wk-input" value={chainId} onChange={(e) => setChainId(Number(e.currentTarget.value))}>
            {chains.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </>
      )}
      {chains.length === 1 && <p className="wk-hint">{t('wallet.sendOnNetwork', { network: chain?.name ?? String(chainId) })}</p>}
      <button type="submit" className="wk-button" data-variant="primary" disabled={send.isPending} aria-busy={send.isPending || undefined}>
        {send.isPending ? t('wallet.sending') : t('wallet.sendSubmit')}
      </button>
      {send.isPending && (
        <p className="wk-hint" role="status">
          {t('wallet.sendPending')}
        </p>
      )}
      <ErrorText error={send.error} />
      {hash && !send.isPending && (
        <div className="wk-stack wk-success">
          <p className="wk-label" role="status">
            {t('wallet.sent')}
          </p>
          <span className="wk-code" data-testid="wk-tx-hash">
            {hash}
          </span>
          <div className="wk-row">
            <CopyButton text={hash} label={t('wallet.copyHash')} copied={t('wallet.hashCopied')} failed={t('wallet.copyFailed')} />
            {link && (
              <a className="wk-link" href={link} target="_blank" rel="noopener noreferrer">
                {t('wallet.viewInExplorer')}
              </a>
            )}
          </div>
        </div>
      )}
    </form>
  );
}
