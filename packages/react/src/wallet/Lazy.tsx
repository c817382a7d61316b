import { type ReactNode, Suspense } from 'react';
import { ErrorText } from '../auth/ErrorText.js';
import { FailureBoundary } from '../components/FailureBoundary.js';
import { useI18n } from '../i18n/context.js';

/**
 * Around a lazily loaded part of the wallet: "Loading…" while its chunk downloads, a message if it
 * cannot.
 * @example <Lazy><SendForm account={a} /></Lazy>
 */
export function Lazy({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  return (
    <FailureBoundary fallback={<ErrorText error={t('wallet.loadFailed')} />}>
      <Suspense
        fallback={
          <p className="wk-hint" role="status">
            {t('common.loading')}
          </p>
        }
      >
        {children}
      </Suspense>
    </FailureBoundary>
  );
}
