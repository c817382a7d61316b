import type { ChainConfig, SignatureRequest } from '@walletkit/client';
import type { Translator } from '../i18n/catalog.js';
import { useI18n } from '../i18n/context.js';
import { chainLabel } from './chain.js';
import { Fields, Warning } from './parts.js';

type Authorization = Extract<SignatureRequest, { kind: 'authorization' }>['authorization'];

/** EIP-7702: chain id 0 makes an authorization valid on every chain. */
const where = (a: Authorization, chains: readonly ChainConfig[], translator: Translator) =>
  a.chainId === 0 ? translator.t('confirm.everyChain') : chainLabel(a.chainId, chains, translator);

/**
 * The warning an EIP-7702 delegation deserves, alone or inside a type-4 transaction: the
 * contract gets the account's full power until another delegation replaces it.
 * @example <AuthorizationWarning authorization={{ chainId: 1, address, nonce: 0n }} chains={chains} />
 */
export function AuthorizationWarning({ authorization, chains }: { authorization: Authorization; chains: readonly ChainConfig[] }) {
  const translator = useI18n();
  const { t } = translator;
  return (
    <Warning title={t('confirm.delegateTitle', { contract: authorization.address, network: where(authorization, chains, translator) })}>
      {authorization.chainId === 0 ? t('confirm.delegateWarningEveryChain') : t('confirm.delegateWarningThisChain')}
    </Warning>
  );
}

/**
 * An EIP-7702 authorization request: the contract, the chain (or every chain), the nonce.
 * @example <AuthorizationDetails authorization={request.authorization} chains={chains} />
 */
export function AuthorizationDetails({ authorization, chains }: { authorization: Authorization; chains: readonly ChainConfig[] }) {
  const translator = useI18n();
  const { t } = translator;
  return (
    <>
      <Fields
        label={t('confirm.delegation')}
        rows={[
          { label: t('confirm.delegateTo'), value: authorization.address, mono: true, testId: 'wk-confirm-delegate' },
          { label: t('confirm.network'), value: where(authorization, chains, translator), testId: 'wk-confirm-network' },
          { label: t('confirm.nonce'), value: authorization.nonce.toString(), mono: true },
        ]}
      />
      <AuthorizationWarning authorization={authorization} chains={chains} />
    </>
  );
}
