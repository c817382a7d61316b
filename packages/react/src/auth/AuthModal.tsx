import { useEffect, useRef, useState } from 'react';
import type { WalletKitConfig } from '../client-contract.js';
import { Modal } from '../components/Modal.js';
import { useI18n } from '../i18n/context.js';
import { useWalletKitContext } from '../provider/context.js';
import { useWalletKitConfig } from '../provider/hooks.js';
import { useKitOptions } from '../provider/options.js';
import { AppBrand, LegalFooter } from './AppBrand.js';
import { ContactForm, loadPhoneForm, type OtpSent } from './ContactForm.js';
import { ErrorText } from './ErrorText.js';
import { SUCCESS_MS } from './flow.js';
import { SuccessIcon } from './icons.js';
import { MethodList } from './MethodList.js';
import { resolveAuthMethods, type AuthMethodOverrides } from './methods.js';
import { OtpStep } from './OtpStep.js';
import { useInjectedWallets } from './useInjectedWallets.js';

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

/** What the modal shows: the methods, one contact form, the code step, or the short success state. */
type View = { name: 'methods' } | { name: 'contact'; kind: 'email' | 'sms' } | { name: 'otp'; sent: OtpSent } | { name: 'done' };

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
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={title ?? t('auth.title')}
      className="wk-auth"
      brand={appName || logoUrl ? <AppBrand name={appName} logoUrl={logoUrl} /> : undefined}
    >
      {config.data ? (
        <AuthSteps config={config.data} onDone={onClose} overrides={{ methods, order }} otpAttempts={otpAttempts} defaultCountry={defaultCountry} />
      ) : config.error ? (
        <ErrorText error={config.error} />
      ) : (
        <p className="wk-hint" role="status">
          {t('common.loading')}
        </p>
      )}
      <LegalFooter legal={options.legal} />
    </Modal>
  );
}

interface AuthStepsProps {
  config: WalletKitConfig;
  onDone: () => void;
  overrides: AuthMethodOverrides;
  otpAttempts: number | undefined;
  defaultCountry: string | undefined;
}

function AuthSteps({ config, onDone, overrides, otpAttempts, defaultCountry }: AuthStepsProps) {
  const { t } = useI18n();
  const { client } = useWalletKitContext();
  const wallets = useInjectedWallets();
  const [view, setView] = useState<View>({ name: 'methods' });
  const toMethods = () => setView({ name: 'methods' });
  const succeed = () => setView({ name: 'done' });
  // A wallet method with no wallet announced takes no slot.
  const list = resolveAuthMethods(config, overrides).filter((m) => m !== 'wallet' || (client.auth.connectWallet && wallets.length > 0));
  const hasPhone = list.includes('sms');

  // The phone form (and its number library) is a chunk of its own: fetch it while the user reads.
  useEffect(() => {
    if (hasPhone) void loadPhoneForm().catch(() => undefined);
  }, [hasPhone]);

  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => {
    if (view.name !== 'done') return undefined;
    const timer = setTimeout(() => done.current(), SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [view.name]);

  switch (view.name) {
    case 'done':
      return (
        <div className="wk-success" role="status">
          <SuccessIcon />
          <p>{t('auth.success')}</p>
        </div>
      );
    case 'otp':
      return <OtpStep sent={view.sent} config={config} attempts={otpAttempts} onDone={succeed} onBack={toMethods} />;
    case 'contact':
      return (
        <div className="wk-stack">
          <ContactForm kind={view.kind} focusOnMount defaultCountry={defaultCountry} onSent={(sent) => setView({ name: 'otp', sent })} />
          <button type="button" className="wk-button" data-variant="ghost" onClick={toMethods}>
            {t('common.back')}
          </button>
        </div>
      );
    default:
      if (list.length === 0) return <p className="wk-hint">{t('auth.noMethods')}</p>;
      return (
        <MethodList
          methods={list}
          wallets={wallets}
          defaultCountry={defaultCountry}
          onSent={(sent) => setView({ name: 'otp', sent })}
          onPick={(kind) => setView({ name: 'contact', kind })}
          onDone={succeed}
        />
      );
  }
}
