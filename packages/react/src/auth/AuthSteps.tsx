import { useEffect, useRef, useState } from 'react';
import type { WalletKitConfig } from '../client-contract.js';
import { useI18n } from '../i18n/context.js';
import { useWalletKitContext } from '../provider/context.js';
import { ContactForm, loadPhoneForm, type OtpSent } from './ContactForm.js';
import { SUCCESS_MS } from './flow.js';
import { SuccessIcon } from './icons.js';
import { MethodList } from './MethodList.js';
import { resolveAuthMethods, type AuthMethodOverrides } from './methods.js';
import { OtpStep } from './OtpStep.js';
import { useInjectedWallets } from './useInjectedWallets.js';

/** What the modal shows: the methods, one contact form, the code step, or the short success state. */
type View = { name: 'methods' } | { name: 'contact'; kind: 'email' | 'sms' } | { name: 'otp'; sent: OtpSent } | { name: 'done' };

/** Props of {@link AuthSteps}. */
export interface AuthStepsProps {
  config: WalletKitConfig;
  onDone: () => void;
  overrides: AuthMethodOverrides;
  otpAttempts: number | undefined;
  defaultCountry: string | undefined;
}

/**
 * The auth modal's content (a chunk of its own, fetched when the provider first renders): the
 * methods, a contact form, the code step, then the success state for {@link SUCCESS_MS} before
 * `onDone`.
 * @example <AuthSteps config={config} onDone={close} overrides={{}} otpAttempts={undefined} defaultCountry={undefined} />
 */
export function AuthSteps({ config, onDone, overrides, otpAttempts, defaultCountry }: AuthStepsProps) {
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
