import { useQuery } from '@tanstack/react-query';
import type { WalletAccountParams, WalletAccountSummary, WalletSummary } from '../client-contract.js';
import { ErrorText } from '../auth/ErrorText.js';
import { accountsQueryOptions, createAccountsMutationOptions } from '../queries.js';
import { useKitQueryClient, useWalletKitContext } from '../provider/context.js';
import { useKitMutation, useSession } from '../provider/hooks.js';
import { AccountKeyExport } from './AccountKeyExport.js';
import { ExportButton } from './ExportButton.js';

/**
 * The next Ethereum account of a wallet (BIP44 m/44'/60'/0'/0/n after the highest index used).
 * @example nextEthereumAccount([]) // { curve: 'CURVE_SECP256K1', path: "m/44'/60'/0'/0/0", ... }
 */
export function nextEthereumAccount(accounts: readonly WalletAccountSummary[]): WalletAccountParams {
  const used = accounts
    .map((a) => /^m\/44'\/60'\/0'\/0\/(\d+)$/.exec(a.path)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
  const next = used.length ? Math.max(...used) + 1 : 0;
  return { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: `m/44'/60'/0'/0/${next}`, addressFormat: 'ADDRESS_FORMAT_ETHEREUM' };
}

/** Props of {@link WalletCard}. */
export interface WalletCardProps {
  wallet: WalletSummary;
  selected: string | undefined;
  onSelect: (address: string) => void;
}

/**
 * One wallet: its accounts (pick one to sign with, export its key), add an account, export the phrase.
 * @example <WalletCard wallet={w} selected={address} onSelect={setAddress} />
 */
export function WalletCard({ wallet, selected, onSelect }: WalletCardProps) {
  const { client } = useWalletKitContext();
  const orgId = useSession().session?.organizationId ?? '';
  const accounts = useQuery(accountsQueryOptions(client, orgId, wallet.walletId), useKitQueryClient());
  const create = useKitMutation((c, q) => createAccountsMutationOptions(c, q, orgId));
  const list = accounts.data ?? [];
  return (
    <li className="wk-card wk-stack">
      <fieldset className="wk-stack" style={{ border: 0, padding: 0, margin: 0 }}>
        <legend className="wk-label">{wallet.walletName}</legend>
        {list.length === 0 && !accounts.isPending && <p className="wk-hint">No accounts yet.</p>}
        {list.map((a) => (
          <div key={a.address} className="wk-stack">
            <label className="wk-row wk-code">
              <input type="radio" name="wk-account" value={a.address} checked={selected === a.address} onChange={() => onSelect(a.address)} />
              {a.address}
            </label>
            <AccountKeyExport address={a.address} />
          </div>
        ))}
      </fieldset>
      <ErrorText error={accounts.error ?? create.error} />
      <div className="wk-row">
        <button
          type="button"
          className="wk-button"
          disabled={create.isPending || accounts.isPending}
          onClick={() => create.mutate({ walletId: wallet.walletId, accounts: [nextEthereumAccount(list)] })}
        >
          Add account to {wallet.walletName}
        </button>
        <ExportButton walletId={wallet.walletId} walletName={wallet.walletName} />
      </div>
    </li>
  );
}
