import { lazy, Suspense } from 'react';
import { ErrorText } from '../auth/ErrorText.js';
import { FailureBoundary } from '../components/FailureBoundary.js';
import { useI18n } from '../i18n/context.js';

// The screen (with the phone number library of its phone form) is its own chunk, fetched when shown.
const Screen = lazy(() => import('./SecurityScreen.js').then((m) => ({ default: m.SecurityScreen })));

/**
 * The Security screen for use outside `WalletPanel` (which shows it as its Security tab): the
 * user's sign-in methods, passkeys and sessions, with every action on them. Loaded on demand:
 * "Loading…" the first time, a message if its chunk cannot be fetched.
 * @example {status === 'authenticated' && <SecurityScreen />}
 */
export function SecurityScreen() {
  const { t } = useI18n();
  return (
    <FailureBoundary fallback={<ErrorText error={t('account.loadFailed')} />}>
      <Suspense
        fallback={
          <p className="wk-hint" role="status">
            {t('account.loading')}
          </p>
        }
      >
        <Screen />
      </Suspense>
    </FailureBoundary>
  );
}
