import { useI18n } from '../i18n/context.js';
import { ImportWalletForm } from './ImportWalletForm.js';
import { PrivateKeyList } from './PrivateKeyList.js';
import type { WalletAccounts } from './useWalletAccounts.js';
import { WalletCard } from './WalletCard.js';

/**
 * The Backup screen: export a wallet's recovery phrase or an account's private key, export an
 * imported key, and import a wallet or key. Every secret is typed or shown inside the secret
 * frame (another origin): this page never holds one.
 * @example <BackupScreen data={useWalletAccounts()} />
 */
export function BackupScreen({ data }: { data: WalletAccounts }) {
  const { t } = useI18n();
  return (
    <div className="wk-stack wk-screen-body">
      <p className="wk-hint">{t('wallet.backupIntro')}</p>
      <h3 className="wk-section-heading">{t('wallet.backupExportTitle')}</h3>
      {data.wallets.length > 0 ? (
        <ul className="wk-list" aria-label={t('wallet.wallets')}>
          {data.wallets.map((w) => (
            <WalletCard key={w.wallet.walletId} wallet={w.wallet} accounts={w.accounts} />
          ))}
        </ul>
      ) : (
        <p className="wk-hint">{data.loading ? t('common.loading') : t('wallet.backupNoWallet')}</p>
      )}
      <PrivateKeyList />
      <h3 className="wk-section-heading">{t('wallet.importTitle')}</h3>
      <ImportWalletForm />
    </div>
  );
}
