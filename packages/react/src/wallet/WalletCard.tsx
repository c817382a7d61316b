import type { WalletSummary } from '../client-contract.js';
import { useI18n } from '../i18n/context.js';
import { AccountKeyExport } from './AccountKeyExport.js';
import { ExportButton } from './ExportButton.js';
import type { AccountEntry } from './useWalletAccounts.js';

/** Props of {@link WalletCard}. */
export interface WalletCardProps {
  wallet: WalletSummary;
  accounts: readonly AccountEntry[];
}

/**
 * One wallet on the Backup screen: its recovery phrase and each account's private key, each
 * shown after confirmation inside the secret frame.
 * @example <WalletCard wallet={w} accounts={accounts} />
 */
export function WalletCard({ wallet, accounts }: WalletCardProps) {
  const { t } = useI18n();
  return (
    <li className="wk-card wk-stack">
      <div className="wk-row wk-spread">
        <h4 className="wk-card-title wk-grow">{wallet.walletName}</h4>
        <ExportButton walletId={wallet.walletId} walletName={wallet.walletName} />
      </div>
      {accounts.length > 0 && (
        <ul className="wk-list" aria-label={t('wallet.backupAccountsOf', { wallet: wallet.walletName })}>
          {accounts.map((a) => (
            <li key={a.address} className="wk-row wk-spread wk-key-row">
              <span className="wk-hint wk-grow">
                {t('wallet.accountName', { number: a.number })} <span className="wk-mono">{a.address}</span>
              </span>
              <AccountKeyExport address={a.address} />
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
