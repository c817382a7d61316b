import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { ChainConfig } from '@walletkit/client';
import { ErrorText } from '../auth/ErrorText.js';
import { useI18n } from '../i18n/context.js';
import { useKitQueryClient, useWalletKitContext } from '../provider/context.js';
import { useChains } from '../provider/hooks.js';
import { balanceQueryOptions } from '../queries.js';

/** A chain's native currency, or ETH's when the configuration names none. */
export const currencyOf = (chain: ChainConfig | undefined) => chain?.nativeCurrency ?? { symbol: 'ETH', decimals: 18 };

/**
 * An account's balance on one chain, exact, in the locale's digits ("1,5 ETH" in German), with
 * loading and error states and a retry.
 * @example <Balance address={address} chainId={31337} />
 */
export function Balance({ address, chainId }: { address: string; chainId: number }) {
  const { client } = useWalletKitContext();
  const { t, amount } = useI18n();
  const chain = useChains().chains.find((c) => c.id === chainId);
  // Refreshed while shown, so funds that arrive appear without a reload.
  const balance = useQuery({ ...balanceQueryOptions(client, { address, chainId }), refetchInterval: 15_000 }, useKitQueryClient());
  return (
    <div className="wk-stack wk-balance-block">
      <span className="wk-label">{t('wallet.balanceOn', { network: chain?.name ?? t('wallet.chainId', { id: chainId }) })}</span>
      <span className="wk-amount" data-testid="wk-balance" aria-busy={balance.isPending || undefined}>
        {balance.data !== undefined ? amount(balance.data, currencyOf(chain)) : balance.isError ? t('wallet.balanceUnavailable') : t('common.loading')}
      </span>
      {balance.isError && (
        <div className="wk-row">
          <ErrorText error={balance.error} />
          <button type="button" className="wk-button" data-variant="ghost" onClick={() => void balance.refetch()}>
            {t('common.retry')}
          </button>
        </div>
      )}
    </div>
  );
}

/**
 * The page's network: a selector when the app configures several chains (the choice switches
 * the kit's selected chain, as `wallet_switchEthereumChain` does for a dApp), else its name.
 * @example <NetworkSelect />
 */
export function NetworkSelect() {
  const id = useId();
  const { client } = useWalletKitContext();
  const { t } = useI18n();
  const { chains, selectedId } = useChains();
  const [error, setError] = useState<unknown>();
  if (chains.length < 2) return null;
  const choose = (chainId: number) => {
    setError(undefined);
    client
      .ethereumProvider()
      .request({ method: 'wallet_switchEthereumChain', params: [{ chainId: `0x${chainId.toString(16)}` }] })
      .catch((e: unknown) => setError(e ?? true));
  };
  return (
    <div className="wk-stack">
      <label className="wk-label" htmlFor={id}>
        {t('wallet.network')}
      </label>
      <select id={id} className="wk-input" value={selectedId} onChange={(e) => choose(Number(e.currentTarget.value))}>
        {chains.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <ErrorText error={error} />
    </div>
  );
}
