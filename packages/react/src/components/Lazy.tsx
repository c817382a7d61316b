import { type ReactNode, Suspense } from 'react';
import { ErrorText } from '../auth/ErrorText.js';
import type { MessageKey } from '../i18n/catalog.js';
import { FailureBoundary } from './FailureBoundary.js';
import { useI18n } from '../i18n/context.js';

/**
 * Around a lazily loaded part of the kit: "Loading…" (or `loading`) while its chunk downloads, a
 * message (`failed`, by default the wallet's) if it cannot.
 * @example <Lazy><SendForm account={a} /></Lazy>
 */
export function Lazy({
  children,
  loading = 'common.loading',
  failed = 'wallet.loadFailed',
}: {
  children: ReactNode;
  loading?: MessageKey | undefined;
  failed?: MessageKey | undefined;
}) {
  const { t } = useI18n();
  return (
    <FailureBoundary fallback={<ErrorText error={t(failed)} />}>
      <Suspense
        fallback={
          <p className="wk-hint" role="status">
            {t(loading)}
          </p>
        }
      >
        {children}
      </Suspense>
    </FailureBoundary>
  );
}
