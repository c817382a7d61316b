import { useI18n } from '../i18n/context.js';
import { SecretFrameExport } from './SecretFrame.js';

/**
 * Export one account's private key: shown only after confirmation, inside the secret frame (another
 * origin: decrypted and shown there; this page never holds it).
 * @example <AccountKeyExport address={account.address} />
 */
export function AccountKeyExport({ address }: { address: string }) {
  const { t } = useI18n();
  return (
    <SecretFrameExport
      target={{ address }}
      buttonLabel={t('wallet.exportKey')}
      buttonAriaLabel={t('wallet.exportKeyOf', { address })}
      title={t('wallet.exportKeyTitle')}
      confirmLabel={t('wallet.exportKeyConfirm')}
      content={address}
      warning={t('wallet.exportKeyWarning', { address })}
      hideAriaLabel={t('wallet.hideKeyOf', { address })}
    />
  );
}
