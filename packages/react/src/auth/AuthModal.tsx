import { lazy, Suspense, useEffect } from 'react';
import { FailureBoundary } from '../components/FailureBoundary.js';
import { Modal } from '../components/Modal.js';
import { useI18n } from '../i18n/context.js';
import { useWalletKitConfig } from '../provider/hooks.js';
import { useKitOptions } from '../provider/options.js';
import { AppBrand, LegalFooter } from './AppBrand.js';
import { ErrorText } from './ErrorText.js';
import type { AuthMethodOverrides } from './methods.js';

/** The modal's content: the methods, forms and code step, a chunk of its own (the shell, brand and footer stay in the first one). */
const loadAuthSteps = () => import('./AuthSteps.js');
const AuthSteps = lazy(() => loadAuthSteps().then((m) => ({ default: m.AuthSteps })));

/** Props of {@link AuthModal}. */
export interface AuthModalProps extends AuthMethodOverrides {
  open: boolean;
  onClose: () => void;
  /** Heading; default "Log in or sign up" in the kit's language. */
  title?: string | undefined;
  /**
   * Wrong codes the server accepts per one-time code (its `otp.maxAttempts`); default 3, the
   * server's default. The code step counts down "2 tries left" from it.
   */
  otpAttempts?: number | undefined;
  /**
   * The phone form's first country (ISO 3166 alpha-2, `DE`); default the region of the browser's
   * language when it is the kit's language, else the kit language's likely region.
   */
  defaultCountry?: string | undefined;
}

/**
 * The login and sign-up modal: the app's logo and name (`appName` / `logoUrl` of the provider,
 * else `wallet_kit_config`'s), one primary path (the email field, or the first method enabled),
 * an "or", then the other methods: phone, passkey, the social providers with their marks, the
 * browser wallets announced through EIP-6963. It shows only what `wallet_kit_config` enables
 * (fetched once through TanStack Query), in the order email, phone, passkey, Google, Apple, X,
 * Discord, external wallet. Local overrides:
 * - `methods`: show only these (a subset of the enabled ones: the server refuses the others);
 * - `order`: put these first, in this order; the rest follow in the default order.
 * Email and phone lead to the one-time-code step (length and charset from the config); the
 * terms and privacy links of the provider's `legal` show at the foot. After a login it shows
 * "You are logged in." for a moment and closes. Inside a `<WalletKitProvider>`, which already
 * renders one for `useWalletKit().login()`. Every text comes from the catalog (`auth.*`).
 * @example
 * <AuthModal open={open} onClose={() => setOpen(false)} methods={['email', 'passkey']} order={['passkey']} />
 */
export function AuthModal({ open, onClose, title, methods, order, otpAttempts, defaultCountry }: AuthModalProps) {
  const { t } = useI18n();
  const config = useWalletKitConfig();
  const options = useKitOptions();
  const appName = options.appName ?? config.data?.appName;
  const logoUrl = options.logoUrl ?? config.data?.logoUrl;
  // Fetch the content while the page settles (the provider renders this modal closed at start).
  useEffect(() => {
    void loadAuthSteps().catch(() => undefined);
  }, []);
  const loading = (
    <p className="wk-hint" role="status">
      {t('common.loading')}
    </p>
  );
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={title ?? t('auth.title')}
      className="wk-auth"
      brand={appName || logoUrl ? <AppBrand name={appName} logoUrl={logoUrl} /> : undefined}
    >
      {config.data ? (
        <FailureBoundary fallback={<ErrorText error={t('auth.loadFailed')} />}>
          <Suspense fallback={loading}>
            <AuthSteps config={config.data} onDone={onClose} overrides={{ methods, order }} otpAttempts={otpAttempts} defaultCountry={defaultCountry} />
          </Suspense>
        </FailureBoundary>
      ) : config.error ? (
        <ErrorText error={config.error} />
      ) : (
        loading
      )}
      <LegalFooter legal={options.legal} />
    </Modal>
  );
}
