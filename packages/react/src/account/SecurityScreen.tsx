import type { UserProfile } from '@walletkit/client';
import { OAUTH_PROVIDER_IDS, oauthProvider } from '@walletkit/protocol/wire';
import { useState } from 'react';
import { ErrorText } from '../auth/ErrorText.js';
import { MailIcon, PhoneIcon, ProviderIcon, WalletIcon } from '../auth/icons.js';
import type { OAuthProviderName, WalletKitConfig } from '../client-contract.js';
import { useI18n } from '../i18n/context.js';
import { useWalletKitContext } from '../provider/context.js';
import { useWalletKitConfig } from '../provider/hooks.js';
import { useKitRoot } from '../theme/theme.js';
import { ContactVerification } from './ContactVerification.js';
import { useLinkOAuth, useRevokeSession, useUnlinkContact, useUnlinkOAuth, useUser } from './hooks.js';
import { PasskeySection, SessionSection } from './PasskeysAndSessions.js';
import { AccountSection, Item } from './parts.js';
import { RemoveButton } from './RemoveButton.js';

/**
 * The wallet's Security screen: the account's sign-in methods (email and phone with whether each
 * is verified, linked social providers, a browser wallet's key) with Add / Change / Verify /
 * Remove, Link / Unlink and their code and popup steps; the passkeys (add, remove); the sessions
 * (this one marked, the others can be logged out). Removals ask first; the last way to sign in
 * is refused with its reason. Loading, success (announced in a status line) and errors
 * (`role="alert"`) for every step. Rendered by `WalletPanel`; usable alone inside the provider.
 * @example {status === 'authenticated' && <SecurityScreen />}
 */
export function SecurityScreen() {
  const { t } = useI18n();
  const { client } = useWalletKitContext();
  // Its own kit root (theme, lang, dir, styles) when used alone; inside the panel, one more of the same.
  const root = useKitRoot('wk-stack wk-security');
  const user = useUser();
  const config = useWalletKitConfig().data;
  // Each success a new node in the status line, so the same words said twice are read out twice.
  const [notice, setNotice] = useState({ text: '', n: 0 });
  const say = (text: string) => setNotice((previous) => ({ text, n: previous.n + 1 }));
  if (!client.account) return <p {...root}>{t('account.unavailable')}</p>;
  return (
    <div {...root}>
      {/* Always present, so each success is read out when its text arrives. */}
      <p className="wk-hint wk-account-notice" role="status">
        {notice.text && <span key={notice.n}>{notice.text}</span>}
      </p>
      {user.data ? (
        <>
          <MethodsSection profile={user.data} config={config} onNotice={say} />
          <PasskeySection profile={user.data} onNotice={say} />
          <SessionSection profile={user.data} onNotice={say} />
        </>
      ) : user.isError ? (
        <div className="wk-stack">
          <ErrorText error={user.error} />
          <div className="wk-row">
            <button type="button" className="wk-button" onClick={() => user.refetch()}>
              {t('common.retry')}
            </button>
          </div>
        </div>
      ) : (
        <p className="wk-hint" role="status">
          {t('account.loading')}
        </p>
      )}
    </div>
  );
}

interface SectionProps {
  profile: UserProfile;
  onNotice: (notice: string) => void;
}

/** The social providers the app offers for linking: enabled and with a client id. */
function linkable(config: WalletKitConfig | undefined): OAuthProviderName[] {
  if (!config) return [];
  return OAUTH_PROVIDER_IDS.filter((p) => config.enabledProviders.includes(p) && config.oauthClientIds[p]);
}

function MethodsSection({ profile, config, onNotice }: SectionProps & { config: WalletKitConfig | undefined }) {
  const { t } = useI18n();
  const enabled = config?.enabledProviders ?? [];
  const walletKeys = profile.apiKeys.filter((k) => k.expiresAt === undefined && k.curve !== 'p256');
  const offered = linkable(config);
  return (
    <AccountSection title={t('account.signInMethods')} hint={t('account.signInMethodsHint')}>
      <ul className="wk-list wk-account-list">
        {(profile.email || enabled.includes('email')) && <ContactItem kind="email" profile={profile} onNotice={onNotice} />}
        {(profile.phone || enabled.includes('sms')) && <ContactItem kind="phone" profile={profile} onNotice={onNotice} />}
        {profile.oauthProviders.map((p) => (
          <LinkedProviderItem key={p.providerId} providerId={p.providerId} name={p.providerName} profile={profile} onNotice={onNotice} />
        ))}
        {offered
          .filter((p) => !profile.oauthProviders.some((linked) => linked.providerName === p))
          .map((p) => (
            <LinkProviderItem key={p} provider={p} onNotice={onNotice} />
          ))}
        {walletKeys.map((k) => (
          <WalletKeyItem key={k.apiKeyId} apiKeyId={k.apiKeyId} name={k.name} profile={profile} onNotice={onNotice} />
        ))}
      </ul>
    </AccountSection>
  );
}

/** The words of the email and phone rows. */
const CONTACT_WORDS = {
  email: {
    title: 'account.email',
    add: 'account.addEmail',
    change: 'account.changeEmail',
    verify: 'account.verifyEmail',
    remove: 'account.removeEmail',
    saved: 'account.emailSaved',
  },
  phone: {
    title: 'account.phone',
    add: 'account.addPhone',
    change: 'account.changePhone',
    verify: 'account.verifyPhone',
    remove: 'account.removePhone',
    saved: 'account.phoneSaved',
  },
} as const;

function ContactItem({ kind, profile, onNotice }: SectionProps & { kind: 'email' | 'phone' }) {
  const { t } = useI18n();
  const unlink = useUnlinkContact();
  const [editing, setEditing] = useState<'new' | 'verify'>();
  const contact = kind === 'email' ? profile.email : profile.phone;
  const K = CONTACT_WORDS[kind];
  return (
    <Item
      icon={kind === 'email' ? <MailIcon /> : <PhoneIcon />}
      title={t(K.title)}
      details={
        contact ? (
          <p className="wk-hint">
            <span className="wk-mono" dir="ltr">
              {contact.value}
            </span>{' '}
            · <span data-verified={contact.verified}>{contact.verified ? t('account.verified') : t('account.notVerified')}</span>
          </p>
        ) : (
          <p className="wk-hint">{t('account.notAdded')}</p>
        )
      }
    >
      {editing ? (
        <ContactVerification
          kind={kind}
          contact={editing === 'verify' ? contact?.value : undefined}
          onDone={() => {
            setEditing(undefined);
            onNotice(t(K.saved));
          }}
          onCancel={() => setEditing(undefined)}
        />
      ) : (
        <div className="wk-row wk-account-actions">
          {contact && !contact.verified && (
            <button type="button" className="wk-button" onClick={() => setEditing('verify')}>
              {t(K.verify)}
            </button>
          )}
          <button type="button" className="wk-button" onClick={() => setEditing('new')}>
            {contact ? t(K.change) : t(K.add)}
          </button>
          {contact && (
            <RemoveButton
              label={t(K.remove)}
              method={contact.value}
              removal={{ kind }}
              profile={profile}
              remove={() => unlink.mutateAsync(kind)}
              onRemoved={onNotice}
            />
          )}
        </div>
      )}
    </Item>
  );
}

function LinkedProviderItem({ providerId, name, profile, onNotice }: SectionProps & { providerId: string; name: string }) {
  const { t } = useI18n();
  const unlink = useUnlinkOAuth();
  const known = (OAUTH_PROVIDER_IDS as readonly string[]).includes(name) ? (name as OAuthProviderName) : undefined;
  const label = known ? oauthProvider(known).name : name;
  return (
    <Item icon={known && <ProviderIcon provider={known} />} title={label} details={<p className="wk-hint">{t('account.linked')}</p>}>
      <div className="wk-row wk-account-actions">
        <RemoveButton
          label={t('account.unlink', { provider: label })}
          method={label}
          removal={{ kind: 'oauth', providerId }}
          profile={profile}
          confirmLabel={t('account.unlink', { provider: label })}
          remove={() => unlink.mutateAsync(providerId)}
          onRemoved={onNotice}
        />
      </div>
    </Item>
  );
}

function LinkProviderItem({ provider, onNotice }: { provider: OAuthProviderName; onNotice: (notice: string) => void }) {
  const { t } = useI18n();
  const link = useLinkOAuth();
  const name = oauthProvider(provider).name;
  return (
    <Item icon={<ProviderIcon provider={provider} />} title={name} details={<p className="wk-hint">{t('account.notAdded')}</p>}>
      <div className="wk-row wk-account-actions">
        <button
          type="button"
          className="wk-button"
          disabled={link.isPending}
          // The popup opens now, inside the click.
          onClick={() => link.link(provider, { onSuccess: () => onNotice(t('account.providerLinked', { provider: name })) })}
        >
          {t('account.link', { provider: name })}
        </button>
      </div>
      {link.isPending && (
        <p className="wk-hint" role="status">
          {t('account.waitingFor', { provider: name })}
        </p>
      )}
      <ErrorText error={link.error} overrides={{ ERR_ALREADY_EXISTS: t('account.providerTaken', { provider: name }) }} />
    </Item>
  );
}

function WalletKeyItem({ apiKeyId, name, profile, onNotice }: SectionProps & { apiKeyId: string; name: string }) {
  const { t } = useI18n();
  const remove = useRevokeSession();
  const title = t('account.walletKey');
  return (
    <Item icon={<WalletIcon />} title={title} details={<p className="wk-hint">{name}</p>}>
      <div className="wk-row wk-account-actions">
        <RemoveButton
          label={`${t('common.remove')} · ${title}`}
          method={title}
          removal={{ kind: 'apiKey', apiKeyId }}
          profile={profile}
          remove={() => remove.mutateAsync(apiKeyId)}
          onRemoved={onNotice}
        />
      </div>
    </Item>
  );
}
