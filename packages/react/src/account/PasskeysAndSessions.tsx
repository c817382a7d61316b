import type { UserProfile } from '@walletkit/client';
import { type FormEvent, useId, useState } from 'react';
import { ErrorText } from '../auth/ErrorText.js';
import { PasskeyIcon } from '../auth/icons.js';
import { useI18n } from '../i18n/context.js';
import { useAddPasskey, useRemovePasskey, useRevokeSession } from './hooks.js';
import { RemoveButton } from './RemoveButton.js';
import { AccountSection, Item } from './parts.js';

interface SectionProps {
  profile: UserProfile;
  onNotice: (notice: string) => void;
}

/** The passkeys: each with the day it was added and Remove; a name and "Add a passkey" (the browser's prompt). */
export function PasskeySection({ profile, onNotice }: SectionProps) {
  const { t, date } = useI18n();
  const id = useId();
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const [name, setName] = useState(() => t('account.passkeyDefaultName'));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate(name.trim() || t('account.passkeyDefaultName'), { onSuccess: () => onNotice(t('account.passkeyAdded')) });
  };
  return (
    <AccountSection title={t('account.passkeys')} hint={t('account.passkeysHint')}>
      {profile.passkeys.length === 0 ? (
        <p className="wk-hint">{t('account.noPasskeys')}</p>
      ) : (
        <ul className="wk-list wk-account-list">
          {profile.passkeys.map((p) => (
            <Item
              key={p.authenticatorId}
              icon={<PasskeyIcon />}
              title={p.name}
              details={<p className="wk-hint">{t('account.addedOn', { date: date(Date.parse(p.createdAt), { dateStyle: 'medium' }) })}</p>}
            >
              <div className="wk-row wk-account-actions">
                <RemoveButton
                  label={t('account.removePasskey', { name: p.name })}
                  method={p.name}
                  removal={{ kind: 'passkey', authenticatorId: p.authenticatorId }}
                  profile={profile}
                  remove={() => remove.mutateAsync(p.authenticatorId)}
                  onRemoved={onNotice}
                />
              </div>
            </Item>
          ))}
        </ul>
      )}
      <form className="wk-row wk-account-add" onSubmit={submit}>
        <label className="wk-visually-hidden" htmlFor={`${id}-name`}>
          {t('account.passkeyName')}
        </label>
        <input
          id={`${id}-name`}
          className="wk-input"
          value={name}
          maxLength={64}
          autoComplete="off"
          placeholder={t('account.passkeyName')}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        <button type="submit" className="wk-button" data-variant="primary" disabled={add.isPending}>
          <PasskeyIcon />
          {add.isPending ? t('account.addingPasskey') : t('account.addPasskey')}
        </button>
      </form>
      <ErrorText error={add.error} />
    </AccountSection>
  );
}

/** The sessions: this one first (marked), the others each with "Log out" after a confirmation. */
export function SessionSection({ profile, onNotice }: SectionProps) {
  const { t, date } = useI18n();
  const revoke = useRevokeSession();
  const when = (ms: number) => date(ms, { dateStyle: 'medium', timeStyle: 'short' });
  const others = profile.sessions.filter((s) => !s.current);
  return (
    <AccountSection title={t('account.sessions')} hint={t('account.sessionsHint')}>
      <ul className="wk-list wk-account-list">
        {profile.sessions.map((s) => {
          const started = when(Date.parse(s.createdAt));
          return (
            <Item
              key={s.apiKeyId}
              title={s.current ? t('account.thisDevice') : t('account.otherDevice')}
              details={
                <p className="wk-hint">
                  {t('account.sessionStarted', { date: started })}
                  {s.expiresAt !== undefined && ` · ${t('account.sessionEnds', { date: when(s.expiresAt) })}`}
                </p>
              }
            >
              {!s.current && (
                <div className="wk-row wk-account-actions">
                  <RemoveButton
                    label={t('account.revoke')}
                    ariaLabel={t('account.revokeLabel', { date: started })}
                    method={t('account.otherDevice')}
                    profile={profile}
                    question={{ title: t('account.confirmRevoke'), body: t('account.confirmRevokeBody') }}
                    confirmLabel={t('account.revoke')}
                    remove={() => revoke.mutateAsync(s.apiKeyId)}
                    onRemoved={() => onNotice(t('account.revoked'))}
                  />
                </div>
              )}
            </Item>
          );
        })}
      </ul>
      {others.length === 0 && <p className="wk-hint">{t('account.noOtherSessions')}</p>}
    </AccountSection>
  );
}
