import { useQuery } from '@tanstack/react-query';
import { ErrorText } from '../auth/ErrorText.js';
import { useI18n } from '../i18n/context.js';
import { useKitQueryClient, useWalletKitContext } from '../provider/context.js';
import { useSession } from '../provider/hooks.js';
import { walletKitKeys } from '../queries.js';
import { SecretFrameExport } from './SecretFrame.js';

/**
 * The user's imported private keys, each with its address and an export through the secret
 * frame. Renders nothing until a key exists.
 * @example <PrivateKeyList />
 */
export function PrivateKeyList() {
  const { client } = useWalletKitContext();
  const { t } = useI18n();
  const orgId = useSession().session?.organizationId ?? '';
  const keys = useQuery(
    { queryKey: walletKitKeys.privateKeys(orgId), queryFn: () => client.wallet.listPrivateKeys(), enabled: orgId !== '' },
    useKitQueryClient(),
  );
  if (keys.error) return <ErrorText error={keys.error} />;
  if (!keys.data?.length) return null;
  return (
    <>
      <h3 className="wk-section-heading">{t('wallet.privateKeys')}</h3>
      <ul className="wk-list" aria-label={t('wallet.privateKeys')}>
        {keys.data.map((k) => {
          const address = k.addresses[0]?.address ?? '';
          return (
            <li key={k.privateKeyId} className="wk-card wk-row wk-spread">
              <span className="wk-stack wk-grow">
                <span className="wk-card-title">{k.privateKeyName}</span>
                <span className="wk-mono wk-hint">{address}</span>
              </span>
              <SecretFrameExport
                target={{ privateKeyId: k.privateKeyId }}
                buttonLabel={t('wallet.exportKey')}
                buttonAriaLabel={t('wallet.exportPrivateKeyNamed', { name: k.privateKeyName })}
                title={t('wallet.exportKeyTitle')}
                confirmLabel={t('wallet.exportKeyConfirm')}
                content={address}
                warning={t('wallet.exportNamedKeyWarning', { name: k.privateKeyName, address })}
                hideAriaLabel={t('wallet.hideNamedKey', { name: k.privateKeyName })}
              />
            </li>
          );
        })}
      </ul>
    </>
  );
}
