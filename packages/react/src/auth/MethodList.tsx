import type { DiscoveredWallet } from '@walletkit/client';
import { OAUTH_PROVIDER_IDS } from '@walletkit/protocol/wire';
import type { OAuthProviderName } from '../client-contract.js';
import { useI18n } from '../i18n/context.js';
import { ContactForm, type OtpSent } from './ContactForm.js';
import { useLoginRunning } from './flow.js';
import { MailIcon, PhoneIcon } from './icons.js';
import { ExternalWalletButtons, PasskeyButtons, SocialButtons } from './MethodButtons.js';
import type { AuthMethod } from './methods.js';

/** Props of {@link MethodList}. */
export interface MethodListProps {
  /** The methods to show, in order (resolved, the wallet one only with wallets announced). */
  methods: readonly AuthMethod[];
  wallets: readonly DiscoveredWallet[];
  defaultCountry?: string | undefined;
  /** A code was sent by the leading email or phone form. */
  onSent: (sent: OtpSent) => void;
  /** Email or phone, not leading, was chosen: its form takes the modal. */
  onPick: (kind: 'email' | 'sms') => void;
  /** A login finished. */
  onDone: () => void;
}

/** Social providers next to each other form one group (a row of marks when more than two). */
type Entry = { kind: 'method'; method: Exclude<AuthMethod, OAuthProviderName> } | { kind: 'social'; providers: OAuthProviderName[] };

const isSocial = (m: AuthMethod): m is OAuthProviderName => (OAUTH_PROVIDER_IDS as readonly string[]).includes(m);

function entries(methods: readonly AuthMethod[]): Entry[] {
  const out: Entry[] = [];
  for (const m of methods) {
    const last = out.at(-1);
    if (!isSocial(m)) out.push({ kind: 'method', method: m as Exclude<AuthMethod, OAuthProviderName> });
    else if (last?.kind === 'social') last.providers.push(m);
    else out.push({ kind: 'social', providers: [m] });
  }
  return out;
}

/**
 * The methods view: the first method leads in its full form (the email field and "Continue",
 * or the phone form, or a primary button), then "or", then the others in order, compact: email
 * and phone as buttons that open their form, "Log in with a passkey" with "Create a passkey
 * account" under it, social providers with their marks (a row of labelled mark buttons when
 * more than two are next to each other, full-width buttons otherwise), browser wallets by
 * their announced name and icon.
 * @example <MethodList methods={['email', 'google']} wallets={[]} onSent={toCode} onPick={toForm} onDone={close} />
 */
export function MethodList({ methods, wallets, defaultCountry, onSent, onPick, onDone }: MethodListProps) {
  const { t } = useI18n();
  const running = useLoginRunning();
  const [leader, ...rest] = methods;
  if (leader === undefined) return null;
  const entry = (e: Entry, lead: boolean) => {
    if (e.kind === 'social') return <SocialButtons key={e.providers.join()} providers={e.providers} lead={lead} onDone={onDone} />;
    switch (e.method) {
      case 'email':
      case 'sms':
        if (lead) return <ContactForm key={e.method} kind={e.method} defaultCountry={defaultCountry} onSent={onSent} />;
        return (
          <button key={e.method} type="button" className="wk-button" disabled={running} onClick={() => onPick(e.method as 'email' | 'sms')}>
            {e.method === 'email' ? <MailIcon /> : <PhoneIcon />}
            {e.method === 'email' ? t('auth.continueWithEmail') : t('auth.continueWithPhone')}
          </button>
        );
      case 'passkey':
        return <PasskeyButtons key="passkey" lead={lead} onDone={onDone} />;
      default:
        return <ExternalWalletButtons key="wallet" wallets={wallets} lead={lead} onDone={onDone} />;
    }
  };
  const [first, ...others] = entries([leader]).concat(entries(rest));
  return (
    <div className="wk-stack" data-testid="wk-auth-methods">
      {first && entry(first, true)}
      {others.length > 0 && (
        <div className="wk-or">
          <span>{t('common.or')}</span>
        </div>
      )}
      {others.map((e) => entry(e, false))}
    </div>
  );
}
