import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useState } from 'react';
import { ErrorText } from '../auth/ErrorText.js';
import { useKitQueryClient, useWalletKitContext } from '../provider/context.js';
import { useChains } from '../provider/hooks.js';
import { balanceQueryOptions } from '../queries.js';
import { formatAmount } from '../units.js';

// Send and Receive (with the QR encoder, the panel's largest dependency) load when opened,
// apart from the kit's first chunk.
const SendForm = lazy(() => import('./SendForm.js').then((m) => ({ default: m.SendForm })));
const ReceivePanel = lazy(() => import('./ReceivePanel.js').then((m) => ({ default: m.ReceivePanel })));
const loading = <p className="wk-hint">Loading…</p>;

const isEthereum = (address: string) => /^0x[0-9a-fA-F]{40}$/.test(address);

/** The balance on the selected chain, with the network's name. */
function Balance({ address, chainId }: { address: string; chainId: number }) {
  const { client } = useWalletKitContext();
  const chain = useChains().chains.find((c) => c.id === chainId);
  const balance = useQuery(balanceQueryOptions(client, { address, chainId }), useKitQueryClient());
  const currency = chain?.nativeCurrency ?? { symbol: 'ETH', decimals: 18 };
  return (
    <div className="wk-stack">
      <p className="wk-balance">
        <span className="wk-label">Balance on {chain?.name ?? `chain ${chainId}`}</span>{' '}
        <span className="wk-mono" data-testid="wk-balance">
          {balance.data !== undefined ? formatAmount(balance.data, currency) : balance.isError ? 'unavailable' : '…'}
        </span>
      </p>
      <ErrorText error={balance.error} />
    </div>
  );
}

/**
 * The selected account: its balance on the kit's selected chain, and Send and Receive (each
 * shown on demand). Send and the balance need an Ethereum account and a configured chain;
 * Receive works for any account.
 * @example <AccountSection address={address} />
 */
export function AccountSection({ address }: { address: string }) {
  const id = useId();
  const [open, setOpen] = useState<'send' | 'receive'>();
  const { chains, selectedId } = useChains();
  const ethereum = isEthereum(address);
  const canSend = ethereum && selectedId !== undefined && chains.length > 0;
  const toggle = (view: 'send' | 'receive') => setOpen((v) => (v === view ? undefined : view));
  return (
    <section className="wk-stack" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`} className="wk-label">
        Account <span className="wk-code">{address}</span>
      </h3>
      {canSend ? (
        <Balance address={address} chainId={selectedId} />
      ) : (
        ethereum && <p className="wk-hint">No network is configured in this app, so there is no balance or Send.</p>
      )}
      <div className="wk-row">
        {canSend && (
          <button type="button" className="wk-button" aria-expanded={open === 'send'} aria-controls={`${id}-send`} onClick={() => toggle('send')}>
            Send
          </button>
        )}
        <button type="button" className="wk-button" aria-expanded={open === 'receive'} aria-controls={`${id}-receive`} onClick={() => toggle('receive')}>
          Receive
        </button>
      </div>
      {/* Always in the DOM, so the buttons' aria-controls name an element; filled only while open. */}
      <div id={`${id}-send`} hidden={open !== 'send'}>
        {open === 'send' && canSend && (
          <Suspense fallback={loading}>
            <SendForm address={address} chains={chains} defaultChainId={selectedId} />
          </Suspense>
        )}
      </div>
      <div id={`${id}-receive`} hidden={open !== 'receive'}>
        {open === 'receive' && (
          <Suspense fallback={loading}>
            <ReceivePanel address={address} />
          </Suspense>
        )}
      </div>
    </section>
  );
}
