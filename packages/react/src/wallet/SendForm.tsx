import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { ChainConfig } from '@walletkit/client';
import { ErrorText } from '../auth/ErrorText.js';
import { useKitQueryClient, useWalletKitContext } from '../provider/context.js';
import { useKitMutation } from '../provider/hooks.js';
import { balanceQueryOptions, sendTransactionMutationOptions } from '../queries.js';
import { formatAmount, parseUnits } from '../units.js';
import { checkEthereumAddress } from './address.js';

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
 * network's unit (exact: parsed to wei without floats), network. The kit's confirmation shows
 * the filled transaction before it is signed; then the hash, with a block-explorer link when
 * the chain has one. Errors are explained by code (a decline is `ERR_USER_REJECTED`).
 * @example <SendForm address={address} chains={chains} defaultChainId={31337} />
 */
export function SendForm({ address, chains, defaultChainId }: SendFormProps) {
  const id = useId();
  const { client } = useWalletKitContext();
  const [to, setTo] = useState('');
  const [amount, setAmount] = useState('');
  const [chainId, setChainId] = useState(defaultChainId);
  const [errors, setErrors] = useState<{ to?: string; amount?: string }>({});
  const chain = chains.find((c) => c.id === chainId);
  const balance = useQuery(balanceQueryOptions(client, { address, chainId }), useKitQueryClient());
  const send = useKitMutation((c, q) => sendTransactionMutationOptions(c, q));
  const currency = chain?.nativeCurrency ?? { symbol: 'ETH', decimals: 18 };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const recipient = checkEthereumAddress(to);
    const value = parseUnits(amount, currency.decimals);
    const next: typeof errors = {};
    if (!recipient.ok) next.to = recipient.error;
    if (value === undefined) next.amount = `Enter an amount in ${currency.symbol}, like 0.01 (at most ${currency.decimals} decimals).`;
    else if (value === 0n) next.amount = 'Enter an amount greater than 0.';
    else if (balance.data !== undefined && value > balance.data) next.amount = `That is more than the balance (${formatAmount(balance.data, currency)}).`;
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
    <form className="wk-stack" onSubmit={submit} noValidate aria-label="Send">
      <label className="wk-label" htmlFor={`${id}-to`}>
        Recipient address
      </label>
      <input
        id={`${id}-to`}
        className="wk-input wk-mono"
        autoComplete="off"
        spellCheck={false}
        placeholder="0x…"
        value={to}
        onChange={(e) => setTo(e.currentTarget.value)}
        {...field('to')}
      />
      <ErrorText error={errors.to} id={`${id}-to-error`} />
      <label className="wk-label" htmlFor={`${id}-amount`}>
        Amount ({currency.symbol})
      </label>
      <input
        id={`${id}-amount`}
        className="wk-input"
        inputMode="decimal"
        autoComplete="off"
        placeholder="0.01"
        value={amount}
        onChange={(e) => setAmount(e.currentTarget.value)}
        {...field('amount')}
      />
      <ErrorText error={errors.amount} id={`${id}-amount-error`} />
      {balance.data !== undefined && <p className="wk-hint">Available: {formatAmount(balance.data, currency)}</p>}
      <label className="wk-label" htmlFor={`${id}-chain`}>
        Network
      </label>
      <select id={`${id}-chain`} className="wk-input" value={chainId} onChange={(e) => setChainId(Number(e.currentTarget.value))}>
        {chains.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name} ({c.id})
          </option>
        ))}
      </select>
      <button type="submit" className="wk-button" data-variant="primary" disabled={send.isPending}>
        {send.isPending ? 'Sending…' : 'Review and send'}
      </button>
      <ErrorText error={send.error} />
      {hash && (
        <div className="wk-stack" role="status">
          <span className="wk-label">Sent. Transaction hash:</span>
          <span className="wk-code" data-testid="wk-tx-hash">
            {hash}
          </span>
          {link && (
            <a className="wk-link" href={link} target="_blank" rel="noopener noreferrer">
              View in the block explorer
            </a>
          )}
        </div>
      )}
    </form>
  );
}
