import { useI18n } from '../i18n/context.js';
import { SecretFrameExport } from './SecretFrame.js';

/**
 * Export a wallet's recovery phrase: shown only after confirmation, inside the secret frame (another
 * origin: decrypted and shown there, with its own copy button; this page never holds it).
 * @example <ExportButton walletId={w.walletId} walletName={w.walletName} />
 */
export function ExportButton({ walletId, walletName }: { walletId: string; walletName: string }) {
  const { t } = useI18n();
  return (
    <SecretFrameExport
      target={{ walletId }}
      buttonLabel={t('wallet.exportPhrase')}
      buttonAriaLabel={t('wallet.exportPhraseOf', { wallet: walletName })}
      title={t('wallet.exportPhraseTitle')}
      confirmLabel={t('wallet.exportPhraseConfirm')}
      warning={t('wallet.exportPhraseWarning', { wallet: walletName })}
      hideAriaLabel={t('wallet.hidePhraseOf', { wallet: walletName })}
    />
  );
}
